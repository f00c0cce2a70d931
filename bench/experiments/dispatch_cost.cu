// Standalone probe (not built by CMake): where a small call's host time goes. At 128x128 a
// call's device-event time follows its host's enqueue time (launch_paths.cu), and there
// the bench measured automatic up to 0.8 us above the family it resolves to (float
// separable 3x3: automatic 5.54 us, direct 4.70; bench/results/2026-11-26-small/
// final-matrix.csv). Each line, over 20000 calls: the host time of resolved_algorithm
// (validation, the table and the families' fits, nothing launched), and of convolve
// queued without a sync (the same plus the launch), per call.
//   nvcc -std=c++17 -O3 -arch=sm_90 --expt-relaxed-constexpr -I<tree>/include \
//        -I/usr/include/eigen3 dispatch_cost.cu -lcufft -o dispatch_cost
#include "ab_common.hpp"
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>
namespace hs = hipstencil;

template <class T, class Filter, class Algo>
void line(const char* what, const char* algo_name, hs::device_image<T>& a, hs::device_image<T>& b, const Filter& f,
          Algo algo) {
  const hs::image_view<const T> src = a.view();
  const double resolve = host_enqueue_us([&] { (void)hs::resolved_algorithm(src, b.view(), f, hs::border::replicate{}, algo); },
                                 20000);
  const double call = host_enqueue_us([&] { hs::convolve(src, b.view(), f, hs::border::replicate{}, algo); }, 20000);
  std::printf("%-34s %-10s resolve %6.3f us  convolve %6.3f us  (%s)\n", what, algo_name, resolve, call,
              hs::resolved_algorithm(src, b.view(), f, hs::border::replicate{}, algo).str().c_str());
}

template <class T, class Filter>
void lines(const char* what, int w, int h, const Filter& f) {
  hs::device_image<T> a(w, h), b(w, h);
  line(what, "automatic", a, b, f, hs::algo::automatic{});
  line(what, "direct", a, b, f, hs::algo::direct<>{});
  line(what, "packed", a, b, f, hs::algo::packed<>{});
  line(what, "naive", a, b, f, hs::algo::naive{});
}

int main() {
  cudaFree(nullptr);
  const auto g3 = hs::filters::gaussian_taps(1.0, 1), g5 = hs::filters::gaussian_taps(1.0, 2);
  const hs::separable_filter s3(g3, g3), s5(g5, g5);
  const hs::filter2d d3 = s3.to_2d();
  lines<float>("float 128x128 separable 3x3", 128, 128, s3);
  lines<float>("float 128x128 dense 3x3", 128, 128, d3);
  lines<std::uint8_t>("u8 128x128 separable 5x5", 128, 128, s5);
  lines<std::uint8_t>("u8 128x128 dense 3x3", 128, 128, d3);
  lines<float>("float 512x512 separable 3x3", 512, 512, s3);
}
