// [gpu] optimised families against the reference: uchar4 -> uchar4 (see algo_matrix.hpp).
#include "algo_matrix.hpp"

TEST_CASE("shared_mem and two_pass match the reference: uchar4 -> uchar4", "[gpu][algos]") {
  gpu_test::family_matrix<hipstencil::uchar4, hipstencil::uchar4>(true);
}
