// hipstencil/detail/kernels/two_pass.hpp
// The two_pass family (separable filters). Its row pass is written so that the same
// kernel serves both passes: it
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
#include <algorithm>

#include "../../algorithm.hpp"
#include "../../error.hpp"
#include "../family.hpp"
#include "batch_image.hpp"
#include "naive.hpp"
#include "staging.hpp"
#include "taps.hpp"

namespace hipstencil {
namespace detail {

/// Float pixel type of the workspace: float, float3 or float4 for one, three or four channels.
template <int C>
using work_pixel = std::conditional_t<C == 1, float, std::conditional_t<C == 3, float3, float4>>;

/// One pass: out row r in [0, rows), out column c in [0, cols), n taps.
struct row_pass {
  int rows, cols, n;
  int x0, y0;          ///< input position of tap 0 for output (r = 0, c = 0): (x0 + c + i, y0 + r)
  bool mapped;         ///< pass 1: apply g's border rule; pass 2: plain reads
  bool write_check;    ///< pass 2: write (r, c) only if g.writes(r, c) (skip)
  geometry g;          ///< border rule (pass 1) and the skip test (pass 2)
  geometry gr;         ///< pass 1: g.for_reads(), computed once on the host, not in every block
  int out_x0, out_y0;  ///< output (r, c) goes to out(out_x0 + r, out_y0 + c)
};

template <class T, int C>
constexpr std::size_t row_pass_bytes(int n) {
  return (std::size_t(T::height) * std::size_t(T::width + n - 1) + std::size_t(T::width) * std::size_t(T::height + 1)) *
         sizeof(accum<float, C>);
}

/// R >= 0: n = 2R + 1 taps, unrolled; R < 0: p.n taps. The launch bounds ask NVIDIA's
/// allocator for 2048 resident threads per SM (at most 32 registers for 32 x 8 threads): the kernel is bound
/// by memory traffic, and whenever nvcc 13 gave it 36-40 registers (it did after a change
/// to the border maps that only its edge tiles run), u8 and float 3x3 and 5x5 ran 7-15%
/// slower at 8192x8192 on the H200. The cost is a spill of 8 bytes in some instantiations.
template <class In, class Out, int R, int N, class T, bool Batch>
__global__ void HIPSTENCIL_LAUNCH_BOUNDS(T::block_x* T::block_y, 2048 / (T::block_x * T::block_y))
    row_transpose_kernel(image_view<const In> src, image_view<Out> out, row_pass p, inline_taps<N> taps,
                         bool tile_class, image_strides strides) {
  if constexpr (Batch) select_image(src, out, strides);
  constexpr int C = pixel_traits<In>::channels;
  // T::height rows r x T::width columns c per tile
  using A = accum<float, C>;
  extern __shared__ float4 row_pass_storage[];
  const int n = R >= 0 ? 2 * R + 1 : p.n;
  const int in_pitch = T::width + n - 1;
  A* in = reinterpret_cast<A*>(row_pass_storage);  // T::height x in_pitch
  A* res = in + T::height * in_pitch;               // T::width x (T::height + 1), [c][r]
  const int c0 = blockIdx.x * T::width;
  for (int r0 = blockIdx.y * T::height; r0 < p.rows; r0 += gridDim.y * T::height) {
    const int oc = min(T::width, p.cols - c0), orows = min(T::height, p.rows - r0);
    const int px = p.x0 + c0, py = p.y0 + r0;
    const bool free_read = !p.mapped || (tile_class && p.g.reads_inside(px, py, oc + n - 1, orows));
    stage_region<T::block_x, T::block_y, (R >= 0 ? T::width + 2 * R : 0)>(in, in_pitch, src, p.gr, px, py, oc + n - 1,
                                                                    orows, free_read);
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
      if (r < orows && c < oc && (!p.write_check || p.g.writes(r0 + r, c0 + c)))
        out(p.out_x0 + r0 + r, p.out_y0 + c0 + c) = from_accum<Out>(res[c * (T::height + 1) + r]);
    }
    __syncthreads();
  }
}

/// Workspace of two_pass for a width x height ROI and a filter kh taps tall: W rows of
/// (height + kh - 1) work_pixel<C> pixels, rows padded to 256 bytes; for a batch, one
/// such image per image of the batch, `image_bytes` apart.
template <int C>
struct two_pass_layout {
  std::size_t pitch, image_bytes, bytes;
  two_pass_layout(int width, int height, int kh, int images = 1) {
    pitch = (std::size_t(height + kh - 1) * sizeof(work_pixel<C>) + 255) / 256 * 256;
    image_bytes = pitch * std::size_t(width);
    bytes = image_bytes * std::size_t(images);
  }
};

/// True when two_pass's row kernel holds a filter of kw x kh taps (taps per axis and
/// shared memory), with policy P.
template <class P, int C>
bool two_pass_holds(int kw, int kh) {
  using T = typename P::template tile<C>;
  return std::max(kw, kh) <= separable_capacity && row_pass_bytes<T, C>(std::max(kw, kh)) <= P::shared_bytes;
}

struct two_pass_family {
  static constexpr const char* name = "two_pass";
  static constexpr bool dense = false, separable = true;
  static constexpr tuning::choice automatic_id = tuning::choice::two_pass;
  using default_policy = tuning::two_pass_policy<>;
  using fallback = naive_family;

  /// Separable filters the row kernel holds, with a workspace: the caller's (large enough,
  /// unless the call may allocate, where launch() reports a short one) or, where the call
  /// may allocate, a stream-ordered one.
  template <class P, class In, class Out>
  static fit fits(const problem<In, Out>& p) {
    constexpr int C = pixel_traits<In>::channels;
    const geometry& g = p.g;
    if (!p.separable || !two_pass_holds<P, C>(g.kw, g.kh)) return no_fit;
    const bool ws_ok =
        p.ws && p.ws->data && p.ws->bytes >= two_pass_layout<C>(g.width, g.height, g.kh, p.images).bytes;
    if (!p.may_allocate && !ws_ok) return no_fit;
    const int r = g.kw == g.kh ? g.kw / 2 : -1;
    return fit{true, compiled(r, typename P::separable_radii{}) ? r : -1};
  }

  template <class P, class In, class Out>
  static void launch(const problem<In, Out>& p) {
    constexpr int C = pixel_traits<In>::channels;
    const two_pass_layout<C> layout(p.g.width, p.g.height, p.g.kh, p.images);
    if (p.ws) {
      if (!p.ws->data || p.ws->bytes < layout.bytes)
        throw_invalid("convolve: workspace of ", p.ws->bytes, " bytes at ", p.ws->data,
                      " is too small: two_pass needs ", layout.bytes, " bytes (two_pass_workspace_bytes)");
      run<P>(p, p.ws->data);
      return;
    }
    void* w = gpu::malloc_async(layout.bytes, p.stream);
    try {
      run<P>(p, w);
    } catch (...) {
      gpu::free_async(w, p.stream);
      throw;
    }
    gpu::free_async(w, p.stream);
  }

 private:
  template <class P, class In, class Out>
  static void row_pass_launch(image_view<const In> src, image_view<Out> out, const row_pass& rp,
                              const std::vector<float>& taps, bool tile_class, int images, image_strides strides,
                              gpu::stream_t stream) {
    constexpr int C = pixel_traits<In>::channels;
    using T = typename P::template tile<C>;
    constexpr bool B = tuning::is_batched<P>::value;
    const dim3 block(T::block_x, T::block_y), grid = tile_grid(rp.cols, rp.rows, T::width, T::height, images);
    const std::size_t smem = row_pass_bytes<T, C>(rp.n);
    const bool launched = with_static_radius(int(taps.size()) / 2, [&](auto R) {
      constexpr int n = 2 * R + 1;
      row_transpose_kernel<In, Out, R, n, T, B>
          <<<grid, block, smem, stream>>>(src, out, rp, pack_taps<n>(taps), tile_class, strides);
    }, typename P::separable_radii{});
    if (!launched)
      row_transpose_kernel<In, Out, -1, separable_capacity, T, B>
          <<<grid, block, smem, stream>>>(src, out, rp, pack_taps<separable_capacity>(taps), tile_class, strides);
    gpu::check_launch("row_transpose_kernel");
  }

  /// Both passes through `work` (two_pass_layout bytes). Anchors: the row taps are applied
  /// with the geometry's src_x0 (anchor folded in), the column taps from window row 0. A
  /// batch's images each have a workspace image: pass 1 writes and pass 2 reads them
  /// layout.image_bytes apart.
  template <class P, class In, class Out>
  static void run(const problem<In, Out>& p, void* work) {
    constexpr int C = pixel_traits<In>::channels;
    using W = work_pixel<C>;
    const geometry& g = p.g;
    const two_pass_layout<C> layout(g.width, g.height, g.kh, p.images);
    const image_view<W> w(static_cast<W*>(work), g.height + g.kh - 1, g.width, layout.pitch);
    row_pass p1{};
    p1.rows = g.height + g.kh - 1, p1.cols = g.width, p1.n = g.kw;
    p1.x0 = g.src_x0, p1.y0 = g.src_y0, p1.mapped = true, p1.write_check = false, p1.g = g;
    p1.gr = g.for_reads();
    p1.out_x0 = 0, p1.out_y0 = 0;
    const image_strides s1{p.strides.src_bytes, (long long)layout.image_bytes};
    row_pass_launch<P, In, W>(p.src, w, p1, p.separable->row(), p.tile_class, p.images, s1, p.stream);
    row_pass p2{};
    p2.rows = g.width, p2.cols = g.height, p2.n = g.kh;
    p2.x0 = 0, p2.y0 = 0, p2.mapped = false, p2.write_check = true, p2.g = g;
    p2.out_x0 = g.dst_x0, p2.out_y0 = g.dst_y0;
    const image_strides s2{(long long)layout.image_bytes, p.strides.dst_bytes};
    row_pass_launch<P, W, Out>(image_view<const W>(w), p.dst, p2, p.separable->column(), p.tile_class, p.images,
                               s2, p.stream);
  }
};

}  // namespace detail
}  // namespace hipstencil
#endif
