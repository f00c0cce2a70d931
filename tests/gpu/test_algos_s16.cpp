// [gpu] optimised families against the reference: std::int16_t -> std::int16_t (see algo_matrix.hpp).
// The harness draws inputs over -32768..32767, so negative pixels pass every family's conversions.
#include "algo_matrix.hpp"

TEST_CASE("every family matches the reference: std::int16_t -> std::int16_t", "[gpu][algos]") {
  gpu_test::family_matrix<std::int16_t, std::int16_t>(false);
}
