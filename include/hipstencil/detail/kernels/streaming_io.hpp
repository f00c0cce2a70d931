// hipstencil/detail/kernels/streaming_io.hpp
// Vector I/O of the streaming family: a lane moves its pixels as whole 32-bit words (one
// 4-, 8- or 16-byte access per row), and picks pixels out of them and packs them back by
// register selection once its loops are unrolled. load_pixel, a whole pixel in one load,
// serves the sliding and shared_mem families too.
#pragma once

#include "../../platform/config.hpp"
#if HIPSTENCIL_HAS_GPU
#include <type_traits>

#include "../../pixel.hpp"
#include "../../platform/prefetch.hpp"

namespace hipstencil {
namespace detail {

/// Loads N (1, 2 or 4) aligned 32-bit words.
template <int N>
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE void load_words(const void* p, unsigned (&w)[N]) {
  if constexpr (N == 4) {
    const uint4 q = *static_cast<const uint4*>(p);
    w[0] = q.x, w[1] = q.y, w[2] = q.z, w[3] = q.w;
  } else if constexpr (N == 2) {
    const uint2 q = *static_cast<const uint2*>(p);
    w[0] = q.x, w[1] = q.y;
  } else {
    static_assert(N == 1, "vectors of 1, 2 or 4 words");
    w[0] = *static_cast<const unsigned*>(p);
  }
}

/// Stores N aligned 32-bit words (N a power of two), 16 bytes at a time where it can.
template <int N>
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE void store_words(void* p, const unsigned (&w)[N]) {
  if constexpr (N >= 4) {
    HIPSTENCIL_UNROLL
    for (int i = 0; i < N; i += 4) static_cast<uint4*>(p)[i / 4] = make_uint4(w[i], w[i + 1], w[i + 2], w[i + 3]);
  } else if constexpr (N == 2) {
    *static_cast<uint2*>(p) = make_uint2(w[0], w[1]);
  } else {
    *static_cast<unsigned*>(p) = w[0];
  }
}

/// Byte k of the word w as float (through its bits where that is quicker: float_bits.hpp).
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE float byte_as_float(unsigned w, int k) {
#if HIPSTENCIL_FLOAT_BITS
  return byte_to_float(w, k);
#else
  return float((w >> (8 * k)) & 0xffu);
#endif
}

/// The pixel of type In that starts `b` bytes into the words `w`, as float channels. `b`
/// is a constant once the caller's loops are unrolled, so this is register selection.
template <class In>
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE accum<float, pixel_traits<In>::channels> unpack_pixel(const unsigned* w,
                                                                                             int b) {
  accum<float, pixel_traits<In>::channels> a;
  if constexpr (std::is_same<In, float4>::value) {
    HIPSTENCIL_UNROLL
    for (int c = 0; c < 4; ++c) a.v[c] = __uint_as_float(w[b / 4 + c]);
  } else if constexpr (std::is_same<In, uchar4>::value) {
    HIPSTENCIL_UNROLL
    for (int c = 0; c < 4; ++c) a.v[c] = byte_as_float(w[b / 4], c);
  } else if constexpr (std::is_same<In, ushort4>::value) {  // words x | y << 16, z | w << 16
    HIPSTENCIL_UNROLL
    for (int c = 0; c < 4; ++c) {
#if HIPSTENCIL_FLOAT_BITS
      a.v[c] = half_to_float(w[b / 4 + c / 2], c % 2);
#else
      a.v[c] = float((w[b / 4 + c / 2] >> (16 * (c % 2))) & 0xffffu);
#endif
    }
  } else if constexpr (std::is_same<In, half4>::value || std::is_same<In, bfloat16x4>::value) {
    HIPSTENCIL_UNROLL  // words x | y << 16, z | w << 16, as ushort4
    for (int c = 0; c < 4; ++c) {
      const unsigned bits = (w[b / 4 + c / 2] >> (16 * (c % 2))) & 0xffffu;
      if constexpr (std::is_same<In, half4>::value) a.v[c] = __half2float(__ushort_as_half((unsigned short)bits));
      else a.v[c] = bf16_bits_to_float(std::uint16_t(bits));
    }
  } else if constexpr (std::is_same<In, float>::value) {
    a.v[0] = __uint_as_float(w[b / 4]);
  } else if constexpr (std::is_same<In, half>::value) {  // the bits, not the value, of the 16-bit word
    a.v[0] = __half2float(__ushort_as_half((unsigned short)((w[b / 4] >> (16 * ((b / 2) % 2))) & 0xffffu)));
  } else if constexpr (std::is_same<In, bfloat16>::value) {  // the top half of a float: a shift or a mask
    a.v[0] = bf16_bits_to_float(std::uint16_t((w[b / 4] >> (16 * ((b / 2) % 2))) & 0xffffu));
  } else if constexpr (sizeof(In) == 1) {
    a.v[0] = byte_as_float(w[b / 4], b % 4);
  } else {
    static_assert(sizeof(In) == 2, "unsupported pixel type");
#if HIPSTENCIL_FLOAT_BITS
    if constexpr (std::is_same<In, std::uint16_t>::value) {
      a.v[0] = half_to_float(w[b / 4], (b / 2) % 2);
      return a;
    }
#endif
    a.v[0] = to_accum<float>(In((w[b / 4] >> (16 * ((b / 2) % 2))) & 0xffffu)).v[0];
  }
  return a;
}

/// One source pixel as float accumulators, with one load of the whole pixel (accessing
/// a uchar4's members made nvcc load its bytes one by one): uchar4 as one 32-bit word,
/// unpacked as unpack_pixel unpacks it (through float bits where that is quicker).
template <class In>
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE accum<float, pixel_traits<In>::channels> load_pixel(const In* p) {
  if constexpr (std::is_same<In, uchar4>::value) {
    const unsigned w = *reinterpret_cast<const unsigned*>(p);
    return unpack_pixel<uchar4>(&w, 0);
  } else {
    const In v = *p;
    return to_accum<float>(v);
  }
}

/// Writes pixel p of type Out `b` bytes into the words `w` (sub-word pixels are OR-ed in:
/// the words start at zero).
template <class Out>
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE void pack_pixel(unsigned* w, int b, const Out& p) {
  if constexpr (std::is_same<Out, float4>::value) {
    w[b / 4] = __float_as_uint(p.x), w[b / 4 + 1] = __float_as_uint(p.y);
    w[b / 4 + 2] = __float_as_uint(p.z), w[b / 4 + 3] = __float_as_uint(p.w);
  } else if constexpr (std::is_same<Out, uchar4>::value) {
    w[b / 4] = unsigned(p.x) | (unsigned(p.y) << 8) | (unsigned(p.z) << 16) | (unsigned(p.w) << 24);
  } else if constexpr (std::is_same<Out, ushort4>::value) {
    w[b / 4] = unsigned(p.x) | (unsigned(p.y) << 16), w[b / 4 + 1] = unsigned(p.z) | (unsigned(p.w) << 16);
  } else if constexpr (std::is_same<Out, half4>::value) {
    w[b / 4] = unsigned(__half_as_ushort(p.x)) | (unsigned(__half_as_ushort(p.y)) << 16);
    w[b / 4 + 1] = unsigned(__half_as_ushort(p.z)) | (unsigned(__half_as_ushort(p.w)) << 16);
  } else if constexpr (std::is_same<Out, bfloat16x4>::value) {
    w[b / 4] = unsigned(bits_of(p.x)) | (unsigned(bits_of(p.y)) << 16);
    w[b / 4 + 1] = unsigned(bits_of(p.z)) | (unsigned(bits_of(p.w)) << 16);
  } else if constexpr (std::is_same<Out, float>::value) {
    w[b / 4] = __float_as_uint(p);
  } else if constexpr (std::is_same<Out, half>::value) {
    w[b / 4] |= unsigned(__half_as_ushort(p)) << (16 * ((b / 2) % 2));
  } else if constexpr (std::is_same<Out, bfloat16>::value) {
    w[b / 4] |= unsigned(bits_of(p)) << (16 * ((b / 2) % 2));
  } else if constexpr (sizeof(Out) == 1) {
    w[b / 4] |= unsigned(static_cast<unsigned char>(p)) << (8 * (b % 4));
  } else {
    static_assert(sizeof(Out) == 2, "unsupported pixel type");
    w[b / 4] |= unsigned(static_cast<unsigned short>(p)) << (16 * ((b / 2) % 2));
  }
}

}  // namespace detail
}  // namespace hipstencil
#endif
