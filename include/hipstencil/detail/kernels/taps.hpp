// hipstencil/detail/kernels/taps.hpp
// How coefficients reach a kernel: by value in the parameter block (uniform across the
// grid, so the compiler serves them from the constant bank / scalar loads, and with a
// compile-time radius as immediate operands of the FMAs), or from device memory.
#pragma once

#include "../../platform/config.hpp"

namespace hipstencil {
namespace detail {

/// Up to N coefficients by value, row-major.
template <int N>
struct inline_taps {
  float v[N];
  HIPSTENCIL_HOST_DEVICE float operator[](int i) const { return v[i]; }
};

/// Row and column taps of a separable filter, up to N each, by value.
template <int N>
struct separable_taps {
  float row[N];
  float col[N];
};

/// Coefficients in device memory (filters too large for the parameter block).
struct global_taps {
  const float* p;
  HIPSTENCIL_HOST_DEVICE float operator[](int i) const { return p[i]; }
};

/// Calls f(i) for i in [0, n): fully unrolled when the count is a compile-time 2R + 1
/// (R >= 0), a plain loop otherwise (R < 0: n taps). Only the innermost tap loop is
/// unrolled: unrolling whole 33 x 33 windows made nvcc take minutes per kernel.
template <int R, class F>
HIPSTENCIL_HOST_DEVICE HIPSTENCIL_FORCEINLINE void for_each_tap(int n, F&& f) {
  if constexpr (R >= 0) {
    HIPSTENCIL_UNROLL
    for (int i = 0; i < 2 * R + 1; ++i) f(i);
  } else {
    for (int i = 0; i < n; ++i) f(i);
  }
}

/// Largest radius whose filter rows are unrolled too (see for_each_row).
constexpr int unrolled_rows_max_radius = 4;

/// Calls f(j) for the filter rows j in [0, n): fully unrolled for compile-time radii up to
/// unrolled_rows_max_radius, so that every index into by-value taps is a constant. A
/// run-time row index made nvcc copy small tap arrays (9, 25 taps) to local memory and
/// walk them with uniform loads and compares: 3x slower at radius 2 than at 3 on the H200
/// (first benchmark, 2026-11-21). Larger radii keep the row loop rolled, which bounds
/// compile time (their by-value taps are read in place).
template <int R, class F>
HIPSTENCIL_HOST_DEVICE HIPSTENCIL_FORCEINLINE void for_each_row(int n, F&& f) {
  if constexpr (R >= 0 && R <= unrolled_rows_max_radius) {
    HIPSTENCIL_UNROLL
    for (int j = 0; j < 2 * R + 1; ++j) f(j);
  } else {
    HIPSTENCIL_NO_UNROLL
    for (int j = 0; j < n; ++j) f(j);
  }
}

/// Calls f(t) for t in [0, N), unrolled or not as the caller decides at compile time.
template <int N, bool Unroll, class F>
HIPSTENCIL_HOST_DEVICE HIPSTENCIL_FORCEINLINE void static_loop(F&& f) {
  if constexpr (Unroll) {
    HIPSTENCIL_UNROLL
    for (int t = 0; t < N; ++t) f(t);
  } else {
    HIPSTENCIL_NO_UNROLL
    for (int t = 0; t < N; ++t) f(t);
  }
}

/// Largest dense filter passed by value: 33 x 33 (radius 16). 4356 bytes of parameters:
/// CUDA 12.1+ on sm_70+ accepts up to 32 KiB, and HIP on AMD takes large kernel-argument
/// segments; larger filters use global_taps.
constexpr int inline_capacity = 33 * 33;
/// Largest separable filter passed by value on the run-time-radius paths (taps per axis).
constexpr int separable_capacity = 255;

/// Most separable terms of a dense filter that algo::automatic runs as their sum
/// (detail/factor.hpp), and most taps per axis of those terms (radius 63), both by value:
/// 4 x 2 x 127 floats, 4064 bytes of parameters, as inline_capacity.
constexpr int low_rank_max_terms = 4;
constexpr int low_rank_capacity = 127;

/// The separable terms of a low-rank filter, by value: term t has row[t][0, kw) and
/// col[t][0, kh).
struct low_rank_taps {
  int terms;
  float row[low_rank_max_terms][low_rank_capacity];
  float col[low_rank_max_terms][low_rank_capacity];
};

}  // namespace detail
}  // namespace hipstencil
