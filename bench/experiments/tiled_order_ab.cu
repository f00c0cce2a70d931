// Standalone probe (not built by CMake): which of tiled's two grids goes first, the frame's
// or the interior's (kernels/tiled_interior.hpp, tiled_policy's FrameFirstMinPixels). The
// second grid is launched as the first's dependent, so it may run beside it, but its
// launch costs the host a few microseconds: at 1920x1080 float dense 3x3 the pair took
// 10.9 us with the frame first (NPP 8.4; bench/results/2026-11-26-direct/matrix.csv), where
// Nsight Compute timed the interior grid alone at 7.1 to 7.4 us and the frame's at 6.9 to
// 7.1 (ncu/ncu-float-1080-dense3.txt there, at its own clocks). Times tiled on float with
// the frame always first and always second, best of two alternating runs, and checks that
// the outputs are byte-identical. Its run (tiled-order.txt there) set FrameFirstMinPixels
// to 2^21.
//   nvcc -std=c++17 -O3 -arch=sm_90 --expt-relaxed-constexpr -I<tree>/include \
//        -I/usr/include/eigen3 tiled_order_ab.cu -lcufft -o tiled_order_ab
#include "ab_common.hpp"
#include <climits>
#include <string>
#include <cstdio>
namespace hs = hipstencil;

int main() {
  cudaFree(nullptr);
  ab_for_each_size<float>({{1024, 1024}, {1920, 1080}, {2560, 1440}, {3840, 2160}, {5760, 3240}, {8192, 8192}}, 4242u,
                          [&](int width, int height, hs::image_view<const float> src, hs::device_image<float>& b) {
    ab_for_each_case([&](int r, const char* border, bool dense, auto call) {
      if (std::string(border) == "constant") return;
      double t[2][2];
      unsigned long long h[2];
      auto one = [&](int k, auto algo) {
        auto run = [&] { call([&](const auto& f, auto rule) { hs::convolve(src, b.view(), f, rule, algo); }); };
        return hashed_time_us(b, run, h[k]);
      };
      for (int rep = 0; rep < 2; ++rep) {
        t[0][rep] = one(0, ab_tiled_frame_first_from<0>{});          // frame first at every size
        t[1][rep] = one(1, ab_tiled_frame_first_from<LLONG_MAX>{});  // interior first at every size
      }
      const double f = std::min(t[0][0], t[0][1]), i = std::min(t[1][0], t[1][1]);
      std::printf("float %4dx%-4d %-10s %s %dx%d  frame first %8.2f us  interior first %8.2f us  (%.3fx)  %s\n", width,
                  height, border, dense ? "dense    " : "separable", 2 * r + 1, 2 * r + 1, f, i, i / f,
                  h[0] == h[1] ? "identical" : "OUTPUTS DIFFER");
    });
  });
}
