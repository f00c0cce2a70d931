// hipstencil/detail/kernels/tiled.hpp
// The tiled family: register-blocked kernels after "Tiled Convolution" (AMD), a BX x BY
// work-group in which each thread computes OX x OY outputs (tuning::tiled_policy; 8 x 8
// and 4 x 4 by default: a 32 x 32 tile).
//
//   tiled_sep_kernel: separable filters. Phase 1: each thread filters OX consecutive
//     pixels of a row horizontally, holding the OX + 2R raw pixels in registers (each
//     fetched once, reused by all OX outputs); the 1D results of the tile's rows plus the
//     vertical halo go to shared memory, where vertically adjacent threads share them
//     (the paper's exchange). Phase 2: each thread slides down its column of results,
//     one shared row of OX values at a time, into its OX x OY accumulators.
//   tiled_sep_clamp_kernel (tiled_sep_clamp.hpp): separable 3x3 and 5x5 on one image
//     whose reads are replicate, up to tiled_policy's ClampSeparableMaxPixels: both
//     passes unrolled, every read clamped, no tile classes.
//   tiled_dense_clamp_kernel (tiled_dense_clamp.hpp): dense 3x3 and 5x5 on one image
//     whose reads are replicate, up to tiled_policy's ClampDenseMaxPixels: its window
//     staged in shared memory with every read clamped, unrolled, no tile classes.
//   tiled_dense_staged_kernel (tiled_staged.hpp): the same with its window staged by
//     whole aligned loads, for ushort3 above the small shape (tiled_policy's
//     clamp_dense_staged_bytes) where the source allows; tiled_sep_staged_kernel the same
//     for tiled_sep_clamp_kernel, float3 from 1920x1080 (clamp_separable_staged).
//   tiled2d_kernel: dense filters. Each thread walks the OY + 2R input rows of its window
//     once; a row's OX + 2R pixels sit in registers and feed every output row it touches
//     (raw pixels shared through registers and L1). Sharing per-filter-row horizontal
//     results as the separable path does would take 2R + 1 times its shared memory, so the
//     dense path shares raw pixels only.
// Tile-class dispatch as in staging.hpp: interior tiles read with no border arithmetic and
// store with no checks. For one-channel 4-byte pixels (and 2-byte ones at radius 1 and 2:
// tiled_policy's InteriorNarrowMaxRadius) on large ROIs the dense filter runs instead as an
// interior instance and the frame around it (tiled_interior.hpp).
// Compile-time radius only (register arrays need constant indices).
#pragma once

#include "../../platform/config.hpp"
#if HIPSTENCIL_HAS_GPU
#include <algorithm>

#include "../../algorithm.hpp"
#include "../../platform/overlap.hpp"
#include "../family.hpp"
#include "batch_image.hpp"
#include "shared_mem.hpp"
#include "staging.hpp"
#include "taps.hpp"
#include "tiled_dense_clamp.hpp"
#include "tiled_interior.hpp"
#include "tiled_sep_clamp.hpp"
#include "tiled_staged.hpp"

namespace hipstencil {
namespace detail {

/// Bytes of shared memory tiled_sep_kernel needs.
template <int C, int BX, int BY, int OX, int OY>
constexpr std::size_t tiled_sep_bytes(int r) {
  return std::size_t(BY * OY + 2 * r) * std::size_t(BX * OX) * sizeof(accum<float, C>);
}

/// Loads N consecutive pixels of window row py from window column px. `fast`: a full
/// interior tile, plain loads. Otherwise each access is mapped by the border rule, and
/// clamped first to the problem's last window column and row (x_end, y_end exclusive), so
/// that threads of a partial tile never read past what the ROI's windows cover (which,
/// under `padded`, is all the memory the caller guarantees).
template <int N, class In>
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE void load_row(accum<float, pixel_traits<In>::channels> (&v)[N],
                                                       const image_view<const In>& src, const geometry& gr, int px,
                                                       int py, bool fast, int x_end, int y_end) {
  if (fast) {
    const In* s = src.row(py) + px;
    HIPSTENCIL_UNROLL
    for (int u = 0; u < N; ++u) v[u] = to_accum_cvt<float>(s[u]);  // once a pixel, as staging converts
  } else {
#if defined(__CUDA_ARCH__)
    // px is loop-invariant across a thread's tiles, so nvcc 13 hoisted the columns' border
    // maps out of the tile loop: every thread of every tile, free ones too, computed them
    // before its first load. Marking px as changed here keeps them on this path: u8 dense
    // 5x5 at 8192x8192 then took 0.82 to 0.85x the time on the H200 (sm_90).
    asm volatile("" : "+r"(px));
#endif
    const auto row = bordered<In>{src, gr}.row(min(py, y_end - 1));
    HIPSTENCIL_UNROLL
    for (int u = 0; u < N; ++u) v[u] = row.at(min(px + u, x_end - 1));
  }
}

/// Dense filter of radius R. `gr` is g.for_reads(), computed once on the host (derived
/// per thread, it held registers across the unrolled rows: nvcc 13, sm_90, -Xptxas -v).
/// UnrollRows: the window rows unrolled too (every tap index a constant), else a rolled
/// loop over them (the policy's unrolled_rows_max_radius decides).
template <class In, class Out, int R, int BX, int BY, int OX, int OY, int MinBlocks, bool Batch, bool UnrollRows = true>
__global__ void HIPSTENCIL_LAUNCH_BOUNDS(BX* BY, MinBlocks)
    tiled2d_kernel(image_view<const In> src, image_view<Out> dst, geometry g, geometry gr,
                   inline_taps<(2 * R + 1) * (2 * R + 1)> taps, bool tile_class, image_strides strides) {
  if constexpr (Batch) select_image(src, dst, strides);
  constexpr int C = pixel_traits<In>::channels, K = 2 * R + 1, TW = BX * OX, TH = BY * OY;
  using A = accum<float, C>;
  const int x_end = g.src_x0 + g.width + K - 1, y_end = g.src_y0 + g.height + K - 1;  // window extent
  const int tx0 = blockIdx.x * TW;
  for (int ty0 = blockIdx.y * TH; ty0 < g.height; ty0 += gridDim.y * TH) {
    const tile_class_info tc = classify_tile(g, tx0, ty0, TW, TH, K, K, tile_class);
    const bool free_read = tc.free_read, full = tc.full, free_write = tc.free_write;
    const int x0 = tx0 + threadIdx.x * OX, y0 = ty0 + threadIdx.y * OY;  // ROI-relative outputs
    if (x0 >= g.width || y0 >= g.height) continue;  // no barrier in this kernel: safe to leave
    A acc[OY][OX];
    zero(acc);
    // Window rows of this thread's block. Unrolled for small radii (see for_each_row): the
    // tap index j * K + i is then a constant.
    static_loop<OY + 2 * R, UnrollRows>([&](int t) {
      A v[OX + 2 * R];
      load_row<OX + 2 * R>(v, src, gr, g.src_x0 + x0, g.src_y0 + y0 + t, free_read && full, x_end, y_end);
      add_window_row<R>(acc, v, t, taps);
    });
    store_block<Out, OX, OY>(dst, g, acc, x0, y0, free_write);
  }
}

template <class In, class Out, int R, int BX, int BY, int OX, int OY, bool Batch>
__global__ void __launch_bounds__(BX* BY)
    tiled_sep_kernel(image_view<const In> src, image_view<Out> dst, geometry g, geometry gr,
                     const HIPSTENCIL_GRID_CONSTANT separable_taps<2 * R + 1> taps, bool tile_class,
                     image_strides strides) {
  if constexpr (Batch) select_image(src, dst, strides);
  constexpr int C = pixel_traits<In>::channels, K = 2 * R + 1, TW = BX * OX, TH = BY * OY;
  using A = accum<float, C>;
  extern __shared__ float4 tiled_storage[];
  A* h = reinterpret_cast<A*>(tiled_storage);  // (TH + 2R) rows x TW horizontal results
  const int x_end = g.src_x0 + g.width + K - 1, y_end = g.src_y0 + g.height + K - 1;  // window extent
  const int tx0 = blockIdx.x * TW;
  for (int ty0 = blockIdx.y * TH; ty0 < g.height; ty0 += gridDim.y * TH) {
    const tile_class_info tc = classify_tile(g, tx0, ty0, TW, TH, K, K, tile_class);
    const int ow = tc.ow, oh = tc.oh;
    const bool free_read = tc.free_read, full = tc.full, free_write = tc.free_write;
    const int xs = threadIdx.x * OX;  // this thread's columns in the tile
    // Phase 1: horizontal results of rows [0, oh + 2R), BY rows at a time.
    if (xs < ow) {
      HIPSTENCIL_NO_UNROLL
      for (int t = threadIdx.y; t < oh + 2 * R; t += BY) {
        A v[OX + 2 * R];
        load_row<OX + 2 * R>(v, src, gr, g.src_x0 + tx0 + xs, g.src_y0 + ty0 + t, free_read && full, x_end, y_end);
        HIPSTENCIL_UNROLL
        for (int x = 0; x < OX; ++x) {
          A s;
          zero(s);
          HIPSTENCIL_UNROLL
          for (int i = 0; i < K; ++i) fma_acc(s, taps.row[i], v[x + i]);
          h[t * TW + xs + x] = s;
        }
      }
    }
    __syncthreads();
    // Phase 2: vertical pass from the shared rows into OX x OY register accumulators.
    const int ys = threadIdx.y * OY;
    if (xs < ow && ys < oh) {
      A acc[OY][OX];
      zero(acc);
      HIPSTENCIL_NO_UNROLL
      for (int t = 0; t < OY + 2 * R; ++t) {
        const int row = ys + t;
        if (row >= oh + 2 * R) break;  // partial tile: rows past the window were not computed
        A v[OX];
        HIPSTENCIL_UNROLL
        for (int x = 0; x < OX; ++x) v[x] = h[row * TW + xs + x];
        HIPSTENCIL_UNROLL
        for (int y = 0; y < OY; ++y) {
          const int j = t - y;
          if (j >= 0 && j < K) {
            const float w = taps.col[j];  // j at run time: taps is HIPSTENCIL_GRID_CONSTANT
            HIPSTENCIL_UNROLL
            for (int x = 0; x < OX; ++x) fma_acc(acc[y][x], w, v[x]);
          }
        }
      }
      store_block<Out, OX, OY>(dst, g, acc, tx0 + xs, ty0 + ys, free_write);
    }
    __syncthreads();
  }
}

struct tiled_family {
  static constexpr const char* name = "tiled";
  static constexpr bool dense = true, separable = true;
  static constexpr tuning::choice automatic_id = tuning::choice::tiled;
  using default_policy = tuning::tiled_policy<>;
  using fallback = shared_mem_family;

  /// Square centred filters of a compiled radius; separable ones also need their shared
  /// rows to fit the policy's shared memory.
  template <class P, class In, class Out>
  static fit fits(const problem<In, Out>& p) {
    constexpr int C = pixel_traits<In>::channels;
    if (p.dense) return compiled(p.radius, typename P::dense_radii{}) ? fit{true, p.radius} : no_fit;
    const bool ok = compiled(p.radius, typename P::separable_radii{}) &&
                    tiled_sep_bytes<C, P::block_x, P::block_y, P::out_x, P::out_y>(p.radius) <= P::shared_bytes;
    return ok ? fit{true, p.radius} : no_fit;
  }

  template <class P, class In, class Out>
  static void launch(const problem<In, Out>& p) {
    constexpr int C = pixel_traits<In>::channels, BX = P::block_x, BY = P::block_y, OX = P::out_x, OY = P::out_y;
    constexpr int CB = int(sizeof(typename pixel_traits<In>::channel_type));
    constexpr bool B = tuning::is_batched<P>::value;
    const geometry& g = p.g;
    const geometry gr = g.for_reads();
    [[maybe_unused]] const long long pixels = (long long)g.width * g.height;  // the ROI's (batches: unused)
    if (p.dense) {
      const dim3 grid = tile_grid(g.width, g.height, BX * OX, BY * OY, p.images), block(BX, BY);
      with_static_radius(p.radius, [&](auto R) {
        constexpr int r = decltype(R)::value, n = (2 * r + 1) * (2 * r + 1);
        constexpr int min_blocks = P::template dense_min_blocks<C, CB, r>;
        // Small and medium images whose reads are replicate: tiled_dense_clamp_kernel up to
        // P::clamp_dense_max_pixels (narrow ones at any size: P::clamp_dense_size), in its
        // small shape up to P::clamp_separable_small; where P::clamp_dense_staged and the
        // source allows, tiled_dense_staged_kernel in its place.
        if constexpr (!B && P::template clamp_dense<C, CB, r>) {
          if (gr.border.rule == border::kind::replicate && P::clamp_dense_size(C, CB, r, g.width, pixels)) {
            auto go = [&](auto small) {
              constexpr bool S = decltype(small)::value;
              constexpr int DB = P::template clamp_dense_rows<C, CB, r, S>;
              constexpr int DY = P::template clamp_dense_out_y<C, CB, r, S>;
              constexpr int DX = P::template clamp_dense_out_x<C, CB, S>;
              constexpr int VB = P::template clamp_dense_staged<C, CB, r, S>;
              if (!tiled_sep_clamp_fits(g.height, DB * DY)) return false;
              if constexpr (VB > 0) {
                if (group_loads_aligned<VB>(p.src)) {
                  launch_tiled_dense_staged<r, 32, DB, DX, DY, VB>(p, gr);
                  return true;
                }
              }
              launch_tiled_dense_clamp<r, 32, DB, DX, DY>(p, gr);
              return true;
            };
            if (P::clamp_separable_small(pixels) ? go(std::true_type{}) : go(std::false_type{})) return;
          }
        }
        const auto taps = pack_taps<n>(p.dense->coefficients());
        if constexpr (!B && P::template dense_interior<C, CB, r>) {
          if (launch_interior<P, r>(p, gr, taps)) return;
        }
        tiled2d_kernel<In, Out, r, BX, BY, OX, OY, min_blocks, B, (r <= P::unrolled_rows_max_radius)>
            <<<grid, block, 0, p.stream>>>(p.src, p.dst, g, gr, taps, p.tile_class, p.strides);
      }, typename P::dense_radii{});
      gpu::check_launch("tiled2d_kernel");
      return;
    }
    with_static_radius(p.radius, [&](auto R) {
      constexpr int r = decltype(R)::value;
      // Small and medium images whose reads are replicate: tiled_sep_clamp_kernel up to
      // P::clamp_separable_max_pixels (narrow ones at any size: P::clamp_separable_size),
      // in its small shape up to P::clamp_separable_small, for three channels in a third
      // from P::clamp_separable_large; where P::clamp_separable_staged and the source
      // allow, tiled_sep_staged_kernel in that third's place.
      if constexpr (!B && P::template clamp_separable<C, CB, r>) {
        if (gr.border.rule == border::kind::replicate && P::clamp_separable_size(C, CB, g.width, pixels)) {
          constexpr int SB = P::template clamp_separable_small_rows<C, r>;
          auto go = [&](auto large) {
            constexpr bool L = decltype(large)::value;
            constexpr int SR = P::template clamp_separable_rows<C, CB, r, L>;
            constexpr int SY = P::template clamp_separable_out_y<C, CB, r, L>;
            constexpr int SX = P::template clamp_separable_out_x<C, CB>;
            if (!tiled_sep_clamp_fits(g.height, SR * SY)) return false;
            if constexpr (L && P::template clamp_separable_staged<C, CB, r> > 0) {
              constexpr int VB = P::template clamp_separable_staged<C, CB, r>;
              if (P::clamp_separable_staged_size(pixels) && group_loads_aligned<VB>(p.src)) {
                launch_tiled_sep_staged<r, 32, SR, SX, SY, VB>(p, gr);
                return true;
              }
            }
            launch_tiled_sep_clamp<r, 32, SR, SX, SY, P::clamp_separable_upfront(C, CB, r, false, L)>(p, gr);
            return true;
          };
          if (P::clamp_separable_small(pixels)) {
            if (tiled_sep_clamp_fits(g.height, SB))
              return launch_tiled_sep_clamp<r, 32, SB, 1, 1, P::clamp_separable_upfront(C, CB, r, true)>(p, gr);
          } else if (P::clamp_separable_large(C, pixels) ? go(std::true_type{}) : go(std::false_type{})) {
            return;
          }
        }
      }
      // Small separable filters on large images: the outer product in the interior
      // instance, where the memory traffic of one pass outweighs (2R + 1)^2 products.
      if constexpr (!B && P::separable_interior_min_pixels(C, CB, r) >= 0) {
        const long long min_pixels = P::separable_interior_min_pixels(C, CB, r, clamp_frame<P, r>(gr));
        if (pixels >= min_pixels &&
            launch_interior<P, r>(p, gr, window_taps<(2 * r + 1) * (2 * r + 1)>(p)))
          return;
      }
      // Small images: a shorter tile (P::small_shape), more blocks and fewer border tiles.
      if constexpr (!B && P::template small_shapes<C, CB, r>) {
        const int shape = P::small_shape(pixels);
        if (shape == 1) return launch_separable<r, 32, 8, 1, 1, B>(p, gr);
        if (shape == 2) return launch_separable<r, 16, 8, 2, 2, B>(p, gr);
      }
      launch_separable<r, BX, BY, OX, OY, B>(p, gr);
    }, typename P::separable_radii{});
    gpu::check_launch("tiled_sep_kernel");
  }

 private:
  /// Whether the interior instance's frame runs its replicate instance at radius R: the
  /// policy compiles it there and the reads (`gr`, geometry::for_reads) are replicate
  /// (replicate, skip, padded).
  template <class P, int R>
  static bool clamp_frame(const geometry& gr) {
    if constexpr (P::template frame_clamp<R>) return gr.border.rule == border::kind::replicate;
    return false;
  }

  /// tiled_sep_kernel of radius R with BX x BY threads of OX x OY outputs; gr: the reads'
  /// geometry (geometry::for_reads).
  template <int R, int BX, int BY, int OX, int OY, bool B, class In, class Out>
  static void launch_separable(const problem<In, Out>& p, const geometry& gr) {
    constexpr int C = pixel_traits<In>::channels;
    const dim3 grid = tile_grid(p.g.width, p.g.height, BX * OX, BY * OY, p.images), block(BX, BY);
    tiled_sep_kernel<In, Out, R, BX, BY, OX, OY, B><<<grid, block, tiled_sep_bytes<C, BX, BY, OX, OY>(R), p.stream>>>(
        p.src, p.dst, p.g, gr, pack_separable<2 * R + 1>(*p.separable), p.tile_class, p.strides);
  }

  /// tiled2d_frame_kernel of radius R (Clamp: its replicate instance) with cells of
  /// P::small_frame_rows rows where `small_cells`, else P::frame_rows. The small cells'
  /// instances are compiled up to P::small_frame_max_radius only, where small_frame holds.
  template <class P, int R, bool Clamp, class In, class Out>
  static auto frame_instance(bool small_cells) {
    auto kernel = &tiled2d_frame_kernel<In, Out, R, Clamp, P::frame_rows>;
    if constexpr (R <= P::small_frame_max_radius && P::small_frame_rows != P::frame_rows) {
      if (small_cells) kernel = &tiled2d_frame_kernel<In, Out, R, Clamp, P::small_frame_rows>;
    }
    return kernel;
  }

  /// Runs a dense filter (or a separable one's outer product) on one image as the interior
  /// instance and its frame (tiled_interior.hpp) where plan_interior says it applies.
  /// Returns false, having launched nothing, where it does not. Batches (convolve_batch)
  /// run tiled2d_kernel: batched instances of both grids would be 16 more kernels to
  /// compile and test, and were not measured.
  template <class P, int R, class In, class Out, class Taps>
  static bool launch_interior(const problem<In, Out>& p, const geometry& gr, const Taps& taps) {
    constexpr int OX = P::out_x;
    constexpr int IX = P::interior_block_x, IY = P::interior_block_y, IOY = P::template interior_out_y<R>;
    interior_plan plan;
    if (!plan_interior<P, R>(p, gr, plan)) return false;
    // The one grid's instances are compiled up to P::fused_frame_max_radius only.
    if constexpr (P::fused_frame_rows > 0 && R <= P::fused_frame_max_radius) {
      if (plan.one_grid) {
        constexpr int M = P::fused_frame_rows;
        if constexpr (P::template frame_clamp<R>) {
          if (plan.clamp) {
            launch_tiled_fused<R, IX, IY, OX, IOY, true, M, true>(p, gr, taps, plan);
            return true;
          }
        }
        launch_tiled_fused<R, IX, IY, OX, IOY, false, M, true>(p, gr, taps, plan);
        return true;
      }
    }
    launch_two_grids<P, R>(p, gr, taps, plan);
    return true;
  }

  /// launch_interior's two grids: the frame's (tiled2d_frame_kernel) and the interior
  /// rectangle's (tiled2d_interior_kernel), in plan.frame_first's order, the second
  /// launched as the first's dependent where the device can overlap them.
  template <class P, int R, class In, class Out, class Taps>
  static void launch_two_grids(const problem<In, Out>& p, const geometry& gr, const Taps& taps,
                               const interior_plan& plan) {
    constexpr int OX = P::out_x;
    constexpr int IX = P::interior_block_x, IY = P::interior_block_y, IOY = P::template interior_out_y<R>;
    const geometry& g = p.g;
    // Whether the device can overlap the two grids, asked of the runtime once per device.
    const bool overlap =
        plan.frame_blocks > 0 && tuning::detail::per_device([](int) { return int(gpu::overlap_supported()); }) != 0;
    auto frame_kernel = frame_instance<P, R, false, In, Out>(plan.small_cells);
    if constexpr (P::template frame_clamp<R>) {
      if (plan.clamp) frame_kernel = frame_instance<P, R, true, In, Out>(plan.small_cells);
    }
    auto launch_frame = [&](bool dependent) {
      if (plan.frame_blocks <= 0) return;
      const unsigned blocks = unsigned(std::min(plan.frame_blocks, 1LL << 16));
      gpu::launch_dependent(frame_kernel, dim3(blocks), dim3(frame_threads), p.stream, overlap && dependent, p.src,
                            p.dst, g, gr, taps, plan.frame, plan.frame_first);
      gpu::check_launch("tiled2d_frame_kernel");
    };
    if (plan.frame_first) launch_frame(false);
    gpu::launch_dependent(&tiled2d_interior_kernel<In, Out, R, IX, IY, OX, IOY>, plan.grid, dim3(IX, IY), p.stream,
                          overlap && plan.frame_first, p.src, p.dst, g, taps, plan.in.x0, plan.in.y0, plan.cols,
                          plan.rows, plan.lead, plan.frame_first);
    gpu::check_launch("tiled2d_interior_kernel");
    if (!plan.frame_first) launch_frame(true);
  }

 public:
  /// Fills `plan` with how the interior instance and its frame would run a dense filter of
  /// radius R on p (`gr`: p.g.for_reads()) under policy P, and returns true, where that
  /// applies: the border strategy is tile_class, the spans are aligned, the ROI has
  /// P::interior_from(clamp_frame, R) pixels or more, and the interior rectangle is not
  /// empty. Returns false where it does not. Public for bench/experiments' probes, which
  /// launch the same rectangle and frame their own way.
  template <class P, int R, class In, class Out>
  static bool plan_interior(const problem<In, Out>& p, const geometry& gr, interior_plan& plan) {
    constexpr int OX = P::out_x;
    constexpr int IX = P::interior_block_x, IY = P::interior_block_y, IOY = P::template interior_out_y<R>;
    const geometry& g = p.g;
    plan.clamp = clamp_frame<P, R>(gr);
    if (!p.tile_class || (long long)g.width * g.height < P::interior_from(plan.clamp, R) ||
        !span_aligned<OX>(p.src, p.dst, g, R))
      return false;
    // What load_span reads beyond each window row of the interior's threads.
    using reads = span_reads<span_alignment<In, OX>(), R, OX + 2 * R, int(sizeof(In))>;
    plan.in = tiled_interior(g, R, OX, IOY, p.src.width, reads::left, reads::right);
    if (plan.in.empty()) return false;
    constexpr int CB = int(sizeof(typename pixel_traits<In>::channel_type));
    const long long pixels = (long long)g.width * g.height;
    // One grid for both (P::fused_frame_rows), the frame's blocks first, its cells of
    // P::fused_frame_rows rows, up to P::fused_frame_max_radius: where the frame runs its
    // replicate instance (min / max in place of the run-time rule; clamp_frame), and from
    // P::fused_frame_rule_min_pixels where it runs the rule at run time.
    plan.one_grid = P::fused_frame_rows > 0 && R <= P::fused_frame_max_radius &&
                    (plan.clamp || pixels >= P::fused_frame_rule_min_pixels);
    // Elsewhere two grids (launch_two_grids), and which goes first (P::frame_first): the
    // second is launched as the first's dependent and its launch, a few microseconds of
    // host time, ends up on the critical path where the first grid is short. Their frame's
    // cells are P::small_frame's: one row below 2^21 pixels, where the frame is short and
    // its grid's time is one thread's chain of loads.
    plan.frame_first = plan.one_grid || P::frame_first(pixels, CB, R);
    plan.small_cells = !plan.one_grid && P::small_frame(pixels, R, plan.frame_first);
    set_frame(plan, g, plan.one_grid      ? P::fused_frame_rows
                       : plan.small_cells ? P::small_frame_rows
                                          : P::frame_rows);
    plan.cols = plan.in.x1 - plan.in.x0, plan.rows = plan.in.y1 - plan.in.y0;
    plan.lead = interior_lead(p.dst, g, plan.in.x0, plan.in.y0, OX);
    plan.tiles_x = (plan.lead + plan.cols + IX * OX - 1) / (IX * OX);
    plan.tiles_y = (plan.rows + IY * IOY - 1) / (IY * IOY);  // blockIdx.z counts 65535 of them
    plan.grid = dim3(unsigned(plan.tiles_x), unsigned(std::min(plan.tiles_y, 65535)),
                     unsigned((plan.tiles_y + 65534) / 65535));
    return true;
  }
};

}  // namespace detail
}  // namespace hipstencil
#endif
