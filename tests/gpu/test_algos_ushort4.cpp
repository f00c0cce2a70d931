// [gpu] optimised families against the reference: ushort4 -> ushort4, 16-bit RGBA (see
// algo_matrix.hpp).
#include "algo_matrix.hpp"

TEST_CASE("every family matches the reference: ushort4 -> ushort4", "[gpu][algos]") {
  gpu_test::family_matrix<hipstencil::ushort4, hipstencil::ushort4>(false);
}
