// Standalone probe (not built by CMake): tiled's interior instance under replicate,
// constant and reflect101 around 2^20 to 2^22 pixels, float and u16, radius 1 and 2, dense
// and separable, held, best of two alternating runs. Variants:
//   automatic;
//   tiled, the library's policy;
//   "2-byte frame first": the same with 2-byte pixels' frame grid first at radius 2 too
//     (NarrowFrameFirstMaxRadius 2, the library before; its 5x5 frame then has 4-row
//     cells), whose outputs must be byte-identical to the library's;
//   "sep 5x5 @2^20": the library's policy with separable 5x5 as its outer product in the
//     interior instance from interior_from (2^20 pixels; 2^18 under replicate) under every
//     rule, where it begins at 2^22 under constant and reflections. In the rules sweep of
//     bench/results/2026-11-28-frame-rows/rules-hold-final.csv, 1920x1080 float separable
//     5x5 under reflect101 took 16.77 us on tiled's separable kernel where dense 5x5 took
//     10.82 on the interior instance.
// `interior_rules_ab small`: below 2^20 pixels under constant and reflect101 (run_small).
// Both runs (bench/results/2026-11-28-upfront/interior-rules-1.txt, interior-small-1.txt)
// were on the tree before their results were taken: since, the library's tiled is the
// "sep 5x5 @2^20" variant and runs the interior from 3 * 2^17 pixels at radius 1 and 2
// under every rule (tiled_policy's SmallRadiusInteriorMinPixels), as the other variants
// here then do too.
//   nvcc -std=c++17 -O3 -arch=sm_90 --expt-relaxed-constexpr -I<tree>/include \
//        -I/usr/include/eigen3 interior_rules_ab.cu -lcufft -o interior_rules_ab
#include "ab_common.hpp"
#include <cstdint>
#include <cstdio>
#include <string>
namespace hs = hipstencil;
namespace tu = hs::tuning;

// The library's tiled policy at radius 1 and 2 with 2-byte pixels' frame first at radius 2.
using ab_narrow_frame_first = hs::algo::tiled<
    hs::strategy::tile_class, tu::tiled_policy<8, 8, 4, 4, tu::radii_range<1, 2>, tu::shared_memory_budget, 12, 32, 2,
                                               2, 1LL << 20, 1LL << 21, 1LL << 17, 1LL << 20, 2, 0, 2, 1LL << 18, 4,
                                               1, 1LL << 21, 2>>;

// The library's tiled policy at radius 1 and 2 with separable 3x3 and 5x5 as the outer
// product from interior_from under every rule.
struct ab_sep_from_interior_policy : tu::tiled_policy<8, 8, 4, 4, tu::radii_range<1, 2>> {
  using base = tu::tiled_policy<8, 8, 4, 4, tu::radii_range<1, 2>>;
  static constexpr long long separable_interior_min_pixels(int channels, int channel_bytes, int r,
                                                           bool clamp_frame = false) {
    return base::separable_interior_min_pixels(channels, channel_bytes, r, clamp_frame) < 0
               ? -1
               : base::interior_from(clamp_frame, r);
  }
};
using ab_sep_from_interior = hs::algo::tiled<hs::strategy::tile_class, ab_sep_from_interior_policy>;

template <class T>
void run(const char* type) {
  ab_for_each_rule_case<T>(
      {{1024, 768}, {1024, 1024}, {1280, 1024}, {1920, 1080}, {2560, 1440}, {3840, 2160}},
      [&](int w, int h, int r, const char* rule, bool dense, hs::device_image<T>& out, auto with) {
      double t[4][2];
      unsigned long long hash[4];
      ab_time_alternating(out, t, hash,
                          with(hs::algo::automatic{}),
                          with(hs::algo::tiled<>{}),
                          with(ab_narrow_frame_first{}),
                          with(ab_sep_from_interior{}));
      double b[4];
      for (int k = 0; k < 4; ++k) b[k] = std::min(t[k][0], t[k][1]);
      std::printf("%-5s %4dx%-4d %-10s %s %dx%d  automatic %7.2f  tiled %7.2f  2-byte frame first %7.2f  "
                  "sep 5x5 @2^20 %7.2f us  (order %.3fx, sep %.3fx)  %s\n",
                  type, w, h, rule, dense ? "dense" : "sep  ", 2 * r + 1, 2 * r + 1, b[0], b[1], b[2], b[3],
                  b[1] / b[2], b[3] / b[1], hash[1] == hash[2] ? "identical" : "OUTPUTS DIFFER");
      std::fflush(stdout);
      });
}

// The library's tiled policy with the interior instance from 2^18 pixels under every rule
// (InteriorMinPixels; under replicate it already begins there, ClampInteriorMinPixels).
using ab_interior_from_18 = hs::algo::tiled<
    hs::strategy::tile_class, tu::tiled_policy<8, 8, 4, 4, tu::radii_range<1, 2>, tu::shared_memory_budget, 12, 32, 2,
                                               2, 1LL << 18>>;

// `interior_rules_ab small`: below 2^20 pixels under constant and reflect101, where the
// interior instance does not run: automatic, direct, shared_mem, tiled (the library's) and
// tiled with the interior from 2^18 pixels (its outputs byte-identical to dense tiled's
// interior wherever both run it; not checked here: below 2^20 the library runs
// tiled2d_kernel).
template <class T>
void run_small(const char* type) {
  ab_for_each_rule_case<T>(
      {{362, 362}, {512, 512}, {724, 724}, {960, 540}, {1024, 768}, {1280, 720}},
      [&](int w, int h, int r, const char* rule, bool dense, hs::device_image<T>& out, auto with) {
      if (std::string(rule) == "replicate") return;
      double t[5][2];
      unsigned long long hash[5];
      ab_time_alternating(out, t, hash,
                          with(hs::algo::automatic{}),
                          with(hs::algo::direct<>{}),
                          with(hs::algo::shared_mem<>{}),
                          with(hs::algo::tiled<>{}),
                          with(ab_interior_from_18{}));
      double b[5];
      for (int k = 0; k < 5; ++k) b[k] = std::min(t[k][0], t[k][1]);
      const double others = std::min(b[0], std::min(b[1], std::min(b[2], b[3])));
      std::printf("%-5s %4dx%-4d %-10s %s %dx%d  automatic %7.2f  direct %7.2f  shared_mem %7.2f  tiled %7.2f  "
                  "interior @2^18 %7.2f us  (against the fastest other %.3fx)\n",
                  type, w, h, rule, dense ? "dense" : "sep  ", 2 * r + 1, 2 * r + 1, b[0], b[1], b[2], b[3], b[4],
                  b[4] / others);
      std::fflush(stdout);
      });
}

int main(int argc, char** argv) {
  cudaFree(nullptr);
  if (argc > 1 && std::string(argv[1]) == "small") {
    run_small<float>("float");
    run_small<std::uint16_t>("u16");
    return 0;
  }
  run<float>("float");
  run<std::uint16_t>("u16");
}
