// hipstencil/platform/async_copy.hpp
// Copies from global to shared memory that do not hold registers while in flight, one
// spelling for both runtimes: NVIDIA's cp.async (compute capability 8.0 and later; PTX ISA
// "Data Movement and Conversion Instructions: cp.async"), and on every other target a plain
// load and store, so that code written against these helpers is correct everywhere and
// asynchronous where the hardware allows.
//
// Semantics (those of cp.async): each thread's copies join a group when it calls commit();
// wait<N>() returns once at most N of this thread's most recent groups are still pending,
// and the copies of the others are then visible to this thread only. A thread that reads
// what another thread copied needs a barrier after both have waited.
#pragma once

#include "config.hpp"
#if HIPSTENCIL_HAS_GPU

namespace hipstencil {
namespace async_copy {

/// True when copy() is asynchronous on the device compiling this code.
#if defined(HIPSTENCIL_BACKEND_CUDA) && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
#define HIPSTENCIL_ASYNC_COPY_HW 1
#else
#define HIPSTENCIL_ASYNC_COPY_HW 0
#endif

/// Copies Bytes (4, 8 or 16) from global `src` to shared `dst`; both aligned to Bytes.
/// 16-byte copies bypass L1 (cp.async.cg): the data is used once, from shared memory.
template <int Bytes>
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE void copy(void* dst, const void* src) {
  static_assert(Bytes == 4 || Bytes == 8 || Bytes == 16, "cp.async moves 4, 8 or 16 bytes");
#if HIPSTENCIL_ASYNC_COPY_HW
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  if constexpr (Bytes == 16)
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(s), "l"(src) : "memory");
  else
    asm volatile("cp.async.ca.shared.global [%0], [%1], %2;" ::"r"(s), "l"(src), "n"(Bytes) : "memory");
#else
  if constexpr (Bytes == 16)
    *static_cast<uint4*>(dst) = *static_cast<const uint4*>(src);
  else if constexpr (Bytes == 8)
    *static_cast<uint2*>(dst) = *static_cast<const uint2*>(src);
  else
    *static_cast<unsigned*>(dst) = *static_cast<const unsigned*>(src);
#endif
}

/// Closes this thread's current group of copies (an empty group is allowed).
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE void commit() {
#if HIPSTENCIL_ASYNC_COPY_HW
  asm volatile("cp.async.commit_group;" ::: "memory");
#endif
}

/// Waits until at most N of this thread's committed groups are pending.
template <int N>
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE void wait() {
#if HIPSTENCIL_ASYNC_COPY_HW
  asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory");
#endif
}

}  // namespace async_copy
}  // namespace hipstencil
#endif
