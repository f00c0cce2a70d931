// Standalone probe (not built by CMake): what one convolve call costs on the host against
// its device-event time, at the sizes where the GPU work is a few microseconds (u8
// 128x128 and 512x512, separable and dense 3x3 and 5x5, replicate), for automatic, direct
// and packed. Per case: the median device-event time of a call (ab_common.hpp's time_us),
// the host's time per call over 2000 calls queued back to back without a sync, and the
// time per call of that loop up to its final sync. Build and run on an NVIDIA GPU:
//   nvcc -std=c++17 -O3 -arch=sm_90 --expt-relaxed-constexpr -I<tree>/include \
//        -I/usr/include/eigen3 host_cost_probe.cu -lcufft -o probe && ./probe
// H200 figures: bench/results/2026-11-26-taps/host-cost.txt.
#include "ab_common.hpp"
#include <hipstencil/hipstencil.hpp>
#include <chrono>
#include <cstdio>
namespace hs = hipstencil;
template <class T, class F, class B, class A>
void one(const char* what, hs::device_image<T>& a, hs::device_image<T>& b, const F& f, B border, A algo) {
  auto call = [&] { hs::convolve(a.view(), b.view(), f, border, algo); };
  const double ev = time_us(call, 60);
  cudaDeviceSynchronize();
  const int n = 2000;
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < n; ++i) call();
  auto t1 = std::chrono::steady_clock::now();
  cudaDeviceSynchronize();
  auto t2 = std::chrono::steady_clock::now();
  const double host = std::chrono::duration<double, std::micro>(t1 - t0).count() / n;
  const double all = std::chrono::duration<double, std::micro>(t2 - t0).count() / n;
  std::printf("%-34s events %6.2f us  host enqueue %6.2f us/call  loop (sync at end) %6.2f us/call\n", what, ev, host, all);
}
int main() {
  const auto g2 = hs::filters::gaussian_taps(1.0, 2), g1 = hs::filters::gaussian_taps(1.0, 1);
  const hs::separable_filter s5(g2, g2), s3(g1, g1);
  const hs::filter2d d3 = ab_dense_filter(1), d5 = ab_dense_filter(2);
  for (int sz : {128, 512}) {
    hs::device_image<std::uint8_t> a(sz, sz), b(sz, sz);
    unsigned s = 1; fill_random(a.data(), a.pitch_bytes(), sz, sz, s);
    char w[64];
    auto both = [&](const char* fn, const auto& f) {
      std::snprintf(w, sizeof w, "u8 %d %s automatic", sz, fn); one(w, a, b, f, hs::border::replicate{}, hs::algo::automatic{});
      std::snprintf(w, sizeof w, "u8 %d %s direct", sz, fn); one(w, a, b, f, hs::border::replicate{}, hs::algo::direct<>{});
      std::snprintf(w, sizeof w, "u8 %d %s packed", sz, fn); one(w, a, b, f, hs::border::replicate{}, hs::algo::packed<>{});
    };
    both("sep5", s5); both("sep3", s3); both("dense3", d3); both("dense5", d5);
  }
  return 0;
}
