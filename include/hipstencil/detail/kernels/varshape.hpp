// hipstencil/detail/kernels/varshape.hpp
// The kernel of variable-shape batches (convolve_batch over varshape_image): every image
// its own size, ROIs, filter and constant, in one launch. The families take their sizes
// and taps as kernel parameters, one problem a launch; here each block reads its image's
// problem from device memory instead.
//
// Work is a flat list of tiles: image k owns tiles [first_tile[k], first_tile[k + 1]), so
// a batch of one 4K frame and a thousand thumbnails launches as many blocks as it has
// tiles (a grid sized for the largest image in every slice would be mostly empty blocks).
// A block finds its image by binary search over first_tile (uniform across the block),
// then filters one tile of 32 x 32 outputs, four a thread, with run-time
// filter sizes (3x3 and 5x5 unrolled) and taps from device memory (one address across a
// warp: a broadcast).
// Tiles whose windows lie in the read rectangle read in place and store unchecked; the
// others map every access (tile-class dispatch per image, as the families).
#pragma once

#include "../../platform/config.hpp"
#if HIPSTENCIL_HAS_GPU
#include "../bordered.hpp"
#include "taps.hpp"

namespace hipstencil {
namespace detail {

/// One image of a variable-shape batch as the kernel reads it.
template <class In, class Out>
struct varshape_desc {
  image_view<const In> src;
  image_view<Out> dst;
  geometry g;              ///< the image's own geometry (its filter's size and anchor, its constant)
  int taps_offset;         ///< where its filter's coefficients start in the batch's tap array
  int tiles_x;             ///< tiles per row of its ROI
};

/// Tile shape of the varshape kernel: 32 x 32 outputs, a block of 32 x 8 threads, each
/// thread four consecutive outputs of one column.
constexpr int varshape_block_x = 32, varshape_block_y = 8, varshape_rows = 4;

/// The outputs of one thread in a tile whose windows lie in the read rectangle: `rows`
/// consecutive rows from y (at most ROWS), read in place.
///
/// R >= 0, a square filter of 2R + 1 taps, unrolled: each source pixel of the thread's
/// ROWS + 2R rows is loaded and converted once and added to every output whose window
/// holds it. Converting each pixel once per tap instead (as naive does) took 64 frames of
/// 1920x1080 u8 with a 3x3 filter 0.78 ms on the H200 against 0.66 ms this way.
/// R < 0, any size: each tap of each output loaded and converted, each coefficient loaded
/// once for all the rows.
template <int R, int ROWS, class In, class Out>
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE void varshape_inside(const varshape_desc<In, Out>& d, const float* k, int x,
                                                              int y, int rows) {
  constexpr int C = pixel_traits<In>::channels;
  const geometry& g = d.g;
  accum<float, C> acc[ROWS];
  HIPSTENCIL_UNROLL
  for (int o = 0; o < ROWS; ++o)
    HIPSTENCIL_UNROLL
    for (int c = 0; c < C; ++c) acc[o].v[c] = 0.f;
  const int px = g.src_x0 + x;
  if constexpr (R >= 0) {
    constexpr int K = 2 * R + 1;
    float kk[K * K];
    HIPSTENCIL_UNROLL
    for (int t = 0; t < K * K; ++t) kk[t] = k[t];
    const int last = g.src_y0 + y + rows - 1 + 2 * R;  // the last row the thread's windows reach
    HIPSTENCIL_UNROLL
    for (int r = 0; r < ROWS + 2 * R; ++r) {
      // Rows past the thread's last output feed no output; they are clamped to one that
      // lies in the read rectangle and their sums are discarded below.
      const In* p = d.src.row(min(g.src_y0 + y + r, last)) + px;
      HIPSTENCIL_UNROLL
      for (int i = 0; i < K; ++i) {
        const auto v = to_accum<float>(p[i]);
        HIPSTENCIL_UNROLL
        for (int o = 0; o < ROWS; ++o) {
          const int j = r - o;
          if (j >= 0 && j < K)
            HIPSTENCIL_UNROLL
            for (int c = 0; c < C; ++c) acc[o].v[c] += kk[j * K + i] * v.v[c];
        }
      }
    }
  } else {
    for (int j = 0; j < g.kh; ++j) {
      const In* p[ROWS];
      HIPSTENCIL_UNROLL
      for (int o = 0; o < ROWS; ++o) p[o] = d.src.row(g.src_y0 + y + (o < rows ? o : 0) + j) + px;
      for (int i = 0; i < g.kw; ++i) {
        const float kv = k[j * g.kw + i];
        HIPSTENCIL_UNROLL
        for (int o = 0; o < ROWS; ++o) {
          const auto v = to_accum<float>(p[o][i]);
          HIPSTENCIL_UNROLL
          for (int c = 0; c < C; ++c) acc[o].v[c] += kv * v.v[c];
        }
      }
    }
  }
  HIPSTENCIL_UNROLL
  for (int o = 0; o < ROWS; ++o)
    if (o < rows) d.dst(g.dst_x0 + x, g.dst_y0 + y + o) = from_accum<Out>(acc[o]);
}

/// Block b (and b + gridDim.x, ...) filters tile b of the flat list of `tiles` tiles.
template <class In, class Out, int BX, int BY, int ROWS>
__global__ void __launch_bounds__(BX* BY)
    varshape_kernel(const varshape_desc<In, Out>* __restrict__ descs, const long long* __restrict__ first_tile,
                    int images, long long tiles, const float* __restrict__ taps) {
  for (long long t = blockIdx.x; t < tiles; t += gridDim.x) {
    // The last k with first_tile[k] <= t (first_tile[0] == 0, every image has a tile).
    int lo = 0, hi = images - 1;
    while (lo < hi) {
      const int mid = (lo + hi + 1) >> 1;
      if (first_tile[mid] <= t) lo = mid;
      else hi = mid - 1;
    }
    const varshape_desc<In, Out> d = descs[lo];
    const geometry& g = d.g;
    const long long local = t - first_tile[lo];
    const int x0 = int(local % d.tiles_x) * BX, y0 = int(local / d.tiles_x) * (BY * ROWS);
    const int tw = min(BX, g.width - x0), th = min(BY * ROWS, g.height - y0);
    const int x = x0 + int(threadIdx.x), y = y0 + int(threadIdx.y) * ROWS;  // rows y .. y + ROWS - 1
    if (x >= g.width || y >= g.height) continue;
    const int rows = min(ROWS, g.height - y);  // the thread's outputs in the ROI
    const float* k = taps + d.taps_offset;
    // Inside the read rectangle every output of the tile is written (under skip the
    // rectangle is the domain, so each window lies in it; under padded it covers them all).
    if (g.reads_inside(g.src_x0 + x0, g.src_y0 + y0, tw + g.kw - 1, th + g.kh - 1)) {
      // 3x3 and 5x5 (any anchor), the common sizes, unrolled; uniform across the block.
      if (g.kw == 3 && g.kh == 3) varshape_inside<1, ROWS>(d, k, x, y, rows);
      else if (g.kw == 5 && g.kh == 5) varshape_inside<2, ROWS>(d, k, x, y, rows);
      else varshape_inside<-1, ROWS>(d, k, x, y, rows);
    } else {
      const global_taps gk{k};
      HIPSTENCIL_UNROLL
      for (int o = 0; o < ROWS; ++o) {
        const int yo = y + o;
        if (o < rows && g.writes(x, yo))
          d.dst(g.dst_x0 + x, g.dst_y0 + yo) = from_accum<Out>(window_sum<float>(d.src, g, gk, x, yo));
      }
    }
  }
}

}  // namespace detail
}  // namespace hipstencil
#endif
