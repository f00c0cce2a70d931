// [gpu] optimised families against the reference: std::uint8_t -> std::uint8_t (see algo_matrix.hpp).
#include "algo_matrix.hpp"

TEST_CASE("every family matches the reference: std::uint8_t -> std::uint8_t", "[gpu][algos]") {
  gpu_test::family_matrix<std::uint8_t, std::uint8_t>(true);
}

TEST_CASE("sanitizer subset: every family and border rule, small: std::uint8_t", "[gpu][sanitize]") {
  gpu_test::family_matrix_small<std::uint8_t, std::uint8_t>();
}
