// [gpu] algo::automatic on a dense filter2d whose coefficients are a column times a row
// (detail/factor.hpp): it runs the separable form where the table says so, and the pixels
// match the reference of the dense filter itself. Gaussians, boxes and random outer
// products at radius 2 to 12, every border rule, ROIs at every edge and corner, awkward
// sizes (1x1, primes, a filter larger than the image), outputs poisoned; a full-rank filter
// of the same size stays dense; each size threshold of the table from both sides.
#include "algo_matrix.hpp"

#include <cstring>
#include <string>
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
  const problem p = place(w, h, placement, hm, f.reach_left(), f.reach_top(), f.reach_right(), f.reach_bottom(), b.rule);
  const auto src = random_image<In>(p.src_w, p.src_h);
  return check_against_reference<In, Out>(p, f, b, src, [&](image_view<const In> s, image_view<Out> d) {
    const resolution res = resolved_algorithm(s, p.src_roi, d, p.dst_roi, f, b, algo::automatic{}, p.halo_mode);
    INFO("runs " << res.str());
    CHECK(res.factored == expect_factored);
    // (naive and direct run the factors as their outer product: dense again)
    if (expect_factored)
      CHECK((res.separable || std::strcmp(res.family, "naive") == 0 || std::strcmp(res.family, "direct") == 0));
    convolve(s, p.src_roi, d, p.dst_roi, f, b, algo::automatic{}, nullptr, p.halo_mode);
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
