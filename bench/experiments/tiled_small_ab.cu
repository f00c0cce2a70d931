// Standalone probe (not built by CMake): tiled's tile shape on small images, under
// replicate, constant and reflect101. smem_rows_ab.cu (bench/results/2026-11-26-mends/)
// found 32 x 8 threads of one output each, and 16 x 8 of 2 x 2 outputs, ahead of
// automatic's choice on one-channel float and u16 5x5 filters up to 724x724, under
// replicate. This times tiled's default shape (8 x 8 threads of 4 x 4 outputs), 2 x 2 and
// 1 x 1, and automatic, on the same call (best of two alternating runs), the interior
// instance off and the policy's own small-image limits at 0 (each variant runs its shape
// at every size), and checks that the three tiled shapes' outputs are byte-identical.
//   nvcc -std=c++17 -O3 -arch=sm_90 --expt-relaxed-constexpr -I<tree>/include \
//        -I/usr/include/eigen3 tiled_small_ab.cu -lcufft -o tiled_small_ab
#include "ab_common.hpp"
#include <cstdint>
#include <cstdio>
namespace hs = hipstencil;

template <class T>
void run_type(const char* type) {
  ab_for_each_size<T>({{128, 128}, {256, 256}, {362, 362}, {512, 512}, {724, 724}, {1024, 1024}}, 12345u,
                      [&](int w, int h, hs::image_view<const T> src, hs::device_image<T>& b) {
    ab_for_each_case([&](int r, const char* rule, bool dense, auto call) {
      constexpr int n = 4;
      double t[n][2];
      unsigned long long hash[n];
      auto one = [&](int k, auto algo) {
        auto run = [&] { call([&](const auto& f, auto border) { hs::convolve(src, b.view(), f, border, algo); }); };
        return hashed_time_us(b, run, hash[k]);
      };
      for (int rep = 0; rep < 2; ++rep) {
        t[0][rep] = one(0, ab_tiled_shape<8, 8, 4>{});
        t[1][rep] = one(1, ab_tiled_shape<16, 8, 2>{});
        t[2][rep] = one(2, ab_tiled_shape<32, 8, 1>{});
        t[3][rep] = one(3, hs::algo::automatic{});
      }
      double best[n];
      for (int k = 0; k < n; ++k) best[k] = std::min(t[k][0], t[k][1]);
      std::printf("%-6s %4dx%-4d %-10s %s %dx%d  tiled4x4 %6.2f  tiled2x2 %6.2f (%.2fx)  tiled1x1 %6.2f (%.2fx)  "
                  "automatic %6.2f (2x2 over it %.2fx, 1x1 %.2fx)  %s\n",
                  type, w, h, rule, dense ? "dense    " : "separable", 2 * r + 1, 2 * r + 1, best[0], best[1],
                  best[1] / best[0], best[2], best[2] / best[0], best[3], best[1] / best[3], best[2] / best[3],
                  hash[1] == hash[0] && hash[2] == hash[0] ? "identical" : "OUTPUTS DIFFER");
    });
  });
}

int main() {
  cudaFree(nullptr);
  run_type<float>("float");
  run_type<std::uint16_t>("u16");
}
