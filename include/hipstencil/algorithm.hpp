// hipstencil/algorithm.hpp
// Algorithm tags and border strategies: types that select the kernel family and the way
// borders are handled at compile time. Pass a value: algo::shared_mem{} (tile-class
// dispatch) or algo::shared_mem<strategy::per_access>{}. A family's tuning numbers come
// from its policy type (detail/tuning/policies.hpp): by default the table of the device
// the call runs on (tuning::by_device), or one the caller names.
#pragma once

#include "detail/tuning/policies.hpp"

namespace hipstencil {

/// How a kernel family applies the border rule.
namespace strategy {
/// Tile-class dispatch ("Tiled Convolution", AMD): tiles whose reads stay inside the
/// border domain run with no border arithmetic, tiles whose writes stay inside the target
/// ROI store with no checks; only perimeter tiles pay. The default.
struct tile_class {
  static constexpr bool enabled = true;
  static constexpr const char* name = "tile_class";
};
/// Every access is mapped through the border rule (a per-access clamp/reflect/wrap), the
/// plain alternative (Intel's min/max guidance).
struct per_access {
  static constexpr bool enabled = false;
  static constexpr const char* name = "per_access";
};
}  // namespace strategy

namespace detail {
struct naive_family;
struct two_pass_family;
struct shared_mem_family;
struct tiled_family;
struct streaming_family;
struct direct_family;
struct packed_family;
struct fft_family;
struct tensor_core_family;
struct sliding_family;
}  // namespace detail

/// Algorithm tags. Each family's tag names its family (detail/kernels/<family>.hpp) and
/// rebinds to another border strategy (`with_strategy<S>`); `families` below lists them.
namespace algo {

/// One thread per output pixel, every tap read from global memory (through the caches).
/// Any filter size, any border rule (mapped at every access); the baseline, and where
/// every other family falls back to.
struct naive {
  static constexpr const char* name = "naive";
  using border_strategy = strategy::per_access;
  using policy = tuning::by_device;
  using family = detail::naive_family;
  template <class S>
  using with_strategy = naive;  // maps every access: no strategy to choose
};

/// Separable filters only: a row pass writes its result transposed into a float
/// workspace, and the same row kernel run again on the workspace with the column taps
/// restores the orientation. Needs a workspace (two_pass_workspace_bytes); the
/// convenience overload allocates it stream-ordered. Filters over 255 taps per axis run
/// naive.
template <class Strategy = strategy::tile_class, class Policy = tuning::by_device>
struct two_pass {
  static constexpr const char* name = "two_pass";
  using border_strategy = Strategy;
  using policy = Policy;
  using family = detail::two_pass_family;
  template <class S>
  using with_strategy = two_pass<S, Policy>;
};

/// One pass through shared memory: the block's tile plus halo is staged there (dense
/// filters), or both 1D passes are fused there (separable filters, no intermediate image).
/// Filters whose tile does not fit the shared-memory budget run naive.
template <class Strategy = strategy::tile_class, class Policy = tuning::by_device>
struct shared_mem {
  static constexpr const char* name = "shared_mem";
  using border_strategy = Strategy;
  using policy = Policy;
  using family = detail::shared_mem_family;
  template <class S>
  using with_strategy = shared_mem<S, Policy>;
};

/// Register-blocked, after "Tiled Convolution" (AMD): a block_x x block_y work-group, each
/// thread computing out_x x out_y outputs (tuning::tiled_policy; the paper's 8 x 8 and
/// 4 x 4 by default: a 32 x 32 tile). Separable filters share horizontal 1D results
/// between vertically adjacent threads through shared memory; dense filters share raw
/// pixels through registers and L1. Square centred filters of the policy's radii (1 to 8);
/// other filters run shared_mem.
template <class Strategy = strategy::tile_class, class Policy = tuning::by_device>
struct tiled {
  static constexpr const char* name = "tiled";
  using border_strategy = Strategy;
  using policy = Policy;
  using family = detail::tiled_family;
  template <class S>
  using with_strategy = tiled<S, Policy>;
};

/// Direct convolution for small and medium images: each thread computes out_x consecutive
/// outputs of one row (tuning::direct_policy: one channel of 2 or 4 bytes 2 at radius 1
/// and 1 at radius 2 in blocks of 32 x 8 threads; other pixels 4, 2 for uchar4, in blocks
/// of 32 x 4) from its window rows read straight from global memory, with no shared memory
/// and no barrier. A separable filter runs as its outer product. Square centred filters
/// of the policy's radii (1 and 2); other filters run shared_mem.
template <class Strategy = strategy::tile_class, class Policy = tuning::by_device>
struct direct {
  static constexpr const char* name = "direct";
  using border_strategy = Strategy;
  using policy = Policy;
  using family = detail::direct_family;
  template <class S>
  using with_strategy = direct<S, Policy>;
};

/// 8-bit images of one or four channels (u8, uchar4; out as in) in packed half-precision
/// lanes, two outputs an instruction: each thread owns 8 output pixels (4 of four channels)
/// and walks down a strip of `strip_rows` rows, keeping the partial sums of the 2R + 1
/// rows it touches in registers; separable filters run as a row pass and a column pass.
/// u8 3x3 on one image at least 512 pixels wide (a multiple of 16 at 16-byte-aligned
/// columns), where `strip_rows` is 0: 16 outputs a thread in strips of 1 to 4 rows, each
/// row loaded once upfront (kernels/packed_wide.hpp).
/// Three channels (uchar3, one image, under replicate, skip and padded, whose reads are
/// replicate): the tile's window staged in shared memory, each thread 2 x 4 outputs, a
/// separable filter as its outer product (kernels/packed_three.hpp; `strip_rows` unused).
/// Square centred filters of the policy's radii (1 and 2) whose rounding in half precision
/// keeps the library's accuracy for 8-bit outputs (detail/packed_plan.hpp: an integer
/// kernel with a divisor exact, any other filter within 1 of the correctly rounded value);
/// other problems run direct.
template <class Strategy = strategy::tile_class, class Policy = tuning::by_device>
struct packed {
  static constexpr const char* name = "packed";
  using border_strategy = Strategy;
  using policy = Policy;
  using family = detail::packed_family;
  template <class S>
  using with_strategy = packed<S, Policy>;
  /// Output rows per thread of the strip walk; 0 lets the policy choose from the image's
  /// size (and lets u8 3x3 run its 16-output rows; any other value keeps the walk).
  int strip_rows = 0;
};

/// Register streaming: each thread owns a few adjacent output columns (16 bytes of input
/// where its partial sums fit in registers) and walks down a strip of `strip_rows` output
/// rows, reading each input row once with one vector load and keeping the partial sums of
/// the 2R + 1 output rows it touches in registers (a sliding window down the column, as
/// 2.5D blocking does for stencils); horizontal halos pass between lanes by warp shuffles.
/// Square centred filters of the policy's radii (1 to 5 dense, 1 to 4 separable) whose
/// ROIs start at vector-aligned columns (see docs/guide.md); other problems run
/// shared_mem. With tile-class dispatch only the block columns at the left and right
/// edges carry border code, and in them only the lanes whose window reaches outside the
/// domain pay.
template <class Strategy = strategy::tile_class, class Policy = tuning::by_device>
struct streaming {
  static constexpr const char* name = "streaming";
  using border_strategy = Strategy;
  using policy = Policy;
  using family = detail::streaming_family;
  template <class S>
  using with_strategy = streaming<S, Policy>;
  /// Output rows per strip (per thread); 0 lets the policy choose: its longest strip (24
  /// at radius 1, 32 beyond on every table so far) where the image gives the grid a full
  /// GPU of blocks, shorter ones (down to 4 rows) where it does not. More rows read the 2R
  /// halo rows less often; fewer give the grid more blocks.
  int strip_rows = 0;
};

/// Correlation by the FFT, overlap-save in square tiles (detail/kernels/fft.hpp): a cost
/// a pixel that hardly grows with the filter, for wide dense filters (beyond about 19 x 19
/// on large images) where direct sums pay kw kh taps. Any filter size up to
/// tuning::fft_policy's max_size / 2 taps a side, any border rule and ROI; a separable
/// filter runs as its outer product. Float arithmetic with its own rounding (a few units
/// in the last place of the tile's largest values), so integer kernels that the direct
/// families compute exactly run shared_mem instead; tiles whose pixels hold an infinity or
/// a NaN, which the transform would spread over the tile, are summed window by window.
/// Allocates its workspace
/// stream-ordered on the call's stream (MallocAsync/FreeAsync). NVIDIA only (cuFFT, made
/// into plans once per transform size and kept); elsewhere it runs shared_mem.
template <class Policy = tuning::by_device>
struct fft {
  static constexpr const char* name = "fft";
  using border_strategy = strategy::per_access;
  using policy = Policy;
  using family = detail::fft_family;
  template <class S>
  using with_strategy = fft<Policy>;
};

/// Dense filters as small matrix products on the tensor cores
/// (detail/kernels/tensor_core.hpp): each filter row a banded (Toeplitz) product over 16 x
/// 8 output blocks, as ConvStencil rearranges stencils for MMA units, with float-FMA
/// accuracy by split operands (three TF32 products, or two fp16 products for 8-bit and
/// half pixels, which fp16 holds exactly). One-channel pixels, up to 25 x 25 taps, any
/// anchor, border rule and ROI; not integer kernels (the direct families sum those
/// exactly). A tile whose pixels hold an infinity or a NaN is summed tap by tap (the
/// band's zeros would carry them into other windows). NVIDIA compute capability 8.0 and later, with the kernels compiled for it;
/// elsewhere, and for what it does not take, shared_mem runs.
template <class Policy = tuning::by_device>
struct tensor_core {
  static constexpr const char* name = "tensor_core";
  using border_strategy = strategy::tile_class;
  using policy = Policy;
  using family = detail::tensor_core_family;
  template <class S>
  using with_strategy = tensor_core<Policy>;
};

/// Separable filters of any size up to 255 taps a side, column pass first
/// (detail/kernels/sliding.hpp): each thread slides a window of registers along its
/// outputs, so a source pixel is read and converted once per thread, not once per tap,
/// and the row pass reads each column sum once per thread from shared memory; the
/// outputs leave through shared memory in whole rows. For wide separable filters, where
/// the shared_mem and two_pass row passes pay a read and a conversion per tap. Any anchor,
/// border rule, ROI and batch; a run-time filter size (no compiled radii). Dense filters
/// run shared_mem.
template <class Policy = tuning::by_device>
struct sliding {
  static constexpr const char* name = "sliding";
  using border_strategy = strategy::tile_class;
  using policy = Policy;
  using family = detail::sliding_family;
  template <class S>
  using with_strategy = sliding<Policy>;
};

/// Lets the library choose the family from the image's size (pixels, and width: streaming
/// needs 1024 columns), the filter's size and separability and the pixel's channel count
/// and channel width, by the tuning table of the device the call runs on
/// (detail/tuning/tables.hpp: naive and shared_mem for small images, tiled and streaming
/// for larger ones, into a caller's workspace two_pass; naive for what none of them
/// holds). A dense filter2d whose coefficients are a column times a row (a Gaussian or a
/// box given as a filter2d) runs as that separable filter from 5x5 where the table says
/// the separable form is faster (detail/factor.hpp; resolution::factored says so), and one
/// that is a sum of 2 to 4 such terms as those terms beyond 17x17 (resolution::rank).
/// Dense one-channel 8-bit and float filters from 7x7 (large images) or 15x15 up to 25x25
/// run tensor_core, where the GPU has tensor cores. Separable u8, float and uchar4 filters
/// from 11x11 on images beyond 2^21 pixels (uchar4 from 7x7 beyond 2^19), and some 7x7 to
/// 15x15 ones on smaller images, run sliding.
/// Wide dense filters on large images run
/// fft (from 19x19, where the direct sums would cost over 1.4e8 taps x pixels), which
/// allocates its workspace stream-ordered, as naive stages filters over 33x33 taps; nothing
/// else automatic runs allocates.
struct automatic {
  static constexpr const char* name = "automatic";
  using border_strategy = strategy::tile_class;
  using policy = tuning::by_device;
  using family = void;  // picks one
  template <class S>
  using with_strategy = automatic;
};

template <class... Tags>
struct list {};

/// Every kernel family's tag: the one list of families. Dispatch (detail/families.hpp),
/// resolved_algorithm, the filter program's --algo, the [gpu] test matrix, the benchmark
/// and the build's precompiled kernels (cmake/HipstencilInstances.cmake reads this line:
/// keep it one line, one tag per entry) all take their families from it. A new family is
/// its kernel header, its tag above with its entry here, the header's #include in
/// detail/families.hpp, its policy (detail/tuning/policies.hpp), and its name in
/// automatic's choices with the table's rows where it wins (detail/tuning/tables.hpp).
using families = list<naive, shared_mem<>, two_pass<>, tiled<>, streaming<>, direct<>, packed<>, fft<>, tensor_core<>, sliding<>>;

}  // namespace algo
}  // namespace hipstencil
