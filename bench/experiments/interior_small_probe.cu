// Standalone probe (not built by CMake): tiled's interior instance for float dense 3x3 and
// 5x5 (kernels/tiled_interior.hpp) by output rows a thread, block shape and the smallest
// ROI that takes it, at the sizes users filter. For each size (512x512 to 8192x8192) and
// radius 1 and 2, under replicate: the whole call with each tuning::tiled_policy below
// (D: the defaults), the same filter as automatic runs it, the separable Gaussian of that
// radius as automatic runs it, and a copy kernel of the image's bytes (the floor: it reads
// and writes what the filter does). Each line: size, radius, variant, time (us, median of
// device-event timings), and whether the output equals variant D's.
//   nvcc -std=c++17 -O3 -arch=sm_90 --expt-relaxed-constexpr -Iinclude \
//        -I/usr/include/eigen3 interior_small_probe.cu -lcufft -o probe && ./probe
#include "ab_common.hpp"
#include <cstdio>
#include <cstdlib>
namespace hs = hipstencil;
namespace ht = hipstencil::tuning;

// Rows of `words` 16-byte words (as copy_floor.cu).
__global__ void copy16(const char* __restrict__ src, size_t sp, char* __restrict__ dst, size_t dp, int words, int rows) {
  const size_t n = size_t(words) * rows;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    const size_t y = i / words, x = i % words;
    reinterpret_cast<uint4*>(dst + y * dp)[x] = reinterpret_cast<const uint4*>(src + y * sp)[x];
  }
}

using R12 = ht::radii_range<1, 2>;
constexpr std::size_t S = ht::shared_memory_budget;
// BlockX, BlockY, OutX, OutY, Radii, Shared, DenseMinBlocks5x5, InteriorBlockX, InteriorBlockY,
// InteriorWideOutY, InteriorMinPixels. Since tiled_policy's ClampInteriorMinPixels (2^18),
// the replicate reads these calls make run the interior instance from 2^18 pixels in every
// variant; the probe's recorded runs predate it.
template <int OY, int IBX, int IBY, long long Min>
using pol = ht::tiled_policy<8, 8, 4, OY, R12, S, 12, IBX, IBY, 2, Min>;

int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::atoi(argv[1]) : 25;
  const int sizes[][2] = {{512, 512}, {1001, 997}, {1280, 720}, {1920, 1080}, {3840, 2160}, {8192, 8192}};
  for (auto& sz : sizes) {
    const int w = sz[0], h = sz[1];
    hs::device_image<float> src(w, h), out(w, h);
    unsigned s = 1234;
    fill_random(src.data(), src.pitch_bytes(), std::size_t(w) * 4, h, s);
    {
      const int words = w * 4 / 16;  // whole 16-byte words only (w * 4 % 16 == 0 for all but 1001)
      const double us = time_us([&] {
        copy16<<<1024, 256>>>(reinterpret_cast<const char*>(src.data()), src.pitch_bytes(),
                               reinterpret_cast<char*>(out.data()), out.pitch_bytes(), words, h);
      }, runs);
      std::printf("%dx%d copy %.2f us\n", w, h, us);
    }
    for (int r : {1, 2}) {
      const hs::filter2d f = ab_dense_filter(r);
      const auto gt = hs::filters::gaussian_taps(0.4 + 0.6 * r, r);
      const hs::separable_filter sep(gt, gt);
      unsigned long long ref = 0;
      auto report = [&](const char* name, auto go) {
        out.fill_bytes(0xA5);
        go();
        cudaDeviceSynchronize();
        const unsigned long long hash = hash_rows(out.data(), out.pitch_bytes(), w, h, 1, 0, 4);
        if (!ref) ref = hash;
        const double us = time_us(go, runs);
        std::printf("%dx%d r%d %-10s %.2f us %s\n", w, h, r, name, us,
                    ref == 1 ? "-" : hash == ref ? "same" : "DIFFERENT");
      };
      auto with = [&](const char* name, auto policy) {
        using P = decltype(policy);
        report(name, [&] { hs::convolve(src.view(), out.view(), f, hs::border::replicate{}, hs::algo::tiled<hs::strategy::tile_class, P>{}); });
      };
      with("D", pol<4, 32, 2, (1LL << 20)>{});
      with("Y8", pol<8, 32, 2, (1LL << 20)>{});
      with("Y2", pol<2, 32, 2, (1LL << 20)>{});
      with("Y1", pol<1, 32, 2, (1LL << 20)>{});
      with("B32x4", pol<4, 32, 4, (1LL << 20)>{});
      with("B32x4Y2", pol<2, 32, 4, (1LL << 20)>{});
      with("M16", pol<4, 32, 2, (1LL << 16)>{});
      with("M16Y2", pol<2, 32, 2, (1LL << 16)>{});
      report("auto", [&] { hs::convolve(src.view(), out.view(), f, hs::border::replicate{}); });
      ref = 1;  // the separable filter's output differs: not compared
      report("sep-auto", [&] { hs::convolve(src.view(), out.view(), sep, hs::border::replicate{}); });
    }
  }
  std::printf("last error: %s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
