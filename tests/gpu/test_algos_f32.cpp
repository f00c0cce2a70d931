// [gpu] optimised families against the reference: float -> float (see algo_matrix.hpp).
#include "algo_matrix.hpp"

TEST_CASE("shared_mem and two_pass match the reference: float -> float", "[gpu][algos]") {
  gpu_test::family_matrix<float, float>(true);
}
