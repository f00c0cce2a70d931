// hipstencil/platform/warp.hpp
// Warp (AMD: wavefront) helpers: the lane index and shuffles of 32-bit words, one spelling
// for both runtimes. Never assumes a width of 32: AMD's CDNA wavefronts have 64 lanes.
#pragma once

#include "config.hpp"
#if HIPSTENCIL_HAS_GPU

namespace hipstencil {
namespace warp {

/// Lanes per warp on the device compiling this code (32 on NVIDIA and RDNA, 64 on CDNA).
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE int size() { return warpSize; }

/// Lane of this thread. Precondition: the block is one-dimensional in x, or blockDim.x is
/// a multiple of the warp size (so that warps never straddle two rows of the block).
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE int lane() { return int(threadIdx.x) & (warpSize - 1); }

/// The word `v` of lane (lane - delta); lanes below `delta` get their own `v` back.
/// Every lane of the warp must call it (no divergence), as with the runtimes' shuffles.
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE unsigned shfl_up(unsigned v, int delta) {
#if defined(HIPSTENCIL_BACKEND_CUDA)
  return __shfl_up_sync(0xffffffffu, v, unsigned(delta));
#else
  return unsigned(__shfl_up(int(v), unsigned(delta)));
#endif
}

/// The word `v` of lane (lane + delta); the top `delta` lanes get their own `v` back.
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE unsigned shfl_down(unsigned v, int delta) {
#if defined(HIPSTENCIL_BACKEND_CUDA)
  return __shfl_down_sync(0xffffffffu, v, unsigned(delta));
#else
  return unsigned(__shfl_down(int(v), unsigned(delta)));
#endif
}

}  // namespace warp
}  // namespace hipstencil
#endif
