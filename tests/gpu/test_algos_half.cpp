// [gpu] optimised families against the reference: half -> half (see algo_matrix.hpp).
#include "algo_matrix.hpp"

TEST_CASE("every family matches the reference: half -> half", "[gpu][algos]") {
  gpu_test::family_matrix<hipstencil::half, hipstencil::half>(false);
}
