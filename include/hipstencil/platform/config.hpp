// hipstencil/platform/config.hpp
// The one backend switch. Everything else in the library asks these macros, never the
// compiler's own, so that adding a backend touches this file and runtime.hpp only.
//
//   HIPSTENCIL_BACKEND_HIP   hipcc (AMD, ROCm): device code through the HIP runtime.
//   HIPSTENCIL_BACKEND_CUDA  nvcc: device code through the CUDA runtime directly. HIP's own
//                            NVIDIA headers (HIP 5.2's hip/nvidia_detail) do not compile
//                            against CUDA 13 (removed cudaDeviceProp fields and texture
//                            references, changed graph and memory API signatures), so
//                            on NVIDIA we are the thin facade that HIP would have been.
//   HIPSTENCIL_BACKEND_HOST  any other compiler: views, filters, border maths and the host
//                            reference work; GPU entry points are absent.
//
// Define HIPSTENCIL_FORCE_HOST before including to get the host-only backend from a GPU
// compiler (the host tests use this to compile identically everywhere).
#pragma once

#if defined(HIPSTENCIL_FORCE_HOST)
#define HIPSTENCIL_BACKEND_HOST 1
#elif defined(__HIPCC__) || defined(__HIP_PLATFORM_AMD__) || defined(__HIP_PLATFORM_HCC__)
#define HIPSTENCIL_BACKEND_HIP 1
#include <hip/hip_bfloat16.h>
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>
#elif defined(__CUDACC__)
#define HIPSTENCIL_BACKEND_CUDA 1
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#else
#define HIPSTENCIL_BACKEND_HOST 1
#endif

#if defined(HIPSTENCIL_BACKEND_HIP) || defined(HIPSTENCIL_BACKEND_CUDA)
/// 1 when a GPU runtime is available to this translation unit, else 0.
#define HIPSTENCIL_HAS_GPU 1
#define HIPSTENCIL_HOST_DEVICE __host__ __device__
#define HIPSTENCIL_DEVICE __device__
#define HIPSTENCIL_FORCEINLINE __forceinline__
#define HIPSTENCIL_UNROLL _Pragma("unroll")
#define HIPSTENCIL_NO_UNROLL _Pragma("unroll 1")
/// A kernel's launch bounds: at most `threads` threads per block and, on NVIDIA, at least
/// `min_blocks` resident blocks per multiprocessor asked of the register allocator (0: no
/// request, as if the argument were absent). HIP on AMD reads a second argument as waves
/// per execution unit (amdgpu_waves_per_eu), another quantity, and every request in the
/// library was measured on NVIDIA, so there only the thread bound applies.
#if defined(__HIP_PLATFORM_AMD__) || defined(__HIP_PLATFORM_HCC__)
#define HIPSTENCIL_LAUNCH_BOUNDS(threads, min_blocks) __launch_bounds__(threads)
#else
#define HIPSTENCIL_LAUNCH_BOUNDS(threads, min_blocks) __launch_bounds__(threads, min_blocks)
#endif
/// Marks a kernel's by-value parameter (`const`, of class type) as read in place from the
/// parameter space. Without it nvcc 13 copies a parameter that is indexed at run time into
/// each thread's local memory, and for a small one (the 18 or 30 floats of a 9- or 15-tap
/// separable filter) reads element i as a chain of one predicated constant load per
/// element. Measured on the H200 (sm_90): tiled_sep_kernel's vertical pass, indexed by its
/// rolled row loop, ran 5.8x slower at radius 7; smem_sep_kernel's perimeter row loop made
/// its u8 9x9 calls under the constant rule 1.4x slower at 3840x2160. Only those two
/// kernels take it: on the others it moved times by 0.77x to 1.12x (bench/RESULTS.md). Needs
/// CUDA 11.7 and compute capability 7.0; HIP and older targets read the parameter as before.
#if defined(__CUDACC__) && !defined(__HIP__) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700 && \
    (__CUDACC_VER_MAJOR__ > 11 || (__CUDACC_VER_MAJOR__ == 11 && __CUDACC_VER_MINOR__ >= 7))
#define HIPSTENCIL_GRID_CONSTANT __grid_constant__
#else
#define HIPSTENCIL_GRID_CONSTANT
#endif
#else
#define HIPSTENCIL_HAS_GPU 0
#define HIPSTENCIL_HOST_DEVICE
#define HIPSTENCIL_DEVICE
#define HIPSTENCIL_FORCEINLINE inline
#define HIPSTENCIL_UNROLL
#define HIPSTENCIL_NO_UNROLL
#define HIPSTENCIL_GRID_CONSTANT
#endif

// Library version (kept in step with CMakeLists.txt's project(VERSION)).
#define HIPSTENCIL_VERSION_MAJOR 0
#define HIPSTENCIL_VERSION_MINOR 1
#define HIPSTENCIL_VERSION_PATCH 0

namespace hipstencil {
/// Name of the backend this translation unit was compiled for: "hip", "cuda" or "host".
inline constexpr const char* backend_name() {
#if defined(HIPSTENCIL_BACKEND_HIP)
  return "hip";
#elif defined(HIPSTENCIL_BACKEND_CUDA)
  return "cuda";
#else
  return "host";
#endif
}
}  // namespace hipstencil
