// hipstencil/platform/prefetch.hpp
// A hint that asks L2 for a cache line ahead of the loads that will read it: NVIDIA's
// prefetch.global.L2 (PTX ISA "Data Movement and Conversion Instructions: prefetch"). It
// holds no register and returns nothing, so a thread can have many lines on their way
// where its loads alone would wait for one row at a time. No-op on other targets (HIP on
// AMD has no such instruction before gfx12).
#pragma once

#include "config.hpp"
#if HIPSTENCIL_HAS_GPU

namespace hipstencil {
namespace gpu {

/// Asks for the cache line holding `p` to be brought into L2. `p` must point into memory
/// the kernel may read (a byte of the image, not past it).
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE void prefetch_l2(const void* p) {
#if defined(HIPSTENCIL_BACKEND_CUDA) && defined(__CUDA_ARCH__)
  asm volatile("prefetch.global.L2 [%0];" ::"l"(p));
#else
  (void)p;
#endif
}

}  // namespace gpu
}  // namespace hipstencil
#endif
