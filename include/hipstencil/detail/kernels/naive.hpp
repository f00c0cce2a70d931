// hipstencil/detail/kernels/naive.hpp
// The naive kernel: one thread per output pixel, each tap read from global memory.
// Border rule at run time (detail::geometry) at every access: the per-access strategy.
// Coefficients inline (taps.hpp) or, beyond inline_capacity taps, from device memory.
#pragma once

#include "../../platform/config.hpp"
#if HIPSTENCIL_HAS_GPU
#include "../geometry.hpp"
#include "taps.hpp"

namespace hipstencil {
namespace detail {

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
