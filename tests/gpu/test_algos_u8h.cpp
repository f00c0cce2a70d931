// [gpu] optimised families against the reference: std::uint8_t -> half, 8-bit images
// filtered into half outputs (see algo_matrix.hpp).
#include "algo_matrix.hpp"

TEST_CASE("every family matches the reference: std::uint8_t -> half", "[gpu][algos]") {
  gpu_test::family_matrix<std::uint8_t, hipstencil::half>(false);
}
