// Shared by border_probe.cu and case_probe.cu: one convolve call timed on a W x H image,
// random taps (seeded), a source of 0x37 bytes, and under `padded` the bench's layout (the
// source is the interior of a larger image whose left halo is 128 bytes or 15 pixels, as
// bench/suite.hpp pads it). CUDA only; not built by CMake.
#pragma once
#include <hipstencil/hipstencil.hpp>
#include <random>
#include <vector>

#include "probe_timing.hpp"

/// Microseconds (median of 31, probe_timing.hpp) of convolve with Algo: a separable or a
/// dense (2r+1) x (2r+1) filter under rule bk (constant pads with 0), on W x H pixels.
template <class T, class Algo>
double time_case(bool sep, int r, hipstencil::border::kind bk, int W, int H) {
  namespace hs = hipstencil;
  const int k = 2 * r + 1, M = 15, HX = 128 / int(sizeof(T)) > M ? 128 / int(sizeof(T)) : M;
  auto s = alloc<T>(W, H), d = alloc<T>(W, H), p = alloc<T>(HX + W + M, H + 2 * M);
  hs::image_view<const T> src0(s.p, W, H, s.pitch);
  hs::image_view<T> dst(d.p, W, H, d.pitch);
  hs::image_view<const T> pad(p.p, HX + W + M, H + 2 * M, p.pitch);
  hs::image_view<const T> src = bk == hs::border::kind::padded ? pad.sub(hs::rect{HX, M, W, H}) : src0;
  std::mt19937 g(5);
  std::uniform_real_distribution<float> u(-1, 1);
  std::vector<float> dense(k * k), row(k), col(k);
  for (auto& x : dense) x = u(g);
  for (auto& x : row) x = u(g);
  for (auto& x : col) x = u(g);
  const hs::border::any b(bk, 0.0f);
  double us;
  if (sep) {
    const hs::separable_filter f(row, col);
    us = time_it([&] { hs::convolve(src, src.bounds(), dst, dst.bounds(), f, b, Algo{}, nullptr); });
  } else {
    const hs::filter2d f(k, k, dense);
    us = time_it([&] { hs::convolve(src, src.bounds(), dst, dst.bounds(), f, b, Algo{}, nullptr); });
  }
  cudaFree(s.p);
  cudaFree(d.p);
  cudaFree(p.p);
  return us;
}
