// hipstencil/detail/bordered.hpp
// Source reads through the border rule: the one spelling of a mapped read, for the host
// reference (double) and every kernel (float). After OpenCV cudev's BrdBase and CV-CUDA's
// BorderWrap: a small value type over a view and the geometry. A row is mapped once and
// then each column, so that a loop over a window row pays one row map. Kernels compiled for
// replicate read through `clamped` instead: min / max, no map.
#pragma once

#include "../platform/config.hpp"
#include "geometry.hpp"

namespace hipstencil {
namespace detail {

/// Source pixels of type In read through the geometry's border rule. `Checked` false
/// reads in place: the caller has established that the pixels lie in g.read_rect().
template <class In, bool Checked = true>
struct bordered {
  static constexpr int channels = pixel_traits<In>::channels;
  image_view<const In> src;
  geometry g;  ///< the read geometry (geometry::for_reads)

  /// One window row, mapped: `p` the source row, or null for a row outside the domain
  /// under the constant rule (every pixel of it is the constant).
  struct row_ref {
    const In* p;
    geometry g;  // by value: a pointer to a kernel's local would keep it out of registers
    /// Pixel at window column px, as A channels.
    template <class A = float>
    HIPSTENCIL_HOST_DEVICE accum<A, channels> at(int px) const {
      if constexpr (!Checked) {
        return to_accum<A>(p[px]);
      } else {
        const int sx = p ? g.map_x(px) : outside;
        if (sx != outside) return to_accum<A>(p[sx]);
        accum<A, channels> c;
        HIPSTENCIL_UNROLL
        for (int k = 0; k < channels; ++k) c.v[k] = A(g.border.value);
        return c;
      }
    }
  };

  /// Window row py.
  HIPSTENCIL_HOST_DEVICE row_ref row(int py) const {
    if constexpr (!Checked) {
      return row_ref{src.row(py), g};
    } else {
      const int sy = g.map_y(py);
      return row_ref{sy != outside ? src.row(sy) : nullptr, g};
    }
  }
  /// Pixel at window position (px, py), as A channels.
  template <class A = float>
  HIPSTENCIL_HOST_DEVICE accum<A, channels> operator()(int px, int py) const {
    return row(py).template at<A>(px);
  }
};

#if HIPSTENCIL_HAS_GPU
/// Source pixels of type In read with replicate's rule as min / max: every column and row
/// clamped into the read geometry's domain, so that every read is of memory that exists
/// (under padded the domain is the caller's halo: geometry::for_reads). The kernels'
/// instances compiled for replicate (direct2d_kernel's and tiled2d_frame_kernel's Clamp,
/// and tiled_sep_clamp_kernel) read through it in place of bordered's switch a column and
/// a row and its test for the constant on every read; only for a geometry whose rule is
/// replicate (replicate itself, skip and padded).
template <class In>
struct clamped {
  image_view<const In> src;
  int x_lo, x_hi, y_lo, y_hi;  ///< the domain's first and last column and row
  HIPSTENCIL_DEVICE clamped(const image_view<const In>& s, const geometry& gr)
      : src(s),
        x_lo(gr.domain.x),
        x_hi(gr.domain.x + gr.domain.width - 1),
        y_lo(gr.domain.y),
        y_hi(gr.domain.y + gr.domain.height - 1) {}
  /// The column read for window column px.
  HIPSTENCIL_DEVICE int x(int px) const { return min(max(px, x_lo), x_hi); }
  /// The row read for window row py.
  HIPSTENCIL_DEVICE const In* row(int py) const { return src.row(min(max(py, y_lo), y_hi)); }
};

/// A tile's window of HR rows of HW pixels shared among BX x BY threads: thread (tx, ty)
/// holds window column tx + k * BX and row ty + q * BY (the last ones for the first
/// threads only), `columns` x `rows` of them. For kernels that stage a window read through
/// `clamped` (packed_three_kernel, packed_four_kernel).
template <int BX, int BY, int HW, int HR>
struct window_share {
  static constexpr int columns = (HW + BX - 1) / BX, rows = (HR + BY - 1) / BY;
  int tx, ty;
  HIPSTENCIL_DEVICE bool has_column(int k) const { return (k + 1) * BX <= HW || tx + k * BX < HW; }
  HIPSTENCIL_DEVICE bool has_row(int q) const { return (q + 1) * BY <= HR || ty + q * BY < HR; }
  /// v[q][k] = get(pointer to the pixel) for each pixel of the share, the window's first
  /// pixel at parent (x0, y0), every read clamped; every load before the first store, so
  /// that a thread's loads are in flight together.
  template <class In, class V, class Get>
  HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE void load(const clamped<In>& c, int x0, int y0, V (&v)[rows][columns],
                                                     Get get) const {
    int sx[columns];
    HIPSTENCIL_UNROLL
    for (int k = 0; k < columns; ++k) sx[k] = c.x(x0 + tx + k * BX);
    HIPSTENCIL_UNROLL
    for (int q = 0; q < rows; ++q)
      if (has_row(q)) {
        const In* p = c.row(y0 + ty + q * BY);
        HIPSTENCIL_UNROLL
        for (int k = 0; k < columns; ++k)
          if (has_column(k)) v[q][k] = get(p + sx[k]);
      }
  }
  /// put(window row, window column, v[q][k]) for each pixel of the share.
  template <class V, class Put>
  HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE void store(const V (&v)[rows][columns], Put put) const {
    HIPSTENCIL_UNROLL
    for (int q = 0; q < rows; ++q)
      if (has_row(q))
        HIPSTENCIL_UNROLL
        for (int k = 0; k < columns; ++k)
          if (has_column(k)) put(ty + q * BY, tx + k * BX, v[q][k]);
  }
};
#endif

/// Accumulates one filter window for output (x, y) of the ROI: sum_ij k(i, j) * src(tap),
/// in accumulator type A. `taps[j * kw + i]` is the coefficient. Shared by the reference
/// (A = double) and the naive and varshape kernels (A = float).
template <class A, class In, class Taps>
HIPSTENCIL_HOST_DEVICE accum<A, pixel_traits<In>::channels> window_sum(const image_view<const In>& src,
                                                                          const geometry& g, const Taps& taps,
                                                                          int x, int y) {
  constexpr int C = pixel_traits<In>::channels;
  const bordered<In> b{src, g};
  accum<A, C> acc;
  HIPSTENCIL_UNROLL
  for (int c = 0; c < C; ++c) acc.v[c] = A(0);
  for (int j = 0; j < g.kh; ++j) {
    const auto row = b.row(g.src_y0 + y + j);
    for (int i = 0; i < g.kw; ++i) {
      const A k = A(taps[j * g.kw + i]);
      const auto p = row.template at<A>(g.src_x0 + x + i);
      HIPSTENCIL_UNROLL
      for (int c = 0; c < C; ++c) acc.v[c] += k * p.v[c];
    }
  }
  return acc;
}

}  // namespace detail
}  // namespace hipstencil
