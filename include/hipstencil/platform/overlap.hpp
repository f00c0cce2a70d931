// hipstencil/platform/overlap.hpp
// Two kernels of one stream that touch disjoint outputs, allowed to run at the same time:
// NVIDIA's programmatic dependent launch (compute capability 9.0; CUDA Programming Guide,
// "Programmatic Dependent Launch and Synchronization"). Without it the second grid of a
// stream starts only when the last block of the first has finished, so a small first grid
// (streaming's edge block columns) runs on an almost idle GPU. Elsewhere these are plain
// launches in stream order.
//
// Protocol: the first grid calls allow_dependents() as it starts; the second is launched
// with launch_dependent() and calls wait_for_primary() before it exits, in every block or
// in one block only (a grid ends when all its blocks have; its last-dispatched block
// waits least), so that it ends after the first has ended and its writes are visible:
// work queued after the pair on the stream sees both grids' results, as with two
// ordinary launches.
#pragma once

#include "config.hpp"
#if HIPSTENCIL_HAS_GPU
#include "runtime.hpp"

namespace hipstencil {
namespace gpu {

#if defined(HIPSTENCIL_BACKEND_CUDA) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define HIPSTENCIL_OVERLAP_HW 1
#else
#define HIPSTENCIL_OVERLAP_HW 0
#endif

/// In the first grid: a grid launched after this one with launch_dependent may start now.
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE void allow_dependents() {
#if HIPSTENCIL_OVERLAP_HW
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

/// In the second grid: waits until the grid before it on the stream has finished and its
/// memory operations are visible (returns at once for an ordinary launch).
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE void wait_for_primary() {
#if HIPSTENCIL_OVERLAP_HW
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

/// True when launch_dependent can overlap grids on the current device (CUDA, compute
/// capability 9.0 or later). Throws gpu_error if the device cannot be queried.
inline bool overlap_supported() {
#if defined(HIPSTENCIL_BACKEND_CUDA)
  int major = 0;
  check(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, current_device()), "DeviceGetAttribute");
  return major >= 9;
#else
  return false;
#endif
}

/// Launches kernel<<<grid, block, 0, stream>>>(args...) as a dependent of the grid queued
/// just before it on `stream` (see the protocol above) where overlap_supported() says so,
/// as an ordinary launch elsewhere. Launch errors are left for check_launch.
template <class... Params, class... Args>
void launch_dependent(void (*kernel)(Params...), dim3 grid, dim3 block, stream_t stream, bool overlap,
                      Args&&... args) {
#if defined(HIPSTENCIL_BACKEND_CUDA)
  if (overlap) {
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr[0].val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t config{};
    config.gridDim = grid;
    config.blockDim = block;
    config.dynamicSmemBytes = 0;
    config.stream = stream;
    config.attrs = attr;
    config.numAttrs = 1;
    (void)cudaLaunchKernelEx(&config, kernel, static_cast<Params>(args)...);
    return;
  }
#else
  (void)overlap;
#endif
  kernel<<<grid, block, 0, stream>>>(static_cast<Params>(args)...);
}

}  // namespace gpu
}  // namespace hipstencil
#endif
