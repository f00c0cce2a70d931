// Standalone probe (not built by CMake): outputs per thread of the direct family on small
// images. direct's threads compute 4 outputs of a row each (direct_policy's out_x), so a
// 128x128 image is 32 blocks of 128 threads, one warp a multiprocessor of the H200's 132;
// NPP's Gaussian there runs one output a thread, 64 blocks of 256 (bench/RESULTS.md,
// thirtieth run, Nsight Compute). This times direct with out_x 4, 2 and 1 (and 32 x 8
// threads at 1) for every pixel type (out_x_for set to the same), every other number as
// the default policy, on the same call, replicate, and checks that the outputs are
// byte-identical. Its first run (bench/results/2026-11-26-direct/direct-shape.txt) set
// direct_policy's out_x for uchar4 to 2. Its runs timed tiled2d_kernel with one output row
// a thread, the family's kernel before direct2d_kernel (small_float_probe.cu).
//   nvcc -std=c++17 -O3 -arch=sm_90 --expt-relaxed-constexpr -I<tree>/include \
//        -I/usr/include/eigen3 direct_shape_ab.cu -lcufft -o direct_shape_ab
#include "ab_common.hpp"
#include <cstdint>
#include <cstdio>
namespace hs = hipstencil;
namespace tu = hipstencil::tuning;

template <int BY, int OX>
using direct_with =
    hs::algo::direct<hs::strategy::tile_class, tu::direct_policy<32, BY, OX, tu::radii_range<1, 2>, OX, BY, OX, OX>>;

template <class T>
void run_type(const char* type) {
  ab_for_each_shape_case<T>(
      {{128, 128}, {256, 256}, {512, 512}, {724, 724}, {1024, 1024}, {1920, 1080}},
      [&](int w, int h, int r, bool dense, hs::device_image<T>& out, auto run) {
        double t[4][2];
        unsigned long long hash[4];
        auto one = [&](int k, auto algo) { return hashed_time_us(out, [&] { run(algo); }, hash[k]); };
        for (int rep = 0; rep < 2; ++rep) {  // alternating, best of two
          t[0][rep] = one(0, direct_with<4, 4>{});
          t[1][rep] = one(1, direct_with<4, 2>{});
          t[2][rep] = one(2, direct_with<4, 1>{});
          t[3][rep] = one(3, direct_with<8, 1>{});
        }
        double best[4];
        for (int k = 0; k < 4; ++k) best[k] = std::min(t[k][0], t[k][1]);
        const bool same = hash[1] == hash[0] && hash[2] == hash[0] && hash[3] == hash[0];
        std::printf("%-6s %4dx%-4d %s %dx%d  out4 %6.2f  out2 %6.2f (%.2fx)  out1 %6.2f (%.2fx)  out1x8 %6.2f (%.2fx)  %s\n",
                    type, w, h, dense ? "dense    " : "separable", 2 * r + 1, 2 * r + 1, best[0], best[1],
                    best[1] / best[0], best[2], best[2] / best[0], best[3], best[3] / best[0],
                    same ? "identical" : "OUTPUTS DIFFER");
      });
}

int main() {
  cudaFree(nullptr);
  run_type<float>("float");
  run_type<std::uint8_t>("u8");
  run_type<std::uint16_t>("u16");
  run_type<uchar4>("uchar4");
}
