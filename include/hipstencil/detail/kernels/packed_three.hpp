// hipstencil/detail/kernels/packed_three.hpp
// The packed family's kernel for three 8-bit channels (uchar3, interleaved RGB) whose reads
// are replicate (replicate itself, and skip and padded, which read as replicate):
// packed_three_kernel. A tile of BX x BY threads of 2 x OY outputs stages its window in
// shared memory as tiled_dense_clamp_kernel does (each pixel loaded once by one thread,
// every read clamped with min / max into the read geometry's domain), but as halves centred
// at 128, one plane a channel, as the packed family's lanes hold them
// (packed_lanes.hpp); each thread then sums its two neighbouring pixels of a channel in one
// half2 lane, every tap one __hfma2 (the odd tap columns through one byte permute of two
// lanes, as the one-channel packed kernel does), and leaves as 1024 + the rounded value.
// Same arithmetic and plan as the rest of the family (detail/packed_plan.hpp), on the
// dense filter or a separable one's outer product (one pass), so the same promise: integer
// kernels exact, other filters within 1 of the correctly rounded value.
// Why: three 8-bit channels in float are bound by instruction issue, as one is
// (packed.hpp): on an H100 automatic (tiled_dense_clamp_kernel) took 13.95 us for
// 1920x1080 uchar3 dense 3x3 where the packed family took 10.91 for uchar4, a third more
// channels (bench/results/2026-12-05-h100-staged/wide.csv). Held, best of two, against
// automatic (tiled's replicate kernels; bench/experiments/packed3_ab.cu, bench/results/
// 2026-12-05-h100-packed3/p3.txt; outputs within 1 of theirs), this kernel in its policy's
// shape took 0.78 to 0.93 times their time at dense 3x3 from 1280x720 to 8192x8192
// (1920x1080: 12.16 us; 8192x8192: 246.9 against 317.2), 0.73 to 0.87 at dense 5x5, 0.85
// to 0.97 at separable 3x3 (which tiled runs in two passes) and 0.79 to 0.89 at separable
// 5x5; at 512x512 0.93 to 1.02.
// Compile-time radius 1 and 2 (the policy's radii), one image (no batched instance).
#pragma once

#include "../../platform/config.hpp"
#if HIPSTENCIL_HAS_GPU
#include "../bordered.hpp"
#include "../geometry.hpp"
#include "../problem.hpp"
#include "../packed_plan.hpp"
#include "packed_lanes.hpp"

namespace hipstencil {
namespace detail {

/// Dense filter of radius R (taps: packed_taps of the plan, row-major) on uchar3 over the
/// ROI of `g` (`gr`: g.for_reads(), whose rule is replicate), a tile of BX * 2 x BY * OY
/// outputs a block, each thread 2 x OY of them. Threads past the ROI read clamped pixels
/// (memory that exists) and store nothing; under skip only the outputs g writes.
template <int R, int BX, int BY, int OY>
__global__ void __launch_bounds__(BX* BY)
    packed_three_kernel(image_view<const uchar3> src, image_view<uchar3> dst, geometry g, geometry gr,
                        packed_taps<(2 * R + 1) * (2 * R + 1)> taps) {
  constexpr int K = 2 * R + 1, TW = BX * 2, TH = BY * OY;
  constexpr int HW = TW + 2 * R, HR = TH + 2 * R, HWW = HW / 2;  // the window; its words a row (HW even)
  constexpr int NW = 1 + R;                                        // words a thread reads a row: 2 + 2R halves
  using share = window_share<BX, BY, HW, HR>;
  __shared__ unsigned s[3][HR][HWW];  // halves x - 128, channel planes, two a word
  const int tx = int(threadIdx.x), ty = int(threadIdx.y);
  const int bx0 = int(blockIdx.x) * TW, by0 = int(blockIdx.y) * TH;  // ROI-relative
  const share sh{tx, ty};
  unsigned v[share::rows][share::columns];  // a pixel's channels in bytes 0 to 2
  sh.load(clamped<uchar3>(src, gr), g.src_x0 + bx0, g.src_y0 + by0, v, [](const uchar3* p) {
    const uchar3 px = *p;
    return unsigned(px.x) | (unsigned(px.y) << 8) | (unsigned(px.z) << 16);
  });
  __half* h = reinterpret_cast<__half*>(&s[0][0][0]);
  constexpr int plane = HR * HW;  // halves
  sh.store(v, [&](int row, int col, unsigned w) {
    const __half2 rg = centred_pair(w, 0x4140u), b = centred_pair(w, 0x4342u);
    const int at = row * HW + col;
    h[at] = __low2half(rg);
    h[plane + at] = __high2half(rg);
    h[2 * plane + at] = __low2half(b);
  });
  __syncthreads();
  const __half2 init = word_as_half2(taps.init), add = word_as_half2(taps.add);
  __half2 acc[OY][3];
  HIPSTENCIL_UNROLL
  for (int y = 0; y < OY; ++y)
    HIPSTENCIL_UNROLL
    for (int ch = 0; ch < 3; ++ch) acc[y][ch] = init;
  // Window row t of the thread's OY + 2R, channel ch: P[u] the lanes of window columns
  // 2 tx + 2u and + 1, S[u] the pair straddling P[u] and P[u + 1]; tap column i of the
  // thread's two outputs is P[i / 2] for even i, S[i / 2] for odd.
  HIPSTENCIL_UNROLL
  for (int t = 0; t < OY + 2 * R; ++t)
    HIPSTENCIL_UNROLL
    for (int ch = 0; ch < 3; ++ch) {
      __half2 P[NW], S[NW - 1];
      HIPSTENCIL_UNROLL
      for (int u = 0; u < NW; ++u) P[u] = word_as_half2(s[ch][ty * OY + t][tx + u]);
      HIPSTENCIL_UNROLL
      for (int u = 0; u + 1 < NW; ++u) S[u] = straddle(P[u], P[u + 1]);
      HIPSTENCIL_UNROLL
      for (int y = 0; y < OY; ++y) {
        const int fy = t - y;  // the filter row window row t is for output row y
        if (fy < 0 || fy >= K) continue;
        HIPSTENCIL_UNROLL
        for (int i = 0; i < K; ++i)
          acc[y][ch] = __hfma2(word_as_half2(taps.k[fy * K + i]), (i & 1) == 0 ? P[i >> 1] : S[i >> 1], acc[y][ch]);
      }
    }
  HIPSTENCIL_UNROLL
  for (int y = 0; y < OY; ++y) {
    const int oy = by0 + ty * OY + y, x = bx0 + 2 * tx;
    if (oy >= g.height) continue;
    unsigned b[3];  // a channel's two outputs as 1024 + the value, pixel x in byte 0, x + 1 in byte 2
    HIPSTENCIL_UNROLL
    for (int ch = 0; ch < 3; ++ch) b[ch] = clamp_pair(__hadd2(acc[y][ch], add));
    uchar3* out = dst.row(g.dst_y0 + oy) + g.dst_x0;
    if (x < g.width && g.writes_window(g.src_x0 + x, g.src_y0 + oy))
      out[x] = make_uchar3((unsigned char)b[0], (unsigned char)b[1], (unsigned char)b[2]);
    if (x + 1 < g.width && g.writes_window(g.src_x0 + x + 1, g.src_y0 + oy))
      out[x + 1] = make_uchar3((unsigned char)(b[0] >> 16), (unsigned char)(b[1] >> 16), (unsigned char)(b[2] >> 16));
  }
}

/// Launches packed_three_kernel of radius R, BX x BY threads of 2 x OY outputs, on p (one
/// uchar3 image; `gr`: p.g.for_reads(), replicate) with the plan pl's taps (K x K,
/// row-major: plan_packed_dense of the dense filter or of a separable one's outer product).
/// Precondition: pl.ok, the grid's rows fit (p.g.height <= 65535 * BY * OY).
template <int R, int BX, int BY, int OY>
void launch_packed_three(const problem<uchar3, uchar3>& p, const geometry& gr, const packed_plan& pl) {
  constexpr int K = 2 * R + 1;
  const dim3 grid(unsigned((p.g.width + 2 * BX - 1) / (2 * BX)), unsigned((p.g.height + BY * OY - 1) / (BY * OY)));
  packed_three_kernel<R, BX, BY, OY>
      <<<grid, dim3(BX, BY), 0, p.stream>>>(p.src, p.dst, p.g, gr, packed_taps_of<K * K>(pl));
  gpu::check_launch("packed_three_kernel");
}

}  // namespace detail
}  // namespace hipstencil
#endif
