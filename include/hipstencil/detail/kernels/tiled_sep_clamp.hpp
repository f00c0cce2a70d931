// hipstencil/detail/kernels/tiled_sep_clamp.hpp
// The tiled family's separable kernel for small and medium images whose reads are
// replicate (replicate itself, and skip and padded, which read as replicate): both passes
// of tiled_sep_kernel with none of its run-time paths. A tile of BX x BY threads of OX x
// OY outputs filters its BY * OY + 2R window rows horizontally into shared memory (each
// thread OX outputs of a row from OX + 2R pixels, its columns clamped once with min / max
// and each row the same way), then each thread its OY outputs of OX columns vertically;
// every loop unrolled, so every tap is a constant-bank operand. No tile classes: on the
// images it runs on (tiled_policy's ClampSeparableMaxPixels) many tiles touch the border,
// and the clamp is a min and a max a column, once a thread, and a row.
// Why: at 128x128 NPP's fixed-tap Gaussians (one output a thread, 64 blocks of 256, rows
// then columns through shared memory) ran separable 5x5 in 2.75 us (u8, Nsight Compute,
// 188 warp instructions a warp) where the library's fastest ran 4.00 (packed's strip
// kernel, 516 a warp in 16 blocks), and tiled_sep_kernel in the same shape took 3.84 us and
// 343 a warp for float (the run-time rule on every read of a border tile, rolled loops).
// This kernel, its rows loaded one after another, took 0.78 to 1.02 times the time of the
// fastest other family from 128x128 to 1280x720 on the H200 (tiled_policy's comment has
// the figures); its rows loaded upfront (below) took less again. On three-channel pixels,
// in four channels' shapes, 0.66 to 0.97 times the faster of direct and shared_mem from
// 128x128 to 8192x8192 (tiled_policy's ClampThreeMaxPixels); from 3 * 2^18 pixels uchar3,
// ushort3 3x3 and float3 5x5 in 1 x 4 outputs a thread, 32 x 4 threads, which took 0.90 to
// 1.00 times those shapes' time (tiled_policy's ClampThreeSeparableLargeMinPixels).
// Compile-time radius only.
#pragma once

#include "../../platform/config.hpp"
#if HIPSTENCIL_HAS_GPU
#include "../bordered.hpp"
#include "../geometry.hpp"
#include "../problem.hpp"
#include "accumulate.hpp"
#include "taps.hpp"

namespace hipstencil {
namespace detail {

/// Separable filter of radius R on the ROI of `g` (`gr`: g.for_reads(), whose rule is
/// replicate), a tile of BX * OX x BY * OY outputs a block. Threads past the ROI read
/// clamped pixels (memory that exists) and store nothing. UpfrontRows: a thread loads
/// every window row of pass 1 before it filters the first (tiled_policy's
/// clamp_separable_upfront), else row after row.
template <class In, class Out, int R, int BX, int BY, int OX, int OY, bool UpfrontRows>
__global__ void __launch_bounds__(BX* BY)
    tiled_sep_clamp_kernel(image_view<const In> src, image_view<Out> dst, geometry g, geometry gr,
                           const HIPSTENCIL_GRID_CONSTANT separable_taps<2 * R + 1> taps) {
  constexpr int C = pixel_traits<In>::channels, K = 2 * R + 1, TW = BX * OX, TH = BY * OY;
  constexpr int HR = TH + 2 * R, N = OX + 2 * R;  // horizontal results' rows; a thread's window columns
  using A = accum<float, C>;
  __shared__ A h[HR][TW];
  const int tx = int(threadIdx.x), ty = int(threadIdx.y);
  const int x0 = int(blockIdx.x) * TW + tx * OX, y0 = int(blockIdx.y) * TH;  // ROI-relative
  const clamped<In> c(src, gr);
  int sx[N];
  HIPSTENCIL_UNROLL
  for (int u = 0; u < N; ++u) sx[u] = c.x(g.src_x0 + x0 + u);
  // Pass 1: window rows ty, ty + BY, ... of the tile (Q of them a thread, the last only for
  // the first HR - (Q - 1) * BY thread rows). With UpfrontRows every row is loaded before
  // the first is filtered. Row after row (a thread filtering and storing one before it
  // loads the next), Nsight Compute gave the kernel at 128x128 float 3x3, where the first
  // two warps of a 32 x 8 block have a second row (rows 8 and 9 of its 10), 3,057 active
  // cycles against NPP's Gaussian's 1,749 with fewer warp instructions (99 a warp against
  // 108), stalled on memory (8.8 cycles an issue) and at the barrier (3.1). Upfront, held,
  // best of two (bench/experiments/sep_upfront_ab.cu, bench/results/2026-11-28-sep-clamp/
  // sep-upfront-1.txt): one channel 0.92 to 1.02 times the time from 128x128 to 1280x720
  // (128x128 float 3x3: 4.19 us against 4.42); uchar4 0.95 to 0.99 in the small shape and
  // 0.97 to 1.09 in the other (724x724 5x5: 9.50 us against 8.80; nvcc 13 gave that
  // instance 75 registers upfront and 32 row after row), which keeps the walk.
  constexpr int Q = (HR + BY - 1) / BY;
  auto has_row = [&](int q) { return (q + 1) * BY <= HR || ty + q * BY < HR; };
  auto load = [&](int q, A(&v)[N]) {
    const In* p = c.row(g.src_y0 + y0 + ty + q * BY);
    HIPSTENCIL_UNROLL
    for (int u = 0; u < N; ++u) v[u] = to_accum_cvt<float>(p[sx[u]]);
  };
  // Sum x of a window row's horizontal filter, from the row's N pixels v.
  auto row_sum = [&](const A(&v)[N], int x) {
    A s;
    zero(s);
    HIPSTENCIL_UNROLL
    for (int i = 0; i < K; ++i) fma_acc(s, taps.row[i], v[x + i]);
    return s;
  };
  // The stores into h stay in the kernel's own body, in plain loops: a lambda naming a
  // __shared__ array (a static, so not captured) is a function of its own to hipcc at -O0,
  // which then allocates the array in every kernel of the translation unit (gfx90a, with
  // this kernel's and tiled_dense_clamp_kernel's arrays so named: 77,984 bytes of LDS a
  // kernel in the u8 unit, past the 64 KiB limit). nvcc 13 at -O3 made the same PTX both
  // ways (sm_90).
  if constexpr (UpfrontRows) {
    A v[Q][N];
    static_loop<Q, true>([&](int q) {
      if (has_row(q)) load(q, v[q]);
    });
    HIPSTENCIL_UNROLL
    for (int q = 0; q < Q; ++q)
      if (has_row(q))
        HIPSTENCIL_UNROLL
        for (int x = 0; x < OX; ++x) h[ty + q * BY][tx * OX + x] = row_sum(v[q], x);
  } else {
    HIPSTENCIL_UNROLL
    for (int q = 0; q < Q; ++q)
      if (has_row(q)) {
        A v[N];
        load(q, v);
        HIPSTENCIL_UNROLL
        for (int x = 0; x < OX; ++x) h[ty + q * BY][tx * OX + x] = row_sum(v, x);
      }
  }
  __syncthreads();
  // Pass 2: rows ty * OY .. ty * OY + OY + 2R - 1 of the horizontal results.
  A acc[OY][OX];
  zero(acc);
  HIPSTENCIL_UNROLL
  for (int t = 0; t < OY + 2 * R; ++t) {
    A v[OX];
    HIPSTENCIL_UNROLL
    for (int x = 0; x < OX; ++x) v[x] = h[ty * OY + t][tx * OX + x];
    HIPSTENCIL_UNROLL
    for (int y = 0; y < OY; ++y)
      if (t - y >= 0 && t - y < K)
        HIPSTENCIL_UNROLL
        for (int x = 0; x < OX; ++x) fma_acc(acc[y][x], taps.col[t - y], v[x]);
  }
  store_block<Out, OX, OY>(dst, g, acc, x0, y0 + ty * OY, false);
}

/// Whether tiled_sep_clamp_kernel's grid holds a ROI of `height` rows in tiles of `th`
/// rows (grid.y stops at 65535; taller ROIs take the family's other kernels).
inline bool tiled_sep_clamp_fits(int height, int th) { return (height + th - 1) / th <= 65535; }

/// Launches tiled_sep_clamp_kernel of radius R, BX x BY threads of OX x OY outputs, rows
/// loaded upfront or not, on p's separable filter (one image; `gr`: p.g.for_reads(),
/// replicate). Precondition: tiled_sep_clamp_fits(p.g.height, BY * OY).
template <int R, int BX, int BY, int OX, int OY, bool UpfrontRows, class In, class Out>
void launch_tiled_sep_clamp(const problem<In, Out>& p, const geometry& gr) {
  const dim3 grid(unsigned((p.g.width + BX * OX - 1) / (BX * OX)), unsigned((p.g.height + BY * OY - 1) / (BY * OY)));
  tiled_sep_clamp_kernel<In, Out, R, BX, BY, OX, OY, UpfrontRows>
      <<<grid, dim3(BX, BY), 0, p.stream>>>(p.src, p.dst, p.g, gr, pack_separable<2 * R + 1>(*p.separable));
  gpu::check_launch("tiled_sep_clamp_kernel");
}

}  // namespace detail
}  // namespace hipstencil
#endif
