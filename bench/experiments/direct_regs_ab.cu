// Standalone probe (not built by CMake): registers for the direct family's one-channel
// shape (32 x 8 threads; 2 outputs a thread at radius 1, 1 at radius 2). nvcc 13 gave those
// kernels 32 registers (-Xptxas -v, sm_90), and their SASS (cuobjdump) shows why float
// 1920x1080 5x5 ran 1.44 times the time of a bare kernel of the same shape and the same 25
// loads and 25 FMAs (bench/RESULTS.md, thirty-fourth run): a block inside the image issued
// 13 of its 25 window loads, then reused their registers, so each further load waited on
// an FMA that waited on an earlier load. Asking the register allocator for at most N
// blocks' worth (launch bounds' second argument, direct_policy's NarrowMinBlocks) lets it
// keep more loads in flight, at the price of occupancy: 6 blocks of 256 give 40
// registers, 5 give 48, 4 give 64.
//
// Times, held (the device runs the calls back to back, as hipstencil-bench --hold), best
// of two alternating rounds, float and u16, 128x128 to 3840x2160, radius 1 and 2,
// separable (a Gaussian) and dense, replicate: direct with NarrowMinBlocks 0 (the
// compiler's choice), 6, 5 and 4, beside tiled and shared_mem (their default policies) and
// automatic; checks that the four direct variants' outputs are byte-identical.
//   nvcc -std=c++17 -O3 -arch=sm_90 --expt-relaxed-constexpr -I<tree>/include \
//        -I/usr/include/eigen3 direct_regs_ab.cu -lcufft -o direct_regs_ab
#include "ab_common.hpp"
#include <cstdint>
#include <cstdio>
namespace hs = hipstencil;
namespace tu = hipstencil::tuning;

template <int MinBlocks>
using direct_with = hs::algo::direct<hs::strategy::tile_class,
                                     tu::direct_policy<32, 4, 4, tu::radii_range<1, 2>, 2, 8, 2, 1, MinBlocks>>;

template <class T>
void run_type(const char* type) {
  ab_for_each_shape_case<T>(
      {{128, 128}, {256, 256}, {512, 512}, {1024, 1024}, {1920, 1080}, {3840, 2160}},
      [&](int w, int h, int r, bool dense, hs::device_image<T>& out, auto run) {
        constexpr int V = 7;
        const char* names[V] = {"mb0", "mb6", "mb5", "mb4", "tiled", "smem", "auto"};
        double t[V][2];
        unsigned long long hash[V];
        auto one = [&](int k, auto algo) { return hashed_time_us(out, [&] { run(algo); }, hash[k], 60, true); };
        for (int rep = 0; rep < 2; ++rep) {
          t[0][rep] = one(0, direct_with<0>{});
          t[1][rep] = one(1, direct_with<6>{});
          t[2][rep] = one(2, direct_with<5>{});
          t[3][rep] = one(3, direct_with<4>{});
          t[4][rep] = one(4, hs::algo::tiled<>{});
          t[5][rep] = one(5, hs::algo::shared_mem<>{});
          t[6][rep] = one(6, hs::algo::automatic{});
        }
        const bool same = hash[1] == hash[0] && hash[2] == hash[0] && hash[3] == hash[0];
        std::printf("%-5s %4dx%-4d %-5s %dx%d", type, w, h, dense ? "dense" : "sep", 2 * r + 1, 2 * r + 1);
        const double base = std::min(t[0][0], t[0][1]);
        for (int k = 0; k < V; ++k) {
          const double b = std::min(t[k][0], t[k][1]);
          std::printf("  %s %6.2f (%.2f)", names[k], b, b / base);
        }
        std::printf("  %s\n", same ? "same" : "DIFFER");
      });
}

int main() {
  cudaFree(nullptr);
  run_type<float>("float");
  run_type<std::uint16_t>("u16");
  std::printf("last error: %s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
