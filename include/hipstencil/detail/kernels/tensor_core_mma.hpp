// hipstencil/detail/kernels/tensor_core_mma.hpp
// The tensor-core instructions the tensor_core family (tensor_core.hpp) issues, as PTX
// (NVIDIA sm_80 and later; PTX ISA, "Warp-level matrix multiply-accumulate
// instructions"): conversions to the operand formats, ldmatrix, and the three mma.sync
// shapes with float accumulators. Fragment layouts, with grp = lane / 4, tig = lane % 4:
//   m16n8k8 TF32:  A a0 (grp, tig), a1 (grp + 8, tig), a2 (grp, tig + 4), a3 (grp + 8, tig + 4);
//                  B b0 (tig, grp), b1 (tig + 4, grp);
//   m16n8k16 fp16: A a0 (grp, 2tig..+1), a1 (grp + 8, 2tig..), a2 (grp, 2tig + 8..),
//                  a3 (grp + 8, 2tig + 8..); B b0 (2tig..+1, grp), b1 (2tig + 8..+9, grp);
//   C (both):      c0, c1 (grp, 2tig, 2tig + 1), c2, c3 (grp + 8, 2tig, 2tig + 1).
// ldmatrix .x4 gives lane L the 32-bit word (L / 4, L % 4) of each of four 8 x 16-byte
// matrices whose row addresses lanes 8j ... 8j + 7 supply: for rows 0-7 / 8-15 by the
// first / second half of the depth, exactly the A fragments above in either format.
#pragma once

#include "../../platform/config.hpp"
#if defined(HIPSTENCIL_BACKEND_CUDA)

namespace hipstencil {
namespace detail {

/// f rounded to fp16 (to nearest even), as its bits.
__device__ __forceinline__ unsigned short tc_f16_bits(float f) {
  unsigned short h;
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f));
  return h;
}
/// The value of fp16 bits h.
__device__ __forceinline__ float tc_f16_value(unsigned short h) {
  float f;
  asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h));
  return f;
}
/// f rounded to TF32 (to nearest, ties away; 10 fraction bits), as float bits.
__device__ __forceinline__ unsigned tc_tf32_bits(float f) {
  unsigned r;
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(f));
  return r;
}

/// Four 8 x 8 b16 matrices from shared memory (see the file's head); `row` is this lane's
/// row address, 16-byte aligned.
template <class E>
__device__ __forceinline__ void tc_ldmatrix_x4(unsigned (&a)[4], const E* row) {
  const unsigned addr = unsigned(__cvta_generic_to_shared(row));
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3])
               : "r"(addr));
}

/// c += A B, m16n8k8, TF32 operands, float accumulators.
__device__ __forceinline__ void tc_mma_tf32(float (&c)[4], const unsigned (&a)[4], unsigned b0, unsigned b1) {
  asm volatile(
      "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};"
      : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

/// c += A B, m16n8k16, fp16 operands, float accumulators.
__device__ __forceinline__ void tc_mma_f16(float (&c)[4], const unsigned (&a)[4], unsigned b0, unsigned b1) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};"
      : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

/// c += A B, m16n8k8, fp16 operands, float accumulators: A is a0 (grp, 2tig..+1) and
/// a1 (grp + 8, 2tig..+1), B b0 (2tig..+1, grp).
__device__ __forceinline__ void tc_mma_f16_k8(float (&c)[4], unsigned a0, unsigned a1, unsigned b0) {
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%0, %1, %2, %3};"
               : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
               : "r"(a0), "r"(a1), "r"(b0));
}

}  // namespace detail
}  // namespace hipstencil
#endif
