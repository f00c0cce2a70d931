// [gpu] algo::automatic on a dense filter2d whose coefficients are a column times a row
// (detail/factor.hpp): it runs the separable form where the table says so, and the pixels
// match the reference of the dense filter itself. Gaussians, boxes and random outer
// products at radius 2 to 12, every border rule, ROIs at every edge and corner, awkward
// sizes (1x1, primes, a filter larger than the image), outputs poisoned; a full-rank filter
// of the same size stays dense; each size threshold of the table from both sides. Then the
// same for filters that are sums of two to four separable terms (Laplacians of Gaussian,
// differences of Gaussians with off-centre anchors, random sums), which automatic runs as
// those terms in one shared_mem kernel (kernels/low_rank.hpp).
#include "algo_matrix.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

using namespace gpu_test;

namespace {

/// The rank-one filters of one radius: a Gaussian, a box and a random outer product with
/// negative taps, all as filter2d.
std::vector<filter2d> rank_one_filters(int r) {
  return {filters::gaussian(0.5 + 0.5 * r, r).to_2d(), filters::box(r).to_2d(),
          random_separable(2 * r + 1, 2 * r + 1).to_2d()};
}

/// Runs automatic with `f` on one placement and checks the pixels and, through
/// resolved_algorithm, whether the separable form ran.
template <class In, class Out>
long long run_case(const filter2d& f, border::any b, int w, int h, int placement, halo hm, bool expect_factored) {
  return run_placed<In, Out>(f, b, w, h, placement, hm, algo::automatic{}, [&](const resolution& res) {
    CHECK(res.factored == expect_factored);
    // (naive and direct run the factors as their outer product: dense again)
    if (expect_factored)
      CHECK((res.separable || std::strcmp(res.family, "naive") == 0 || std::strcmp(res.family, "direct") == 0));
  });
}

template <class In, class Out>
void factored_matrix() {
  const int sides[][2] = {{1, 1}, {7, 5}, {31, 33}, {97, 61}, {257, 131}};
  long long cases = 0, pixels = 0;
  // Images this small factor from radius 9 (tables.hpp, factor_table); radius 2 and 4 run
  // dense, and the pixels must match either way.
  for (int r : {2, 4, 9, 12})
    for (const filter2d& f : rank_one_filters(r))
      for (const border::any& b : matrix_borders())
        for (int k = 0; k < 2; ++k) {
          const int* s = sides[cases % 5];
          const halo hm = (cases / 5) % 2 ? halo::from_parent : halo::isolated;
          INFO("radius " << r << " case " << cases);
          pixels += run_case<In, Out>(f, b, s[0], s[1], int(cases % 9), hm, r >= 9);
          ++cases;
        }
  // A full-rank filter of a factoring radius stays dense.
  for (int r : {2, 4, 9})
    pixels += run_case<In, Out>(random_filter(2 * r + 1, 2 * r + 1), border::replicate{}, 61, 37, 0, halo::isolated,
                                false);
  INFO(cases << " cases, " << pixels << " pixels");
  CHECK(pixels > 0);
}

/// The separable terms automatic runs `f` as on a w x h image of In pixels (resolution::
/// rank): the host factoring's count (detail/factor.hpp, checked by the host tests) where
/// the table factors it and, for two or more terms, shared_mem's tile holds them; else 0.
template <class In>
int low_rank_expected(const filter2d& f, int w, int h) {
  tuning::problem_shape s;
  s.radius = detail::centred_radius(f.width(), f.height(), f.anchor_x(), f.anchor_y());
  s.channels = pixel_traits<In>::channels;
  s.channel_bytes = int(sizeof(In)) / s.channels;
  s.width = w, s.height = h;
  if (detail::rank_one_factors(f)) return tuning::factor_table<tuning::arch::sm_90>::factor(s) ? 1 : 0;
  const std::vector<separable_filter>* terms = detail::low_rank_factors(f);
  if (!terms) return 0;
  const int n = int(terms->size());
  // Beyond 19 x 19 taps, where the table's first choice is fft, the FFT runs instead.
  const bool fft = tuning::automatic_table<tuning::arch::sm_90>::choose(s).order[0] == tuning::choice::fft &&
                   f.width() * f.height() > 19 * 19;
  if (fft) return 0;
  // (Nor does this mirror tensor_core's rule, which also goes before the terms: it starts
  // at 2^18 pixels, and low_rank_matrix's images are all smaller.)
  const bool table = tuning::low_rank_table<tuning::arch::sm_90>::factor(s, f.width(), f.height(), n);
  // shared_mem's tile: 32 x 32 (one channel) or 32 x 16 float accumulators, 48 KiB at most.
  const std::size_t tile_h = s.channels == 1 ? 32 : 16, acc = s.channels == 1 ? 4 : 16;
  const bool holds = std::max(f.width(), f.height()) <= detail::low_rank_capacity &&
                     32 * (tile_h + f.height() - 1) * acc <= 48 * 1024;
  return table && holds ? n : 0;
}

}  // namespace

TEST_CASE("automatic runs rank-one filter2d as separable: uint8", "[gpu][factor]") {
  factored_matrix<std::uint8_t, std::uint8_t>();
}
TEST_CASE("automatic runs rank-one filter2d as separable: float", "[gpu][factor]") { factored_matrix<float, float>(); }
TEST_CASE("automatic runs rank-one filter2d as separable: uint16", "[gpu][factor]") {
  factored_matrix<std::uint16_t, std::uint16_t>();
}
TEST_CASE("automatic runs rank-one filter2d as separable: uchar4 -> float4", "[gpu][factor]") {
  factored_matrix<uchar4, float4>();
}

namespace {

/// Filters that are sums of separable terms, of radius r: {filter, terms}. A Laplacian of
/// Gaussian (two), a difference of Gaussians (two) of (2r + 1) x (2r - 1) taps with
/// off-centre anchors, and a random sum of three positive outer products.
std::vector<std::pair<filter2d, int>> low_rank_filters(int r) {
  std::vector<std::pair<filter2d, int>> out;
  out.emplace_back(filters::laplacian_of_gaussian(0.4 * r + 0.5, r), 2);
  const int h = std::max(1, 2 * r - 1);
  const std::vector<float> a = filters::gaussian_taps(0.3 * r + 0.5, r), b = filters::gaussian_taps(0.6 * r + 0.7, r);
  const std::vector<float> ay = filters::gaussian_taps(0.3 * r + 0.5, h / 2), by = filters::gaussian_taps(0.6 * r + 0.7, h / 2);
  std::vector<float> dog(std::size_t(2 * r + 1) * h);
  for (int j = 0; j < h; ++j)
    for (int i = 0; i <= 2 * r; ++i) dog[std::size_t(j) * (2 * r + 1) + i] = ay[j] * a[i] - by[j] * b[i];
  out.emplace_back(filter2d(2 * r + 1, h, dog, r / 2, h - 1), h > 1 ? 2 : 1);  // 3 x 1 at r = 1
  std::vector<float> sum(std::size_t(2 * r + 1) * (2 * r + 1), 0.f);
  for (int t = 0; t < 3; ++t) {
    const separable_filter s = random_separable(2 * r + 1, 2 * r + 1);
    for (int j = 0; j <= 2 * r; ++j)
      for (int i = 0; i <= 2 * r; ++i) sum[std::size_t(j) * (2 * r + 1) + i] += std::fabs(s.column()[j] * s.row()[i]);
  }
  out.emplace_back(filter2d(2 * r + 1, 2 * r + 1, sum), 3);
  return out;
}

/// Runs automatic with `f` on one placement and checks the pixels and, through
/// resolved_algorithm, that `terms` separable terms ran (0: not factored; two or more in
/// shared_mem).
template <class In, class Out>
long long run_low_rank_case(const filter2d& f, int terms, border::any b, int w, int h, int placement, halo hm) {
  return run_placed<In, Out>(f, b, w, h, placement, hm, algo::automatic{}, [&](const resolution& res) {
    CHECK(res.rank == terms);
    if (terms > 1) {
      CHECK(res.factored);
      CHECK(std::strcmp(res.family, "shared_mem") == 0);
      CHECK(res.separable);
    }
  });
}

/// Every border rule and halo mode, ROIs at every edge and corner, sizes from 1x1 to
/// 257x131 (radius 20 and 63 filters are larger than most of them).
template <class In, class Out>
void low_rank_matrix(int max_radius) {
  const int sides[][2] = {{1, 1}, {7, 5}, {31, 33}, {97, 61}, {257, 131}};
  long long cases = 0, pixels = 0;
  for (int r : {1, 4, 9, 20, 63}) {
    if (r > max_radius) continue;
    for (const auto& [f, terms] : low_rank_filters(r))
      for (const border::any& b : matrix_borders()) {
        const int* s = sides[cases % 5];
        const halo hm = (cases / 5) % 2 ? halo::from_parent : halo::isolated;
        INFO("radius " << r << " case " << cases);
        // The host factoring finds the terms the filter was built of, where it keeps them
        // (the 3 x 3 random sum's terms round worse than its dense sum: refused).
        if (const auto* found = detail::low_rank_factors(f)) CHECK(int(found->size()) == terms);
        const int expect = low_rank_expected<In>(f, s[0], s[1]);
        pixels += run_low_rank_case<In, Out>(f, expect, b, s[0], s[1], int(cases % 9), hm);
        ++cases;
      }
  }
  INFO(cases << " cases, " << pixels << " pixels");
  CHECK(pixels > 0);
}

}  // namespace

TEST_CASE("automatic runs low-rank filter2d as separable terms: uint8", "[gpu][factor][lowrank]") {
  low_rank_matrix<std::uint8_t, std::uint8_t>(63);
}
TEST_CASE("automatic runs low-rank filter2d as separable terms: float", "[gpu][factor][lowrank]") {
  low_rank_matrix<float, float>(63);
}
TEST_CASE("automatic runs low-rank filter2d as separable terms: uint16", "[gpu][factor][lowrank]") {
  low_rank_matrix<std::uint16_t, std::uint16_t>(20);
}
TEST_CASE("automatic runs low-rank filter2d as separable terms: uchar4 -> float4", "[gpu][factor][lowrank]") {
  // Radius 63 is past shared_mem's budget for four channels: dense (naive), checked too.
  low_rank_matrix<uchar4, float4>(63);
}
TEST_CASE("automatic runs low-rank filter2d as separable terms: half", "[gpu][factor][lowrank]") {
  low_rank_matrix<half, half>(9);
}

TEST_CASE("automatic factors 5x5 to 17x17 on large images only, 3x3 never", "[gpu][factor]") {
  const filter2d g1 = filters::gaussian(1.0, 1).to_2d(), g2 = filters::gaussian(1.5, 2).to_2d(),
                 g7 = filters::gaussian(3.0, 7).to_2d();
  // One channel, radius 2: beyond 2^23 pixels (2900 x 2900 = 8.41 M; 2800 x 2800 = 7.84 M).
  run_case<std::uint8_t, std::uint8_t>(g2, border::replicate{}, 2900, 2900, 0, halo::isolated, true);
  run_case<std::uint8_t, std::uint8_t>(g2, border::replicate{}, 2800, 2800, 0, halo::isolated, false);
  // Radius 7: beyond 2^22 (2100 x 2100 = 4.41 M; 2000 x 2000 = 4.0 M).
  run_case<std::uint8_t, std::uint8_t>(g7, border::reflect101{}, 2100, 2100, 3, halo::isolated, true);
  run_case<std::uint8_t, std::uint8_t>(g7, border::reflect101{}, 2000, 2000, 0, halo::isolated, false);
  // Four channels: beyond 2^19 (1024 x 600 = 614 K; 512 x 512 = 262 K).
  run_case<uchar4, float4>(g2, border::constant{0.25f}, 1024, 600, 8, halo::from_parent, true);
  run_case<uchar4, float4>(g2, border::constant{0.25f}, 512, 512, 0, halo::isolated, false);
  run_case<float, float>(g1, border::wrap{}, 2900, 2900, 0, halo::isolated, false);
}
