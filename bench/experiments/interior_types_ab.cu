// Standalone probe (not built by CMake): tiled's interior instance (kernels/
// tiled_interior.hpp) for the 8-bit pixels the library's policy does not send there: u8
// and uchar4, which automatic runs in packed's half-precision lanes at radius 1 and 2. After
// the instance took 2-byte pixels to 0.42 to 0.74 times the time of every other family from
// 2560x1440 on (interior_u16_ab.cu). A policy derived from tiled_policy<> turns it on for
// every pixel type at radius 1 and 2; this times, held, best of two alternating rounds,
// 1920x1080 to 8192x8192, radius 1 and 2, separable (a Gaussian, run as the outer product)
// and dense, replicate: tiled with that policy, tiled with the library's, and packed.
//   nvcc -std=c++17 -O3 -arch=sm_90 --expt-relaxed-constexpr -I<tree>/include \
//        -I/usr/include/eigen3 interior_types_ab.cu -lcufft -o interior_types_ab
#include "ab_common.hpp"
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>
namespace hs = hipstencil;
namespace tu = hipstencil::tuning;

// Every pixel type in the interior instance at radius 1 and 2 (dense, and separable as
// the outer product from 2^20 pixels at 3x3, 2^22 at 5x5, as for float).
struct every_type_interior : tu::tiled_policy<> {
  template <int Channels, int ChannelBytes, int R>
  static constexpr bool dense_interior = R <= 2 || (Channels == 1 && ChannelBytes == 4);
  static constexpr long long separable_interior_min_pixels(int, int, int r) {
    return r >= 1 && r <= 2 ? interior_min_pixels << (2 * (r - 1)) : -1;
  }
};
using forced = hs::algo::tiled<hs::strategy::tile_class, every_type_interior>;

template <class T>
void run_type(const char* type) {
  ab_for_each_shape_case<T>(
      {{1920, 1080}, {3840, 2160}, {8192, 8192}}, [&](int w, int h, int r, bool dense, hs::device_image<T>& out,
                                                   auto run) {
        constexpr int V = 3;
        const char* names[V] = {"interior", "tiled", "packed"};
        double t[V][2] = {};
        auto one = [&](auto algo) { return time_us([&] { run(algo); }, 40, true); };
        // The instance's output against tiled2d_kernel's, byte by byte (8-bit channels: the
        // two sum in other orders, so a rounding may differ by one).
        auto bytes = [&](auto algo) {
          out.fill_bytes(0xA5);
          run(algo);
          std::vector<unsigned char> v(std::size_t(w) * sizeof(T) * h);
          cudaMemcpy2D(v.data(), std::size_t(w) * sizeof(T), out.data(), out.pitch_bytes(), std::size_t(w) * sizeof(T),
                       h, cudaMemcpyDeviceToHost);
          return v;
        };
        const auto mine = bytes(forced{}), theirs = bytes(hs::algo::tiled<>{});
        int max_diff = 0;
        for (std::size_t i = 0; i < mine.size(); ++i)
          max_diff = std::max(max_diff, std::abs(int(mine[i]) - int(theirs[i])));
        for (int rep = 0; rep < 2; ++rep) {
          t[0][rep] = one(forced{});
          t[1][rep] = one(hs::algo::tiled<>{});
          t[2][rep] = one(hs::algo::packed<>{});
        }
        std::printf("%-7s %4dx%-4d %-5s %dx%d", type, w, h, dense ? "dense" : "sep", 2 * r + 1, 2 * r + 1);
        const double base = std::min(t[2][0], t[2][1]);
        for (int k = 0; k < V; ++k) {
          const double b = std::min(t[k][0], t[k][1]);
          std::printf("  %s %7.2f (%.2f)", names[k], b, b / base);
        }
        std::printf("  max|interior - tiled| %d\n", max_diff);
      });
}

int main() {
  cudaFree(nullptr);
  run_type<std::uint8_t>("u8");
  run_type<uchar4>("uchar4");
  std::printf("last error: %s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
