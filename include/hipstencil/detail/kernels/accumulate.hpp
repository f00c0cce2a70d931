// hipstencil/detail/kernels/accumulate.hpp
// Float accumulators of one pixel (accum<float, C>, pixel.hpp): zeroing, fused
// multiply-add of a weighted pixel, the constant border value, and a thread's block of
// outputs stored, shared by every kernel.
#pragma once

#include "../../platform/config.hpp"
#if HIPSTENCIL_HAS_GPU
#include "../geometry.hpp"

namespace hipstencil {
namespace detail {

template <int C>
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE void zero(accum<float, C>& a) {
  HIPSTENCIL_UNROLL
  for (int c = 0; c < C; ++c) a.v[c] = 0.0f;
}

/// Zeroes a thread's OY x OX block of accumulators.
template <int C, int OY, int OX>
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE void zero(accum<float, C> (&a)[OY][OX]) {
  HIPSTENCIL_UNROLL
  for (int y = 0; y < OY; ++y)
    HIPSTENCIL_UNROLL
    for (int x = 0; x < OX; ++x) zero(a[y][x]);
}

/// a += w * p, channel by channel, one rounding each (fmaf).
template <int C>
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE void fma_acc(accum<float, C>& a, float w, const accum<float, C>& p) {
  HIPSTENCIL_UNROLL
  for (int c = 0; c < C; ++c) a.v[c] = fmaf(w, p.v[c], a.v[c]);
}

/// The constant border value in every channel (border::constant's pixel outside the domain).
template <int C>
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE accum<float, C> constant_accum(const geometry& g) {
  accum<float, C> a;
  HIPSTENCIL_UNROLL
  for (int c = 0; c < C; ++c) a.v[c] = g.border.value;
  return a;
}

/// Stores a thread's OX x OY outputs at ROI-relative (x0, y0): those inside the ROI whose
/// window the rule writes (geometry::writes_window), or all of them where `free_write`
/// (the caller knows the whole block is).
template <class Out, int OX, int OY, int C>
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE void store_block(const image_view<Out>& dst, const geometry& g,
                                                          const accum<float, C> (&acc)[OY][OX], int x0, int y0,
                                                          bool free_write) {
  HIPSTENCIL_UNROLL
  for (int y = 0; y < OY; ++y)
    HIPSTENCIL_UNROLL
    for (int x = 0; x < OX; ++x)
      if (free_write || (x0 + x < g.width && y0 + y < g.height && g.writes_window(g.src_x0 + x0 + x, g.src_y0 + y0 + y)))
        dst(g.dst_x0 + x0 + x, g.dst_y0 + y0 + y) = from_accum<Out>(acc[y][x]);
}

}  // namespace detail
}  // namespace hipstencil
#endif
