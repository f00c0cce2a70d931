// hipstencil/detail/kernels/tiled_interior.hpp
// The tiled family's interior instance for dense filters, and the frame around it.
//
// Where the policy asks for it (tuning::tiled_policy::dense_interior: one-channel 4-byte
// pixels, whose wide dense filters are bound by FMA issue), the launcher splits the ROI in
// two ("Tiled Convolution"'s tile classes, one grid per class):
//   - the interior rectangle, whose every thread's window lies inside the read rectangle
//     and whose every output is written, runs tiled2d_interior_kernel: no class test, no
//     border code, rows unrolled at every radius (each tap index a constant, so the taps
//     are constant-bank operands of the FMAs), each row read in aligned pieces
//     (span_io.hpp: three 16-byte loads for a 9x9 float row) by warps whose lanes lie side
//     by side along it, outputs stored as whole words;
//   - the frame of up to four bands around it runs tiled2d_kernel over the bands' tiles,
//     each band a problem of its own (sub_roi), in one grid.
// The frame's grid goes first and lets the interior grid start beside it
// (platform/overlap.hpp). On the H200, float dense 9x9 at 8192x8192 took 214 us in such an
// interior kernel and 460 in tiled2d_kernel alone (8 x 8 threads, rows read pixel by pixel).
#pragma once

#include "../../platform/config.hpp"
#if HIPSTENCIL_HAS_GPU
#include <algorithm>

#include "../../platform/overlap.hpp"
#include "../geometry.hpp"
#include "accumulate.hpp"
#include "batch_image.hpp"
#include "span_io.hpp"
#include "taps.hpp"

namespace hipstencil {
namespace detail {

/// Output rectangle [x0, x1) x [y0, y1) of the ROI (ROI coordinates); empty when x1 == x0.
struct interior_rect {
  int x0, y0, x1, y1;
  bool empty() const { return x1 <= x0 || y1 <= y0; }
};

/// The largest interior rectangle for a dense filter of radius r and threads of ox
/// outputs in tiles of tw x th: its first column a multiple of ox (so that its spans keep
/// the ROI's alignment), its size whole tiles, and every window of its threads inside
/// g.read_rect() (so that, the read rectangle being the domain or the caller's halo,
/// every output in it is written under every rule).
inline interior_rect tiled_interior(const geometry& g, int r, int ox, int tw, int th) {
  const rect rr = g.read_rect();
  int x0 = std::max(0, rr.x - g.src_x0);
  x0 = (x0 + ox - 1) / ox * ox;
  const int y0 = std::max(0, rr.y - g.src_y0);
  const int xmax = std::min(g.width, rr.x + rr.width - g.src_x0 - 2 * r);   // outputs x < xmax: windows inside
  const int ymax = std::min(g.height, rr.y + rr.height - g.src_y0 - 2 * r);
  interior_rect in{x0, y0, x0, y0};
  if (xmax - x0 >= tw && ymax - y0 >= th) {
    in.x1 = x0 + (xmax - x0) / tw * tw;
    in.y1 = y0 + (ymax - y0) / th * th;
  }
  return in;
}

/// The problem of the outputs [x, x + w) x [y, y + h) of g's ROI: the same source, filter
/// and border domain, the ROI moved.
HIPSTENCIL_HOST_DEVICE inline geometry sub_roi(geometry g, int x, int y, int w, int h) {
  g.src_x0 += x, g.src_y0 += y, g.dst_x0 += x, g.dst_y0 += y;
  g.width = w, g.height = h;
  return g;
}

/// The four bands around an interior rectangle (top, bottom, left, right; some may be
/// empty), each as its own problem, and its tiles of tw x th numbered band after band.
struct tile_frame {
  geometry g[4];    ///< band b's problem (sub_roi)
  geometry gr[4];   ///< g[b].for_reads()
  int tiles_x[4];   ///< tile columns of band b
  int first[5];     ///< number of band b's first tile; first[4]: tiles in all
};

inline tile_frame make_frame(const geometry& g, const interior_rect& in, int tw, int th) {
  tile_frame f{};
  const int w = g.width, h = g.height;
  const int band[4][4] = {{0, 0, w, in.y0},
                          {0, in.y1, w, h - in.y1},
                          {0, in.y0, in.x0, in.y1 - in.y0},
                          {in.x1, in.y0, w - in.x1, in.y1 - in.y0}};
  f.first[0] = 0;
  for (int b = 0; b < 4; ++b) {
    f.g[b] = sub_roi(g, band[b][0], band[b][1], band[b][2], band[b][3]);
    f.gr[b] = f.g[b].for_reads();
    const bool any = band[b][2] > 0 && band[b][3] > 0;
    f.tiles_x[b] = any ? (band[b][2] + tw - 1) / tw : 1;
    f.first[b + 1] = f.first[b] + (any ? f.tiles_x[b] * ((band[b][3] + th - 1) / th) : 0);
  }
  return f;
}

/// Adds window row t of a thread's block, its OX + 2R pixels v, into every output row it
/// touches: output row y takes filter row t - y. tiled2d_kernel and the interior instance
/// share it, so that both sum in the same order (their outputs are bit-identical).
template <int R, int OX, int OY, class A, class Taps>
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE void add_window_row(A (&acc)[OY][OX], const A (&v)[OX + 2 * R], int t,
                                                             const Taps& taps) {
  constexpr int K = 2 * R + 1;
  HIPSTENCIL_UNROLL
  for (int y = 0; y < OY; ++y) {
    const int j = t - y;
    if (j >= 0 && j < K)
      HIPSTENCIL_UNROLL
      for (int i = 0; i < K; ++i) {
        const float w = taps[j * K + i];
        HIPSTENCIL_UNROLL
        for (int x = 0; x < OX; ++x) fma_acc(acc[y][x], w, v[x + i]);
      }
  }
}

/// Dense filter of radius R over the interior rectangle whose first output is (ix0, iy0)
/// and whose height is `rows` (a multiple of BY * OY; its width is the grid's, whole
/// tiles). Preconditions (the launcher's): every thread's window inside the read
/// rectangle, every output written, spans aligned (span_aligned). Ends after the frame's
/// grid (overlap.hpp).
template <class In, class Out, int R, int BX, int BY, int OX, int OY, bool Batch>
__global__ void __launch_bounds__(BX* BY)
    tiled2d_interior_kernel(image_view<const In> src, image_view<Out> dst, geometry g,
                            inline_taps<(2 * R + 1) * (2 * R + 1)> taps, int ix0, int iy0, int rows,
                            image_strides strides) {
  if constexpr (Batch) select_image(src, dst, strides);
  constexpr int C = pixel_traits<In>::channels, N = OX + 2 * R, TH = BY * OY;
  constexpr int VI = span_alignment<In, OX>(), VO = span_alignment<Out, OX>();
  static_assert(VI > 0 && VO > 0, "the interior instance moves whole aligned pieces");
  using A = accum<float, C>;
  const int x0 = ix0 + (int(blockIdx.x) * BX + int(threadIdx.x)) * OX;
  const int px = g.src_x0 + x0;
  for (int ty = int(blockIdx.y) * TH; ty < rows; ty += int(gridDim.y) * TH) {
    const int y0 = iy0 + ty + int(threadIdx.y) * OY;
    A acc[OY][OX];
    HIPSTENCIL_UNROLL
    for (int y = 0; y < OY; ++y)
      HIPSTENCIL_UNROLL
      for (int x = 0; x < OX; ++x) zero(acc[y][x]);
    static_loop<OY + 2 * R, true>([&](int t) {
      A v[N];
      load_span<VI, R>(v, src.row(g.src_y0 + y0 + t) + px);
      add_window_row<R>(acc, v, t, taps);
    });
    HIPSTENCIL_UNROLL
    for (int y = 0; y < OY; ++y) store_span<VO>(dst.row(g.dst_y0 + y0 + y) + g.dst_x0 + x0, acc[y]);
  }
  gpu::wait_for_primary();
}

}  // namespace detail
}  // namespace hipstencil
#endif
