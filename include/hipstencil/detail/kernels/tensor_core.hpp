// hipstencil/detail/kernels/tensor_core.hpp
// The tensor_core family: a dense filter's window sums as small matrix products on the
// tensor cores (NVIDIA mma.sync, sm_80 and later), with the accuracy of float FMAs.
//
// The rearrangement (as in ConvStencil, Chen et al., PPoPP 2024, and the Toeplitz
// formulation of 1D convolution as a matrix product before it): for one filter row ky,
// the outputs of 16 rows x 8 columns at (x0, y0) are
//   out[m][n] += sum_k A[m][k] B[k][n],  A[m][k] = region[y0 + m + ky][x0 + k],
//                                        B[k][n] = coeff[ky][k - n] (0 outside the row),
// a 16 x K by K x 8 product over the 8 + kw - 1 columns of the band, rounded up to U units
// of 8 (tc_units). B is banded and the same for every column of outputs, so a warp
// computing 4 such blocks side by side (16 x 32 outputs) loads each slice of A once
// (ldmatrix) and multiplies it into every block whose band covers it: per filter row,
// 4 + U - 1 slices for 4 x U depth-8 products. The work is 8 U / kw times the taps.
//
// Precision, so that results stay within the float FMA families' error (tests/gpu holds
// every family to 1e-5 of sum |k| max |x|):
//   - 8-bit and half inputs (fp16 holds them exactly): fp16 products (m16n8k16, and one
//     m16n8k8 for an odd U) with float sums. Each coefficient, scaled by a power of two 2^e
//     that takes the largest into [2^14, 2^15) (the products stay far from fp16's
//     subnormals), is split into a high and a low fp16 part, k 2^e = hi + lo +
//     O(2^-22 k 2^e): two products per step, and the sums are multiplied by 2^-e (exact).
//   - every other input (float, 16-bit integers, bfloat16): three TF32 products per step,
//     a_hi b_hi + a_hi b_lo + a_lo b_hi with x = x_hi + x_lo, x_hi = x cut to TF32 (the
//     "3xTF32" of CUTLASS; coefficients rounded, pixels truncated): the dropped a_lo b_lo
//     and the tensor core's truncation of the low parts are O(2^-20) of each product.
// Tensor-core sums round differently from fmaf chains (and NVIDIA's accumulate in the
// tensor core truncates), so integer kernels that the direct families compute exactly are
// left to them, as the fft family leaves them.
//
// One block of 8 warps computes a 64 x 64 output tile: the region (tile plus halo, read
// through the border rule with the tile-class test of staging.hpp; columns the band never
// weights are zero) is staged in shared memory as the operand type (float or fp16 bits),
// with a row pitch that makes ldmatrix conflict-free, and the split coefficients of every
// filter row as a small table each lane reads its B fragment from; the outputs go back
// through shared memory so that each warp stores whole row segments. What it costs
// (bench/results/2026-11-24-tensor-core/): 8192x8192 u8 takes 242 us at 5x5, where the
// products are few, and 424 at 15x15, so staging and stores cost about as much as the
// products there.
// One channel only (multi-channel pixels run the fallback). AMD's MFMA is not wired in:
// on HIP fits() refuses every problem and shared_mem runs.
#pragma once

#include "../../platform/config.hpp"
#if HIPSTENCIL_HAS_GPU
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "../../algorithm.hpp"
#include "../factor.hpp"
#include "../family.hpp"
#include "batch_image.hpp"
#include "shared_mem.hpp"
#include "tensor_core_layout.hpp"
#include "tensor_core_mma.hpp"

namespace hipstencil {
namespace detail {

#if defined(HIPSTENCIL_BACKEND_CUDA)
/// An empty kernel whose binary version fits() asks of the runtime: the architecture the
/// code of this build runs as on the current device. Asking it of tc_dense_kernel instead
/// instantiated the family's largest kernel in every unit that calls fits() (automatic's
/// dispatch: each test, example and benchmark unit), precompiled or not.
template <int>
__global__ void tc_binary_probe_kernel() {}

/// Tensor-core dense correlation, U units of 8 columns per block and filter row (see the
/// file's head and tc_units). `scale` 2^e (fp16 operands; 1 for TF32) multiplies the
/// coefficients before the split.
template <class In, class Out, int U, bool Batch>
__global__ void __launch_bounds__(tc_threads, 4)
    tc_dense_kernel(image_view<const In> src, image_view<Out> dst, geometry g, inline_taps<inline_capacity> taps,
                    float scale, bool tile_class, image_strides strides) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  if constexpr (Batch) select_image(src, dst, strides);
  constexpr bool fp16 = tc_fp16_operands<In>;
  constexpr int K = tc_depth<In>, NB = tc_blocks_per_warp;
  // Steps of depth K, the last of depth 8 where `tail` (fp16, odd U); slices 8 columns apart.
  constexpr bool tail = fp16 && U % 2 == 1;
  constexpr int S = fp16 ? (U + 1) / 2 : U, slices = NB + tc_span<In>(U) - K / 8;
  constexpr int stage_cols = (tc_tile_w - 8 + 8 * tc_span<In>(U) + 31) / 32;  // per lane
  using E = std::conditional_t<fp16, unsigned short, float>;  // one staged operand element
  // Pixels that can be infinite or NaN (float, half, bfloat16): see `nonfinite` below.
  constexpr bool may_be_nonfinite = is_float_channel<typename pixel_traits<In>::channel_type>;
  extern __shared__ float4 tc_storage[];
  const int kw = g.kw, kh = g.kh;
  const tc_layout l = tc_layout_for<In, Out>(U, kh);
  E* region = reinterpret_cast<E*>(tc_storage);
  uint2* table = reinterpret_cast<uint2*>(reinterpret_cast<char*>(tc_storage) + l.region_bytes);
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, nwarps = tc_threads / 32;

  // The coefficient table: entry (ky, m + 8) holds coefficient m of filter row ky (zero
  // outside [0, kw)) split in two: TF32 {hi, lo}; fp16 {hi(m) hi(m+1), lo(m) lo(m+1)}
  // (the pairs of a B register).
  for (int i = threadIdx.x; i < kh * l.table; i += tc_threads) {
    const int ky = i / l.table, m = i % l.table - 8;
    auto coeff = [&](int c) { return c >= 0 && c < kw ? taps[ky * kw + c] * scale : 0.0f; };
    if constexpr (fp16) {
      const float c0 = coeff(m), c1 = coeff(m + 1);
      const unsigned short h0 = tc_f16_bits(c0), h1 = tc_f16_bits(c1);
      const unsigned short l0 = tc_f16_bits(c0 - tc_f16_value(h0)), l1 = tc_f16_bits(c1 - tc_f16_value(h1));
      table[i] = make_uint2(unsigned(h0) | unsigned(h1) << 16, unsigned(l0) | unsigned(l1) << 16);
    } else {
      const float c = coeff(m);
      const unsigned hi = tc_tf32_bits(c);
      table[i] = make_uint2(hi, __float_as_uint(c - __uint_as_float(hi)));
    }
  }

  const int wx0 = (warp % 2) * tc_warp_w, wy0 = (warp / 2) * tc_warp_h;
  const int grp = lane / 4, tig = lane % 4;
  // This lane's ldmatrix row: row r of matrix mi, the four matrices being the A
  // fragment's rows 0-7 / 8-15 by its first / second half of columns.
  const int mi = lane / 8, lrow = lane % 8 + 8 * (mi & 1), lcol = (mi >> 1) * (K / 2);
  // The B fragment's coefficient index (within a step) of this lane, less the step's start.
  const int bidx = fp16 ? 2 * tig - grp + 8 : tig - grp + 8;
  const geometry gr = g.for_reads();
  const int tx0 = blockIdx.x * tc_tile_w;
  for (int ty0 = blockIdx.y * tc_tile_h; ty0 < g.height; ty0 += gridDim.y * tc_tile_h) {
    const tile_class_info tc = classify_tile(g, tx0, ty0, tc_tile_w, tc_tile_h, kw, kh, tile_class);
    // Stage: the window region [0, ow + kw - 1) x [0, oh + kh - 1), zero beyond (the band
    // weights those columns and the unused rows by zero, and zero times a stale NaN is not).
    // Each warp takes rows, `rows_in_flight` at a time with all their loads issued before
    // any store: one row a time left each load's latency exposed (u8 3x3 at 8192x8192 took
    // 384 us, streaming 104). A lane keeps its columns, lane + 32 c.
    const int rw = tc.ow + kw - 1, rh = tc.oh + kh - 1;
    bool bad = false;  // this thread staged an infinity or a NaN
    auto stage = [&](auto read) {
      constexpr int rows_in_flight = 6, cols = stage_cols;
      HIPSTENCIL_NO_UNROLL
      for (int ly0 = warp; ly0 < l.height; ly0 += nwarps * rows_in_flight) {
        float v[rows_in_flight][cols];
        HIPSTENCIL_UNROLL
        for (int u = 0; u < rows_in_flight; ++u) {
          const int ly = ly0 + u * nwarps;
          read(v[u], ly, ly < rh);
        }
        HIPSTENCIL_UNROLL
        for (int u = 0; u < rows_in_flight; ++u) {
          const int ly = ly0 + u * nwarps;
          E* row = region + ly * l.pitch + lane;
          HIPSTENCIL_UNROLL
          for (int c = 0; c < cols; ++c)
            if (ly < l.height && lane + 32 * c < l.width) {
              if constexpr (may_be_nonfinite) bad |= !isfinite(v[u][c]);
              if constexpr (fp16) row[32 * c] = tc_f16_bits(v[u][c]);
              else row[32 * c] = v[u][c];
            }
        }
      }
    };
    if (tc.free_read) {
      // Interior tiles (most of a large image): plain loads from the region's first row
      // pointer, no border map.
      const In* origin = src.row(tc.py) + tc.px + lane;
      stage([&](float (&v)[stage_cols], int ly, bool row_in) {
        const In* p = reinterpret_cast<const In*>(reinterpret_cast<const char*>(origin) +
                                                  (long long)(row_in ? ly : 0) * (long long)src.pitch_bytes);
        HIPSTENCIL_UNROLL
        for (int c = 0; c < int(sizeof(v) / sizeof(v[0])); ++c)
          v[c] = row_in && lane + 32 * c < rw ? to_accum<float>(p[32 * c]).v[0] : 0.0f;
      });
    } else {
      const bordered<In, true> mapped{src, gr};
      stage([&](float (&v)[stage_cols], int ly, bool row_in) {
        const auto row = mapped.row(tc.py + (row_in ? ly : 0));
        HIPSTENCIL_UNROLL
        for (int c = 0; c < int(sizeof(v) / sizeof(v[0])); ++c)
          v[c] = row_in && lane + 32 * c < rw ? row.at(tc.px + lane + 32 * c).v[0] : 0.0f;
      });
    }
    // A tile holding an infinity or a NaN is summed tap by tap instead: the band's zeros
    // multiply every pixel of a slice (and x - hi is NaN for x infinite), so the products
    // would make NaN of outputs whose windows never touch it, where fmaf sums (and scipy)
    // keep them finite.
    bool nonfinite = false;
    if constexpr (may_be_nonfinite) nonfinite = __syncthreads_or(bad) != 0;
    else __syncthreads();

    if (nonfinite) {
      // Output (ox, oy0 + 4 k) as the FMA families sum it, stored straight away (rare).
      const int ox = threadIdx.x % tc_tile_w, oy0 = threadIdx.x / tc_tile_w;
      HIPSTENCIL_NO_UNROLL
      for (int oy = oy0; oy < tc_tile_h; oy += tc_threads / tc_tile_w) {
        accum<float, 1> sum;
        sum.v[0] = 0.0f;
        const E* w = region + oy * l.pitch + ox;
        for (int j = 0; j < kh; ++j)
          for (int i = 0; i < kw; ++i) {
            const E e = w[j * l.pitch + i];
            float x;
            if constexpr (fp16) x = tc_f16_value(e);
            else x = e;
            sum.v[0] = fmaf(taps[j * kw + i], x, sum.v[0]);
          }
        if (tc.free_write || (ox < tc.ow && oy < tc.oh && g.writes(tx0 + ox, ty0 + oy)))
          dst(g.dst_x0 + tx0 + ox, g.dst_y0 + ty0 + oy) = from_accum<Out>(sum);
      }
      __syncthreads();  // the next tile's staging overwrites the region
      continue;
    }

    float acc[NB][4];
    HIPSTENCIL_UNROLL
    for (int b = 0; b < NB; ++b)
      HIPSTENCIL_UNROLL
      for (int c = 0; c < 4; ++c) acc[b][c] = 0.0f;
    HIPSTENCIL_NO_UNROLL
    for (int ky = 0; ky < kh; ++ky) {
      const uint2* trow = table + ky * l.table + bidx;
      uint2 b0[S], b1[S];  // {hi, lo} of the fragment's two registers, per step (a depth-8
                           // fp16 step has one, b0)
      HIPSTENCIL_UNROLL
      for (int s = 0; s < S; ++s) {
        b0[s] = trow[s * K];
        b1[s] = trow[s * K + K / 2];
      }
      const E* arow = region + (wy0 + ky + lrow) * l.pitch + wx0 + lcol;
      // Slice q (columns wx0 + 8q ... + K - 1) feeds block q - s K / 8 at step s (blocks
      // are 8 columns apart, steps K).
      HIPSTENCIL_UNROLL
      for (int q = 0; q < slices; ++q) {
        unsigned a[4];
        tc_ldmatrix_x4(a, arow + 8 * q);
        if constexpr (fp16) {
          HIPSTENCIL_UNROLL
          for (int s = 0; s < S; ++s) {
            const int b = q - 2 * s;
            if (b >= 0 && b < NB) {
              if (tail && s == S - 1) {  // depth 8: the slice's first 8 columns, a[0] and a[1]
                tc_mma_f16_k8(acc[b], a[0], a[1], b0[s].y);
                tc_mma_f16_k8(acc[b], a[0], a[1], b0[s].x);
              } else {
                tc_mma_f16(acc[b], a, b0[s].y, b1[s].y);
                tc_mma_f16(acc[b], a, b0[s].x, b1[s].x);
              }
            }
          }
        } else {
          // hi: x truncated to TF32 (a mask, full rate; cvt.rna costs a conversion
          // instruction per element), lo = x - hi exactly, within 2^-10 |x|.
          unsigned hi[4], lo[4];
          HIPSTENCIL_UNROLL
          for (int c = 0; c < 4; ++c) {
            hi[c] = a[c] & 0xffffe000u;
            lo[c] = __float_as_uint(__uint_as_float(a[c]) - __uint_as_float(hi[c]));
          }
          HIPSTENCIL_UNROLL
          for (int s = 0; s < S; ++s) {
            const int b = q - s;
            if (b >= 0 && b < NB) {
              tc_mma_tf32(acc[b], lo, b0[s].x, b1[s].x);
              tc_mma_tf32(acc[b], hi, b0[s].y, b1[s].y);
              tc_mma_tf32(acc[b], hi, b0[s].x, b1[s].x);
            }
          }
        }
      }
    }

    // Outputs, through shared memory: register c of block b is row grp (c < 2) or grp + 8,
    // column 2 tig + c % 2, so a warp's store straight from the fragments touched 8 rows
    // of 8 pixels (ncu: 77% of the u8 kernel's store sectors excessive); staged, each
    // warp stores 32 consecutive pixels of a row.
    __syncthreads();  // every warp is done with the region
    Out* out = reinterpret_cast<Out*>(tc_storage);
    const float unscale = 1.0f / scale;
    HIPSTENCIL_UNROLL
    for (int b = 0; b < NB; ++b)
      HIPSTENCIL_UNROLL
      for (int c = 0; c < 4; ++c) {
        accum<float, 1> v;
        v.v[0] = acc[b][c] * unscale;
        out[(wy0 + grp + 8 * (c / 2)) * tc_out_pitch + wx0 + 8 * b + 2 * tig + c % 2] = from_accum<Out>(v);
      }
    __syncthreads();
    // Each thread stores one column, every (tc_threads / tc_tile_w)-th row: one pointer
    // step a pixel (the address arithmetic of dst(x, y) per pixel cost 18 instructions).
    constexpr int row_step = tc_threads / tc_tile_w;
    const int ox = threadIdx.x % tc_tile_w, oy0 = threadIdx.x / tc_tile_w;
    const Out* o = out + oy0 * tc_out_pitch + ox;
    if (tc.free_write) {
      char* d = reinterpret_cast<char*>(dst.row(g.dst_y0 + ty0 + oy0) + g.dst_x0 + tx0 + ox);
      const long long step = (long long)row_step * (long long)dst.pitch_bytes;
      HIPSTENCIL_UNROLL
      for (int k = 0; k < tc_tile_h / row_step; ++k, d += step) *reinterpret_cast<Out*>(d) = o[k * row_step * tc_out_pitch];
    } else {
      HIPSTENCIL_NO_UNROLL
      for (int k = 0; k < tc_tile_h / row_step; ++k) {
        const int oy = oy0 + k * row_step;
        if (ox < tc.ow && oy < tc.oh && g.writes(tx0 + ox, ty0 + oy))
          dst(g.dst_x0 + tx0 + ox, g.dst_y0 + ty0 + oy) = o[k * row_step * tc_out_pitch];
      }
    }
    __syncthreads();
  }
#endif
}
#endif

struct tensor_core_family {
  static constexpr const char* name = "tensor_core";
  static constexpr bool dense = true, separable = false;
  static constexpr tuning::choice automatic_id = tuning::choice::tensor_core;
  using default_policy = tuning::tensor_core_policy;
  using fallback = shared_mem_family;

  /// The power of two 2^e that takes max |k| into [2^14, 2^15) for fp16 operands (1 for
  /// TF32, and for an all-zero filter).
  template <class In>
  static float coefficient_scale(const filter2d& f) {
    if (!tc_fp16_operands<In>) return 1.0f;
    float m = 0;
    for (float k : f.coefficients()) m = std::max(m, std::fabs(k));
    if (!(m > 0)) return 1.0f;
    int x = 0;
    std::frexp(m, &x);  // m in [2^(x-1), 2^x)
    return std::ldexp(1.0f, std::min(std::max(15 - x, -126), 126));
  }

  /// One-channel dense filters up to tc_max_taps a side, not integer kernels (which the
  /// direct families sum exactly), on an NVIDIA device of compute capability 8.0 or later
  /// that the build's device code was compiled for (the binary architecture of an empty
  /// kernel compiled alongside, asked of the runtime once per device).
  template <class P, class In, class Out>
  static fit fits(const problem<In, Out>& p) {
#if defined(HIPSTENCIL_BACKEND_CUDA)
    // (Multi-channel pairs compile no kernel: launch() is empty for them.)
    if constexpr (pixel_traits<In>::channels == 1 && pixel_traits<Out>::channels == 1) {
      if (!p.dense || p.low_rank) return no_fit;
      if (p.g.kw > tc_max_taps || p.g.kh > tc_max_taps) return no_fit;
      if (small_integer_kernel(*p.dense)) return no_fit;
      // fp16 operands stage the constant border value as fp16: only where that is exact.
      if (tc_fp16_operands<In> && p.g.border.rule == border::kind::constant && !fp16_exact(p.g.border.value))
        return no_fit;
      const int binary = tuning::detail::per_device([](int) {
        cudaFuncAttributes a{};
        if (cudaFuncGetAttributes(&a, tc_binary_probe_kernel<0>) != cudaSuccess) {
          (void)cudaGetLastError();
          return 0;
        }
        return a.binaryVersion;
      });
      if (binary < 80) return no_fit;
      return fit{true, -1};
    }
#endif
    (void)p;
    return no_fit;
  }

  template <class P, class In, class Out>
  static void launch(const problem<In, Out>& p) {
#if defined(HIPSTENCIL_BACKEND_CUDA)
    if constexpr (pixel_traits<In>::channels == 1 && pixel_traits<Out>::channels == 1) {
      constexpr bool B = tuning::is_batched<P>::value;
      const geometry& g = p.g;
      const dim3 block(tc_threads), grid = tile_grid(g.width, g.height, tc_tile_w, tc_tile_h, p.images);
      const inline_taps<inline_capacity> taps = pack_taps<inline_capacity>(p.dense->coefficients());
      const float scale = coefficient_scale<In>(*p.dense);
      const int units = tc_units(g.kw);
      auto run = [&](auto U) {
        constexpr int u = decltype(U)::value;
        const std::size_t smem = tc_layout_for<In, Out>(u, g.kh).bytes;
        tc_dense_kernel<In, Out, u, B><<<grid, block, smem, p.stream>>>(p.src, p.dst, g, taps, scale, p.tile_class,
                                                                        p.strides);
      };
      // 1 to 4 units for up to tc_max_taps columns.
      if (units <= 1) run(std::integral_constant<int, 1>{});
      else if (units == 2) run(std::integral_constant<int, 2>{});
      else if (units == 3) run(std::integral_constant<int, 3>{});
      else run(std::integral_constant<int, 4>{});
      gpu::check_launch("tc_dense_kernel");
    }
#else
    (void)p;
#endif
  }
};

}  // namespace detail
}  // namespace hipstencil
#endif
