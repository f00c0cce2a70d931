// Standalone probe (not built by CMake): tiled's interior instance (kernels/
// tiled_interior.hpp) for one-channel 16-bit pixels. The instance ran only 4-byte pixels;
// at 3x3 on large images u16 took longer than float (H200, held, 3840x2160 dense 3x3:
// automatic 28.3 us, float 21.9; NPP's FilterBorder32f_16u 17.8; bench/results/
// 2026-11-28/matrix-hold.csv). This times, held (the device runs the calls back to back),
// best of two alternating rounds, u16 and s16, 1024x1024 to 8192x8192, radius 1 and 2,
// separable (a Gaussian, which the instance runs as its outer product) and dense,
// replicate: tiled without the instance for 2-byte pixels (tiled2d_kernel and
// tiled_sep_kernel, the library's policy when it ran); tiled with the instance up to
// radius 2 (tiled_policy's InteriorNarrowMaxRadius), its interior grid first below 2^21
// pixels as then; direct, shared_mem, streaming and automatic (in interior-u16-1.txt the
// table before it took the instance).
//   nvcc -std=c++17 -O3 -arch=sm_90 --expt-relaxed-constexpr -I<tree>/include \
//        -I/usr/include/eigen3 interior_u16_ab.cu -lcufft -o interior_u16_ab
#include "ab_common.hpp"
#include <cstdint>
#include <cstdio>
namespace hs = hipstencil;
namespace tu = hipstencil::tuning;

// The library's tiled policy with the instance for 2-byte pixels up to radius R, the frame
// grid first from 2^21 pixels for every pixel type.
template <int R>
using narrow_interior =
    hs::algo::tiled<hs::strategy::tile_class,
                    tu::tiled_policy<8, 8, 4, 4, tu::radii_range<1, 8>, tu::shared_memory_budget, 12, 32, 2, 2,
                                     1LL << 20, 1LL << 21, 1LL << 17, 1LL << 20, R, 1LL << 21>>;

template <class T>
void run_type(const char* type) {
  ab_for_each_shape_case<T>(
      {{1024, 1024}, {1920, 1080}, {2560, 1440}, {3840, 2160}, {5760, 3240}, {8192, 8192}},
      [&](int w, int h, int r, bool dense, hs::device_image<T>& out, auto run) {
        constexpr int V = 6;
        const char* names[V] = {"tiled", "interior", "direct", "smem", "stream", "auto"};
        double t[V][2] = {};
        unsigned long long hash[V];
        auto one = [&](int k, auto algo) { return hashed_time_us(out, [&] { run(algo); }, hash[k], 40, true); };
        for (int rep = 0; rep < 2; ++rep) {
          t[0][rep] = one(0, narrow_interior<0>{});
          t[1][rep] = one(1, narrow_interior<2>{});
          t[2][rep] = one(2, hs::algo::direct<>{});
          t[3][rep] = one(3, hs::algo::shared_mem<>{});
          t[4][rep] = one(4, hs::algo::streaming<>{});
          t[5][rep] = one(5, hs::algo::automatic{});
        }
        std::printf("%-4s %4dx%-4d %-5s %dx%d", type, w, h, dense ? "dense" : "sep", 2 * r + 1, 2 * r + 1);
        const double base = std::min(t[5][0], t[5][1]);
        for (int k = 0; k < V; ++k) {
          const double b = std::min(t[k][0], t[k][1]);
          std::printf("  %s %7.2f (%.2f)", names[k], b, b / base);
        }
        std::printf("  interior %s tiled\n", hash[1] == hash[0] ? "==" : "!=");
      });
}

int main() {
  cudaFree(nullptr);
  run_type<std::uint16_t>("u16");
  run_type<std::int16_t>("s16");
  std::printf("last error: %s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
