// hipstencil/detail/kernels/tiled_dense_clamp.hpp
// The tiled family's dense kernel for small and medium images whose reads are replicate
// (replicate itself, and skip and padded, which read as replicate): tiled2d_kernel with
// none of its run-time paths, as tiled_sep_clamp_kernel is tiled_sep_kernel's. A tile of
// BX x BY threads of OX x OY outputs; every read clamped with min / max into the read
// geometry's domain, every loop unrolled (each tap a constant-bank operand), no tile
// classes. Staged: the tile's TH + 2R window rows of TW + 2R pixels go to shared memory
// first, converted once a pixel, each row by consecutive threads; else each thread reads
// its OY + 2R window rows of OX + 2R pixels straight from global memory (through L1).
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

/// Dense filter of radius R on the ROI of `g` (`gr`: g.for_reads(), whose rule is
/// replicate), a tile of BX * OX x BY * OY outputs a block. Threads past the ROI read
/// clamped pixels (memory that exists) and store nothing. Sums in add_window_row's order,
/// so its outputs are bit-identical to direct2d_kernel's and tiled2d_kernel's.
enum class dense_clamp_stage { global, pixels, row_sums };

template <class In, class Out, int R, int BX, int BY, int OX, int OY, dense_clamp_stage Stage>
__global__ void __launch_bounds__(BX* BY)
    tiled_dense_clamp_kernel(image_view<const In> src, image_view<Out> dst, geometry g, geometry gr,
                             const HIPSTENCIL_GRID_CONSTANT inline_taps<(2 * R + 1) * (2 * R + 1)> taps) {
  constexpr int C = pixel_traits<In>::channels, TW = BX * OX, TH = BY * OY;
  constexpr int N = OX + 2 * R, M = OY + 2 * R;  // a thread's window columns and rows
  using A = accum<float, C>;
  const int tx = int(threadIdx.x), ty = int(threadIdx.y);
  const int bx0 = int(blockIdx.x) * TW, by0 = int(blockIdx.y) * TH;  // ROI-relative
  const int x0 = bx0 + tx * OX, y0 = by0 + ty * OY;
  const clamped<In> c(src, gr);
  A acc[OY][OX];
  HIPSTENCIL_UNROLL
  for (int y = 0; y < OY; ++y)
    HIPSTENCIL_UNROLL
    for (int x = 0; x < OX; ++x) zero(acc[y][x]);
  if constexpr (Stage == dense_clamp_stage::row_sums) {
    constexpr int K = 2 * R + 1, HR = TH + 2 * R, Q = (HR + BY - 1) / BY;
    __shared__ A hs[K][HR][TW];
    int sx[N];
    HIPSTENCIL_UNROLL
    for (int u = 0; u < N; ++u) sx[u] = c.x(g.src_x0 + x0 + u);
    A v[Q][N];
    auto has_row = [&](int q) { return (q + 1) * BY <= HR || ty + q * BY < HR; };
    static_loop<Q, true>([&](int q) {
      if (has_row(q)) {
        const In* p = c.row(g.src_y0 + by0 + ty + q * BY);
        HIPSTENCIL_UNROLL
        for (int u = 0; u < N; ++u) v[q][u] = to_accum_cvt<float>(p[sx[u]]);
      }
    });
    static_loop<Q, true>([&](int q) {
      if (has_row(q))
        HIPSTENCIL_UNROLL
        for (int j = 0; j < K; ++j)
          HIPSTENCIL_UNROLL
          for (int x = 0; x < OX; ++x) {
            A r;
            zero(r);
            HIPSTENCIL_UNROLL
            for (int i = 0; i < K; ++i) fma_acc(r, taps[j * K + i], v[q][x + i]);
            hs[j][ty + q * BY][tx * OX + x] = r;
          }
    });
    __syncthreads();
    HIPSTENCIL_UNROLL
    for (int y = 0; y < OY; ++y)
      HIPSTENCIL_UNROLL
      for (int j = 0; j < K; ++j)
        HIPSTENCIL_UNROLL
        for (int x = 0; x < OX; ++x) {
          const A& r = hs[j][ty * OY + y + j][tx * OX + x];
          HIPSTENCIL_UNROLL
          for (int ch = 0; ch < C; ++ch) acc[y][x].v[ch] += r.v[ch];
        }
  } else if constexpr (Stage == dense_clamp_stage::pixels) {
    constexpr int HW = TW + 2 * R, HR = TH + 2 * R;
    constexpr int NC = (HW + BX - 1) / BX, Q = (HR + BY - 1) / BY;  // a thread's columns and rows
    __shared__ A s[HR][HW];
    int sx[NC];
    HIPSTENCIL_UNROLL
    for (int k = 0; k < NC; ++k) sx[k] = c.x(g.src_x0 + bx0 + tx + k * BX);
    // Every row's pixels are loaded before the first is stored, as tiled_sep_clamp_kernel's
    // UpfrontRows: the loads of a thread are then in flight together.
    A v[Q][NC];
    static_loop<Q, true>([&](int q) {
      if ((q + 1) * BY <= HR || ty + q * BY < HR) {
        const In* p = c.row(g.src_y0 + by0 + ty + q * BY);
        HIPSTENCIL_UNROLL
        for (int k = 0; k < NC; ++k)
          if ((k + 1) * BX <= HW || tx + k * BX < HW) v[q][k] = to_accum_cvt<float>(p[sx[k]]);
      }
    });
    static_loop<Q, true>([&](int q) {
      if ((q + 1) * BY <= HR || ty + q * BY < HR)
        HIPSTENCIL_UNROLL
        for (int k = 0; k < NC; ++k)
          if ((k + 1) * BX <= HW || tx + k * BX < HW) s[ty + q * BY][tx + k * BX] = v[q][k];
    });
    __syncthreads();
    HIPSTENCIL_UNROLL
    for (int t = 0; t < M; ++t) {
      A w[N];
      HIPSTENCIL_UNROLL
      for (int u = 0; u < N; ++u) w[u] = s[ty * OY + t][tx * OX + u];
      add_window_row<R>(acc, w, t, taps);
    }
  } else {
    int sx[N];
    HIPSTENCIL_UNROLL
    for (int u = 0; u < N; ++u) sx[u] = c.x(g.src_x0 + x0 + u);
    HIPSTENCIL_UNROLL
    for (int t = 0; t < M; ++t) {
      const In* p = c.row(g.src_y0 + y0 + t);
      A w[N];
      HIPSTENCIL_UNROLL
      for (int u = 0; u < N; ++u) w[u] = to_accum_cvt<float>(p[sx[u]]);
      add_window_row<R>(acc, w, t, taps);
    }
  }
  HIPSTENCIL_UNROLL
  for (int y = 0; y < OY; ++y) {
    const int oy = y0 + y;
    HIPSTENCIL_UNROLL
    for (int x = 0; x < OX; ++x) {
      const int ox = x0 + x;
      if (ox < g.width && oy < g.height && g.writes_window(g.src_x0 + ox, g.src_y0 + oy))
        dst(g.dst_x0 + ox, g.dst_y0 + oy) = from_accum<Out>(acc[y][x]);
    }
  }
}

/// Launches tiled_dense_clamp_kernel of radius R, BX x BY threads of OX x OY outputs,
/// staged or not, on p's dense filter (one image; `gr`: p.g.for_reads(), replicate).
/// Precondition: tiled_sep_clamp_fits(p.g.height, BY * OY).
template <int R, int BX, int BY, int OX, int OY, dense_clamp_stage Stage, class In, class Out>
void launch_tiled_dense_clamp(const problem<In, Out>& p, const geometry& gr) {
  const dim3 grid(unsigned((p.g.width + BX * OX - 1) / (BX * OX)), unsigned((p.g.height + BY * OY - 1) / (BY * OY)));
  tiled_dense_clamp_kernel<In, Out, R, BX, BY, OX, OY, Stage>
      <<<grid, dim3(BX, BY), 0, p.stream>>>(p.src, p.dst, p.g, gr, window_taps<(2 * R + 1) * (2 * R + 1)>(p));
  gpu::check_launch("tiled_dense_clamp_kernel");
}

}  // namespace detail
}  // namespace hipstencil
#endif
