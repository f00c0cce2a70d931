// Standalone probe (not built by CMake): the block shape of tiled's interior grid
// (tiled_policy's InteriorBlockX x InteriorBlockY threads; kernels/tiled_interior.hpp) at
// the sizes users filter. With the frame's one-row cells (tiled_policy's small_frame) the
// interior grid sets the pair's time at 1920x1080 float dense 3x3 (Nsight Compute, before
// those cells: 6.2 us for 2025 blocks of 64 threads at 37% occupancy; bench/results/
// 2026-11-28-frame/ncu-summary.txt), and its 32 x 2 threads were chosen on 8192x8192.
// Times, held, best of two alternating runs, replicate, float and u16, dense and
// separable 3x3 and 5x5: automatic, and tiled with interior blocks of 32 x 1, 32 x 2 (the
// library's), 32 x 4, 32 x 8, 64 x 2 and 64 x 4 threads, the rest of the policy the
// library's; checks that the tiled variants' outputs are byte-identical.
//   nvcc -std=c++17 -O3 -arch=sm_90 --expt-relaxed-constexpr -I<tree>/include \
//        -I/usr/include/eigen3 interior_block_ab.cu -lcufft -o interior_block_ab
#include "ab_common.hpp"
#include <cstdint>
#include <cstdio>
namespace hs = hipstencil;

// The library's tiled policy (tuning/policies.hpp defaults) at radius 1 and 2 but for the
// interior grid's block of IX x IY threads.
template <int IX, int IY>
using ab_interior_base =
    hs::tuning::tiled_policy<8, 8, 4, 4, hs::tuning::radii_range<1, 2>, hs::tuning::shared_memory_budget, 12, IX, IY,
                             2, 1LL << 20, 1LL << 21, 1LL << 17, 1LL << 20, 2, 0, 2, 1LL << 18, 4, 1, 1LL << 21>;
// Since the interior and its frame run as one grid (tiled2d_fused_kernel), that grid's
// blocks are the frame's 64 threads: other interior blocks run the two grids, as when this
// probe was written.
template <int IX, int IY>
struct ab_interior_policy : ab_interior_base<IX, IY> {
  static constexpr int fused_frame_rows = IX * IY == 64 ? ab_interior_base<IX, IY>::fused_frame_rows : 0;
};
template <int IX, int IY>
using ab_tiled_interior_block = hs::algo::tiled<hs::strategy::tile_class, ab_interior_policy<IX, IY>>;

template <class T>
void run(const char* type) {
  ab_for_each_shape_case<T>({{512, 512}, {724, 724}, {1024, 1024}, {1920, 1080}, {2560, 1440}, {3840, 2160},
                             {8192, 8192}},
                            [&](int w, int h, int r, bool dense, hs::device_image<T>& out, auto call) {
    constexpr int V = 7;
    const char* names[V] = {"auto", "32x1", "32x2", "32x4", "32x8", "64x2", "64x4"};
    double t[V][2];
    unsigned long long hash[V];
    ab_time_alternating(out, t, hash,
                        [&] { call(hs::algo::automatic{}); },
                        [&] { call(ab_tiled_interior_block<32, 1>{}); },
                        [&] { call(ab_tiled_interior_block<32, 2>{}); },
                        [&] { call(ab_tiled_interior_block<32, 4>{}); },
                        [&] { call(ab_tiled_interior_block<32, 8>{}); },
                        [&] { call(ab_tiled_interior_block<64, 2>{}); },
                        [&] { call(ab_tiled_interior_block<64, 4>{}); });
    ab_print_variants(type, w, h, r, dense, V, names, t, hash, 1, V);
  });
}

int main() {
  cudaFree(nullptr);
  run<float>("float");
  run<std::uint16_t>("u16");
}
