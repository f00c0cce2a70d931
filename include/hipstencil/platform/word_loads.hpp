// hipstencil/platform/word_loads.hpp
// 32-bit word loads around one pointer, at offsets fixed at compile time: a word, a pair of
// words, and a word loaded only where a predicate holds (its destination otherwise left as it
// was). On NVIDIA they are PTX (`ld.global`, `@p ld.global`; PTX ISA "Data Movement and
// Conversion Instructions: ld") on the pointer as given, with the offset in the
// instruction, for two reasons measured in the packed strip kernel (nvcc 13, sm_90):
//  - written as C++ (`v = pred ? p[k] : v`), the fallback value was moved into the
//    destination before the load, and where it was another load's result the predicated
//    load went out only once that load had returned: two memory latencies in each row
//    (4096 128x128 u8 images, dense 3x3, on the H200: 1.10x the time with 17% fewer
//    instructions);
//  - mixing a C++ load and PTX ones on one pointer, the compiler stepped two copies of it
//    down the rows (its own global address and the pointer as given), two instructions a
//    row each.
// Other targets take the C++ form.
#pragma once

#include "config.hpp"
#if HIPSTENCIL_HAS_GPU

namespace hipstencil {
namespace gpu {

#if defined(HIPSTENCIL_BACKEND_CUDA) && defined(__CUDA_ARCH__)
#define HIPSTENCIL_PTX_WORD_LOADS 1
#else
#define HIPSTENCIL_PTX_WORD_LOADS 0
#endif

/// The 32-bit word `Offset` bytes from `p`, which must be 4-byte aligned global memory.
template <int Offset>
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE unsigned load_word(const void* p) {
#if HIPSTENCIL_PTX_WORD_LOADS
  unsigned v;
  asm volatile("ld.global.b32 %0, [%1+%2];" : "=r"(v) : "l"(p), "n"(Offset));
  return v;
#else
  return *reinterpret_cast<const unsigned*>(static_cast<const unsigned char*>(p) + Offset);
#endif
}

/// (a, b) = the two 32-bit words `Offset` bytes from `p`, which must be 8-byte aligned
/// global memory.
template <int Offset>
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE void load_word_pair(const void* p, unsigned& a, unsigned& b) {
#if HIPSTENCIL_PTX_WORD_LOADS
  asm volatile("ld.global.v2.b32 {%0, %1}, [%2+%3];" : "=r"(a), "=r"(b) : "l"(p), "n"(Offset));
#else
  const uint2 v = *reinterpret_cast<const uint2*>(static_cast<const unsigned char*>(p) + Offset);
  a = v.x, b = v.y;
#endif
}

/// v = the 32-bit word `Offset` bytes from `p` where `pred` holds; v unchanged elsewhere
/// (and nothing read). p + Offset 4-byte aligned global memory where `pred` holds.
template <int Offset>
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE void load_word_if(bool pred, const void* p, unsigned& v) {
#if HIPSTENCIL_PTX_WORD_LOADS
  asm volatile("{\n\t.reg .pred q;\n\tsetp.ne.b32 q, %2, 0;\n\t@q ld.global.b32 %0, [%1+%3];\n\t}"
               : "+r"(v)
               : "l"(p), "r"(int(pred)), "n"(Offset));
#else
  if (pred) v = *reinterpret_cast<const unsigned*>(static_cast<const unsigned char*>(p) + Offset);
#endif
}

#undef HIPSTENCIL_PTX_WORD_LOADS

}  // namespace gpu
}  // namespace hipstencil
#endif
