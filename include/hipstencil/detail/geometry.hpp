// hipstencil/detail/geometry.hpp
// The index arithmetic of one filtering problem, shared by the host reference and every
// kernel so that both read exactly the same source pixel for each tap. (The reference's
// independence comes from double accumulation and from the host tests, which check these
// maps against scipy/OpenCV tables and against a brute-force padded-image formula.)
//
// The two rules that are not index maps are predicates here, so that kernels never test
// the rule by name: `skip` is writes(x, y) (false for outputs whose window leaves the
// domain), `padded` is read_rect() (the caller's halo, where reads need no map). A new
// border rule then touches border.hpp and its tests only.
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

  /// True when output column x of the ROI may be written as far as x alone decides: always,
  /// except under skip, where its windows must lie inside the domain in x.
  HIPSTENCIL_HOST_DEVICE bool writes_x(int x) const { return writes_x(x, kw); }
  HIPSTENCIL_HOST_DEVICE bool writes_y(int y) const { return writes_y(y, kh); }
  /// The same with the filter's width or height passed in (equal to kw or kh): a kernel
  /// compiled for one radius passes its constant 2R + 1, which saved streaming 3x3 two
  /// registers (nvcc 13, sm_90) over reading kh from the parameters.
  HIPSTENCIL_HOST_DEVICE bool writes_x(int x, int taps) const {
    const int px = src_x0 + x;
    return border.rule != border::kind::skip || (px >= domain.x && px + taps <= domain.x + domain.width);
  }
  HIPSTENCIL_HOST_DEVICE bool writes_y(int y, int taps) const {
    const int py = src_y0 + y;
    return border.rule != border::kind::skip || (py >= domain.y && py + taps <= domain.y + domain.height);
  }
  /// True when output (x, y) of the ROI is written (under skip: its whole window lies
  /// inside the domain).
  HIPSTENCIL_HOST_DEVICE bool writes(int x, int y) const { return writes_x(x) && writes_y(y); }
  /// writes() of the output whose window starts at parent position (px, py), evaluated
  /// bitwise. For tiled's 16 unrolled store tests, with px = (src_x0 + x0) + x: nvcc 13
  /// then kept 5x5 float in 72 registers where writes() took 96 (-Xptxas -v, sm_90).
  HIPSTENCIL_HOST_DEVICE bool writes_window(int px, int py) const {
    return (border.rule != border::kind::skip) | ((px >= domain.x) & (py >= domain.y) &
                                                  (px + kw <= domain.x + domain.width) & (py + kh <= domain.y + domain.height));
  }
  /// True when every output whose windows cover the w x h region at window position
  /// (px, py) is written.
  HIPSTENCIL_HOST_DEVICE bool writes_all(int px, int py, int w, int h) const {
    return border.rule != border::kind::skip ||
           (px >= domain.x && py >= domain.y && px + w <= domain.x + domain.width && py + h <= domain.y + domain.height);
  }

  /// The pixels that may be read as they are, with no border map: the domain, or under
  /// padded the region the ROI's windows cover (the caller's halo; beyond it memory may
  /// not exist).
  HIPSTENCIL_HOST_DEVICE rect read_rect() const {
    if (border.rule == border::kind::padded) return rect{src_x0, src_y0, width + kw - 1, height + kh - 1};
    return domain;
  }
  /// True when the region [px, px + w) x [py, py + h) needs no border map.
  HIPSTENCIL_HOST_DEVICE bool reads_inside(int px, int py, int w, int h) const {
    const rect r = read_rect();
    return px >= r.x && py >= r.y && px + w <= r.x + r.width && py + h <= r.y + r.height;
  }
  /// The geometry that mapped reads go through. Kernels read a tile's whole region even
  /// where some of its outputs are never written; replicate keeps those (unused) reads in
  /// memory that exists: under skip the image's, under padded the caller's halo (the
  /// read rectangle, which every used read lies in, so that used reads are unchanged).
  HIPSTENCIL_HOST_DEVICE geometry for_reads() const {
    geometry g = *this;
    if (g.border.rule == border::kind::padded) g.domain = read_rect();
    if (g.border.rule == border::kind::skip || g.border.rule == border::kind::padded)
      g.border.rule = border::kind::replicate;
    return g;
  }
};

/// Bytes from one image of a uniform batch (convolve_batch) to the next, source and
/// target; 0 for one image. A batched kernel moves its views by blockIdx.z times these
/// (select_image). Every kernel takes them as its last parameter rather than in geometry:
/// 8-byte fields there raise geometry's alignment to 8, and nvcc then loads its fields
/// differently in every single-image kernel too.
struct image_strides {
  long long src_bytes = 0, dst_bytes = 0;
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

}  // namespace detail
}  // namespace hipstencil
