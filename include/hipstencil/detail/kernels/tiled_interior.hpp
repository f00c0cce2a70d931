// hipstencil/detail/kernels/tiled_interior.hpp
// The tiled family's interior instance for dense filters, and the frame around it.
//
// Where the policy asks for it (tuning::tiled_policy::dense_interior: one-channel 4-byte
// pixels, whose wide dense filters are bound by FMA issue, and 2-byte ones at radius 1 and
// 2, where the 8-byte row pieces and whole-word stores more than halved the time of every
// other kernel from 2560x1440 on), the launcher splits the ROI in two ("Tiled
// Convolution"'s tile classes, one grid per class):
//   - the interior rectangle, whose every thread's window lies inside the read rectangle
//     and whose every output is written, runs tiled2d_interior_kernel: no class test, no
//     border code, rows unrolled at every radius (each tap index a constant, so the taps
//     are constant-bank operands of the FMAs), each row read in aligned pieces
//     (span_io.hpp: three 16-byte loads for a 9x9 float row) by warps whose lanes lie side
//     by side along it, outputs stored as whole words;
//   - the frame of up to four bands around it (the ROI's outputs within about R of its
//     edge, where windows leave the read rectangle) runs tiled2d_frame_kernel, one thread
//     a cell of up to 4 outputs of one column (1 in small frames; tiled_policy's
//     FrameCellRows and SmallFrameCellRows), its window's columns
//     mapped by the border rule once and each window row once.
// From 2^21 pixels (tiled_policy's FrameFirstMinPixels; 2-byte pixels at radius 1 at
// every size, NarrowFrameFirstMinPixels) the frame's grid goes first and lets the interior
// grid start beside it (platform/overlap.hpp); only the interior's last block waits for the
// frame.
// Below, the interior's grid goes first and the frame's, its dependent, runs in its tail,
// its last block waiting for the interior: there the second launch's host time would
// otherwise sit between the two (1920x1080 float 3x3: 0.89x to 0.96x the time;
// bench/results/2026-11-26-direct/tiled-order.txt). With every interior block waiting
// before it exited, the first wave of them was held for the frame's whole run: float 3x3
// at 8192x8192 (replicate) took 144.3 us on the H200 where the interior alone, on a
// caller-padded source, took 132.9; launched the other way round, the frame in the
// interior's tail, 143.6; as now, 141.2 (bench/results/2026-11-26-ci/frame-probe*.txt);
// with the interior's warps on whole lines as well (interior_lead), 135.9 to 136.2.
// On the H200, float dense 9x9 at 8192x8192 took 214 us in such an interior kernel and
// 460 in tiled2d_kernel alone (8 x 8 threads, rows read pixel by pixel).
// A policy may instead run both in one grid (tiled2d_fused_kernel; tiled_policy's
// FusedFrameCellRows), each block the frame's cells or the rectangle's tiles.
#pragma once

#include "../../platform/config.hpp"
#if HIPSTENCIL_HAS_GPU
#include <algorithm>
#include <cstdint>

#include "../../platform/overlap.hpp"
#include "../bordered.hpp"
#include "../geometry.hpp"
#include "../problem.hpp"
#include "accumulate.hpp"
#include "span_io.hpp"
#include "taps.hpp"

namespace hipstencil {
namespace detail {

/// Output rectangle [x0, x1) x [y0, y1) of the ROI (ROI coordinates); empty when x1 == x0.
struct interior_rect {
  int x0, y0, x1, y1;
  bool empty() const { return x1 <= x0 || y1 <= y0; }
};

/// The largest interior rectangle for a dense filter of radius r and threads of ox x oy
/// outputs: its first column a multiple of ox (so that its spans keep the ROI's
/// alignment), its width a multiple of ox and its height of oy (whole thread blocks; the
/// grid's last tiles may be partial), every window of its threads inside g.read_rect()
/// (so that, the read rectangle being the domain or the caller's halo, every output in it
/// is written under every rule), and each window row's `left` pixels before it and
/// `right` after it (what load_span reads beyond a span) inside the source view's columns
/// [0, src_width).
inline interior_rect tiled_interior(const geometry& g, int r, int ox, int oy, int src_width, int left, int right) {
  const rect rr = g.read_rect();
  int x0 = std::max({0, rr.x - g.src_x0, left - g.src_x0});
  x0 = (x0 + ox - 1) / ox * ox;
  const int y0 = std::max(0, rr.y - g.src_y0);
  int xmax = std::min(g.width, rr.x + rr.width - g.src_x0 - 2 * r);  // outputs x < xmax: windows inside
  // Only where pixels beyond the windows are read: the windows themselves may lie outside
  // the view (a caller's halo under padded has negative parent columns).
  if (left > 0 || right > 0) xmax = std::min(xmax, src_width - right - g.src_x0 - 2 * r);
  const int ymax = std::min(g.height, rr.y + rr.height - g.src_y0 - 2 * r);
  interior_rect in{x0, y0, x0, y0};
  if (xmax - x0 >= ox && ymax - y0 >= oy) {
    in.x1 = x0 + (xmax - x0) / ox * ox;
    in.y1 = y0 + (ymax - y0) / oy * oy;
  }
  return in;
}

/// The outputs of the ROI outside an interior rectangle: up to four bands (top, bottom,
/// left, right; some may be empty) of [x, x + w) x [y, y + h) in ROI coordinates, cut into
/// cells of one column and `cell_rows` rows (the last of a column may be shorter),
/// numbered row of cells by row of cells, band after band.
struct frame_bands {
  int x[4], y[4], w[4], h[4];
  long long first[5];  ///< number of band b's first cell; first[4]: cells in all
};

inline frame_bands make_frame(const geometry& g, const interior_rect& in, int cell_rows) {
  frame_bands f{};
  const int w = g.width, h = g.height;
  const int band[4][4] = {{0, 0, w, in.y0},
                          {0, in.y1, w, h - in.y1},
                          {0, in.y0, in.x0, in.y1 - in.y0},
                          {in.x1, in.y0, w - in.x1, in.y1 - in.y0}};
  f.first[0] = 0;
  for (int b = 0; b < 4; ++b) {
    f.x[b] = band[b][0], f.y[b] = band[b][1], f.w[b] = std::max(band[b][2], 1), f.h[b] = band[b][3];
    const bool any = band[b][2] > 0 && band[b][3] > 0;
    const long long cells_down = (band[b][3] + cell_rows - 1) / cell_rows;
    f.first[b + 1] = f.first[b] + (any ? (long long)band[b][2] * cells_down : 0);
  }
  return f;
}

/// How the interior instance runs one call (tiled_family::plan_interior fills it): its
/// rectangle and frame, the frame's kind of cells and instance, one grid or two and which
/// goes first, and the interior's tiles, tiles_x x tiles_y blocks of threads (grid: the
/// same with its rows split between y, up to 65535, and z, for the interior's own grid).
struct interior_plan {
  interior_rect in;
  frame_bands frame;
  bool clamp;              ///< the frame's replicate instance (min / max reads)
  bool one_grid;           ///< the rectangle and its frame as one grid (tiled2d_fused_kernel)
  bool frame_first;        ///< the frame's grid (or its blocks in the one grid) goes first
  bool small_cells;        ///< the frame in cells of the policy's small_frame_rows
  long long frame_blocks;  ///< blocks of frame_threads threads, one a cell
  int cols, rows;          ///< the rectangle's outputs a row, and its rows
  int lead;                ///< interior_lead
  int tiles_x, tiles_y;
  dim3 grid;
};

/// Outputs by which the interior grid starts before its rectangle's first column ix0, so
/// that each warp's row of outputs begins on a 128-byte line of the destination (the
/// threads before ix0 do nothing): 0 to 124 bytes' worth, a multiple of ox. Started at ix0
/// itself (4 columns in under a 3x3 window), every warp's 512 bytes of float outputs
/// straddled five lines, and the interior grid of float 3x3 at 8192x8192 took 138.7 us
/// where over the whole image from column 0 it took 133.5 (H200,
/// bench/experiments/interior_frame_split.cu; bench/results/2026-11-26-ci/split-before.txt).
template <class Out>
int interior_lead(const image_view<Out>& dst, const geometry& g, int ix0, int iy0, int ox) {
  const auto first = reinterpret_cast<std::uintptr_t>(dst.row(g.dst_y0 + iy0) + g.dst_x0 + ix0);
  const int lead = int(first % 128) / int(sizeof(Out));
  return lead - lead % ox;
}

/// Threads of a block of tiled2d_frame_kernel.
constexpr int frame_threads = 64;

/// Sets plan.frame to the frame around plan.in on g's ROI in cells of `cell_rows` rows,
/// and plan.frame_blocks to the blocks of frame_threads cells that take it.
inline void set_frame(interior_plan& plan, const geometry& g, int cell_rows) {
  plan.frame = make_frame(g, plan.in, cell_rows);
  plan.frame_blocks = (plan.frame.first[4] + frame_threads - 1) / frame_threads;
}

/// Adds window row t of a thread's block, its OX + 2R pixels v, into every output row it
/// touches: output row y takes filter row t - y. tiled2d_kernel, the interior instance and
/// the frame share it, so that all sum in the same order (their outputs are bit-identical).
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

/// Dense filter of radius R over the frame's outputs, one thread per cell (a column of up
/// to M outputs, make_frame's cell_rows; tiled_policy's FrameCellRows and
/// SmallFrameCellRows): the cell's window columns are mapped once by the border rule
/// through gr (g.for_reads()), each of its window rows is mapped once and loaded once (in
/// place where the window's columns lie inside the domain), and add_window_row applies it
/// to every output of the cell. The frame of an 8192x8192 ROI holds 1.6% of its outputs at
/// radius 4 in bands 4 to 7 pixels thick; with one thread an output and each window row
/// read output by output, its grid took 16 us at radius 4 and 62 us at radius 7 under
/// Nsight Compute on the H200 (cells of 4 rows: 11 and 25), and the call's time rose by
/// about as much. Clamp: reads clamp to gr.domain with min / max (compiled for
/// replicate, as direct2d_kernel's instance; only for a gr whose rule is replicate:
/// replicate itself, skip and padded). This thread's cells are first, first + step, ...
/// (tiled2d_frame_kernel's body, kept apart for a grid that runs the frame beside other
/// work).
template <class In, class Out, int R, bool Clamp, int M>
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE void filter_frame_cells(
    const image_view<const In>& src, const image_view<Out>& dst, const geometry& g, const geometry& gr,
    const inline_taps<(2 * R + 1) * (2 * R + 1)>& taps, const frame_bands& f, long long first, long long step) {
  constexpr int K = 2 * R + 1;
  using A = accum<float, pixel_traits<In>::channels>;
  const bordered<In> b{src, gr};
  const A outside_value = constant_accum<pixel_traits<In>::channels>(gr);
  for (long long n = first; n < f.first[4]; n += step) {
    // Band of cell n, its fields picked at constant indices (a run-time index put the
    // bands in local memory: nvcc 13, sm_90, -Xptxas -v). An empty band's first cell is
    // the next band's, so the last band whose first cell is <= n holds it.
    int bx = f.x[0], by = f.y[0], bw = f.w[0], bh = f.h[0];
    long long b0 = 0;
    HIPSTENCIL_UNROLL
    for (int k = 1; k < 4; ++k)
      if (n >= f.first[k]) bx = f.x[k], by = f.y[k], bw = f.w[k], bh = f.h[k], b0 = f.first[k];
    const int x = bx + int((n - b0) % bw), y0 = by + int((n - b0) / bw) * M;
    if (!g.writes_x(x)) continue;
    // The cell's written rows [lo, hi): a range, as skip's test in y is. Only their
    // windows' rows are read: under skip and padded, other rows may not be readable.
    int lo = M, hi = 0;
    HIPSTENCIL_UNROLL
    for (int m = 0; m < M; ++m)
      if (y0 + m < by + bh && g.writes_y(y0 + m)) lo = lo < m ? lo : m, hi = m + 1;
    if (lo >= hi) continue;
    const int px = g.src_x0 + x;
    A acc[M][1];
    HIPSTENCIL_UNROLL
    for (int m = 0; m < M; ++m) zero(acc[m][0]);
    if constexpr (Clamp) {
      // Every window row and column clamped into the domain (clamped); rows of outputs not
      // written are read too, and their sums dropped. The run-time rule's path below maps
      // each column and row through a switch and tests each read for the constant.
      const clamped<In> c(src, gr);
      int sx[K];
      HIPSTENCIL_UNROLL
      for (int i = 0; i < K; ++i) sx[i] = c.x(px + i);
      static_loop<M + 2 * R, true>([&](int t) {
        const In* p = c.row(g.src_y0 + y0 + t);
        A v[K];
        HIPSTENCIL_UNROLL
        for (int i = 0; i < K; ++i) v[i] = to_accum<float>(p[sx[i]]);
        add_window_row<R>(acc, v, t, taps);
      });
    } else {
      const bool columns_inside = px >= gr.domain.x && px + K <= gr.domain.x + gr.domain.width;
      int sx[K];  // the window's columns, mapped (outside: the constant)
      HIPSTENCIL_UNROLL
      for (int i = 0; i < K; ++i) sx[i] = columns_inside ? px + i : gr.map_x(px + i);
      static_loop<M + 2 * R, true>([&](int t) {
        A v[K];
        const In* p = t >= lo && t < hi + 2 * R ? b.row(g.src_y0 + y0 + t).p : nullptr;  // null: the constant
        if (columns_inside) {
          HIPSTENCIL_UNROLL
          for (int i = 0; i < K; ++i) v[i] = p ? to_accum<float>(p[px + i]) : outside_value;
        } else {
          HIPSTENCIL_UNROLL
          for (int i = 0; i < K; ++i) v[i] = p && sx[i] != outside ? to_accum<float>(p[sx[i]]) : outside_value;
        }
        add_window_row<R>(acc, v, t, taps);
      });
    }
    HIPSTENCIL_UNROLL
    for (int m = 0; m < M; ++m)
      if (m >= lo && m < hi) dst(g.dst_x0 + x, g.dst_y0 + y0 + m) = from_accum<Out>(acc[m][0]);
  }
}

/// filter_frame_cells over the frame f, one thread a cell, frame_threads threads a block.
/// With `frame_first`, lets the interior grid launched after it start beside it
/// (platform/overlap.hpp); without, it is that grid's dependent and its last block waits
/// for it.
template <class In, class Out, int R, bool Clamp, int M>
__global__ void __launch_bounds__(frame_threads)
    tiled2d_frame_kernel(image_view<const In> src, image_view<Out> dst, geometry g, geometry gr,
                         inline_taps<(2 * R + 1) * (2 * R + 1)> taps, frame_bands f, bool frame_first) {
  if (frame_first) gpu::allow_dependents();
  filter_frame_cells<In, Out, R, Clamp, M>(src, dst, g, gr, taps, f,
                                           (long long)blockIdx.x * frame_threads + threadIdx.x,
                                           (long long)gridDim.x * frame_threads);
  // Launched after the interior's grid (interior first): its last block alone waits for
  // that grid, as the interior's does for the frame's the other way round.
  if (!frame_first && blockIdx.x == gridDim.x - 1) gpu::wait_for_primary();
}

/// Dense filter of radius R over the interior rectangle whose first output is (ix0, iy0),
/// `cols` x `rows` outputs (multiples of OX and OY; the grid's last tiles may be partial:
/// their threads past the rectangle skip). The grid's columns start `lead` outputs before
/// ix0 (interior_lead; a multiple of OX), whose threads skip too. Preconditions (the
/// launcher's): every thread's window inside the read rectangle, every output written,
/// spans aligned (span_aligned). This block (BX x BY threads) is at column block_x and
/// row block_row of the rectangle's grid (tiled2d_interior_kernel's body, kept apart as
/// filter_frame_cells is).
template <class In, class Out, int R, int BX, int BY, int OX, int OY>
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE void filter_interior_tile(
    const image_view<const In>& src, const image_view<Out>& dst, const geometry& g,
    const inline_taps<(2 * R + 1) * (2 * R + 1)>& taps, int ix0, int iy0, int cols, int rows, int lead, int block_x,
    int block_row) {
  constexpr int C = pixel_traits<In>::channels, N = OX + 2 * R, TH = BY * OY;
  constexpr int VI = span_alignment<In, OX>(), VO = span_alignment<Out, OX>();
  static_assert(VI > 0 && VO > 0, "the interior instance moves whole aligned pieces");
  using A = accum<float, C>;
  const int xs = (block_x * BX + int(threadIdx.x)) * OX - lead, x0 = ix0 + xs;
  const int px = g.src_x0 + x0;
  // One tile a thread, its rows from the block's (block_row): a loop over tiles in y took
  // the radius 7 kernel 40 registers instead of 32 (nvcc 13, sm_90), and 8192x8192 15x15
  // 573 us instead of 564 (H200).
  const int y0 = iy0 + block_row * TH + int(threadIdx.y) * OY;
  if (xs >= 0 && xs < cols && y0 < iy0 + rows) {
    A acc[OY][OX];
    zero(acc);
    // Rows by steps of the pitch from the first: each row's own src.row() cost a 64-bit
    // multiply and its conversions, about 90 more integer instructions at 15x15 (SASS,
    // nvcc 13, sm_90), and the grid alone ran 8192x8192 15x15 in 586 us against 557 (H200).
    const char* s = reinterpret_cast<const char*>(src.row(g.src_y0 + y0) + px);
    static_loop<OY + 2 * R, true>([&](int t) {
      A v[N];
      load_span<VI, R>(v, reinterpret_cast<const In*>(s + std::size_t(t) * src.pitch_bytes));
      add_window_row<R>(acc, v, t, taps);
    });
    char* d = reinterpret_cast<char*>(dst.row(g.dst_y0 + y0) + g.dst_x0 + x0);
    HIPSTENCIL_UNROLL
    for (int y = 0; y < OY; ++y) store_span<VO>(reinterpret_cast<Out*>(d + std::size_t(y) * dst.pitch_bytes), acc[y]);
  }
}

/// filter_interior_tile a block; its rows from blockIdx.y and blockIdx.z (grid.y stops at
/// 65535). With `frame_first`, launched after the frame's grid as its dependent
/// (overlap.hpp): its last block alone waits for that grid, so that the pair ends after
/// both and no other block is held. Without, launched first: it lets the frame's grid start
/// beside it.
template <class In, class Out, int R, int BX, int BY, int OX, int OY>
__global__ void __launch_bounds__(BX* BY)
    tiled2d_interior_kernel(image_view<const In> src, image_view<Out> dst, geometry g,
                            inline_taps<(2 * R + 1) * (2 * R + 1)> taps, int ix0, int iy0, int cols, int rows,
                            int lead, bool frame_first) {
  if (!frame_first) gpu::allow_dependents();
  filter_interior_tile<In, Out, R, BX, BY, OX, OY>(src, dst, g, taps, ix0, iy0, cols, rows, lead, int(blockIdx.x),
                                                   int(blockIdx.z) * 65535 + int(blockIdx.y));
  // One waiting block suffices: the grid ends only when every block has, so work queued
  // after it sees the frame's outputs too (griddepcontrol.wait: the prerequisite grid has
  // completed and its writes are visible). The last block is dispatched last, long after
  // the frame's small grid has ended on a large image.
  if (frame_first && blockIdx.x == gridDim.x - 1 && blockIdx.y == gridDim.y - 1 && blockIdx.z == gridDim.z - 1)
    gpu::wait_for_primary();
}

/// The interior rectangle's tiles and the frame's cells of M rows in one grid of BX x BY
/// threads (BX * BY == frame_threads; a one-dimensional grid): with FrameFirst its first
/// `frame_blocks` blocks take the frame (filter_frame_cells), the rest the rectangle's
/// tiles (filter_interior_tile), numbered row by row, tiles_x a row; without, the frame's
/// blocks come last. Same sums in the same order as the two grids, so its outputs are
/// bit-identical to theirs. Why one grid: a second grid's ramp and tail stay on the call's
/// path although programmatic dependent launch overlaps the two; on the H200 under Nsight
/// Compute, 1920x1080 float dense 3x3's interior grid took 6.24 to 6.40 us and its frame's
/// 4.00 to 4.10, and the held call 7.55 where a held copy of the image took 6.14. For
/// policies whose fused_frame_rows is not 0 (tiled_policy's FusedFrameCellRows).
template <class In, class Out, int R, int BX, int BY, int OX, int OY, bool Clamp, int M, bool FrameFirst>
__global__ void __launch_bounds__(BX* BY)
    tiled2d_fused_kernel(image_view<const In> src, image_view<Out> dst, geometry g, geometry gr,
                         inline_taps<(2 * R + 1) * (2 * R + 1)> taps, frame_bands f, long long frame_blocks,
                         long long interior_blocks, int ix0, int iy0, int cols, int rows, int lead, int tiles_x) {
  static_assert(BX * BY == frame_threads, "one block shape for both");
  const long long b = blockIdx.x;
  if (FrameFirst ? b < frame_blocks : b >= interior_blocks) {
    const long long fb = FrameFirst ? b : b - interior_blocks;
    filter_frame_cells<In, Out, R, Clamp, M>(src, dst, g, gr, taps, f,
                                             fb * frame_threads + threadIdx.y * BX + threadIdx.x,
                                             frame_blocks * frame_threads);
  } else {
    const long long ib = FrameFirst ? b - frame_blocks : b;
    filter_interior_tile<In, Out, R, BX, BY, OX, OY>(src, dst, g, taps, ix0, iy0, cols, rows, lead,
                                                     int(ib % tiles_x), int(ib / tiles_x));
  }
}

/// Launches tiled2d_fused_kernel on `plan` (tiled_family::plan_interior's for p; `gr`:
/// p.g.for_reads()): its interior rectangle, plan.cols x plan.rows outputs in plan.tiles_x
/// x plan.tiles_y tiles of BX * OX x BY * OY starting plan.lead outputs before it, and its
/// frame, plan.frame_blocks blocks (Clamp: the frame's replicate instance).
/// Precondition: plan.frame is in cells of M rows (set_frame).
template <int R, int BX, int BY, int OX, int OY, bool Clamp, int M, bool FrameFirst, class In, class Out,
          class Taps>
void launch_tiled_fused(const problem<In, Out>& p, const geometry& gr, const Taps& taps, const interior_plan& plan) {
  const long long interior_blocks = (long long)plan.tiles_x * plan.tiles_y;
  tiled2d_fused_kernel<In, Out, R, BX, BY, OX, OY, Clamp, M, FrameFirst>
      <<<dim3(unsigned(plan.frame_blocks + interior_blocks)), dim3(BX, BY), 0, p.stream>>>(
          p.src, p.dst, p.g, gr, taps, plan.frame, plan.frame_blocks, interior_blocks, plan.in.x0, plan.in.y0,
          plan.cols, plan.rows, plan.lead, plan.tiles_x);
  gpu::check_launch("tiled2d_fused_kernel");
}

}  // namespace detail
}  // namespace hipstencil
#endif
