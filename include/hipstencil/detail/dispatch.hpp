// hipstencil/detail/dispatch.hpp
// Dispatch layer: sizes the grid and launches, on the caller's stream. No synchronisation;
// launch-configuration errors are checked (get_last_error) and thrown as gpu_error.
#pragma once

#include "../platform/config.hpp"
#if HIPSTENCIL_HAS_GPU
#include <algorithm>
#include <cstring>
#include <vector>

#include "../algorithm.hpp"
#include "../platform/runtime.hpp"
#include "geometry.hpp"
#include "kernels/naive.hpp"

namespace hipstencil {
namespace detail {

inline dim3 naive_grid(const geometry& g) {
  const unsigned gx = unsigned((g.width + naive_block_x - 1) / naive_block_x);
  const unsigned gy = unsigned(std::min((g.height + naive_block_y - 1) / naive_block_y, 65535));
  return dim3(gx, gy);
}

/// Launches the naive kernel. `taps` are host coefficients, row-major kw x kh. Filters of
/// more than inline_capacity taps are staged in a stream-ordered device allocation that
/// is released on the same stream after the kernel (MallocAsync/FreeAsync).
template <class In, class Out>
void launch_naive(image_view<const In> src, image_view<Out> dst, const geometry& g, const std::vector<float>& taps,
                  gpu::stream_t stream) {
  const dim3 block(naive_block_x, naive_block_y), grid = naive_grid(g);
  if (taps.size() <= std::size_t(inline_capacity)) {
    inline_taps<inline_capacity> t{};
    std::memcpy(t.v, taps.data(), taps.size() * sizeof(float));
    naive_kernel<In, Out, inline_taps<inline_capacity>><<<grid, block, 0, stream>>>(src, dst, g, t);
    gpu::check_launch("naive_kernel");
  } else {
    const std::size_t bytes = taps.size() * sizeof(float);
    auto* d = static_cast<float*>(gpu::malloc_async(bytes, stream));
    gpu::memcpy(d, taps.data(), bytes, gpu::copy_kind::host_to_device, stream);
    naive_kernel<In, Out, global_taps><<<grid, block, 0, stream>>>(src, dst, g, global_taps{d});
    const auto launch = gpu::get_last_error();
    gpu::free_async(d, stream);
    gpu::check(launch, "naive_kernel");
  }
}

}  // namespace detail
}  // namespace hipstencil
#endif
