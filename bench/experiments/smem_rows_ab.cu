// Standalone probe (not built by CMake): shorter tiles for one-channel separable and dense
// filters on small images. At 128x128 and 512x512 NPP's float Gaussian runs one output a
// thread (64 and 1024 blocks of 256 threads); shared_mem's 32 x 32 tile gives a thread four
// output rows (16 and 256 blocks), tiled's 4 x 4 outputs sixteen. This times, on the same
// call (replicate, best of two alternating runs): automatic; shared_mem with tiles of 32,
// 16 and 8 rows (32 x 8 threads: 4, 2 and 1 rows a thread); tiled with 32 x 8 threads of
// 1 x 1 outputs and 16 x 8 of 2 x 2; and checks that every output is byte-identical to
// shared_mem's default tile.
//   nvcc -std=c++17 -O3 -arch=sm_90 --expt-relaxed-constexpr -I<tree>/include \
//        -I/usr/include/eigen3 smem_rows_ab.cu -lcufft -o smem_rows_ab
#include "ab_common.hpp"
#include <cstdint>
#include <cstdio>
namespace hs = hipstencil;
namespace tu = hipstencil::tuning;

template <int H>
struct smem_rows : tu::shared_mem_policy<tu::radii_range<1, 2>, tu::radii_range<1, 2>> {
  template <int C>
  using tile = tu::smem_tile_shape<32, 8, 32, H>;
  template <int C, int R>
  using separable_tile = tu::smem_tile_shape<32, 8, 32, H>;
};
template <int H>
using smem_with = hs::algo::shared_mem<hs::strategy::tile_class, smem_rows<H>>;

template <class T>
void run_type(const char* type) {
  ab_for_each_shape_case<T>(
      {{128, 128}, {256, 256}, {512, 512}, {724, 724}, {1024, 1024}},
      [&](int w, int h, int r, bool dense, hs::device_image<T>& out, auto run) {
        constexpr int n = 6;
        double t[n][2];
        unsigned long long hash[n];
        auto one = [&](int k, auto algo) { return hashed_time_us(out, [&] { run(algo); }, hash[k]); };
        for (int rep = 0; rep < 2; ++rep) {
          t[0][rep] = one(0, smem_with<32>{});
          t[1][rep] = one(1, smem_with<16>{});
          t[2][rep] = one(2, smem_with<8>{});
          t[3][rep] = one(3, ab_tiled_shape<32, 8, 1>{});
          t[4][rep] = one(4, ab_tiled_shape<16, 8, 2>{});
          t[5][rep] = one(5, hs::algo::automatic{});
        }
        double best[n];
        for (int k = 0; k < n; ++k) best[k] = std::min(t[k][0], t[k][1]);
        // automatic's outputs may differ in rounding where it runs a separable filter as its
        // outer product; the shared_mem and tiled variants compute the same sums in the same order.
        const bool same = hash[1] == hash[0] && hash[2] == hash[0];
        std::printf("%-6s %4dx%-4d %s %dx%d  smem32 %6.2f  smem16 %6.2f (%.2fx)  smem8 %6.2f (%.2fx)  tiled1x1 %6.2f "
                    "(%.2fx)  tiled2x2 %6.2f (%.2fx)  automatic %6.2f (%.2fx)  %s%s\n",
                    type, w, h, dense ? "dense    " : "separable", 2 * r + 1, 2 * r + 1, best[0], best[1],
                    best[1] / best[0], best[2], best[2] / best[0], best[3], best[3] / best[0], best[4],
                    best[4] / best[0], best[5], best[5] / best[0], same ? "smem identical" : "SMEM OUTPUTS DIFFER",
                    hash[3] == hash[4] ? ", tiled identical" : ", tiled variants differ");
      });
}

int main() {
  cudaFree(nullptr);
  run_type<float>("float");
  run_type<std::uint16_t>("u16");
}
