// hipstencil/detail/kernels/packed_four.hpp
// The packed family's tile kernel for four 8-bit channels (uchar4, RGBA) whose reads are
// replicate (replicate itself, and skip and padded, which read as replicate), for small
// and medium images: packed_four_kernel. A tile of BX x BY threads of 1 x OY outputs
// stages its window in shared memory as tiled_dense_clamp_kernel does (each pixel loaded
// once by one thread, every read clamped with min / max into the read geometry's domain),
// but each pixel as the packed family's two half2 lanes (channels 0-1 and 2-3, less 128;
// packed_lanes.hpp), 8 bytes; each thread then sums its outputs with one __hfma2 a lane and
// tap, and leaves as 1024 + the rounded value. Same arithmetic and plan as the rest of the
// family (detail/packed_plan.hpp), on the dense filter or a separable one's outer product
// (one pass), so the same promise: integer kernels exact, other filters within 1 of the
// correctly rounded value.
// Why: tiled_dense_clamp_kernel stages uchar4 as float4, 16 bytes a pixel, and reads a
// thread's window back in 16-byte loads, four float FMAs a tap and pixel; the lanes halve
// the arithmetic and the bytes a thread reads from shared memory. Held, on an H100, this
// kernel took 0.74 to 1.01 times the time of automatic's choice before it from 128x128 to
// 1280x720 (512x512 dense 3x3: 5.18 us against tiled's 6.02; packed_policy's comment has
// the figures and the shapes); under Nsight Compute 512x512 dense 3x3 ran 831,488 warp
// instructions in 3.9 us where NPP's FilterBorder ran 2.0 million in 5.6 to 5.9
// (bench/results/2026-12-06-h100-four/).
// Compile-time radius 1 and 2 (the policy's radii), one image (no batched instance).
#pragma once

#include "../../platform/config.hpp"
#if HIPSTENCIL_HAS_GPU
#include "../bordered.hpp"
#include "../geometry.hpp"
#include "../packed_plan.hpp"
#include "../problem.hpp"
#include "packed_lanes.hpp"

namespace hipstencil {
namespace detail {

/// Dense filter of radius R (taps: packed_taps of the plan, row-major) on uchar4 over the
/// ROI of `g` (`gr`: g.for_reads(), whose rule is replicate), a tile of BX x BY * OY
/// outputs a block, each thread a column of OY of them. Threads past the ROI read clamped
/// pixels (memory that exists) and store nothing; under skip only the outputs g writes.
template <int R, int BX, int BY, int OY>
__global__ void __launch_bounds__(BX* BY)
    packed_four_kernel(image_view<const uchar4> src, image_view<uchar4> dst, geometry g, geometry gr,
                       packed_taps<(2 * R + 1) * (2 * R + 1)> taps) {
  constexpr int K = 2 * R + 1, TW = BX, TH = BY * OY;
  constexpr int HW = TW + 2 * R, HR = TH + 2 * R;  // the tile's window
  using share = window_share<BX, BY, HW, HR>;
  // A pixel's lanes side by side: a warp's 8-byte reads of consecutive pixels in a row
  // take no more shared-memory cycles than its bytes.
  __shared__ uint2 s[HR][HW];
  const int tx = int(threadIdx.x), ty = int(threadIdx.y);
  const int bx0 = int(blockIdx.x) * TW, by0 = int(blockIdx.y) * TH;  // ROI-relative
  const share sh{tx, ty};
  unsigned v[share::rows][share::columns];  // a pixel as one word
  sh.load(clamped<uchar4>(src, gr), g.src_x0 + bx0, g.src_y0 + by0, v,
          [](const uchar4* p) { return *reinterpret_cast<const unsigned*>(p); });
  sh.store(v, [&](int row, int col, unsigned w) {
    s[row][col] = make_uint2(half2_as_word(centred_pair(w, 0x4140u)), half2_as_word(centred_pair(w, 0x4342u)));
  });
  __syncthreads();
  const __half2 init = word_as_half2(taps.init), add = word_as_half2(taps.add);
  __half2 acc[OY][2];
  HIPSTENCIL_UNROLL
  for (int y = 0; y < OY; ++y) acc[y][0] = acc[y][1] = init;
  // Window row t of the thread's OY + 2R adds into the outputs it is a filter row of, each
  // output's taps in row-major order.
  HIPSTENCIL_UNROLL
  for (int t = 0; t < OY + 2 * R; ++t)
    HIPSTENCIL_UNROLL
    for (int i = 0; i < K; ++i) {
      const uint2 w = s[ty * OY + t][tx + i];
      HIPSTENCIL_UNROLL
      for (int y = 0; y < OY; ++y) {
        const int fy = t - y;  // the filter row window row t is for output row y
        if (fy < 0 || fy >= K) continue;
        const __half2 k = word_as_half2(taps.k[fy * K + i]);
        acc[y][0] = __hfma2(k, word_as_half2(w.x), acc[y][0]);
        acc[y][1] = __hfma2(k, word_as_half2(w.y), acc[y][1]);
      }
    }
  const int x = bx0 + tx;
  if (x >= g.width) return;
  HIPSTENCIL_UNROLL
  for (int y = 0; y < OY; ++y) {
    const int oy = by0 + ty * OY + y;
    if (oy >= g.height || !g.writes_window(g.src_x0 + x, g.src_y0 + oy)) continue;
    // Each lane word holds 1024 + a channel in bytes 0 and 2: channels 0-3 in order.
    const unsigned b = __byte_perm(clamp_pair(__hadd2(acc[y][0], add)), clamp_pair(__hadd2(acc[y][1], add)), 0x6420u);
    reinterpret_cast<unsigned*>(dst.row(g.dst_y0 + oy) + g.dst_x0)[x] = b;
  }
}

/// Launches packed_four_kernel of radius R, BX x BY threads of 1 x OY outputs, on p (one
/// uchar4 image; `gr`: p.g.for_reads(), replicate) with the plan pl's taps (K x K,
/// row-major: plan_packed_dense of the dense filter or of a separable one's outer product).
/// Precondition: pl.ok, the grid's rows fit (p.g.height <= 65535 * BY * OY).
template <int R, int BX, int BY, int OY>
void launch_packed_four(const problem<uchar4, uchar4>& p, const geometry& gr, const packed_plan& pl) {
  constexpr int K = 2 * R + 1;
  const dim3 grid(unsigned((p.g.width + BX - 1) / BX), unsigned((p.g.height + BY * OY - 1) / (BY * OY)));
  packed_four_kernel<R, BX, BY, OY>
      <<<grid, dim3(BX, BY), 0, p.stream>>>(p.src, p.dst, p.g, gr, packed_taps_of<K * K>(pl));
  gpu::check_launch("packed_four_kernel");
}

}  // namespace detail
}  // namespace hipstencil
#endif
