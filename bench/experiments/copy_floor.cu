// Standalone timing of the floor under a filter of one image (not built by CMake): for each
// size, a device-to-device copy of its bytes (cudaMemcpy2DAsync and a plain kernel that
// reads each 16-byte word once and writes it once), timed as hipstencil-bench times a case
// (one pair of events around each of 60 launches, queued back to back; median). A filter
// that reads and writes the same bytes cannot take less on the same GPU.
//   nvcc -O3 -arch=sm_90 copy_floor.cu -o copy_floor && ./copy_floor
// Run on the H200: bench/results/2026-11-25-packed/copy-floor.txt.
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdio>
#include <vector>

// Rows of `words` 16-byte words (the image's bytes only, not the pitch's padding).
__global__ void copy16(const char* __restrict__ src, size_t sp, char* __restrict__ dst, size_t dp, int words, int rows) {
  const size_t n = size_t(words) * rows;
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    const size_t y = i / words, x = i % words;
    reinterpret_cast<uint4*>(dst + y * dp)[x] = reinterpret_cast<const uint4*>(src + y * sp)[x];
  }
}

template <class F>
double median_us(F f) {
  static std::vector<cudaEvent_t> ev;
  if (ev.empty()) {
    ev.resize(120);
    for (auto& e : ev) cudaEventCreate(&e);
  }
  f();
  cudaDeviceSynchronize();
  for (int i = 0; i < 5; ++i) f();
  for (int i = 0; i < 60; ++i) {
    cudaEventRecord(ev[2 * i]);
    f();
    cudaEventRecord(ev[2 * i + 1]);
  }
  cudaDeviceSynchronize();
  std::vector<double> t;
  for (int i = 0; i < 60; ++i) {
    float ms = 0;
    cudaEventElapsedTime(&ms, ev[2 * i], ev[2 * i + 1]);
    t.push_back(ms * 1000.0);
  }
  std::sort(t.begin(), t.end());
  return 0.5 * (t[29] + t[30]);
}

int main() {
  const int sizes[][2] = {{128, 128}, {256, 256}, {512, 512}, {1280, 720}, {1920, 1080}, {3840, 2160}, {8192, 8192}, {128, 65536}};
  std::printf("%-12s %-6s %14s %14s %12s\n", "size", "bytes/px", "memcpy2D_us", "copy_kernel_us", "kernel_GB/s");
  for (int bpp : {1, 4}) {
    for (const auto& s : sizes) {
      const size_t row = size_t(s[0]) * bpp, bytes = row * s[1];
      void *a = nullptr, *b = nullptr;
      size_t pa = 0, pb = 0;
      cudaMallocPitch(&a, &pa, row, s[1]);
      cudaMallocPitch(&b, &pb, row, s[1]);
      cudaMemset2D(a, pa, 7, row, s[1]);
      const double m = median_us([&] { cudaMemcpy2DAsync(b, pb, a, pa, row, s[1], cudaMemcpyDeviceToDevice, 0); });
      const int words = int(row / 16);  // every row here is a multiple of 16 bytes
      const size_t n = size_t(words) * s[1];
      const int threads = 256, blocks = int(std::min<size_t>((n + threads - 1) / threads, 132 * 16));
      const double k = median_us([&] { copy16<<<blocks, threads>>>((const char*)a, pa, (char*)b, pb, words, s[1]); });
      std::printf("%5dx%-6d %-8d %14.2f %14.2f %12.0f\n", s[0], s[1], bpp, m, k, 2.0 * bytes / k / 1e3);
      cudaFree(a);
      cudaFree(b);
    }
  }
  std::printf("last error: %s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
