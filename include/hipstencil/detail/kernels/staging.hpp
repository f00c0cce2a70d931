// hipstencil/detail/kernels/staging.hpp
// The staging agent: loads a block's source region (tile plus halo) into shared memory as
// float accumulators, applying the border rule, and the tile-class test of the "Tiled
// Convolution" paper: a tile whose whole region lies inside the border domain ("free on
// read") loads with no border arithmetic at all; only perimeter tiles map each access.
// Knows nothing about launches or filters.
#pragma once

#include "../../platform/config.hpp"
#if HIPSTENCIL_HAS_GPU
#include "../bordered.hpp"
#include "accumulate.hpp"

namespace hipstencil {
namespace detail {

/// The class of one output tile ("Tiled Convolution"): its outputs inside the ROI, where
/// its windows start, and whether it is free on read (the whole region its windows cover
/// can be read with no border map) and free on write (a full tile whose every output is
/// written: no bounds checks).
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
  t.free_read = tile_class && g.reads_inside(t.px, t.py, t.ow + kw - 1, t.oh + kh - 1);
  t.free_write = t.full && g.writes_all(t.px, t.py, t.ow + kw - 1, t.oh + kh - 1);
  return t;
}

/// Stages the region of w x h pixels at (px, py) into `tile` (row pitch `tile_pitch`
/// elements), cooperatively by a block of BlockX x BlockY threads. `Checked`: map every
/// access (perimeter tiles), else plain reads. MaxWidth > 0: w <= MaxWidth (a compile-time
/// radius), so each thread's pixels of a row unroll into predicated copies.
template <int BlockX, int BlockY, int MaxWidth, bool Checked, class In>
HIPSTENCIL_DEVICE void stage_region_as(accum<float, pixel_traits<In>::channels>* tile, int tile_pitch,
                                       const bordered<In, Checked>& src, int px, int py, int w, int h) {
  if constexpr (Checked) {
    HIPSTENCIL_NO_UNROLL
    for (int ly = threadIdx.y; ly < h; ly += BlockY) {
      const auto row = src.row(py + ly);
      HIPSTENCIL_NO_UNROLL
      for (int lx = threadIdx.x; lx < w; lx += BlockX) tile[ly * tile_pitch + lx] = row.at(px + lx);
    }
  } else {
    // Each row's addresses once: through row.at(px + lx), nvcc 13 folded px + lx into the
    // row's 64-bit multiply and redid it for every pixel, and read blockDim.x each time
    // (18 instructions a pixel where fbfd303's staging took 12: shared_mem u8 5x5, sm_90).
    for (int ly = threadIdx.y; ly < h; ly += BlockY) {
      const In* s = src.src.row(py + ly) + px;
      accum<float, pixel_traits<In>::channels>* d = tile + ly * tile_pitch;
      if constexpr (MaxWidth > 0) {
        HIPSTENCIL_UNROLL
        for (int k = 0; k < (MaxWidth + BlockX - 1) / BlockX; ++k) {
          const int lx = int(threadIdx.x) + k * BlockX;
          if (lx < w) d[lx] = to_accum_cvt<float>(s[lx]);
        }
      } else {
        for (int lx = threadIdx.x; lx < w; lx += BlockX) d[lx] = to_accum_cvt<float>(s[lx]);
      }
    }
  }
}

/// stage_region_as with the choice made at run time: `free_read` tiles read in place.
template <int BlockX, int BlockY, int MaxWidth, class In>
HIPSTENCIL_DEVICE void stage_region(accum<float, pixel_traits<In>::channels>* tile, int tile_pitch,
                                    const image_view<const In>& src, const geometry& gr, int px, int py, int w,
                                    int h, bool free_read) {
  if (free_read)
    stage_region_as<BlockX, BlockY, MaxWidth>(tile, tile_pitch, bordered<In, false>{src, gr}, px, py, w, h);
  else
    stage_region_as<BlockX, BlockY, MaxWidth>(tile, tile_pitch, bordered<In, true>{src, gr}, px, py, w, h);
}

}  // namespace detail
}  // namespace hipstencil
#endif
