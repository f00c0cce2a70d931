// Standalone timing probe (not built by CMake) behind the shared_mem / two_pass fixes of
// 2026-11-24: times explicit-tag calls at 8192x8192 (replicate, device events, median of 31)
// against whichever hipstencil include/ it is compiled with, so that two trees can be
// timed side by side in one call, and one case can be run alone under ncu.
// Build and run on an NVIDIA GPU, once per tree:
//   nvcc -std=c++17 -O3 -arch=sm_90 -I TREE/include -I/usr/include/eigen3 -x cu tag_probe.cu -o probe
//   ./probe LABEL [CASE]    (prints LABEL,type,algorithm,form,size,microseconds; CASE: 0-based index)
// Output of the runs: bench/results/2026-11-24-staging/probe-variants.txt.
#include <hipstencil/hipstencil.hpp>
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdio>
#include <cstdint>
#include <vector>
#include <random>
#include <cstdlib>
namespace hs = hipstencil;

#include "probe_timing.hpp"
template <class T, class Algo>
void run(const char* tname, const char* aname, bool sep, int r, const char* tag) {
  const int W = 8192, H = 8192, k = 2 * r + 1;
  auto s = alloc<T>(W, H), d = alloc<T>(W, H);
  hs::image_view<const T> src(s.p, W, H, s.pitch); hs::image_view<T> dst(d.p, W, H, d.pitch);
  std::mt19937 g(5); std::uniform_real_distribution<float> u(-1, 1);
  std::vector<float> dense(k * k), row(k), col(k);
  for (auto& x : dense) x = u(g); for (auto& x : row) x = u(g); for (auto& x : col) x = u(g);
  hs::border::any b(hs::border::kind::replicate, 0.0f);
  double us = -1;
  if (sep) {
    hs::separable_filter f(row, col);
    if constexpr (std::is_same<Algo, hs::algo::two_pass<>>::value) {
      void* w; size_t bytes = hs::two_pass_workspace_bytes<T>(W, H, f); cudaMalloc(&w, bytes);
      hs::workspace ws{w, bytes};
      us = time_it([&] { hs::convolve(src, src.bounds(), dst, dst.bounds(), f, b, Algo{}, nullptr, hs::halo::isolated, ws); });
      cudaFree(w);
    } else us = time_it([&] { hs::convolve(src, src.bounds(), dst, dst.bounds(), f, b, Algo{}, nullptr); });
  } else {
    if constexpr (!std::is_same<Algo, hs::algo::two_pass<>>::value) {
      hs::filter2d f(k, k, dense);
      us = time_it([&] { hs::convolve(src, src.bounds(), dst, dst.bounds(), f, b, Algo{}, nullptr); });
    }
  }
  printf("%s,%s,%s,%s,%dx%d,%.1f\n", tag, tname, aname, sep ? "sep" : "dense", k, k, us);
  cudaFree(s.p); cudaFree(d.p);
}
static int only = -1, idx = 0;
#define CASE(...) do { if (only < 0 || only == idx) __VA_ARGS__; ++idx; } while (0)
int main(int argc, char** argv) {
  const char* tag = argc > 1 ? argv[1] : "?";
  if (argc > 2) only = atoi(argv[2]);
  using SM = hs::algo::shared_mem<>; using TP = hs::algo::two_pass<>;
  for (int r : {1, 2, 4}) CASE(run<std::uint8_t, SM>("u8", "shared_mem", false, r, tag));
  for (int r : {2, 4, 15}) CASE(run<float, SM>("float", "shared_mem", false, r, tag));
  for (int r : {4, 7}) CASE(run<std::uint8_t, SM>("u8", "shared_mem", true, r, tag));
  for (int r : {7, 15}) CASE(run<float, TP>("float", "two_pass", true, r, tag));
  CASE(run<std::uint8_t, TP>("u8", "two_pass", true, 15, tag));
  CASE(run<hs::uchar4, SM>("uchar4", "shared_mem", true, 7, tag));
  CASE(run<float, SM>("float", "shared_mem", false, 7, tag));
  CASE(run<hs::uchar4, SM>("uchar4", "shared_mem", false, 15, tag));
  CASE(run<std::uint8_t, SM>("u8", "shared_mem", false, 15, tag));
  return 0;
}
