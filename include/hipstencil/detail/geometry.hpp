// hipstencil/detail/geometry.hpp
// The index arithmetic of one filtering problem, shared by the host reference and every
// kernel so that both read exactly the same source pixel for each tap. (The reference's
// independence comes from double accumulation and from the host tests, which check these
// maps against scipy/OpenCV tables and against a brute-force padded-image formula.)
#pragma once

#include "../border.hpp"
#include "../image.hpp"
#include "../roi.hpp"

namespace hipstencil {
namespace detail {

/// Marks a tap outside the domain under the constant rule. Not -1: under `padded`, negative
/// parent coordinates are legitimate reads of the caller's halo.
constexpr int outside = -2147483647 - 1;

/// Geometry of a filtering problem in the source's parent coordinates.
struct geometry {
  rect domain;         ///< the border rule applies at this rectangle's edges
  int src_x0, src_y0;  ///< parent position of tap (0, 0) for output (0, 0): src_roi origin - anchor
  int dst_x0, dst_y0;  ///< target ROI origin in dst
  int width, height;   ///< ROI size in pixels
  int kw, kh;          ///< filter size in taps
  border::any border;

  /// Parent column read for window column px, or `outside` for the constant.
  HIPSTENCIL_HOST_DEVICE int map_x(int px) const {
    if (border.rule == border::kind::padded) return px;
    const int q = border::map_index(border.rule, px - domain.x, domain.width);
    return q < 0 ? outside : domain.x + q;
  }
  HIPSTENCIL_HOST_DEVICE int map_y(int py) const {
    if (border.rule == border::kind::padded) return py;
    const int q = border::map_index(border.rule, py - domain.y, domain.height);
    return q < 0 ? outside : domain.y + q;
  }
  /// True when output (x, y)'s whole window lies inside the domain (skip writes only these).
  HIPSTENCIL_HOST_DEVICE bool window_inside(int x, int y) const {
    const int px = src_x0 + x, py = src_y0 + y;
    return px >= domain.x && py >= domain.y && px + kw <= domain.x + domain.width &&
           py + kh <= domain.y + domain.height;
  }
};

/// Builds the geometry of a validated problem.
inline geometry make_geometry(rect src_bounds, rect src_roi, rect dst_roi, int kw, int kh, int anchor_x,
                              int anchor_y, border::any b, halo h) {
  geometry g;
  g.domain = h == halo::isolated ? src_roi : src_bounds;
  g.src_x0 = src_roi.x - anchor_x;
  g.src_y0 = src_roi.y - anchor_y;
  g.dst_x0 = dst_roi.x;
  g.dst_y0 = dst_roi.y;
  g.width = src_roi.width;
  g.height = src_roi.height;
  g.kw = kw;
  g.kh = kh;
  g.border = b;
  return g;
}

/// Accumulates one filter window for output (x, y) of the ROI: sum_ij k(i, j) * src(tap),
/// in accumulator type A. `tap(i, j)` returns the coefficient (row-major taps). Shared by
/// the reference (A = double) and the naive kernel (A = float).
template <class A, class In, class Taps>
HIPSTENCIL_HOST_DEVICE accum<A, pixel_traits<In>::channels> window_sum(const image_view<const In>& src,
                                                                          const geometry& g, const Taps& taps,
                                                                          int x, int y) {
  constexpr int C = pixel_traits<In>::channels;
  accum<A, C> acc;
  HIPSTENCIL_UNROLL
  for (int c = 0; c < C; ++c) acc.v[c] = A(0);
  const A cval = A(g.border.value);
  for (int j = 0; j < g.kh; ++j) {
    const int sy = g.map_y(g.src_y0 + y + j);
    const In* row = sy != outside ? src.row(sy) : nullptr;
    for (int i = 0; i < g.kw; ++i) {
      const A k = A(taps[j * g.kw + i]);
      const int sx = row ? g.map_x(g.src_x0 + x + i) : outside;
      if (sx != outside) {
        const auto p = to_accum<A>(row[sx]);
        HIPSTENCIL_UNROLL
        for (int c = 0; c < C; ++c) acc.v[c] += k * p.v[c];
      } else {
        HIPSTENCIL_UNROLL
        for (int c = 0; c < C; ++c) acc.v[c] += k * cval;
      }
    }
  }
  return acc;
}

}  // namespace detail
}  // namespace hipstencil
