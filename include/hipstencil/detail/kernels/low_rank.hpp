// hipstencil/detail/kernels/low_rank.hpp
// A dense filter run as the sum of a few separable terms (detail/factor.hpp finds them;
// algo::automatic runs them through the shared_mem family): for a kw x kh filter of n
// terms, n (kw (1 + (kh - 1) / tile height) + kh) taps an output instead of kw kh, which
// for a 31 x 31 Laplacian of Gaussian (two terms) is about a fifth.
//
// The block keeps its outputs' sums in registers over the terms; for each term it runs
// smem_sep_kernel's two passes: the row pass, read through L1, writes the tile's rows
// plus the vertical halo to shared memory, and the column pass adds that term's column
// sums to the registers. One kernel, one read of the source per term (from L1 after the
// first), one write of the output; no intermediate image. Run-time filter size, anchor and
// term count, with the taps by value (low_rank_taps).
#pragma once

#include "../../platform/config.hpp"
#if HIPSTENCIL_HAS_GPU
#include <cstring>
#include <vector>

#include "../../filter.hpp"
#include "../bordered.hpp"
#include "../geometry.hpp"
#include "accumulate.hpp"
#include "batch_image.hpp"
#include "staging.hpp"
#include "taps.hpp"

namespace hipstencil {
namespace detail {

/// The terms of a low-rank filter by value. Precondition: 1 to low_rank_max_terms terms,
/// each at most low_rank_capacity taps per axis.
inline low_rank_taps pack_low_rank(const std::vector<separable_filter>& terms) {
  low_rank_taps t{};
  t.terms = int(terms.size());
  for (std::size_t k = 0; k < terms.size(); ++k) {
    std::memcpy(t.row[k], terms[k].row().data(), terms[k].row().size() * sizeof(float));
    std::memcpy(t.col[k], terms[k].column().data(), terms[k].column().size() * sizeof(float));
  }
  return t;
}

/// T: the shared_mem tile; dynamic shared memory: T::width x (T::height + kh - 1) float
/// accumulators (smem_sep_bytes). Tile-class dispatch as smem_sep_kernel: interior tiles
/// read and write with no border arithmetic.
template <class In, class Out, class T, bool Batch>
__global__ void __launch_bounds__(T::block_x* T::block_y)
    smem_low_rank_kernel(image_view<const In> src, image_view<Out> dst, geometry g, low_rank_taps taps,
                         bool tile_class, image_strides strides) {
  if constexpr (Batch) select_image(src, dst, strides);
  constexpr int C = pixel_traits<In>::channels;
  using A = accum<float, C>;
  extern __shared__ float4 smem_low_rank_storage[];
  A* rows = reinterpret_cast<A*>(smem_low_rank_storage);  // one term's row-pass results
  const int kw = g.kw, kh = g.kh;
  const bordered<In> mapped{src, g.for_reads()};
  const int tx0 = blockIdx.x * T::width, x = threadIdx.x;
  for (int ty0 = blockIdx.y * T::height; ty0 < g.height; ty0 += gridDim.y * T::height) {
    const tile_class_info tc = classify_tile(g, tx0, ty0, T::width, T::height, kw, kh, tile_class);
    const int ow = tc.ow, oh = tc.oh, px = tc.px, py = tc.py, nrows = oh + kh - 1;
    A sum[T::rows_per_thread];
    HIPSTENCIL_UNROLL
    for (int k = 0; k < T::rows_per_thread; ++k) zero(sum[k]);
    for (int t = 0; t < taps.terms; ++t) {
      if (x < ow) {
        for (int r = threadIdx.y; r < nrows; r += T::block_y) {
          A acc;
          zero(acc);
          if (tc.free_read) {
            const In* s = src.row(py + r) + px + x;
            for (int i = 0; i < kw; ++i) fma_acc(acc, taps.row[t][i], to_accum<float>(s[i]));
          } else {
            const auto row = mapped.row(py + r);
            HIPSTENCIL_NO_UNROLL
            for (int i = 0; i < kw; ++i) fma_acc(acc, taps.row[t][i], row.at(px + x + i));
          }
          rows[r * T::width + x] = acc;
        }
      }
      __syncthreads();
      HIPSTENCIL_UNROLL
      for (int k = 0; k < T::rows_per_thread; ++k) {
        const int oy = threadIdx.y + k * T::block_y;
        if (x < ow && oy < oh)
          for (int j = 0; j < kh; ++j) fma_acc(sum[k], taps.col[t][j], rows[(oy + j) * T::width + x]);
      }
      __syncthreads();  // the next term's row pass overwrites `rows`
    }
    HIPSTENCIL_UNROLL
    for (int k = 0; k < T::rows_per_thread; ++k) {
      const int oy = threadIdx.y + k * T::block_y;
      if (tc.free_write || (x < ow && oy < oh && g.writes(tx0 + x, ty0 + oy)))
        dst(g.dst_x0 + tx0 + x, g.dst_y0 + ty0 + oy) = from_accum<Out>(sum[k]);
    }
  }
}

}  // namespace detail
}  // namespace hipstencil
#endif
