// hipstencil/detail/bf16_bits.hpp
// bfloat16 (the top 16 bits of an IEEE binary32: sign, the float's 8-bit exponent, 7
// mantissa bits) to float and back by its bits, the same on the host, NVIDIA and AMD.
// The runtimes' own types differ (CUDA's __nv_bfloat16, HIP's hip_bfloat16), as do
// their conversions' spellings and, for HIP's, the rounding of NaN; these give one rule.
// Host and device, so the host tests check every value.
#pragma once

#include <cstdint>
#include <cstring>

#include "../platform/config.hpp"

namespace hipstencil {
namespace detail {

// A float's bits and back: the runtime's intrinsics in device code (HIP's std::memcpy is
// host-only), memcpy on the host and in host-only units, which hipcc also compiles for the
// device without the runtime's headers.
HIPSTENCIL_HOST_DEVICE inline float float_of_bits(std::uint32_t u) {
#if HIPSTENCIL_HAS_GPU && (defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__))
  return __uint_as_float(u);
#else
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
#endif
}
HIPSTENCIL_HOST_DEVICE inline std::uint32_t bits_of_float(float f) {
#if HIPSTENCIL_HAS_GPU && (defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__))
  return __float_as_uint(f);
#else
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
#endif
}

/// The float whose top 16 bits are `b` and low 16 zero: exact (bfloat16 is a float with a
/// shorter mantissa).
HIPSTENCIL_HOST_DEVICE inline float bf16_bits_to_float(std::uint16_t b) {
  return float_of_bits(std::uint32_t(b) << 16);
}

/// The bfloat16 nearest to f, ties to even (IEEE's default rounding), as bits. Overflow
/// rounds to infinity as IEEE rounding does; a NaN stays a NaN with its sign, made quiet
/// (truncating a signalling NaN's payload could otherwise leave the bits of infinity).
HIPSTENCIL_HOST_DEVICE inline std::uint16_t float_to_bf16_bits(float f) {
  std::uint32_t u = bits_of_float(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return std::uint16_t((u >> 16) | 0x0040u);
  u += 0x7fffu + ((u >> 16) & 1u);  // round the low 16 bits to nearest, ties to even
  return std::uint16_t(u >> 16);
}

}  // namespace detail
}  // namespace hipstencil
