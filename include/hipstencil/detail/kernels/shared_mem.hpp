// hipstencil/detail/kernels/shared_mem.hpp
// The shared_mem family: one pass through shared memory. Each block computes a tile of
// outputs (the policy's tile; for a separable filter of a compiled radius its
// separable_tile) from its region staged in shared memory, with tile-class
// dispatch: interior tiles stage with no border arithmetic and store with no checks;
// perimeter tiles map each access (the per-access strategy, tile_class = false, maps
// every tile).
//   smem2d_kernel:  dense filter; the tile plus halo is staged, then each thread sums
//                   its outputs' windows from shared memory.
//   smem_sep_kernel: separable filter, both 1D passes fused: the row pass writes its
//                   results for the tile's rows plus vertical halo into shared memory,
//                   the column pass reads them. No intermediate image.
//   smem_low_rank_kernel (low_rank.hpp): a dense filter that automatic runs as the sum
//                   of its separable terms (problem::low_rank), the same two passes per term.
// R >= 0: compile-time radius (kw = kh = 2R + 1, centred anchors), loops fully unrolled;
// R < 0: run-time filter size and anchor.
#pragma once

#include "../../platform/config.hpp"
#if HIPSTENCIL_HAS_GPU
#include <algorithm>
#include <type_traits>

#include "../../algorithm.hpp"
#include "../family.hpp"
#include "batch_image.hpp"
#include "low_rank.hpp"
#include "naive.hpp"
#include "staging.hpp"
#include "streaming_io.hpp"
#include "taps.hpp"

namespace hipstencil {
namespace detail {

/// Bytes of dynamic shared memory smem2d_kernel needs for a kw x kh filter.
template <class Tile, int C>
constexpr std::size_t smem2d_bytes(int kw, int kh) {
  return std::size_t(Tile::width + kw - 1) * std::size_t(Tile::height + kh - 1) * sizeof(accum<float, C>);
}
/// Bytes of dynamic shared memory smem_sep_kernel needs for a filter kh taps tall.
template <class Tile, int C>
constexpr std::size_t smem_sep_bytes(int kh) {
  return std::size_t(Tile::width) * std::size_t(Tile::height + kh - 1) * sizeof(accum<float, C>);
}

template <class In, class Out, int R, class Taps, class T, bool Batch>
__global__ void __launch_bounds__(T::block_x* T::block_y)
    smem2d_kernel(image_view<const In> src, image_view<Out> dst, geometry g, Taps taps, bool tile_class,
                  image_strides strides) {
  if constexpr (Batch) select_image(src, dst, strides);
  constexpr int C = pixel_traits<In>::channels;
  using A = accum<float, C>;
  extern __shared__ float4 smem2d_storage[];  // float4: 16-byte alignment for every A
  A* tile = reinterpret_cast<A*>(smem2d_storage);
  const int kw = R >= 0 ? 2 * R + 1 : g.kw, kh = R >= 0 ? 2 * R + 1 : g.kh;
  const int tile_pitch = T::width + kw - 1;
  const geometry gr = g.for_reads();
  const int tx0 = blockIdx.x * T::width;
  for (int ty0 = blockIdx.y * T::height; ty0 < g.height; ty0 += gridDim.y * T::height) {
    const tile_class_info tc = classify_tile(g, tx0, ty0, T::width, T::height, kw, kh, tile_class);
    const int ow = tc.ow, oh = tc.oh;
    stage_region<T::block_x, T::block_y, (R >= 0 ? T::width + 2 * R : 0)>(tile, tile_pitch, src, gr, tc.px, tc.py,
                                                                            ow + kw - 1, oh + kh - 1, tc.free_read);
    __syncthreads();
    const bool free_write = tc.free_write;
    const int ox = threadIdx.x;
    if constexpr (R >= 0 && R <= unrolled_rows_max_radius) {
      HIPSTENCIL_UNROLL
      for (int k = 0; k < T::rows_per_thread; ++k) {
        const int oy = threadIdx.y + k * T::block_y;
        if (free_write || (ox < ow && oy < oh && g.writes(tx0 + ox, ty0 + oy))) {
          A acc;
          zero(acc);
          for_each_row<R>(kh, [&](int j) {
            const A* row = tile + (oy + j) * tile_pitch + ox;
            for_each_tap<R>(kw, [&](int i) { fma_acc(acc, taps[j * kw + i], row[i]); });
          });
          dst(g.dst_x0 + tx0 + ox, g.dst_y0 + ty0 + oy) = from_accum<Out>(acc);
        }
      }
    } else {
      // Rolled filter rows (radius 5 and up, or a run-time size): each thread sums its
      // rows_per_thread outputs together, so that each tap is read once for all of them
      // rather than once an output. The taps are kernel parameters (up to 4356 bytes) and
      // their reads bound these kernels: float dense 31x31 at 8192x8192 took half the
      // time on the H200. Outputs outside the tile's part of the ROI (below its last row,
      // right of its last column) read shared memory that this tile did not stage (left
      // from an earlier tile, or never written) but that lies inside the allocation; they
      // are not stored.
      A acc[T::rows_per_thread];
      HIPSTENCIL_UNROLL
      for (int k = 0; k < T::rows_per_thread; ++k) zero(acc[k]);
      HIPSTENCIL_NO_UNROLL
      for (int j = 0; j < kh; ++j) {
        const A* row = tile + (threadIdx.y + j) * tile_pitch + ox;
        for_each_tap<R>(kw, [&](int i) {
          const float w = taps[j * kw + i];
          HIPSTENCIL_UNROLL
          for (int k = 0; k < T::rows_per_thread; ++k) fma_acc(acc[k], w, row[k * T::block_y * tile_pitch + i]);
        });
      }
      HIPSTENCIL_UNROLL
      for (int k = 0; k < T::rows_per_thread; ++k) {
        const int oy = threadIdx.y + k * T::block_y;
        if (free_write || (ox < ow && oy < oh && g.writes(tx0 + ox, ty0 + oy)))
          dst(g.dst_x0 + tx0 + ox, g.dst_y0 + ty0 + oy) = from_accum<Out>(acc[k]);
      }
    }
    __syncthreads();
  }
}

template <class In, class Out, int R, int N, class T, bool Batch>
__global__ void __launch_bounds__(T::block_x* T::block_y)
    smem_sep_kernel(image_view<const In> src, image_view<Out> dst, geometry g,
                    const HIPSTENCIL_GRID_CONSTANT separable_taps<N> taps,
                    bool tile_class, image_strides strides) {
  if constexpr (Batch) select_image(src, dst, strides);
  constexpr int C = pixel_traits<In>::channels;
  using A = accum<float, C>;
  extern __shared__ float4 smem_sep_storage[];
  A* rows = reinterpret_cast<A*>(smem_sep_storage);  // row-pass results, T::width per row
  const int kw = R >= 0 ? 2 * R + 1 : g.kw, kh = R >= 0 ? 2 * R + 1 : g.kh;
  const int tx0 = blockIdx.x * T::width;
  for (int ty0 = blockIdx.y * T::height; ty0 < g.height; ty0 += gridDim.y * T::height) {
    const tile_class_info tc = classify_tile(g, tx0, ty0, T::width, T::height, kw, kh, tile_class);
    const int ow = tc.ow, oh = tc.oh, px = tc.px, py = tc.py, nrows = oh + kh - 1;
    // Row pass: rows[t][x] = sum_i row_i * src(px + x + i, py + t), read through L1.
    const int x = threadIdx.x;
    if (x < ow) {
      if (tc.free_read) {
        // The rows by a pointer stepped block_y rows at a time and a count: with
        // src.row(py + t) in the loop, nvcc 13 redid the row's 64-bit multiply and the
        // loop bound every row, in a loop bound by instruction issue (u8 9x9, sm_90).
        // uchar4 loads as one word (its members were four byte loads); other pixels
        // convert by to_accum_cvt, as the staging of smem2d_kernel.
        const char* s = reinterpret_cast<const char*>(src.row(py + int(threadIdx.y)) + px + x);
        const long long step = static_cast<long long>(src.pitch_bytes) * T::block_y;
        A* out = rows + threadIdx.y * T::width + x;
        for (int left = nrows - int(threadIdx.y); left > 0; left -= T::block_y) {
          const In* p = reinterpret_cast<const In*>(s);
          A acc;
          zero(acc);
          for_each_tap<R>(kw, [&](int i) {
            if constexpr (std::is_same<In, uchar4>::value) fma_acc(acc, taps.row[i], load_pixel(p + i));
            else fma_acc(acc, taps.row[i], to_accum_cvt<float>(p[i]));
          });
          *out = acc;
          s += step;
          out += T::block_y * T::width;
        }
      } else {
        // Perimeter tiles only: a plain loop keeps the code (and compile time) small. Its
        // run-time tap index reads taps in place (HIPSTENCIL_GRID_CONSTANT).
        const bordered<In> mapped{src, g.for_reads()};
        for (int t = threadIdx.y; t < nrows; t += T::block_y) {
          const auto row = mapped.row(py + t);
          A acc;
          zero(acc);
          HIPSTENCIL_NO_UNROLL
          for (int i = 0; i < kw; ++i) fma_acc(acc, taps.row[i], row.at(px + x + i));
          rows[t * T::width + x] = acc;
        }
      }
    }
    __syncthreads();
    const bool free_write = tc.free_write;
    HIPSTENCIL_UNROLL
    for (int k = 0; k < T::rows_per_thread; ++k) {
      const int oy = threadIdx.y + k * T::block_y;
      if (free_write || (x < ow && oy < oh && g.writes(tx0 + x, ty0 + oy))) {
        A acc;
        zero(acc);
        for_each_tap<R>(kh, [&](int j) { fma_acc(acc, taps.col[j], rows[(oy + j) * T::width + x]); });
        dst(g.dst_x0 + tx0 + x, g.dst_y0 + ty0 + oy) = from_accum<Out>(acc);
      }
    }
    __syncthreads();
  }
}

struct shared_mem_family {
  static constexpr const char* name = "shared_mem";
  static constexpr bool dense = true, separable = true;
  static constexpr tuning::choice automatic_id = tuning::choice::shared_mem;
  using default_policy = tuning::shared_mem_policy<>;
  using fallback = naive_family;

  /// A compiled radius of the policy, or a run-time size whose taps fit the parameter
  /// block (inline_capacity dense, separable_capacity per axis, low_rank_capacity per axis
  /// of a low-rank filter's terms) and whose tile fits the policy's shared memory.
  template <class P, class In, class Out>
  static fit fits(const problem<In, Out>& p) {
    using T = typename P::template tile<pixel_traits<In>::channels>;
    constexpr int C = pixel_traits<In>::channels;
    const geometry& g = p.g;
    if (p.low_rank)
      return fit{std::max(g.kw, g.kh) <= low_rank_capacity && smem_sep_bytes<T, C>(g.kh) <= P::shared_bytes, -1};
    if (p.dense) {
      if (compiled(p.radius, typename P::dense_radii{})) return fit{true, p.radius};
      const bool ok = p.dense->taps() <= std::size_t(inline_capacity) && smem2d_bytes<T, C>(g.kw, g.kh) <= P::shared_bytes;
      return fit{ok, -1};
    }
    if (compiled(p.radius, typename P::separable_radii{})) return fit{true, p.radius};
    using TS = typename P::template separable_tile<C, -1>;  // the tile launch_separable<P, -1> takes
    const bool ok = std::max(g.kw, g.kh) <= separable_capacity && smem_sep_bytes<TS, C>(g.kh) <= P::shared_bytes;
    return fit{ok, -1};
  }

  template <class P, class In, class Out>
  static void launch(const problem<In, Out>& p) {
    constexpr int C = pixel_traits<In>::channels;
    using T = typename P::template tile<C>;
    constexpr bool B = tuning::is_batched<P>::value;
    const geometry& g = p.g;
    const dim3 block(T::block_x, T::block_y), grid = tile_grid(g.width, g.height, T::width, T::height, p.images);
    if (p.low_rank) {
      smem_low_rank_kernel<In, Out, T, B><<<grid, block, smem_sep_bytes<T, C>(g.kh), p.stream>>>(
          p.src, p.dst, g, pack_low_rank(*p.low_rank), p.tile_class, p.strides);
      gpu::check_launch("smem_low_rank_kernel");
      return;
    }
    if (p.dense) {
      const std::size_t smem = smem2d_bytes<T, C>(g.kw, g.kh);
      const auto& taps = p.dense->coefficients();
      const bool launched = with_static_radius(p.radius, [&](auto R) {
        constexpr int n = (2 * R + 1) * (2 * R + 1);
        smem2d_kernel<In, Out, R, inline_taps<n>, T, B>
            <<<grid, block, smem, p.stream>>>(p.src, p.dst, g, pack_taps<n>(taps), p.tile_class, p.strides);
      }, typename P::dense_radii{});
      if (!launched)
        smem2d_kernel<In, Out, -1, inline_taps<inline_capacity>, T, B>
            <<<grid, block, smem, p.stream>>>(p.src, p.dst, g, pack_taps<inline_capacity>(taps), p.tile_class,
                                              p.strides);
      gpu::check_launch("smem2d_kernel");
      return;
    }
    const bool launched = with_static_radius(p.radius, [&](auto R) {
      launch_separable<P, decltype(R)::value>(p);
    }, typename P::separable_radii{});
    if (!launched) launch_separable<P, -1>(p);
    gpu::check_launch("smem_sep_kernel");
  }

 private:
  /// smem_sep_kernel of radius R (-1: a run-time size, separable_capacity taps an axis):
  /// separable_tile<C, R> from P::separable_tile_pixels pixels up, tile<C> below, where
  /// the taller tile's grid has too few blocks (fits checks tile<C> = separable_tile<C, -1>).
  template <class P, int R, class In, class Out>
  static void launch_separable(const problem<In, Out>& p) {
    constexpr int C = pixel_traits<In>::channels;
    using Tall = typename P::template separable_tile<C, R>;
    using Short = typename P::template tile<C>;
    if constexpr (!std::is_same<Tall, Short>::value) {
      if ((long long)p.g.width * p.g.height * p.images < P::separable_tile_pixels)
        return launch_separable_as<Short, R, P>(p);
    }
    launch_separable_as<Tall, R, P>(p);
  }
  template <class T, int R, class P, class In, class Out>
  static void launch_separable_as(const problem<In, Out>& p) {
    constexpr int C = pixel_traits<In>::channels;
    constexpr int N = R >= 0 ? 2 * R + 1 : separable_capacity;
    constexpr bool B = tuning::is_batched<P>::value;
    const geometry& g = p.g;
    const dim3 block(T::block_x, T::block_y), grid = tile_grid(g.width, g.height, T::width, T::height, p.images);
    smem_sep_kernel<In, Out, R, N, T, B><<<grid, block, smem_sep_bytes<T, C>(g.kh), p.stream>>>(
        p.src, p.dst, g, pack_separable<N>(*p.separable), p.tile_class, p.strides);
  }
};

}  // namespace detail
}  // namespace hipstencil
#endif
