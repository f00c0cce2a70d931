// Standalone probe (not built by CMake): which of tiled's two grids goes first (tiled_policy's
// FrameFirstMinPixels, 2^21) now that one-channel 2-byte pixels take the interior instance
// at radius 1 and 2. tiled_order_ab.cu set the limit on float, unheld: below 2^21 pixels
// the interior grid first (1920x1080 3x3 0.89 to 0.96 times the time). u16 at 2560x1440,
// above the limit, took 10.0 us held and at 1920x1080, below it, 10.3 (interior_u16_ab.cu).
// Times tiled with the frame always first and always second, held, best of two alternating
// rounds, u16 and float, 1024x1024 to 2560x1440, radius 1 and 2, separable and dense,
// replicate, constant and reflect101, and checks that the outputs are byte-identical.
//   nvcc -std=c++17 -O3 -arch=sm_90 --expt-relaxed-constexpr -I<tree>/include \
//        -I/usr/include/eigen3 tiled_order_u16_ab.cu -lcufft -o tiled_order_u16_ab
#include "ab_common.hpp"
#include <climits>
#include <cstdint>
#include <cstdio>
namespace hs = hipstencil;

template <class T>
void run_type(const char* type) {
  ab_for_each_size<T>({{1024, 1024}, {1280, 1024}, {1600, 1200}, {1920, 1080}, {2560, 1440}}, 4242u,
                      [&](int width, int height, hs::image_view<const T> src, hs::device_image<T>& b) {
    ab_for_each_case([&](int r, const char* border, bool dense, auto call) {
      double t[2][2];
      unsigned long long h[2];
      auto one = [&](int k, auto algo) {
        auto run = [&] { call([&](const auto& f, auto rule) { hs::convolve(src, b.view(), f, rule, algo); }); };
        return hashed_time_us(b, run, h[k], 40, true);
      };
      for (int rep = 0; rep < 2; ++rep) {
        t[0][rep] = one(0, ab_tiled_frame_first_from<0>{});          // frame first at every size
        t[1][rep] = one(1, ab_tiled_frame_first_from<LLONG_MAX>{});  // interior first at every size
      }
      const double f = std::min(t[0][0], t[0][1]), i = std::min(t[1][0], t[1][1]);
      std::printf("%-5s %4dx%-4d %-10s %s %dx%d  frame first %7.2f us  interior first %7.2f us  (%.3fx)  %s\n", type,
                  width, height, border, dense ? "dense    " : "separable", 2 * r + 1, 2 * r + 1, f, i, i / f,
                  h[0] == h[1] ? "identical" : "OUTPUTS DIFFER");
    });
  });
}

int main() {
  cudaFree(nullptr);
  run_type<std::uint16_t>("u16");
  run_type<float>("float");
  std::printf("last error: %s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
