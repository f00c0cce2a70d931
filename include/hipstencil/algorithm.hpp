// hipstencil/algorithm.hpp
// Algorithm tags and border strategies: types that select the kernel family and the way
// borders are handled at compile time. Pass a value: algo::shared_mem{} (tile-class
// dispatch) or algo::shared_mem<strategy::per_access>{}.
#pragma once

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

namespace algo {

/// One thread per output pixel, every tap read from global memory (through the caches).
/// Any filter size, any border rule (mapped at every access); the baseline.
struct naive {
  static constexpr const char* name = "naive";
  using border_strategy = strategy::per_access;
};

/// Separable filters only: a row pass writes its result transposed into a float
/// workspace, and the same row kernel run again on the workspace with the column taps
/// restores the orientation. Needs a workspace (two_pass_workspace_bytes); the
/// convenience overload allocates it stream-ordered.
template <class Strategy = strategy::tile_class>
struct two_pass {
  static constexpr const char* name = "two_pass";
  using border_strategy = Strategy;
};

/// One pass through shared memory: the block's tile plus halo is staged there (dense
/// filters), or both 1D passes are fused there (separable filters, no intermediate image).
template <class Strategy = strategy::tile_class>
struct shared_mem {
  static constexpr const char* name = "shared_mem";
  using border_strategy = Strategy;
};

/// Register-blocked, after "Tiled Convolution" (AMD): a BlockX x BlockY work-group, each
/// thread computing OutX x OutY outputs (the paper's 8 x 8 and 4 x 4: a 32 x 32 tile).
/// Separable filters share horizontal 1D results between vertically adjacent threads
/// through shared memory; dense filters share raw pixels through registers and L1.
/// Compiled for square centred filters of radius 1 to 8; other filters run shared_mem.
template <class Strategy = strategy::tile_class, int BlockX = 8, int BlockY = 8, int OutX = 4, int OutY = 4>
struct tiled {
  static constexpr const char* name = "tiled";
  using border_strategy = Strategy;
  static constexpr int block_x = BlockX, block_y = BlockY, out_x = OutX, out_y = OutY;
};

/// Register streaming: each thread owns a few adjacent output columns (16 bytes of input
/// where its partial sums fit in registers) and walks down a strip of `strip_rows` output
/// rows, reading each input row once with one vector load and keeping the partial sums of
/// the 2R + 1 output rows it touches in registers (a sliding window down the column, as
/// 2.5D blocking does for stencils); horizontal halos pass between lanes by warp shuffles.
/// Square centred filters of radius 1 to 5 (dense) or 1 to 4 (separable) whose ROIs start
/// at vector-aligned columns (see docs/guide.md); other problems run shared_mem. With
/// tile-class dispatch only the block columns at the left and right edges carry border
/// code, and in them only the lanes whose window reaches outside the domain pay.
template <class Strategy = strategy::tile_class>
struct streaming {
  static constexpr const char* name = "streaming";
  using border_strategy = Strategy;
  /// Output rows per strip (per thread); 0 lets the library choose (24 at radius 1, 32
  /// beyond). More rows read the 2R halo rows less often; fewer give the grid more blocks.
  int strip_rows = 0;
};

/// Lets the library choose from the filter's size, separability and the pixel type. The
/// first table is simple: shared_mem (fused passes for separable filters, staged tile for
/// dense ones) wherever it holds the filter, naive beyond; the benchmark tunes it.
struct automatic {
  static constexpr const char* name = "automatic";
  using border_strategy = strategy::tile_class;
};

}  // namespace algo
}  // namespace hipstencil
