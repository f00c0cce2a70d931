// [gpu] optimised families against the reference: bfloat16 -> bfloat16 (see algo_matrix.hpp).
#include "algo_matrix.hpp"

TEST_CASE("every family matches the reference: bfloat16 -> bfloat16", "[gpu][algos]") {
  gpu_test::family_matrix<hipstencil::bfloat16, hipstencil::bfloat16>(false);
}
