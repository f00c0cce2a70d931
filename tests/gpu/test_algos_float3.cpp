// [gpu] optimised families against the reference: float3 -> float3, interleaved RGB (see algo_matrix.hpp).
// streaming's vectors do not hold 3-channel pixels: its cases must run its fallback.
#include "algo_matrix.hpp"

TEST_CASE("every family matches the reference: float3 -> float3", "[gpu][algos]") {
  gpu_test::family_matrix<hipstencil::float3, hipstencil::float3>(false);
}
