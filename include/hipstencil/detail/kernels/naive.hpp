// hipstencil/detail/kernels/naive.hpp
// The naive family: one thread per output pixel, each tap read from global memory, the
// border rule at every access (the per-access strategy). Coefficients inline (taps.hpp)
// or, beyond inline_capacity taps, from device memory. Runs every problem: the end of
// every fallback chain.
#pragma once

#include "../../platform/config.hpp"
#if HIPSTENCIL_HAS_GPU
#include "../../algorithm.hpp"
#include "../bordered.hpp"
#include "../family.hpp"
#include "batch_image.hpp"
#include "taps.hpp"

namespace hipstencil {
namespace detail {

/// Grid-stride in both axes, so any image size works with grid.y capped at 65535.
template <class In, class Out, class Taps, int Threads, bool Batch>
__global__ void __launch_bounds__(Threads) naive_kernel(image_view<const In> src, image_view<Out> dst, geometry g,
                                                        Taps taps, image_strides strides) {
  if constexpr (Batch) select_image(src, dst, strides);
  for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < g.height; y += gridDim.y * blockDim.y)
    for (int x = blockIdx.x * blockDim.x + threadIdx.x; x < g.width; x += gridDim.x * blockDim.x)
      if (g.writes(x, y)) dst(g.dst_x0 + x, g.dst_y0 + y) = from_accum<Out>(window_sum<float>(src, g, taps, x, y));
}

struct naive_family {
  static constexpr const char* name = "naive";
  static constexpr bool dense = true, separable = true;  // a separable filter runs as its outer product
  static constexpr bool outer_product = true;            // (resolved_algorithm reports it dense)
  static constexpr bool tile_classes = false;            // every access mapped, every tile
  static constexpr tuning::choice automatic_id = tuning::choice::none;
  using default_policy = tuning::naive_policy<>;
  using fallback = void;

  template <class Policy, class In, class Out>
  static fit fits(const problem<In, Out>&) {
    return fit{true, -1};
  }

  /// `taps` row-major kw x kh. Filters of more than inline_capacity taps are staged in a
  /// stream-ordered device allocation released on the same stream after the kernel.
  template <class Policy, class In, class Out>
  static void launch(const problem<In, Out>& p) {
    constexpr int BX = Policy::block_x, BY = Policy::block_y;
    constexpr bool B = tuning::is_batched<Policy>::value;
    const geometry& g = p.g;
    const dim3 block(BX, BY), grid = tile_grid(g.width, g.height, BX, BY, p.images);
    if (window_size(p) <= std::size_t(inline_capacity)) {  // a separable filter's outer product too
      naive_kernel<In, Out, inline_taps<inline_capacity>, BX * BY, B>
          <<<grid, block, 0, p.stream>>>(p.src, p.dst, g, window_taps<inline_capacity>(p), p.strides);
      gpu::check_launch("naive_kernel");
    } else {
      std::vector<float> outer;  // a separable filter's outer product; a dense filter's taps are used in place
      if (!p.dense) outer = p.separable->to_2d().coefficients();
      const std::vector<float>& taps = p.dense ? p.dense->coefficients() : outer;
      const std::size_t bytes = taps.size() * sizeof(float);
      auto* d = static_cast<float*>(gpu::malloc_async(bytes, p.stream));
      gpu::memcpy(d, taps.data(), bytes, gpu::copy_kind::host_to_device, p.stream);
      naive_kernel<In, Out, global_taps, BX * BY, B>
          <<<grid, block, 0, p.stream>>>(p.src, p.dst, g, global_taps{d}, p.strides);
      const auto launch = gpu::get_last_error();
      gpu::free_async(d, p.stream);
      gpu::check(launch, "naive_kernel");
    }
  }
};

}  // namespace detail
}  // namespace hipstencil
#endif
