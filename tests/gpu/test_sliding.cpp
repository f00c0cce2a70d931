// [gpu] algo::sliding (detail/kernels/sliding.hpp) beyond what the family matrix gives it:
// separable filters from 1 to 101 taps a side, square and not, centred and off-centre
// (so the register windows slide through one to thirteen blocks of taps, ending anywhere
// in a block), filters larger than the image, images of one to several tiles a side with
// partial tiles at both edges (tiles are 128 columns wide for one channel, 64 for more,
// and as tall as the filter's width leaves room for), every border rule and halo mode, ROIs
// at every edge and corner, outputs poisoned; one-, three- and four-channel pixels of 1, 2
// and 4 bytes; batches; and infinities and NaNs, which must stay in the windows that hold
// them. Every case checks through resolved_algorithm that sliding itself ran.
#include "algo_matrix.hpp"

#include <vector>

using namespace gpu_test;

namespace {

template <class In, class Out>
void sliding_matrix() {
  const std::vector<separable_filter> filters = {
      random_separable(1, 1),         random_separable(3, 3),         random_separable(9, 1),
      random_separable(15, 15),       random_separable(31, 31),       random_separable(5, 41, 0, 40),
      random_separable(63, 7, 62, 3), random_separable(17, 33, 2, 30), random_separable(101, 101)};
  // One pixel; smaller than most filters; a prime 97 x 61; 130 x 131 (two tiles across for
  // one channel, three for four, the last ones narrow); 300 x 257 (several tile rows).
  placed_matrix<In, Out>(filters, matrix_borders(), {{1, 1}, {7, 5}, {97, 61}, {130, 131}, {300, 257}},
                         algo::sliding<>{}, "sliding");
}

}  // namespace

TEST_CASE("sliding: separable filters 1 to 101 taps, every border and ROI: uint8, uint8 -> float", "[gpu][sliding]") {
  sliding_matrix<std::uint8_t, std::uint8_t>();
  sliding_matrix<std::uint8_t, float>();
}

TEST_CASE("sliding: separable filters 1 to 101 taps, every border and ROI: float, uint16, half", "[gpu][sliding]") {
  sliding_matrix<float, float>();
  sliding_matrix<std::uint16_t, std::uint16_t>();
  sliding_matrix<half, half>();
}

TEST_CASE("sliding: separable filters 1 to 101 taps, every border and ROI: uchar4, uchar4 -> float4, float4",
          "[gpu][sliding]") {
  sliding_matrix<uchar4, uchar4>();
  sliding_matrix<uchar4, float4>();
  sliding_matrix<float4, float4>();
}

TEST_CASE("sliding: separable filters 1 to 101 taps, every border and ROI: float3, ushort4", "[gpu][sliding]") {
  sliding_matrix<float3, float3>();
  sliding_matrix<ushort4, ushort4>();
}

TEST_CASE("sliding: infinities and NaNs stay in the windows that hold them", "[gpu][sliding][sanitize]") {
  // 150 x 140: two tiles across, three down at 31 taps; the windows' tap blocks end past
  // the filter's last tap (31 = 3 x 8 + 7; 17 = 4 x 4 + 1 for four channels).
  nonfinite_case<float>(random_separable(31, 31), border::replicate{}, algo::sliding<>{}, "sliding");
  nonfinite_case<float>(random_separable(17, 5, 3, 1), border::constant{0.5f}, algo::sliding<>{}, "sliding");
  nonfinite_case<float>(random_separable(17, 17), border::reflect101{}, algo::sliding<>{}, "sliding");
}
