// hipstencil/detail/float_bits.hpp
// 8- and 16-bit channels to float and back through the float's bit pattern, on NVIDIA GPUs.
//
// Why: NVIDIA's conversion instructions (I2F, F2I, FRND) issue at 16 per clock per
// multiprocessor on compute capability 7.0 to 9.0, an eighth of FFMA's 128 (CUDA C++
// Programming Guide, "Arithmetic Instructions"). An 8-bit 3x3 filter converts about one
// input and rounds and converts one output per pixel: three eighth-rate instructions beside
// nine full-rate FMAs. Through the bits, streaming u8 and uchar4 filters took 0.93x the time
// (geometric mean over six sizes on the H200); the rest of their instructions still bound
// them. The same values come from full-rate integer and FADD instructions:
//  - to float: an integer n < 2^23 written into the mantissa of 2^23 (bits 0x4B000000 | n)
//    is the float 2^23 + n exactly; subtracting 2^23 leaves n exactly.
//  - to integer: for |t| < 2^22, t + 1.5 * 2^23 lies in [2^23, 2^24), where floats are the
//    integers, so the addition rounds t to an integer, to nearest with ties to even (the
//    default rounding mode, as rintf), and that integer plus 2^22 is the low 23 bits of the
//    sum's pattern; the low 8 or 16 bits are round(t)'s, in two's complement.
// AMD's converts (v_cvt_f32_ubyte0..3, v_cvt_i32_f32, v_rndne_f32) are full-rate VALU
// instructions, so there, and on the host, the plain casts stay. The shared-memory staging,
// smem_sep's row pass and tiled's register rows convert with the instructions on NVIDIA
// too (pixel.hpp's to_accum_cvt): there the bits' extra instruction cost more than the
// conversion pipe, which those loops do not fill.
#pragma once

#include <cstdint>
#include <type_traits>

#include "../platform/config.hpp"

namespace hipstencil {
namespace detail {

#if defined(__CUDA_ARCH__)
#define HIPSTENCIL_FLOAT_BITS 1
#else
#define HIPSTENCIL_FLOAT_BITS 0
#endif

/// True for the channel types converted through float bits in device code here.
template <class C>
constexpr bool float_bits_channel = std::is_same<C, std::uint8_t>::value || std::is_same<C, unsigned char>::value ||
                                    std::is_same<C, std::uint16_t>::value || std::is_same<C, std::int16_t>::value;

#if HIPSTENCIL_FLOAT_BITS
constexpr float two_pow_23 = 8388608.0f;      // 2^23
constexpr float round_magic = 12582912.0f;    // 1.5 * 2^23

/// n (0 <= n < 2^16) as float, exactly: 2^23 + n by its bits, less 2^23.
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE float unsigned_to_float(unsigned n) {
  return __fsub_rn(__uint_as_float(0x4B000000u | n), two_pow_23);
}

/// Byte k (0..3) of the word w as float, exactly: one byte permute builds 2^23 + byte.
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE float byte_to_float(unsigned w, int k) {
  return __fsub_rn(__uint_as_float(__byte_perm(w, 0x4B000000u, 0x7540u | unsigned(k))), two_pow_23);
}

/// 16-bit half h (0 or 1) of the word w, zero-extended, as float, exactly.
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE float half_to_float(unsigned w, int h) {
  return __fsub_rn(__uint_as_float(__byte_perm(w, 0x4B000000u, h ? 0x7632u : 0x7610u)), two_pow_23);
}

/// A channel of type C as float, exactly.
template <class C>
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE float channel_to_float(C v) {
  if constexpr (std::is_same<C, std::int16_t>::value)  // bias to 0..65535, then take it back
    return __fsub_rn(__uint_as_float(0x4B000000u | (unsigned(std::uint16_t(v)) ^ 0x8000u)), two_pow_23 + 32768.0f);
  else
    return unsigned_to_float(unsigned(v));
}

/// v saturated to C's range and rounded to nearest, ties to even; NaN gives 0 (saturate_cast).
template <class C>
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE C float_to_channel(float v) {
  constexpr float lo = std::is_signed<C>::value ? -32768.0f : 0.0f;
  constexpr float hi = sizeof(C) == 1 ? 255.0f : std::is_signed<C>::value ? 32767.0f : 65535.0f;
  // fmaxf returns its other operand for NaN: 0 for the unsigned types. int16 tests for it.
  float t = fminf(fmaxf(v, lo), hi);
  if constexpr (std::is_signed<C>::value) t = v == v ? t : 0.0f;
  const unsigned bits = __float_as_uint(__fadd_rn(t, round_magic));
  return static_cast<C>(sizeof(C) == 1 ? bits & 0xFFu : bits & 0xFFFFu);
}
#endif

}  // namespace detail
}  // namespace hipstencil
