// Standalone A/B driver behind the packed family's interior strips (not built by CMake):
// times algo::packed on u8 and uchar4 images (3x3 and 5x5, dense and separable, replicate,
// constant and reflect101, 8192x8192 down to 512x512, 128x65536 and 1001x997) and prints a
// hash of each output, so that two builds of it against two trees of include/ compare
// both time and bytes. Environment: STRIP=N forces the strip length; BIG=1 runs
// 8192x8192 only. Build and run on an NVIDIA GPU, once per tree:
//   nvcc -std=c++17 -O3 -arch=sm_90 --expt-relaxed-constexpr -I<tree>/include \
//        -I/usr/include/eigen3 packed_interior_ab.cu -lcufft -o ab && ./ab
// Runs on the H200: bench/results/2026-11-25-packed/ab-run1 and ab-run2.
#include "ab_common.hpp"
#include <hipstencil/hipstencil.hpp>
#include <cuda_runtime.h>
#include <cstdlib>
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>
namespace hs = hipstencil;
template <class T>
void run_type(const char* tn, int w, int h, unsigned& s) {
  hs::device_image<T> a(w, h), b(w, h);
  std::vector<unsigned char> hbuf(size_t(w) * h * sizeof(T));
  for (auto& v : hbuf) { s = s * 1664525u + 1013904223u; v = (unsigned char)(s >> 24); }
  cudaMemcpy2D(a.data(), a.pitch_bytes(), hbuf.data(), w * sizeof(T), w * sizeof(T), h, cudaMemcpyHostToDevice);
  ab_for_each_case([&](int r, const char* rule, bool dn, auto& run) {
    auto call = [&] {
      run([&](const auto& f, auto border) {
        hs::algo::packed<> pk;
        pk.strip_rows = getenv("STRIP") ? atoi(getenv("STRIP")) : 0;
        hs::convolve(a.view(), b.view(), f, border, pk);
      });
    };
    b.fill_bytes(0xA5);
    call(); cudaDeviceSynchronize();
    std::vector<unsigned char> o(size_t(w) * h * sizeof(T));
    cudaMemcpy2D(o.data(), w * sizeof(T), b.data(), b.pitch_bytes(), w * sizeof(T), h, cudaMemcpyDeviceToHost);
    unsigned long long hash = 1469598103934665603ull;
    for (auto v : o) hash = (hash ^ v) * 1099511628211ull;
    const double us = time_us(call);
    std::printf("%s %dx%d %s r%d %s %.2f %016llx\n", tn, w, h, dn ? "dense" : "sep", r, rule, us, hash);
  });
}
int main() {
  if (getenv("BIG")) { unsigned s = 12345; run_type<uint8_t>("u8", 8192, 8192, s); run_type<uchar4>("uchar4", 8192, 8192, s); return 0; }
  unsigned s = 12345;
  struct sz { int w, h; };
  for (auto z : std::vector<sz>{{8192, 8192}, {3840, 2160}, {1920, 1080}, {1280, 720}, {512, 512}, {128, 65536}, {1001, 997}}) {
    run_type<uint8_t>("u8", z.w, z.h, s);
    run_type<uchar4>("uchar4", z.w, z.h, s);
  }
  cudaError_t e = cudaGetLastError();
  std::printf("last error: %s\n", cudaGetErrorString(e));
  return 0;
}
