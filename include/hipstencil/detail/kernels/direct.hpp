// hipstencil/detail/kernels/direct.hpp
// The direct family: direct convolution from global memory for small and medium images.
// Each thread computes out_x consecutive outputs of one row (tuning::direct_policy; 4 by
// default, a block of 32 x 4 threads: 128 x 4 outputs; 2 for uchar4); it reads the
// out_x + 2R pixels of each of its 2R + 1 window rows straight from global memory
// (neighbouring threads' reads meet in L1) into registers, so there is no shared memory,
// no barrier and no second phase. A separable filter runs as its outer product: at radius
// 1 and 2 its (2R + 1)^2 FMAs per output cost less than a second pass would.
//
// Why a family of its own: what costs time on an image of a few megapixels is the chain
// of one block (staging, barrier, compute, store), not the bytes. On the H200 a plain
// kernel of this shape filtered 1920x1080 u8 3x3 in 8.9 us, where tiled's 32 x 32 tiles
// took 12.2 and shared_mem 14.3, and 512x512 in 4.7 us (shared_mem 6.8); this family,
// with every border rule and ROI, 11.0 and 5.4 us. On large images it rereads each input
// row 2R + 1 times through L1 and loses to tiled and streaming (8192x8192: 1.6x to 3.1x
// streaming's time), and on four channels from 512x512 to shared_mem.
//
// The kernel is tiled's dense kernel (tiled.hpp) with one output row per thread: interior
// tiles read with no border arithmetic and store with no checks (tile-class dispatch),
// perimeter tiles map each access. Compile-time radius only.
#pragma once

#include "../../platform/config.hpp"
#if HIPSTENCIL_HAS_GPU
#include "../../algorithm.hpp"
#include "../family.hpp"
#include "shared_mem.hpp"
#include "tiled.hpp"

namespace hipstencil {
namespace detail {

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
    constexpr int BX = P::block_x, BY = P::block_y, OX = P::template out_x_for<C, int(sizeof(In)) / C>;
    constexpr bool B = tuning::is_batched<P>::value;
    const geometry& g = p.g;
    const dim3 grid = tile_grid(g.width, g.height, BX * OX, BY, p.images), block(BX, BY);
    auto run = [&](auto R) {
      constexpr int n = (2 * R + 1) * (2 * R + 1);  // a separable filter's outer product too
      tiled2d_kernel<In, Out, R, BX, BY, OX, 1, 0, B><<<grid, block, 0, p.stream>>>(
          p.src, p.dst, g, g.for_reads(), window_taps<n>(p), p.tile_class, p.strides);
    };
    if (p.dense) with_static_radius(p.radius, run, typename P::dense_radii{});
    else with_static_radius(p.radius, run, typename P::separable_radii{});
    gpu::check_launch("tiled2d_kernel (direct)");
  }
};

}  // namespace detail
}  // namespace hipstencil
#endif
