// hipstencil/detail/kernels/tiled_dense_clamp.hpp
// The tiled family's dense kernel for small and medium images whose reads are replicate
// (replicate itself, and skip and padded, which read as replicate):
// tiled_dense_clamp_kernel, to tiled2d_kernel what tiled_sep_clamp_kernel is to
// tiled_sep_kernel. A tile of BX x BY threads of OX x OY outputs stages its TH + 2R window
// rows of TW + 2R pixels in shared memory (each row by consecutive threads, each pixel
// converted once, every read clamped with min / max into the read geometry's domain), then
// each thread sums its outputs from there; every loop unrolled, so every tap is a
// constant-bank operand. No tile classes: on the images it runs on (tiled_policy's
// ClampDenseMaxPixels) many tiles touch the border.
// Why: on the H200, held, against the fastest of direct, packed, shared_mem and tiled
// (bench/experiments/dense_clamp_ab.cu; tiled_policy's comment has the figures), this
// kernel in the shapes taken took 0.71 to 1.00 times their time where it runs (float and
// u8 to 1280x720, uchar4 to 512x512 at 3x3 and 960x540 at 5x5; uchar4 128x128 dense 5x5:
// 4.38 us, direct 6.21). Two other stagings ran beside it in the same shapes: each thread
// reading its window straight from global memory (direct2d_kernel's way, clamped), and
// the window rows' horizontal sums staged (tiled_sep_clamp_kernel's way, 2R + 1 sums a
// pixel). At best they took 0.94 to 0.97 times this kernel's time, in some cases up to
// 256x256 (u8 128x128 3x3: 4.10 us against 4.35), and no less anywhere: not worth a
// second kernel. On three-channel pixels it took 0.55 to 0.96 times the faster of direct
// and shared_mem from 128x128 to 8192x8192 (tiled_policy's ClampThreeMaxPixels has the
// figures and the shapes).
// Compile-time radius only.
#pragma once

#include "../../platform/config.hpp"
#if HIPSTENCIL_HAS_GPU
#include "../bordered.hpp"
#include "../geometry.hpp"
#include "../problem.hpp"
#include "accumulate.hpp"
#include "taps.hpp"
#include "tiled_interior.hpp"

namespace hipstencil {
namespace detail {

/// Adds to a thread's OY x OX outputs their dense filter of radius R from a staged window
/// s: window rows row .. row + OY + 2R - 1, columns col .., in add_window_row's order.
template <int R, int OY, int OX, class A, int HR, int SW, class Taps>
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE void add_staged_window(A (&acc)[OY][OX], const A (&s)[HR][SW], int row,
                                                                int col, const Taps& taps) {
  HIPSTENCIL_UNROLL
  for (int t = 0; t < OY + 2 * R; ++t) {
    A w[OX + 2 * R];
    HIPSTENCIL_UNROLL
    for (int u = 0; u < OX + 2 * R; ++u) w[u] = s[row + t][col + u];
    add_window_row<R>(acc, w, t, taps);
  }
}

/// Dense filter of radius R on the ROI of `g` (`gr`: g.for_reads(), whose rule is
/// replicate), a tile of BX * OX x BY * OY outputs a block. Threads past the ROI read
/// clamped pixels (memory that exists) and store nothing. Sums in add_window_row's order,
/// so its outputs are bit-identical to direct2d_kernel's and tiled2d_kernel's.
template <class In, class Out, int R, int BX, int BY, int OX, int OY>
__global__ void __launch_bounds__(BX* BY)
    tiled_dense_clamp_kernel(image_view<const In> src, image_view<Out> dst, geometry g, geometry gr,
                             const HIPSTENCIL_GRID_CONSTANT inline_taps<(2 * R + 1) * (2 * R + 1)> taps) {
  constexpr int C = pixel_traits<In>::channels, TW = BX * OX, TH = BY * OY;
  constexpr int HW = TW + 2 * R, HR = TH + 2 * R;                 // the tile's window
  constexpr int NC = (HW + BX - 1) / BX, Q = (HR + BY - 1) / BY;  // a thread's columns and rows of it
  using A = accum<float, C>;
  __shared__ A s[HR][HW];
  const int tx = int(threadIdx.x), ty = int(threadIdx.y);
  const int bx0 = int(blockIdx.x) * TW, by0 = int(blockIdx.y) * TH;  // ROI-relative
  const clamped<In> c(src, gr);
  // Column tx + k * BX and row ty + q * BY of the window (the last ones for the first
  // threads only), every row loaded before the first is stored, as tiled_sep_clamp_kernel's
  // UpfrontRows: a thread's loads are then in flight together.
  auto has_column = [&](int k) { return (k + 1) * BX <= HW || tx + k * BX < HW; };
  auto has_row = [&](int q) { return (q + 1) * BY <= HR || ty + q * BY < HR; };
  int sx[NC];
  HIPSTENCIL_UNROLL
  for (int k = 0; k < NC; ++k) sx[k] = c.x(g.src_x0 + bx0 + tx + k * BX);
  A v[Q][NC];
  static_loop<Q, true>([&](int q) {
    if (has_row(q)) {
      const In* p = c.row(g.src_y0 + by0 + ty + q * BY);
      HIPSTENCIL_UNROLL
      for (int k = 0; k < NC; ++k)
        if (has_column(k)) v[q][k] = to_accum_cvt<float>(p[sx[k]]);
    }
  });
  // The stores in a plain loop, not a lambda (tiled_sep_clamp_kernel's pass 1 says why).
  HIPSTENCIL_UNROLL
  for (int q = 0; q < Q; ++q)
    if (has_row(q))
      HIPSTENCIL_UNROLL
      for (int k = 0; k < NC; ++k)
        if (has_column(k)) s[ty + q * BY][tx + k * BX] = v[q][k];
  __syncthreads();
  A acc[OY][OX];
  zero(acc);
  add_staged_window<R>(acc, s, ty * OY, tx * OX, taps);
  store_block<Out, OX, OY>(dst, g, acc, bx0 + tx * OX, by0 + ty * OY, false);
}

/// Launches tiled_dense_clamp_kernel of radius R, BX x BY threads of OX x OY outputs, on
/// p's dense filter (one image; `gr`: p.g.for_reads(), replicate).
/// Precondition: tiled_sep_clamp_fits(p.g.height, BY * OY).
template <int R, int BX, int BY, int OX, int OY, class In, class Out>
void launch_tiled_dense_clamp(const problem<In, Out>& p, const geometry& gr) {
  const dim3 grid(unsigned((p.g.width + BX * OX - 1) / (BX * OX)), unsigned((p.g.height + BY * OY - 1) / (BY * OY)));
  tiled_dense_clamp_kernel<In, Out, R, BX, BY, OX, OY>
      <<<grid, dim3(BX, BY), 0, p.stream>>>(p.src, p.dst, p.g, gr, window_taps<(2 * R + 1) * (2 * R + 1)>(p));
  gpu::check_launch("tiled_dense_clamp_kernel");
}

}  // namespace detail
}  // namespace hipstencil
#endif
