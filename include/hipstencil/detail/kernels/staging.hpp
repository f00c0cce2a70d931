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

/// One source pixel at window position (px, py), border rule applied, as float channels.
template <class In>
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE accum<float, pixel_traits<In>::channels> load_mapped(
    const image_view<const In>& src, const geometry& g, int px, int py) {
  constexpr int C = pixel_traits<In>::channels;
  const int sx = g.map_x(px), sy = g.map_y(py);
  if (sx == outside || sy == outside) {
    accum<float, C> a;
    HIPSTENCIL_UNROLL
    for (int c = 0; c < C; ++c) a.v[c] = g.border.value;
    return a;
  }
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
