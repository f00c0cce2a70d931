// Standalone probe (not built by CMake): the interior instance's rows a thread and the
// frame's rows a cell (kernels/tiled_interior.hpp) below and around 2^21 pixels. At 512x512
// float dense 5x5, Nsight Compute gave the frame grid (32 blocks of 64 threads, cells of 4
// rows) 4.9 to 5.1 us against the interior grid's 4.3 (256 blocks of 64 threads of 4 x 4
// outputs), and at 1920x1080 float dense 3x3 the interior grid's 6.2 us set the pair's
// time (2025 blocks at 37% occupancy: one wave, each thread's chain of loads and FMAs)
// (bench/results/2026-11-28-frame/ncu-summary.txt).
// Default: times, held, best of two alternating runs, replicate, float and u16, automatic,
// direct, and tiled with interior threads of 4 x OY outputs and frame cells of M rows at
// every size, for (OY, M) in (4, 4) (the library's before tiled_policy's small_frame),
// (4, 2), (4, 1), (2, 4), (2, 2), (2, 1), (1, 1), the rest of the policy the library's;
// checks that the tiled variants' outputs are byte-identical (they sum in the same order).
// "@16": the same with ClampInteriorMinPixels 2^16, so that separable 5x5 ran as the
// outer product from 2^18 pixels (those two are left out of the check: below the
// library's limits then, the others ran tiled's separable kernel, which rounds apart).
// Its run (bench/results/2026-11-28-frame-rows/interior-shape-1.txt) set small_frame
// (one-row cells below 2^21 pixels at radius 1, and at radius 2 where the interior goes
// first), the separable 5x5 outer product from 2^18 pixels under replicate, and
// automatic's 3x3 rows from 3 * 2^17 pixels; it kept OY.
// `interior_shape_ab rules`: the library's tiled (with small_frame) against the same
// policy without it (SmallFrameMaxPixels 0), and automatic, under replicate, constant and
// reflect101, 512x512 to 2560x1440, the same way.
//   nvcc -std=c++17 -O3 -arch=sm_90 --expt-relaxed-constexpr -I<tree>/include \
//        -I/usr/include/eigen3 interior_shape_ab.cu -lcufft -o interior_shape_ab
#include "ab_common.hpp"
#include <cstdint>
#include <cstdio>
#include <string>
namespace hs = hipstencil;

// The library's tiled policy (tuning/policies.hpp defaults) at radius 1 and 2 but for the
// interior's output rows a thread (OutY) and the frame's rows a cell at every size (M, as
// FrameCellRows and SmallFrameCellRows both). From: ClampInteriorMinPixels (the interior
// instance under replicate from that many pixels).
template <int OY, int M, long long From = (1LL << 18)>
using ab_tiled_rows = hs::algo::tiled<
    hs::strategy::tile_class,
    hs::tuning::tiled_policy<8, 8, 4, OY, hs::tuning::radii_range<1, 2>, hs::tuning::shared_memory_budget, 12, 32, 2,
                             2, 1LL << 20, 1LL << 21, 1LL << 17, 1LL << 20, 2, 0, 2, From, M, M>>;

// The library's tiled policy without its small frames' one-row cells (SmallFrameMaxPixels 0).
using ab_tiled_large_cells = hs::algo::tiled<
    hs::strategy::tile_class,
    hs::tuning::tiled_policy<8, 8, 4, 4, hs::tuning::radii_range<1, 8>, hs::tuning::shared_memory_budget, 12, 32, 2,
                             2, 1LL << 20, 1LL << 21, 1LL << 17, 1LL << 20, 2, 0, 2, 1LL << 18, 4, 1, 0>>;

template <class T>
void run(const char* type) {
  ab_for_each_shape_case<T>({{362, 362}, {512, 512}, {724, 724}, {1024, 768}, {1024, 1024}, {1280, 720},
                             {1920, 1080}, {2560, 1440}, {3840, 2160}},
                            [&](int w, int h, int r, bool dense, hs::device_image<T>& out, auto call) {
    constexpr int V = 11;
    const char* names[V] = {"auto",  "direct", "4x4/4", "4x4/2", "4x4/1",    "4x2/4",
                            "4x2/2", "4x2/1",  "4x1/1", "4x2/1@16", "4x1/1@16"};
    double t[V][2];
    unsigned long long hash[V];
    ab_time_alternating(out, t, hash,
                        [&] { call(hs::algo::automatic{}); },
                        [&] { call(hs::algo::direct<>{}); },
                        [&] { call(ab_tiled_rows<4, 4>{}); },
                        [&] { call(ab_tiled_rows<4, 2>{}); },
                        [&] { call(ab_tiled_rows<4, 1>{}); },
                        [&] { call(ab_tiled_rows<2, 4>{}); },
                        [&] { call(ab_tiled_rows<2, 2>{}); },
                        [&] { call(ab_tiled_rows<2, 1>{}); },
                        [&] { call(ab_tiled_rows<1, 1>{}); },
                        [&] { call(ab_tiled_rows<2, 1, (1LL << 16)>{}); },
                        [&] { call(ab_tiled_rows<1, 1, (1LL << 16)>{}); });
    ab_print_variants(type, w, h, r, dense, V, names, t, hash, 2, 9);
  });
}

template <class T>
void run_rules(const char* type) {
  ab_for_each_rule_case<T>(
      {{512, 512}, {724, 724}, {1024, 768}, {1024, 1024}, {1280, 720}, {1920, 1080}, {2560, 1440}},
      [&](int w, int h, int r, const char* rule, bool dense, hs::device_image<T>& out, auto with) {
      double t[3][2];
      unsigned long long hash[3];
      ab_time_alternating(out, t, hash,
                          with(hs::algo::automatic{}),
                          with(hs::algo::tiled<>{}),
                          with(ab_tiled_large_cells{}));
      double b[3];
      for (int k = 0; k < 3; ++k) b[k] = std::min(t[k][0], t[k][1]);
      std::printf("%-6s %4dx%-4d %-10s %s %dx%d  automatic %7.2f  tiled %7.2f  4-row cells %7.2f us  (%.3fx)  %s\n",
                  type, w, h, rule, dense ? "dense" : "sep  ", 2 * r + 1, 2 * r + 1, b[0], b[1], b[2], b[1] / b[2],
                  hash[1] == hash[2] ? "identical" : "OUTPUTS DIFFER");
      std::fflush(stdout);
      });
}

int main(int argc, char** argv) {
  cudaFree(nullptr);
  if (argc > 1 && std::string(argv[1]) == "rules") {
    run_rules<float>("float");
    run_rules<std::uint16_t>("u16");
    return 0;
  }
  run<float>("float");
  run<std::uint16_t>("u16");
}
