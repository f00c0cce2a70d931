// Standalone probe (not built by CMake): the floor of a held call at the sizes where
// automatic is within a microsecond of NPP (128x128 to 1920x1080). Times, as
// hipstencil-bench --hold does (ab_common.hpp's time_us, held: events around each call,
// the calls queued behind a spinning kernel), an empty kernel of one block and of the
// grids a one-pixel-a-thread float kernel takes, a kernel that copies each float once
// (16 bytes a thread), cudaMemcpy2DAsync, and hipstencil's float dense 3x3 and 5x5
// (direct, tiled, automatic) under replicate, on the same images.
//   nvcc -std=c++17 -O3 -arch=sm_90 --expt-relaxed-constexpr -I<tree>/include \
//        -I/usr/include/eigen3 held_floor.cu -lcufft -o held_floor
#include "ab_common.hpp"
#include <cstdio>
namespace hs = hipstencil;

__global__ void empty_kernel() {}

// Each thread copies one 16-byte word of a w x h float image (w a multiple of 4).
__global__ void copy_words(const char* __restrict__ src, std::size_t sp, char* __restrict__ dst, std::size_t dp,
                           int words, int rows) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < words && y < rows)
    reinterpret_cast<uint4*>(dst + y * dp)[x] = reinterpret_cast<const uint4*>(src + y * sp)[x];
}

int main() {
  cudaFree(nullptr);
  std::printf("empty <<<1, 32>>>                      %7.2f us\n", time_us([] { empty_kernel<<<1, 32>>>(); }, 60, true));
  for (auto sz : {std::pair<int, int>{128, 128}, {512, 512}, {1920, 1080}}) {
    const int w = sz.first, h = sz.second;
    hs::device_image<float> a(w, h), b(w, h);
    unsigned seed = 1u;
    fill_random_pixels(a, seed);
    const unsigned px_blocks = unsigned((std::size_t(w) * h + 255) / 256);
    const dim3 copy_grid(unsigned((w / 4 + 127) / 128), unsigned(h));
    std::printf("%4dx%-4d empty <<<%u, 256>>>          %7.2f us\n", w, h, px_blocks,
                time_us([&] { empty_kernel<<<px_blocks, 256>>>(); }, 60, true));
    std::printf("%4dx%-4d copy kernel (16 B a thread)   %7.2f us\n", w, h, time_us([&] {
      copy_words<<<copy_grid, 128>>>(reinterpret_cast<const char*>(a.data()), a.pitch_bytes(),
                                     reinterpret_cast<char*>(b.data()), b.pitch_bytes(), w / 4, h);
    }, 60, true));
    std::printf("%4dx%-4d cudaMemcpy2DAsync             %7.2f us\n", w, h, time_us([&] {
      cudaMemcpy2DAsync(b.data(), b.pitch_bytes(), a.data(), a.pitch_bytes(), std::size_t(w) * 4, h,
                        cudaMemcpyDeviceToDevice);
    }, 60, true));
    for (int r : {1, 2}) {
      const hs::filter2d f = ab_dense_filter(r);
      auto go = [&](auto algo) {
        return time_us([&] { hs::convolve(a.view(), b.view(), f, hs::border::replicate{}, algo); }, 60, true);
      };
      std::printf("%4dx%-4d dense %dx%d  direct %7.2f  tiled %7.2f  automatic %7.2f us\n", w, h, 2 * r + 1, 2 * r + 1,
                  go(hs::algo::direct<>{}), go(hs::algo::tiled<>{}), go(hs::algo::automatic{}));
    }
  }
}
