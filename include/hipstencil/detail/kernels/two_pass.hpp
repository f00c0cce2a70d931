// hipstencil/detail/kernels/two_pass.hpp
// The row pass of algo::two_pass, written so that the same kernel serves both passes: it
// filters along the rows of its input and writes its output TRANSPOSED. Run once on the
// source (rows of the image, border rule applied) into a float workspace, and once more on
// the workspace with the column taps, it restores the orientation. The output transpose
// goes through shared memory so that both the reads and the writes are coalesced.
//
// Pass 1, for window row t in [0, H + kh - 1) and column x in [0, W):
//   work(t, x) = sum_i row_i * src(map_x(src_x0 + x + i), map_y(src_y0 + t))
// stored at column t, row x of the workspace (W rows of H + kh - 1 pixels). The vertical
// border is thus resolved in pass 1 (each window row is a mapped source row, or the
// constant), and pass 2 reads plain memory:
//   dst(dst_x0 + x, dst_y0 + y) = sum_j col_j * work(y + j, x).
#pragma once

#include "../../platform/config.hpp"
#if HIPSTENCIL_HAS_GPU
#include "../geometry.hpp"
#include "shared_mem.hpp"
#include "staging.hpp"
#include "taps.hpp"

namespace hipstencil {
namespace detail {

/// Float pixel type of the workspace: float for one channel, float4 for four.
template <int C>
using work_pixel = std::conditional_t<C == 1, float, float4>;

/// One pass: out row r in [0, rows), out column c in [0, cols), n taps.
struct row_pass {
  int rows, cols, n;
  int x0, y0;          ///< input position of tap 0 for output (r = 0, c = 0): (x0 + c + i, y0 + r)
  bool mapped;         ///< pass 1: apply g's border rule; pass 2: plain reads
  bool skip_check;     ///< pass 2 under skip: write (r, c) only if g.window_inside(r, c)
  geometry g;          ///< border rule (pass 1) and the skip test (pass 2)
  int out_x0, out_y0;  ///< output (r, c) goes to out(out_x0 + r, out_y0 + c)
};

template <int C>
constexpr std::size_t row_pass_bytes(int n) {
  return (std::size_t(smem_tile<C>::height) * std::size_t(smem_tile<C>::width + n - 1) +
          std::size_t(smem_tile<C>::width) * std::size_t(smem_tile<C>::height + 1)) *
         sizeof(accum<float, C>);
}

/// R >= 0: n = 2R + 1 taps, unrolled; R < 0: p.n taps.
template <class In, class Out, int R, int N>
__global__ void __launch_bounds__(256)
    row_transpose_kernel(image_view<const In> src, image_view<Out> out, row_pass p, inline_taps<N> taps,
                         bool tile_class) {
  constexpr int C = pixel_traits<In>::channels;
  using T = smem_tile<C>;  // T::height rows r x T::width columns c per tile
  using A = accum<float, C>;
  extern __shared__ float4 row_pass_storage[];
  const int n = R >= 0 ? 2 * R + 1 : p.n;
  const int in_pitch = T::width + n - 1;
  A* in = reinterpret_cast<A*>(row_pass_storage);  // T::height x in_pitch
  A* res = in + T::height * in_pitch;               // T::width x (T::height + 1), [c][r]
  const geometry gr = read_geometry(p.g);
  const int c0 = blockIdx.x * T::width;
  for (int r0 = blockIdx.y * T::height; r0 < p.rows; r0 += gridDim.y * T::height) {
    const int oc = min(T::width, p.cols - c0), orows = min(T::height, p.rows - r0);
    const int px = p.x0 + c0, py = p.y0 + r0;
    const bool free_read = !p.mapped || (tile_class && region_free_on_read(p.g, px, py, oc + n - 1, orows));
    stage_region(in, in_pitch, src, gr, px, py, oc + n - 1, orows, free_read);
    __syncthreads();
    HIPSTENCIL_UNROLL
    for (int k = 0; k < T::rows_per_thread; ++k) {
      const int c = threadIdx.x, r = threadIdx.y + k * T::block_y;
      A acc;
      zero(acc);
      if (c < oc && r < orows) {
        const A* s = in + r * in_pitch + c;
        for_each_tap<R>(n, [&](int i) { fma_acc(acc, taps[i], s[i]); });
      }
      res[c * (T::height + 1) + r] = acc;
    }
    __syncthreads();
    // Transposed store: consecutive threads take consecutive r, i.e. consecutive output x.
    for (int idx = threadIdx.y * T::block_x + threadIdx.x; idx < T::width * T::height; idx += T::block_x * T::block_y) {
      const int r = idx % T::height, c = idx / T::height;
      if (r < orows && c < oc && (!p.skip_check || p.g.window_inside(r0 + r, c0 + c)))
        out(p.out_x0 + r0 + r, p.out_y0 + c0 + c) = from_accum<Out>(res[c * (T::height + 1) + r]);
    }
    __syncthreads();
  }
}

}  // namespace detail
}  // namespace hipstencil
#endif
