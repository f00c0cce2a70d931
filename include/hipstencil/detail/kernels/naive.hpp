// hipstencil/detail/kernels/naive.hpp
// The naive kernel: one thread per output pixel, each tap read from global memory.
// Border rule at run time (detail::geometry); coefficients either inline in the kernel's
// parameters (uniform, served from the constant bank / scalar loads) or, beyond
// inline_capacity taps, from device memory.
#pragma once

#include "../../platform/config.hpp"
#if HIPSTENCIL_HAS_GPU
#include "../geometry.hpp"

namespace hipstencil {
namespace detail {

/// Up to N coefficients passed by value in the kernel's parameter block.
template <int N>
struct inline_taps {
  float v[N];
  HIPSTENCIL_HOST_DEVICE float operator[](int i) const { return v[i]; }
};
/// Coefficients in device memory.
struct global_taps {
  const float* p;
  HIPSTENCIL_HOST_DEVICE float operator[](int i) const { return p[i]; }
};

/// 992 floats (3968 bytes) plus the two views and the geometry keep the parameter block
/// under 4 KiB, the portable limit (CUDA before 12.1; HIP on AMD). Larger filters go
/// through global_taps.
constexpr int inline_capacity = 992;

/// Block shape: 32 x 8 = 256 threads, a multiple of both wave sizes (32 and 64).
constexpr int naive_block_x = 32, naive_block_y = 8;

/// Grid-stride in both axes, so any image size works with grid.y capped at 65535.
template <class In, class Out, class Taps>
__global__ void __launch_bounds__(naive_block_x* naive_block_y)
    naive_kernel(image_view<const In> src, image_view<Out> dst, geometry g, Taps taps) {
  for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < g.height; y += gridDim.y * blockDim.y)
    for (int x = blockIdx.x * blockDim.x + threadIdx.x; x < g.width; x += gridDim.x * blockDim.x) {
      if (g.border.rule == border::kind::skip && !g.window_inside(x, y)) continue;
      dst(g.dst_x0 + x, g.dst_y0 + y) = from_accum<Out>(window_sum<float>(src, g, taps, x, y));
    }
}

}  // namespace detail
}  // namespace hipstencil
#endif
