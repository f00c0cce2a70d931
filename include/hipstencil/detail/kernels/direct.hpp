// hipstencil/detail/kernels/direct.hpp
// The direct family: direct convolution from global memory for small and medium images.
// Each thread computes out_x consecutive outputs of one row (tuning::direct_policy: one
// channel of 2 or 4 bytes 2 at radius 1 and 1 at radius 2 in blocks of 32 x 8 threads;
// other pixels 4, 2 for uchar4, in blocks of 32 x 4); it reads the out_x + 2R pixels of
// each of its 2R + 1 window rows straight from global memory (neighbouring threads' reads
// meet in L1) into registers, so there is no shared memory, no barrier and no second
// phase. A separable filter runs as its outer product: at radius 1 and 2 its (2R + 1)^2
// FMAs per output cost less than a second pass would.
//
// Why a family of its own: what costs time on an image of a few megapixels is the chain
// of one block (staging, barrier, compute, store), not the bytes. On the H200 a plain
// kernel of this shape filtered 1920x1080 u8 3x3 in 8.9 us, where tiled's 32 x 32 tiles
// took 12.2 and shared_mem 14.3, and 512x512 in 4.7 us (shared_mem 6.8); this family,
// with every border rule and ROI, 11.0 and 5.4 us. On large images it rereads each input
// row 2R + 1 times through L1 and loses to tiled and streaming (8192x8192: 1.6x to 3.1x
// streaming's time), and on four channels from 512x512 to shared_mem.
//
// direct2d_kernel below: blocks whose windows lie inside the image (tile-class dispatch)
// read with no border arithmetic and store with no checks. Border blocks map each
// thread's OX + 2R window columns once and each window row once, as tiled's frame grid
// does (tiled_interior.hpp). Until 2026-11-26 the family ran tiled2d_kernel with one
// output row a thread, whose border tiles map every read through the run-time rule: on a
// 128x128 image, where every one of its 128-wide tiles touches the border, Nsight Compute
// gave that kernel 4.6 to 5.1 us and 74.6 thousand warp instructions for float separable
// 3x3, against 2.85 us and 51.6 thousand for a kernel mapping once, 32 x 8 threads of one
// output (NPP's Gaussian: 2.94 us, 64 blocks of 256; bench/experiments/
// small_float_probe.cu). Under reflect101, float 128x128 dense 5x5 took 16.0 us with the
// old kernel and 6.9 with this one, held (bench/results/2026-11-26-lean/probe-1.txt,
// direct-f-u16.csv). One-channel pixels whose reads are replicate also have an instance
// whose border blocks clamp with min / max (the Clamp parameter, direct_policy's
// ClampKernel): it took 0.83 to 0.95 times the time of the run-time rule's for float and
// u16 from 128x128 to 1920x1080 (bench/results/2026-11-28-clamp/direct-border-1.txt).
// Compile-time radius only.
#pragma once

#include "../../platform/config.hpp"
#if HIPSTENCIL_HAS_GPU
#include "../../algorithm.hpp"
#include "../family.hpp"
#include "shared_mem.hpp"
#include "tiled.hpp"
#include <type_traits>

namespace hipstencil {
namespace detail {

/// Dense filter of radius R (or a separable one's outer product) on BX x BY threads, each
/// computing OX consecutive outputs of one row; MinBlocks as HIPSTENCIL_LAUNCH_BOUNDS's.
/// `gr` is g.for_reads(). Tiles are BX * OX outputs wide and BY rows high; the grid's rows
/// loop over tiles when the ROI has more than gridDim.y of them. Clamp: border blocks
/// clamp their reads to gr.domain (compiled for replicate); only for a gr whose rule is
/// replicate (replicate itself, and skip and padded, which read as replicate).
template <class In, class Out, int R, int BX, int BY, int OX, int MinBlocks, bool Batch, bool Clamp>
__global__ void HIPSTENCIL_LAUNCH_BOUNDS(BX* BY, MinBlocks)
    direct2d_kernel(image_view<const In> src, image_view<Out> dst, geometry g, geometry gr,
                    inline_taps<(2 * R + 1) * (2 * R + 1)> taps, bool tile_class, image_strides strides) {
  if constexpr (Batch) select_image(src, dst, strides);
  constexpr int C = pixel_traits<In>::channels, K = 2 * R + 1, N = OX + 2 * R, TW = BX * OX;
  using A = accum<float, C>;
  const int x_end = g.src_x0 + g.width + K - 1, y_end = g.src_y0 + g.height + K - 1;  // window extent
  const int tx0 = blockIdx.x * TW;
  for (int ty0 = blockIdx.y * BY; ty0 < g.height; ty0 += gridDim.y * BY) {
    const tile_class_info tc = classify_tile(g, tx0, ty0, TW, BY, K, K, tile_class);
    const int x0 = tx0 + threadIdx.x * OX, y = ty0 + threadIdx.y;  // ROI-relative outputs
    if (x0 >= g.width || y >= g.height) continue;  // no barrier in this kernel: safe to leave
    int px = g.src_x0 + x0;
    const int py = g.src_y0 + y;
    A acc[1][OX];
    zero(acc);
    if (tc.free_read && tc.full) {
      // Rows by steps of the pitch from the first, as tiled's interior instance: each
      // row's own src.row() is a 64-bit multiply and its conversions, about six
      // instructions a row where a thread's whole window is 25 loads and 25 FMAs.
      const char* s0 = reinterpret_cast<const char*>(src.row(py) + px);
      static_loop<K, true>([&](int t) {
        const In* s = reinterpret_cast<const In*>(s0 + std::size_t(t) * src.pitch_bytes);
        A v[N];
        HIPSTENCIL_UNROLL
        for (int u = 0; u < N; ++u) v[u] = to_accum_cvt<float>(s[u]);  // once a pixel
        add_window_row<R>(acc, v, t, taps);
      });
    } else {
#if defined(__CUDA_ARCH__)
      // As in tiled's load_row: px is invariant across a thread's tiles, and marking it
      // changed here keeps the column maps on this path instead of hoisted before the
      // loop, where threads of blocks inside the image would compute them too.
      asm volatile("" : "+r"(px));
#endif
      if constexpr (Clamp) {
        // Replicate as min / max (clamped). The run-time rule below is a switch for each
        // of the OX + 2R columns and 2R + 1 rows and a test on every read for the
        // constant: nvcc 13 made float 3x3's kernel 1,344 instructions (sm_90), its
        // instance for replicate 280, and on a 128x128 image, where every block is a
        // border block, Nsight Compute counted 193 warp instructions a warp against 322
        // (bench/experiments/direct_border_ab.cu).
        const clamped<In> c(src, gr);
        int sx[N];
        HIPSTENCIL_UNROLL
        for (int u = 0; u < N; ++u) sx[u] = c.x(px + u);
        static_loop<K, true>([&](int t) {
          const In* p = c.row(py + t);
          A v[N];
          HIPSTENCIL_UNROLL
          for (int u = 0; u < N; ++u) v[u] = to_accum<float>(p[sx[u]]);
          add_window_row<R>(acc, v, t, taps);
        });
      } else {
        // The window's columns, mapped once (outside: the constant), clamped first to the
        // problem's last window column so that threads of a partial tile read only what
        // the ROI's windows cover (under padded, all the memory the caller guarantees).
        int sx[N];
        HIPSTENCIL_UNROLL
        for (int u = 0; u < N; ++u) sx[u] = gr.map_x(min(px + u, x_end - 1));
        const A outside_value = constant_accum<C>(gr);
        const bordered<In> b{src, gr};
        static_loop<K, true>([&](int t) {
          const In* p = b.row(min(py + t, y_end - 1)).p;  // null: a row of the constant
          A v[N];
          HIPSTENCIL_UNROLL
          for (int u = 0; u < N; ++u) v[u] = p && sx[u] != outside ? to_accum<float>(p[sx[u]]) : outside_value;
          add_window_row<R>(acc, v, t, taps);
        });
      }
    }
    store_block<Out, OX, 1>(dst, g, acc, x0, y, tc.free_write);
  }
}

struct direct_family {
  static constexpr const char* name = "direct";
  static constexpr bool dense = true, separable = true;  // a separable filter runs as its outer product
  static constexpr bool outer_product = true;            // (resolved_algorithm reports it dense)
  static constexpr tuning::choice automatic_id = tuning::choice::direct;
  using default_policy = tuning::direct_policy<>;
  using fallback = shared_mem_family;

  /// Square centred filters of a compiled radius, dense or separable.
  template <class P, class In, class Out>
  static fit fits(const problem<In, Out>& p) {
    const bool ok = p.dense ? compiled(p.radius, typename P::dense_radii{})
                            : compiled(p.radius, typename P::separable_radii{});
    return ok ? fit{true, p.radius} : no_fit;
  }

  template <class P, class In, class Out>
  static void launch(const problem<In, Out>& p) {
    constexpr int C = pixel_traits<In>::channels;
    constexpr int CB = int(sizeof(In)) / C;
    constexpr bool B = tuning::is_batched<P>::value;
    const geometry& g = p.g;
    auto run = [&](auto R) {
      constexpr int r = decltype(R)::value, n = (2 * r + 1) * (2 * r + 1);  // a separable filter's outer product too
      constexpr int BX = P::block_x, BY = P::template block_y_for<C, CB>, OX = P::template out_x_for<C, CB, r>;
      constexpr int MB = P::template min_blocks_for<C, CB>;
      const dim3 grid = tile_grid(g.width, g.height, BX * OX, BY, p.images), block(BX, BY);
      const geometry gr = g.for_reads();
      auto go = [&](auto clamp) {
        direct2d_kernel<In, Out, r, BX, BY, OX, MB, B, decltype(clamp)::value><<<grid, block, 0, p.stream>>>(
            p.src, p.dst, g, gr, window_taps<n>(p), p.tile_class, p.strides);
      };
      if constexpr (P::template clamp_kernel_for<C, CB>) {
        if (gr.border.rule == border::kind::replicate) return go(std::true_type{});
      }
      go(std::false_type{});
    };
    if (p.dense) with_static_radius(p.radius, run, typename P::dense_radii{});
    else with_static_radius(p.radius, run, typename P::separable_radii{});
    gpu::check_launch("direct2d_kernel");
  }
};

}  // namespace detail
}  // namespace hipstencil
#endif
