// hipstencil/detail/kernels/shared_mem.hpp
// One-pass shared-memory kernels. Each block computes a tile of outputs (smem_tile) from
// its region staged in shared memory, with tile-class dispatch: interior tiles stage with
// no border arithmetic and store with no checks; perimeter tiles map each access (the
// per-access strategy, selected with tile_class = false, maps every tile).
//   smem2d_kernel:  dense filter; the tile plus halo is staged, then each thread sums
//                   its outputs' windows from shared memory.
//   smem_sep_kernel: separable filter, both 1D passes fused: the row pass writes its
//                   results for the tile's rows plus vertical halo into shared memory,
//                   the column pass reads them. No intermediate image.
// R >= 0: compile-time radius (kw = kh = 2R + 1, centred anchors), loops fully unrolled;
// R < 0: run-time filter size and anchor.
#pragma once

#include "../../platform/config.hpp"
#if HIPSTENCIL_HAS_GPU
#include "../geometry.hpp"
#include "staging.hpp"
#include "taps.hpp"

namespace hipstencil {
namespace detail {

template <int C>
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE void zero(accum<float, C>& a) {
  HIPSTENCIL_UNROLL
  for (int c = 0; c < C; ++c) a.v[c] = 0.0f;
}
template <int C>
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE void fma_acc(accum<float, C>& a, float w, const accum<float, C>& p) {
  HIPSTENCIL_UNROLL
  for (int c = 0; c < C; ++c) a.v[c] = fmaf(w, p.v[c], a.v[c]);
}

/// Bytes of dynamic shared memory smem2d_kernel needs for a kw x kh filter.
template <int C>
constexpr std::size_t smem2d_bytes(int kw, int kh) {
  return std::size_t(smem_tile<C>::width + kw - 1) * std::size_t(smem_tile<C>::height + kh - 1) *
         sizeof(accum<float, C>);
}
/// Bytes of dynamic shared memory smem_sep_kernel needs for a filter kh taps tall.
template <int C>
constexpr std::size_t smem_sep_bytes(int kh) {
  return std::size_t(smem_tile<C>::width) * std::size_t(smem_tile<C>::height + kh - 1) * sizeof(accum<float, C>);
}

template <class In, class Out, int R, class Taps>
__global__ void __launch_bounds__(256)
    smem2d_kernel(image_view<const In> src, image_view<Out> dst, geometry g, Taps taps, bool tile_class) {
  constexpr int C = pixel_traits<In>::channels;
  using T = smem_tile<C>;
  using A = accum<float, C>;
  extern __shared__ float4 smem2d_storage[];  // float4: 16-byte alignment for every A
  A* tile = reinterpret_cast<A*>(smem2d_storage);
  const int kw = R >= 0 ? 2 * R + 1 : g.kw, kh = R >= 0 ? 2 * R + 1 : g.kh;
  const int tile_pitch = T::width + kw - 1;
  const geometry gr = read_geometry(g);
  const bool skip = g.border.rule == border::kind::skip;
  const int tx0 = blockIdx.x * T::width;
  for (int ty0 = blockIdx.y * T::height; ty0 < g.height; ty0 += gridDim.y * T::height) {
    const tile_class_info tc = classify_tile(g, tx0, ty0, T::width, T::height, kw, kh, tile_class);
    const int ow = tc.ow, oh = tc.oh;
    stage_region(tile, tile_pitch, src, gr, tc.px, tc.py, ow + kw - 1, oh + kh - 1, tc.free_read);
    __syncthreads();
    const bool free_write = tc.free_write;
    HIPSTENCIL_UNROLL
    for (int k = 0; k < T::rows_per_thread; ++k) {
      const int ox = threadIdx.x, oy = threadIdx.y + k * T::block_y;
      if (free_write || (ox < ow && oy < oh && (!skip || g.window_inside(tx0 + ox, ty0 + oy)))) {
        A acc;
        zero(acc);
        for_each_row<R>(kh, [&](int j) {
          const A* row = tile + (oy + j) * tile_pitch + ox;
          for_each_tap<R>(kw, [&](int i) { fma_acc(acc, taps[j * kw + i], row[i]); });
        });
        dst(g.dst_x0 + tx0 + ox, g.dst_y0 + ty0 + oy) = from_accum<Out>(acc);
      }
    }
    __syncthreads();
  }
}

template <class In, class Out, int R, int N>
__global__ void __launch_bounds__(256)
    smem_sep_kernel(image_view<const In> src, image_view<Out> dst, geometry g, separable_taps<N> taps,
                    bool tile_class) {
  constexpr int C = pixel_traits<In>::channels;
  using T = smem_tile<C>;
  using A = accum<float, C>;
  extern __shared__ float4 smem_sep_storage[];
  A* rows = reinterpret_cast<A*>(smem_sep_storage);  // row-pass results, T::width per row
  const int kw = R >= 0 ? 2 * R + 1 : g.kw, kh = R >= 0 ? 2 * R + 1 : g.kh;
  const geometry gr = read_geometry(g);
  const bool skip = g.border.rule == border::kind::skip;
  const int tx0 = blockIdx.x * T::width;
  for (int ty0 = blockIdx.y * T::height; ty0 < g.height; ty0 += gridDim.y * T::height) {
    const tile_class_info tc = classify_tile(g, tx0, ty0, T::width, T::height, kw, kh, tile_class);
    const int ow = tc.ow, oh = tc.oh, px = tc.px, py = tc.py, nrows = oh + kh - 1;
    const bool free_read = tc.free_read;
    // Row pass: rows[t][x] = sum_i row_i * src(px + x + i, py + t), read through L1.
    const int x = threadIdx.x;
    if (x < ow) {
      for (int t = threadIdx.y; t < nrows; t += T::block_y) {
        A acc;
        zero(acc);
        if (free_read) {
          const In* s = src.row(py + t) + px + x;
          for_each_tap<R>(kw, [&](int i) { fma_acc(acc, taps.row[i], to_accum<float>(s[i])); });
        } else {
          // Perimeter tiles only: a plain loop keeps the code (and compile time) small.
          HIPSTENCIL_NO_UNROLL
          for (int i = 0; i < kw; ++i) fma_acc(acc, taps.row[i], load_mapped(src, gr, px + x + i, py + t));
        }
        rows[t * T::width + x] = acc;
      }
    }
    __syncthreads();
    const bool free_write = tc.free_write;
    HIPSTENCIL_UNROLL
    for (int k = 0; k < T::rows_per_thread; ++k) {
      const int oy = threadIdx.y + k * T::block_y;
      if (free_write || (x < ow && oy < oh && (!skip || g.window_inside(tx0 + x, ty0 + oy)))) {
        A acc;
        zero(acc);
        for_each_tap<R>(kh, [&](int j) { fma_acc(acc, taps.col[j], rows[(oy + j) * T::width + x]); });
        dst(g.dst_x0 + tx0 + x, g.dst_y0 + ty0 + oy) = from_accum<Out>(acc);
      }
    }
    __syncthreads();
  }
}

}  // namespace detail
}  // namespace hipstencil
#endif
