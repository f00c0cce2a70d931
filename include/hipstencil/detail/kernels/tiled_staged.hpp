// hipstencil/detail/kernels/tiled_staged.hpp
// tiled_dense_staged_kernel: tiled_dense_clamp_kernel with the tile's window staged by
// whole aligned loads (group_loads.hpp) instead of one pixel a thread a load; its sums
// are the same (add_staged_window), so its outputs are bit-identical to that kernel's. For
// ushort3 above tiled_policy's small shape in loads of 8 bytes (clamp_dense_staged_bytes),
// where the source's data and pitch are aligned to the loads (group_loads_aligned);
// elsewhere the launcher runs tiled_dense_clamp_kernel.
// tiled_sep_staged_kernel: tiled_sep_clamp_kernel the same way, its sums in that kernel's
// order, so its outputs are bit-identical to its; for float3 from tiled_policy's
// ClampThreeSeparableStagedMinPixels (clamp_separable_staged).
// Why: nvcc 13 reads a ushort3 as three 2-byte loads (PTX of tiled_dense_clamp_kernel's
// 3x3 instance: 30 loads a thread), and at 8192x8192 that kernel ran ushort3 3x3 at 50% of
// the H200's copy rate. Four ushort3 in three 8-byte loads took 0.86 to 0.99 times its time
// from 512x512 to 8192x8192 and 0.97 at 128x65536 (tiled_policy's ClampDenseStagedBytes
// has the figures); float3 separable, staged, 0.86 to 0.92 times tiled_sep_clamp_kernel's
// from 1920x1080 to 3840x2160 (ClampThreeSeparableStagedMinPixels). Loads of 16 bytes for
// uchar3 and ushort3 measured slower and are not built (bench/results/2026-12-05/).
// Compile-time radius only.
#pragma once

#include "../../platform/config.hpp"
#if HIPSTENCIL_HAS_GPU
#include "../bordered.hpp"
#include "../geometry.hpp"
#include "../problem.hpp"
#include "accumulate.hpp"
#include "group_loads.hpp"
#include "taps.hpp"
#include "tiled_dense_clamp.hpp"

namespace hipstencil {
namespace detail {

/// Stages the window of this block's tile (group_tile<In, R, BX, BY, OX, OY, VB>: the
/// block at blockIdx.x, blockIdx.y of a grid of such tiles over the ROI of `g`) into s by
/// stage_groups, reads through `gr` (g.for_reads(), replicate), and waits for the block;
/// returns the tile's lead (group_tile::lead: staged column lead holds the window's first).
template <class In, int R, int BX, int BY, int OX, int OY, int VB, class A, int HR, int SW>
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE int stage_tile_window(A (&s)[HR][SW], const image_view<const In>& src,
                                                              const geometry& g, const geometry& gr) {
  using V = group_tile<In, R, BX, BY, OX, OY, VB>;
  const int a0 = g.src_x0 + int(blockIdx.x) * V::TW, lead = V::lead(a0);
  stage_groups<In, VB, V::HR, V::NW, BX * BY>(s, clamped<In>(src, gr), g.src_y0 + int(blockIdx.y) * V::TH, a0 - lead,
                                              int(threadIdx.y) * BX + int(threadIdx.x));
  __syncthreads();
  return lead;
}

/// Dense filter of radius R on the ROI of `g` (`gr`: g.for_reads(), replicate), a tile of
/// BX * OX x BY * OY outputs a block, its window staged in loads of VB bytes. Sums in
/// add_window_row's order, so its outputs are bit-identical to tiled_dense_clamp_kernel's.
template <class In, class Out, int R, int BX, int BY, int OX, int OY, int VB>
__global__ void __launch_bounds__(BX* BY)
    tiled_dense_staged_kernel(image_view<const In> src, image_view<Out> dst, geometry g, geometry gr,
                              const HIPSTENCIL_GRID_CONSTANT inline_taps<(2 * R + 1) * (2 * R + 1)> taps) {
  using V = group_tile<In, R, BX, BY, OX, OY, VB>;
  using A = accum<float, pixel_traits<In>::channels>;
  __shared__ __align__(16) A s[V::HR][V::SW];
  const int lead = stage_tile_window<In, R, BX, BY, OX, OY, VB>(s, src, g, gr);
  const int tx = int(threadIdx.x), ty = int(threadIdx.y);
  const int bx0 = int(blockIdx.x) * V::TW, by0 = int(blockIdx.y) * V::TH;  // ROI-relative
  A acc[OY][OX];
  zero(acc);
  add_staged_window<R>(acc, s, ty * OY, lead + tx * OX, taps);
  store_block<Out, OX, OY>(dst, g, acc, bx0 + tx * OX, by0 + ty * OY, false);
}

/// Launches tiled_dense_staged_kernel of radius R, BX x BY threads of OX x OY outputs,
/// loads of VB bytes, on p's dense filter (one image; `gr`: p.g.for_reads(), replicate).
/// Preconditions: tiled_sep_clamp_fits(p.g.height, BY * OY); group_loads_aligned<VB>(p.src).
template <int R, int BX, int BY, int OX, int OY, int VB, class In, class Out>
void launch_tiled_dense_staged(const problem<In, Out>& p, const geometry& gr) {
  const dim3 grid(unsigned((p.g.width + BX * OX - 1) / (BX * OX)), unsigned((p.g.height + BY * OY - 1) / (BY * OY)));
  tiled_dense_staged_kernel<In, Out, R, BX, BY, OX, OY, VB>
      <<<grid, dim3(BX, BY), 0, p.stream>>>(p.src, p.dst, p.g, gr, window_taps<(2 * R + 1) * (2 * R + 1)>(p));
  gpu::check_launch("tiled_dense_staged_kernel");
}

/// Separable filter of radius R on the ROI of `g` (`gr`: g.for_reads(), replicate), a
/// tile of BX * OX x BY * OY outputs a block, its window staged in loads of VB bytes; each
/// thread filters its OY + 2R window rows horizontally from there, then its outputs
/// vertically, in tiled_sep_clamp_kernel's order (products of a row summed left to right,
/// rows top to bottom), so its outputs are bit-identical to that kernel's.
template <class In, class Out, int R, int BX, int BY, int OX, int OY, int VB>
__global__ void __launch_bounds__(BX* BY)
    tiled_sep_staged_kernel(image_view<const In> src, image_view<Out> dst, geometry g, geometry gr,
                            const HIPSTENCIL_GRID_CONSTANT separable_taps<2 * R + 1> taps) {
  using V = group_tile<In, R, BX, BY, OX, OY, VB>;
  constexpr int K = 2 * R + 1;
  using A = accum<float, pixel_traits<In>::channels>;
  __shared__ __align__(16) A s[V::HR][V::SW];
  const int lead = stage_tile_window<In, R, BX, BY, OX, OY, VB>(s, src, g, gr);
  // The thread's first output in the tile, which is its window's first staged row and
  // (after lead) column.
  const int ox = int(threadIdx.x) * OX, oy = int(threadIdx.y) * OY;
  A acc[OY][OX];
  zero(acc);
  HIPSTENCIL_UNROLL
  for (int t = 0; t < OY + 2 * R; ++t) {
    A w[OX + 2 * R];
    HIPSTENCIL_UNROLL
    for (int u = 0; u < OX + 2 * R; ++u) w[u] = s[oy + t][lead + ox + u];
    A h[OX];
    HIPSTENCIL_UNROLL
    for (int x = 0; x < OX; ++x) {
      zero(h[x]);
      HIPSTENCIL_UNROLL
      for (int i = 0; i < K; ++i) fma_acc(h[x], taps.row[i], w[x + i]);
    }
    HIPSTENCIL_UNROLL
    for (int y = 0; y < OY; ++y)
      if (t - y >= 0 && t - y < K)
        HIPSTENCIL_UNROLL
        for (int x = 0; x < OX; ++x) fma_acc(acc[y][x], taps.col[t - y], h[x]);
  }
  store_block<Out, OX, OY>(dst, g, acc, int(blockIdx.x) * V::TW + ox, int(blockIdx.y) * V::TH + oy, false);
}

/// Launches tiled_sep_staged_kernel of radius R, BX x BY threads of OX x OY outputs, loads
/// of VB bytes, on p's separable filter (one image; `gr`: p.g.for_reads(), replicate).
/// Preconditions: tiled_sep_clamp_fits(p.g.height, BY * OY); group_loads_aligned<VB>(p.src).
template <int R, int BX, int BY, int OX, int OY, int VB, class In, class Out>
void launch_tiled_sep_staged(const problem<In, Out>& p, const geometry& gr) {
  const dim3 grid(unsigned((p.g.width + BX * OX - 1) / (BX * OX)), unsigned((p.g.height + BY * OY - 1) / (BY * OY)));
  tiled_sep_staged_kernel<In, Out, R, BX, BY, OX, OY, VB>
      <<<grid, dim3(BX, BY), 0, p.stream>>>(p.src, p.dst, p.g, gr, pack_separable<2 * R + 1>(*p.separable));
  gpu::check_launch("tiled_sep_staged_kernel");
}

}  // namespace detail
}  // namespace hipstencil
#endif
