// [gpu] optimised families against the reference: std::uint16_t -> std::uint16_t (see algo_matrix.hpp).
#include "algo_matrix.hpp"

TEST_CASE("every family matches the reference: std::uint16_t -> std::uint16_t", "[gpu][algos]") {
  gpu_test::family_matrix<std::uint16_t, std::uint16_t>(false);
}
