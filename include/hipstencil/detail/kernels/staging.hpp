// hipstencil/detail/kernels/staging.hpp
// The staging agent: loads a block's source region (tile plus halo) into shared memory as
// float accumulators, applying the border rule, and the tile-class test of the "Tiled
// Convolution" paper: a tile whose whole region lies inside the border domain ("free on
// read") loads with no border arithmetic at all; only perimeter tiles map each access.
// Knows nothing about launches or filters.
#pragma once

#include "../../platform/config.hpp"
#if HIPSTENCIL_HAS_GPU
#include "../geometry.hpp"

namespace hipstencil {
namespace detail {

/// The geometry used for reads. Under `skip`, outputs whose window leaves the domain are
/// never written, but a tile's region may still reach outside: replicate keeps those
/// (unused) reads inside the image.
HIPSTENCIL_HOST_DEVICE inline geometry read_geometry(geometry g) {
  if (g.border.rule == border::kind::skip) g.border.rule = border::kind::replicate;
  return g;
}

/// True when the region [px, px + w) x [py, py + h) (parent coordinates) needs no border
/// handling: it lies inside the domain, or the caller guarantees the halo (padded).
HIPSTENCIL_HOST_DEVICE inline bool region_free_on_read(const geometry& g, int px, int py, int w, int h) {
  return g.border.rule == border::kind::padded ||
         (px >= g.domain.x && py >= g.domain.y && px + w <= g.domain.x + g.domain.width &&
          py + h <= g.domain.y + g.domain.height);
}

/// The class of one output tile ("Tiled Convolution"): its outputs inside the ROI, where
/// its windows start, and whether it is free on read (the whole region its windows cover
/// is inside the domain: no border arithmetic) and free on write (a full tile: no bounds
/// checks; under skip also every window inside, which free on read implies).
struct tile_class_info {
  int ow, oh;  ///< outputs of the tile inside the ROI (<= the tile's width and height)
  int px, py;  ///< window position (parent coordinates) of the tile's first output's tap (0, 0)
  bool full, free_read, free_write;
};

/// Classifies the tile of tw x th outputs at ROI position (tx0, ty0) for a kw x kh filter.
/// `tile_class` false (the per-access strategy) makes every tile pay on read.
HIPSTENCIL_HOST_DEVICE inline tile_class_info classify_tile(const geometry& g, int tx0, int ty0, int tw, int th,
                                                            int kw, int kh, bool tile_class) {
  tile_class_info t;
  t.ow = g.width - tx0 < tw ? g.width - tx0 : tw;
  t.oh = g.height - ty0 < th ? g.height - ty0 : th;
  t.px = g.src_x0 + tx0;
  t.py = g.src_y0 + ty0;
  t.full = t.ow == tw && t.oh == th;
  t.free_read = tile_class && region_free_on_read(g, t.px, t.py, t.ow + kw - 1, t.oh + kh - 1);
  t.free_write = t.full && (g.border.rule != border::kind::skip || t.free_read);
  return t;
}

/// The constant border value in every channel (border::constant's pixel outside the domain).
template <int C>
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE accum<float, C> constant_accum(const geometry& g) {
  accum<float, C> a;
  HIPSTENCIL_UNROLL
  for (int c = 0; c < C; ++c) a.v[c] = g.border.value;
  return a;
}

/// One source pixel at window position (px, py), border rule applied, as float channels.
template <class In>
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE accum<float, pixel_traits<In>::channels> load_mapped(
    const image_view<const In>& src, const geometry& g, int px, int py) {
  constexpr int C = pixel_traits<In>::channels;
  const int sx = g.map_x(px), sy = g.map_y(py);
  if (sx == outside || sy == outside) return constant_accum<C>(g);
  return to_accum<float>(src(sx, sy));
}

/// Stages the region of w x h pixels at (px, py) into `tile` (row pitch `tile_pitch`
/// elements), cooperatively by the whole block. `free_read` selects the unchecked loads.
template <class In>
HIPSTENCIL_DEVICE void stage_region(accum<float, pixel_traits<In>::channels>* tile, int tile_pitch,
                                    const image_view<const In>& src, const geometry& g, int px, int py, int w,
                                    int h, bool free_read) {
  if (free_read) {
    for (int ly = threadIdx.y; ly < h; ly += blockDim.y) {
      const In* row = src.row(py + ly) + px;
      for (int lx = threadIdx.x; lx < w; lx += blockDim.x) tile[ly * tile_pitch + lx] = to_accum<float>(row[lx]);
    }
  } else {
    HIPSTENCIL_NO_UNROLL
    for (int ly = threadIdx.y; ly < h; ly += blockDim.y)
      HIPSTENCIL_NO_UNROLL
      for (int lx = threadIdx.x; lx < w; lx += blockDim.x)
        tile[ly * tile_pitch + lx] = load_mapped(src, g, px + lx, py + ly);
  }
}

/// Tile shape of the shared-memory families: 32 columns; 32 rows for one channel, 16 for
/// four (the float staging of a 4-channel tile is four times larger). 32 x 8 threads.
template <int C>
struct smem_tile {
  static constexpr int block_x = 32, block_y = 8;
  static constexpr int width = 32, height = C == 1 ? 32 : 16;
  static constexpr int rows_per_thread = height / block_y;
};

}  // namespace detail
}  // namespace hipstencil
#endif
