// Standalone timing of the host's side of a convolve call (not built by CMake): the wall time
// of 2000 calls queued without synchronising (the queue is ahead only while the host
// enqueues faster than the device runs them), for automatic and for the family it picks,
// next to 2000 launches of an empty kernel. A call whose host time exceeds its device time
// is timed by hipstencil-bench at its host time: the queue drains between its events.
//   nvcc -std=c++17 -O3 -arch=sm_90 --expt-relaxed-constexpr -I<tree>/include \
//        -I/usr/include/eigen3 host_overhead.cu -lcufft -o host_overhead && ./host_overhead
// Run on the H200: bench/results/2026-11-25-packed/host-overhead.txt.
#include "ab_common.hpp"
#include <cuda_runtime.h>
#include <cstdio>
#include <vector>
namespace hs = hipstencil;

__global__ void empty_kernel() {}

template <class F>
double host_us_per_call(F f, int n = 2000) {
  double all = 0;
  const double enqueue = host_enqueue_us(f, n, &all);
  std::printf("  host enqueue %6.2f us/call, enqueue + drain %6.2f us/call", enqueue, all);
  return enqueue;
}

template <class T>
void run(const char* name, int w, int h) {
  hs::device_image<T> a(w, h), b(w, h);
  a.fill_bytes(3);
  const auto g = hs::filters::gaussian_taps(1.0, 1);
  const hs::separable_filter sep(g, g);
  const hs::filter2d dense = sep.to_2d();
  auto line = [&](const char* what, auto f) {
    std::printf("%-6s %dx%d %-28s", name, w, h, what);
    host_us_per_call(f);
    std::printf("\n");
  };
  line("separable 3x3 automatic", [&] { hs::convolve(a.view(), b.view(), sep, hs::border::replicate{}); });
  line("separable 3x3 direct", [&] { hs::convolve(a.view(), b.view(), sep, hs::border::replicate{}, hs::algo::direct<>{}); });
  line("dense 3x3 automatic", [&] { hs::convolve(a.view(), b.view(), dense, hs::border::replicate{}); });
  line("dense 3x3 direct", [&] { hs::convolve(a.view(), b.view(), dense, hs::border::replicate{}, hs::algo::direct<>{}); });
  if constexpr (sizeof(T) == 1) {
    line("separable 3x3 packed", [&] { hs::convolve(a.view(), b.view(), sep, hs::border::replicate{}, hs::algo::packed<>{}); });
    line("dense 3x3 packed", [&] { hs::convolve(a.view(), b.view(), dense, hs::border::replicate{}, hs::algo::packed<>{}); });
  }
}

int main() {
  std::printf("%-42s", "empty kernel launch");
  host_us_per_call([] { empty_kernel<<<1, 32>>>(); });
  std::printf("\n");
  for (int s : {128, 1920}) {
    run<std::uint8_t>("u8", s, s == 128 ? 128 : 1080);
    run<float>("float", s, s == 128 ? 128 : 1080);
  }
  std::printf("last error: %s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
