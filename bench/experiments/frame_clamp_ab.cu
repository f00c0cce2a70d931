// Standalone probe (not built by CMake): tiled's frame grid (kernels/tiled_interior.hpp)
// with and without its replicate instance (tiled_policy's FrameClampMaxRadius). At
// 1920x1080 float dense 3x3, where the interior grid goes first and the frame's runs in its
// tail, Nsight Compute timed the frame grid alone at 6.7 to 6.9 us, 628 warp instructions a
// warp and 9% issue-active, against the interior grid's 6.2 (bench/results/
// 2026-11-28-clamp/ncu-7-*.csv); the pair took 9.2 us held, NPP's FilterBorder 9.0. The
// frame maps each window column and row through the run-time rule's switch and tests each
// read for the constant; the replicate instance clamps them with min / max, as direct's
// (direct_border_ab.cu). Times algo::tiled<> (the library: the instance at radius 1 and 2)
// against the same policy with FrameClampMaxRadius 0, float and u16, replicate, held, best
// of two alternating runs, and checks that the outputs are byte-identical.
// Its run (bench/results/2026-11-28-frame/frame-clamp-1.txt) set FrameClampMaxRadius to 2.
// `frame_clamp_ab small`: below 2^20 pixels, where the interior instance did not run
// (tiled_policy's InteriorMinPixels), times automatic, direct, tiled and tiled with the
// interior instance from 2^18 pixels (its frame's replicate instance included), same way.
// Its run (frame-clamp-small-1.txt there) was taken before ClampInteriorMinPixels, when
// algo::tiled<> and automatic ran the interior instance from 2^20 pixels only; it set that
// limit to 2^18 and automatic's rows (automatic_table::interior_from). Separable filters
// differ there where one variant runs tiled's separable kernel and the other the outer
// product (rounding), which the line says.
//   nvcc -std=c++17 -O3 -arch=sm_90 --expt-relaxed-constexpr -I<tree>/include \
//        -I/usr/include/eigen3 frame_clamp_ab.cu -lcufft -o frame_clamp_ab
#include "ab_common.hpp"
#include <cstdint>
#include <cstdio>
#include <string>
namespace hs = hipstencil;

// The library's tiled policy (tuning/policies.hpp defaults) but for FrameClampMaxRadius.
template <int FrameClampMaxRadius>
using ab_tiled_frame_clamp = hs::algo::tiled<
    hs::strategy::tile_class,
    hs::tuning::tiled_policy<8, 8, 4, 4, hs::tuning::radii_range<1, 8>, hs::tuning::shared_memory_budget, 12, 32, 2,
                             2, 1LL << 20, 1LL << 21, 1LL << 17, 1LL << 20, 2, 0, FrameClampMaxRadius>>;

template <class T>
void run(const char* type) {
  ab_for_each_shape_case<T>({{1024, 1024}, {1920, 1080}, {2560, 1440}, {3840, 2160}, {8192, 8192}},
                            [&](int w, int h, int r, bool dense, hs::device_image<T>& out, auto call) {
    double t[2][2];
    unsigned long long hash[2];
    ab_time_alternating(out, t, hash,
                        [&] { call(hs::algo::tiled<>{}); },
                        [&] { call(ab_tiled_frame_clamp<0>{}); });
    const double lib = std::min(t[0][0], t[0][1]), rt = std::min(t[1][0], t[1][1]);
    std::printf("%-6s %4dx%-4d %s %dx%d  clamp %8.2f us  run-time rule %8.2f us  (%.3fx)  %s\n", type, w, h,
                dense ? "dense    " : "separable", 2 * r + 1, 2 * r + 1, lib, rt, lib / rt,
                hash[0] == hash[1] ? "identical" : "OUTPUTS DIFFER");
    std::fflush(stdout);
  });
}

// The library's tiled policy with the interior instance from 2^18 pixels.
using ab_tiled_interior_from_2_18 = hs::algo::tiled<
    hs::strategy::tile_class,
    hs::tuning::tiled_policy<8, 8, 4, 4, hs::tuning::radii_range<1, 8>, hs::tuning::shared_memory_budget, 12, 32, 2,
                             2, 1LL << 18, 1LL << 21, 1LL << 17, 1LL << 20, 2, 0, 2>>;

template <class T>
void run_small(const char* type) {
  ab_for_each_shape_case<T>({{512, 512}, {724, 724}, {800, 600}, {960, 540}, {1024, 768}, {1280, 720}, {1024, 1024}},
                            [&](int w, int h, int r, bool dense, hs::device_image<T>& out, auto call) {
    double t[4][2];
    unsigned long long hash[4];
    ab_time_alternating(out, t, hash,
                        [&] { call(hs::algo::automatic{}); },
                        [&] { call(hs::algo::direct<>{}); },
                        [&] { call(hs::algo::tiled<>{}); },
                        [&] { call(ab_tiled_interior_from_2_18{}); });
    double b[4];
    for (int k = 0; k < 4; ++k) b[k] = std::min(t[k][0], t[k][1]);
    // tiled's two variants sum in the same order (bit-identical) where both run the interior
    // instance or both tiled2d_kernel; the others may round apart.
    std::printf("%-6s %4dx%-4d %s %dx%d  automatic %7.2f  direct %7.2f  tiled %7.2f  interior from 2^18 %7.2f us  "
                "(%.3fx automatic)  %s\n",
                type, w, h, dense ? "dense    " : "separable", 2 * r + 1, 2 * r + 1, b[0], b[1], b[2], b[3],
                b[3] / b[0], hash[2] == hash[3] ? "tiled identical" : "TILED OUTPUTS DIFFER");
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
