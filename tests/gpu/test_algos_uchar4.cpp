// [gpu] optimised families against the reference: uchar4 -> uchar4 (see algo_matrix.hpp).
#include "algo_matrix.hpp"

TEST_CASE("every family matches the reference: uchar4 -> uchar4", "[gpu][algos]") {
  gpu_test::family_matrix<hipstencil::uchar4, hipstencil::uchar4>(true);
}
