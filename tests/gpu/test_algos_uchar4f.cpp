// [gpu] optimised families against the reference: uchar4 -> float4 (see algo_matrix.hpp), the
// signed responses (Sobel, Laplacian) of colour images, as the filter program and the
// sobel_rgba example take them.
#include "algo_matrix.hpp"

TEST_CASE("every family matches the reference: uchar4 -> float4", "[gpu][algos]") {
  gpu_test::family_matrix<hipstencil::uchar4, hipstencil::float4>(false);
}
