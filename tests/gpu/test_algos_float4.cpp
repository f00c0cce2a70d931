// [gpu] optimised families against the reference: float4 -> float4 (see algo_matrix.hpp).
#include "algo_matrix.hpp"

TEST_CASE("every family matches the reference: float4 -> float4", "[gpu][algos]") {
  gpu_test::family_matrix<hipstencil::float4, hipstencil::float4>(false);
}

TEST_CASE("sanitizer subset: every family and border rule, small: float4", "[gpu][sanitize]") {
  gpu_test::family_matrix_small<hipstencil::float4, hipstencil::float4>();
}
