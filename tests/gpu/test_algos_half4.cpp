// [gpu] optimised families against the reference: half4 -> half4 and bfloat16x4 ->
// bfloat16x4, four 16-bit float channels (see algo_matrix.hpp).
#include "algo_matrix.hpp"

TEST_CASE("every family matches the reference: half4 -> half4", "[gpu][algos]") {
  gpu_test::family_matrix<hipstencil::half4, hipstencil::half4>(false);
}

TEST_CASE("every family matches the reference: bfloat16x4 -> bfloat16x4", "[gpu][algos]") {
  gpu_test::family_matrix<hipstencil::bfloat16x4, hipstencil::bfloat16x4>(false);
}
