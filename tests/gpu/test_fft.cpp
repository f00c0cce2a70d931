// [gpu] algo::fft (detail/kernels/fft.hpp) beyond what the family matrix gives it: wide
// filters (31x31 to 201x5, off-centre anchors, larger than the image), images of one to
// several tiles in each direction, every border rule and halo mode, ROIs at every edge and
// corner, outputs poisoned; integer kernels left to shared_mem; and automatic's choice of
// it (tuning::automatic_table) on both sides of its threshold.
#include "algo_matrix.hpp"

#include <cstring>
#include <string>
#include <vector>

using namespace gpu_test;

namespace {

/// Runs algo::fft with `f` on one placement against the reference; checks through
/// resolved_algorithm which family ran (`family`).
template <class In, class Out, class Algo = algo::fft<>>
long long run_fft_case(const filter2d& f, border::any b, int w, int h, int placement, halo hm, const char* family,
                       Algo algo = {}) {
  return run_placed<In, Out>(f, b, w, h, placement, hm, algo,
                             [&](const resolution& res) { CHECK(std::string(res.family) == family); });
}

template <class In, class Out>
void fft_matrix() {
  // (w, h): one tile, a filter larger than the image, several tiles a side (the 31x31
  // filter's tiles hold 226 x 226 outputs at transform size 256).
  placed_matrix<In, Out>({random_filter(31, 31), random_filter(63, 63, 5, 60), random_filter(9, 41),
                          random_filter(127, 127), random_filter(201, 5, 200, 0)},
                         matrix_borders(), {{1, 1}, {7, 5}, {97, 61}, {257, 131}, {600, 470}}, algo::fft<>{}, "fft");
}

}  // namespace

TEST_CASE("fft: wide filters, one to several tiles, every border and ROI: float", "[gpu][fft]") {
  fft_matrix<float, float>();
}
TEST_CASE("fft: wide filters, one to several tiles, every border and ROI: uint8", "[gpu][fft]") {
  fft_matrix<std::uint8_t, std::uint8_t>();
}
TEST_CASE("fft: wide filters, one to several tiles, every border and ROI: uchar4 -> float4", "[gpu][fft]") {
  fft_matrix<uchar4, float4>();
}
TEST_CASE("fft: wide filters, one to several tiles, every border and ROI: uint16", "[gpu][fft]") {
  fft_matrix<std::uint16_t, std::uint16_t>();
}

TEST_CASE("fft: integer kernels over a power of two run shared_mem, exactly", "[gpu][fft]") {
  // A 15x15 box of ones over 256: the direct sums are exact for u8 (integer_kernel_exact);
  // the FFT's would round differently, so the family declines it.
  const filter2d box = filters::integer_kernel(15, 15, std::vector<int>(225, 1), 256);
  REQUIRE(filters::integer_kernel_exact(std::vector<int>(225, 1), 256, 255));
  run_fft_case<std::uint8_t, std::uint8_t>(box, border::reflect101{}, 97, 61, 3, halo::isolated, "shared_mem");
}

TEST_CASE("fft: filters beyond half the largest transform run shared_mem's fallback", "[gpu][fft]") {
  // 513 taps need a transform of 2048, past fft_policy<>'s max_size of 1024; shared_mem's
  // tile of them is past its shared memory too: naive runs it.
  const filter2d wide = random_filter(513, 1);
  run_fft_case<float, float>(wide, border::replicate{}, 40, 3, 0, halo::isolated, "naive");
}

TEST_CASE("fft: automatic runs it for dense filters from radius 9 beyond 1.4e8 tap-pixels", "[gpu][fft]") {
  // 600 x 470 = 282000 pixels: 19 x 19 is 1.0e8 tap-pixels (shared_mem), 25 x 25 1.8e8.
  // (16-bit: one-channel 8-bit and float filters up to 25 x 25 go to tensor_core first.)
  run_fft_case<std::uint16_t, std::uint16_t>(random_filter(19, 19), border::reflect101{}, 600, 470, 0,
                                             halo::isolated, "shared_mem", algo::automatic{});
  run_fft_case<std::uint16_t, std::uint16_t>(random_filter(25, 25), border::reflect101{}, 600, 470, 4,
                                             halo::from_parent, "fft", algo::automatic{});
  run_fft_case<float, float>(random_filter(25, 25), border::reflect101{}, 600, 470, 2, halo::isolated,
                             tensor_cores_here() ? "tensor_core" : "fft", algo::automatic{});
  run_fft_case<uchar4, uchar4>(random_filter(25, 25), border::constant{7.0f}, 600, 470, 7, halo::isolated, "fft",
                               algo::automatic{});
  // A Laplacian of Gaussian of 31 x 31 there: the FFT rather than its two separable terms.
  run_placed<float, float>(filters::laplacian_of_gaussian(5.0, 15), border::replicate{}, 600, 470, 0, halo::isolated,
                           algo::automatic{}, [&](const resolution& res) {
                             CHECK(std::string(res.family) == "fft");
                             CHECK(res.rank == 0);
                           });
}

TEST_CASE("fft: infinities and NaNs stay in the windows that hold them", "[gpu][fft]") {
  // The transform spreads a tile's NaN over all of its outputs; the tiles that hold one
  // are summed window by window instead. Positive taps, so that each infinite output has
  // one sign; 31x31 (tiles of 226 x 226 outputs at transform size 256: one holds the image).
  std::vector<float> taps(31 * 31);
  for (std::size_t i = 0; i < taps.size(); ++i) taps[i] = float(1 + i % 7) / float(4 * taps.size());
  const filter2d f(31, 31, taps);
  nonfinite_case<float>(f, border::reflect101{}, algo::fft<>{}, "fft");
  nonfinite_case<half>(f, border::replicate{}, algo::fft<>{}, "fft");
}
