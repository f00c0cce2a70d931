// hipstencil/pixel.hpp
// Pixel types and their traits. A pixel is a scalar (uint8_t, uint16_t, int16_t, float, and
// in GPU builds the runtime's IEEE binary16 `half` and its `bfloat16`) or an interleaved
// vector of 3 channels (uchar3, ushort3, float3: RGB) or 4 (uchar4, ushort4, float4, and in
// GPU builds half4 and bfloat16x4: RGBA).
// Filtering accumulates each channel in float (double in the host reference); integer
// outputs are rounded to nearest (ties to even, as OpenCV's saturate_cast) and saturated
// to the type's range, and NaN becomes 0.
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "detail/bf16_bits.hpp"
#include "detail/float_bits.hpp"
#include "platform/config.hpp"

namespace hipstencil {

#if HIPSTENCIL_HAS_GPU
// The runtime's own vector types, so device code and user code share one definition.
using ::float3;
using ::float4;
using ::uchar3;
using ::uchar4;
using ::ushort3;
using ::ushort4;
/// IEEE 754 binary16 (the runtime's __half, cuda_fp16.h / hip_fp16.h): one channel,
/// filtered in float, outputs rounded to nearest even. GPU builds only.
using half = ::__half;
/// bfloat16: a float's sign, its 8-bit exponent and 7 mantissa bits (the runtime's type:
/// __nv_bfloat16 from cuda_bf16.h, hip_bfloat16 from hip/hip_bfloat16.h). One channel,
/// filtered in float, outputs rounded to nearest even (detail/bf16_bits.hpp, the same rule
/// on both platforms). GPU builds only.
#if defined(HIPSTENCIL_BACKEND_CUDA)
using bfloat16 = ::__nv_bfloat16;
#else
using bfloat16 = ::hip_bfloat16;
#endif
#else
/// Interleaved 8-bit RGBA pixel (host-only stand-in for the runtime's uchar4).
struct alignas(4) uchar4 {
  unsigned char x, y, z, w;
};
/// Interleaved 16-bit RGBA pixel (host-only stand-in for the runtime's ushort4).
struct alignas(8) ushort4 {
  unsigned short x, y, z, w;
};
/// Interleaved float RGBA pixel (host-only stand-in for the runtime's float4).
struct alignas(16) float4 {
  float x, y, z, w;
};
/// Interleaved 8-bit RGB pixel, 3 bytes (host-only stand-in for the runtime's uchar3).
struct uchar3 {
  unsigned char x, y, z;
};
/// Interleaved 16-bit RGB pixel, 6 bytes (host-only stand-in for the runtime's ushort3).
struct alignas(2) ushort3 {
  unsigned short x, y, z;
};
/// Interleaved float RGB pixel, 12 bytes (host-only stand-in for the runtime's float3).
struct alignas(4) float3 {
  float x, y, z;
};
#endif

/// Per-channel accumulator of N lanes of type A (float on the GPU, double in the reference).
template <class A, int N>
struct accum {
  A v[N];
};

/// Traits of a pixel type: number of channels, channel type, channel access.
template <class T, class Enable = void>
struct pixel_traits;  // undefined: unsupported pixel type

namespace detail {
/// One-channel pixel types: the arithmetic types and, in GPU builds, half and bfloat16.
template <class T>
constexpr bool is_scalar_pixel = std::is_arithmetic<T>::value
#if HIPSTENCIL_HAS_GPU
                                 || std::is_same<T, half>::value || std::is_same<T, bfloat16>::value
#endif
    ;
}  // namespace detail

/// Scalars: one channel. get(p, c) reads channel c, set(p, c, v) writes it (c = 0 here;
/// 0..3 = x, y, z, w for the 4-channel vectors below). half and bfloat16 convert to and
/// from float in to_accum and saturate_cast, not here.
template <class T>
struct pixel_traits<T, std::enable_if_t<detail::is_scalar_pixel<T>>> {
  using channel_type = T;
  static constexpr int channels = 1;
  HIPSTENCIL_HOST_DEVICE static T get(const T& p, int) { return p; }
  HIPSTENCIL_HOST_DEVICE static void set(T& p, int, T v) { p = v; }
};

namespace detail {
template <class V, class C>
struct vec4_traits {
  using channel_type = C;
  static constexpr int channels = 4;
  HIPSTENCIL_HOST_DEVICE static C get(const V& p, int c) {
    return c == 0 ? p.x : c == 1 ? p.y : c == 2 ? p.z : p.w;
  }
  HIPSTENCIL_HOST_DEVICE static void set(V& p, int c, C v) {
    if (c == 0) p.x = v;
    else if (c == 1) p.y = v;
    else if (c == 2) p.z = v;
    else p.w = v;
  }
};
}  // namespace detail

namespace detail {
template <class V, class C>
struct vec3_traits {
  using channel_type = C;
  static constexpr int channels = 3;
  HIPSTENCIL_HOST_DEVICE static C get(const V& p, int c) { return c == 0 ? p.x : c == 1 ? p.y : p.z; }
  HIPSTENCIL_HOST_DEVICE static void set(V& p, int c, C v) {
    if (c == 0) p.x = v;
    else if (c == 1) p.y = v;
    else p.z = v;
  }
};
}  // namespace detail

/// Interleaved RGB without alpha (NPP's C3, CV-CUDA's HWC): 3 channels x, y, z = R, G, B,
/// packed (3, 6 and 12 bytes a pixel).
template <>
struct pixel_traits<uchar3> : detail::vec3_traits<uchar3, unsigned char> {};
template <>
struct pixel_traits<ushort3> : detail::vec3_traits<ushort3, unsigned short> {};
template <>
struct pixel_traits<float3> : detail::vec3_traits<float3, float> {};

/// Interleaved RGBA: 4 channels x, y, z, w = R, G, B, A.
template <>
struct pixel_traits<uchar4> : detail::vec4_traits<uchar4, unsigned char> {};
template <>
struct pixel_traits<ushort4> : detail::vec4_traits<ushort4, unsigned short> {};
template <>
struct pixel_traits<float4> : detail::vec4_traits<float4, float> {};

#if HIPSTENCIL_HAS_GPU
/// Interleaved RGBA of four IEEE binary16 channels, 8 bytes (NPP's 16f_C4R layout). The
/// runtimes define no four-lane half vector, so this one is hipstencil's own. GPU builds only.
struct alignas(8) half4 {
  half x, y, z, w;
};
/// Interleaved RGBA of four bfloat16 channels, 8 bytes (hipstencil's own, as half4). GPU
/// builds only.
struct alignas(8) bfloat16x4 {
  bfloat16 x, y, z, w;
};
template <>
struct pixel_traits<half4> : detail::vec4_traits<half4, half> {};
template <>
struct pixel_traits<bfloat16x4> : detail::vec4_traits<bfloat16x4, bfloat16> {};
#endif

#if HIPSTENCIL_HAS_GPU
namespace detail {
/// A bfloat16's bits, and the bfloat16 of given bits, through each runtime's own layout.
HIPSTENCIL_HOST_DEVICE inline std::uint16_t bits_of(bfloat16 v) {
#if defined(HIPSTENCIL_BACKEND_CUDA)
  return __nv_bfloat16_raw(v).x;
#else
  return v.data;
#endif
}
HIPSTENCIL_HOST_DEVICE inline bfloat16 bfloat16_of_bits(std::uint16_t b) {
#if defined(HIPSTENCIL_BACKEND_CUDA)
  __nv_bfloat16_raw r;
  r.x = b;
  return bfloat16(r);
#else
  bfloat16 v;
  v.data = b;
  return v;
#endif
}
}  // namespace detail
#endif

/// True for floating-point channel types: float, double and (GPU builds) half and
/// bfloat16. Their outputs are not rounded to integers or saturated.
template <class C>
constexpr bool is_float_channel = std::is_floating_point<C>::value
#if HIPSTENCIL_HAS_GPU
                                  || std::is_same<C, half>::value || std::is_same<C, bfloat16>::value
#endif
    ;

/// True for the pixel types the library supports.
template <class T, class = void>
struct is_pixel : std::false_type {};
template <class T>
struct is_pixel<T, std::void_t<decltype(pixel_traits<T>::channels)>> : std::true_type {};

namespace detail {
HIPSTENCIL_HOST_DEVICE inline float round_even(float v) {
#if HIPSTENCIL_HAS_GPU && (defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__))
  return rintf(v);
#else
  return std::nearbyint(v);
#endif
}
HIPSTENCIL_HOST_DEVICE inline double round_even(double v) {
#if HIPSTENCIL_HAS_GPU && (defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__))
  return rint(v);
#else
  return std::nearbyint(v);
#endif
}
}  // namespace detail

/// Converts an accumulated value to channel type C: identity for floating point; for
/// integers, NaN becomes 0, other values are clamped to C's range and rounded to nearest,
/// ties to even (OpenCV's saturate_cast).
template <class C, class F>
HIPSTENCIL_HOST_DEVICE inline C saturate_cast(F v) {
  if constexpr (std::is_integral<F>::value) {
    return saturate_cast<C>(static_cast<double>(v));  // exact for every 32-bit value
  } else if constexpr (std::is_floating_point<C>::value) {
    return static_cast<C>(v);
#if HIPSTENCIL_HAS_GPU
  } else if constexpr (std::is_same<C, half>::value) {
    // Through float: from a double sum, rounding twice can differ from rounding once by
    // one unit in the last place of the half (the [gpu] tests allow it).
    return __float2half_rn(static_cast<float>(v));
  } else if constexpr (std::is_same<C, bfloat16>::value) {
    // Through float as for half (one bfloat16 ulp at most from rounding the double once).
    return detail::bfloat16_of_bits(detail::float_to_bf16_bits(static_cast<float>(v)));
#endif
  } else {
    constexpr F lo = static_cast<F>(std::is_signed<C>::value ? -(1ll << (8 * sizeof(C) - 1)) : 0);
    constexpr F hi = static_cast<F>(std::is_signed<C>::value ? (1ll << (8 * sizeof(C) - 1)) - 1
                                                             : (1ll << (8 * sizeof(C))) - 1);
#if HIPSTENCIL_FLOAT_BITS
    if constexpr (std::is_same<F, float>::value && detail::float_bits_channel<C>) return detail::float_to_channel<C>(v);
#endif
    if (!(v == v)) return C(0);  // NaN
    v = v < lo ? lo : v;
    v = v > hi ? hi : v;
    return static_cast<C>(detail::round_even(v));
  }
}

/// Loads a pixel into an accumulator of A.
template <class A, class T>
HIPSTENCIL_HOST_DEVICE inline accum<A, pixel_traits<T>::channels> to_accum(const T& p) {
  accum<A, pixel_traits<T>::channels> a;
  HIPSTENCIL_UNROLL
  for (int c = 0; c < pixel_traits<T>::channels; ++c) {
#if HIPSTENCIL_FLOAT_BITS
    using C = typename pixel_traits<T>::channel_type;
    if constexpr (std::is_same<A, float>::value && detail::float_bits_channel<C>) {
      a.v[c] = detail::channel_to_float(pixel_traits<T>::get(p, c));
      continue;
    }
#endif
#if HIPSTENCIL_HAS_GPU
    if constexpr (std::is_same<typename pixel_traits<T>::channel_type, bfloat16>::value)  // exact, by the bits
      a.v[c] = static_cast<A>(detail::bf16_bits_to_float(detail::bits_of(pixel_traits<T>::get(p, c))));
    else
#endif
      a.v[c] = static_cast<A>(pixel_traits<T>::get(p, c));
  }
  return a;
}

/// to_accum through the conversion instructions (I2F on NVIDIA) for integer channels, not
/// through the float's bits: one instruction a channel where the bit path takes two or
/// three. For loops bound by instruction issue rather than by the conversion pipe: the
/// shared-memory families convert each staged pixel once, beside its load and store (in
/// shared_mem's u8 dense 5x5 staging, 12 instructions a pixel this way, one more through
/// the bits; nvcc 13, sm_90), and tiled each pixel of its register rows once for every
/// tap that reads it. The values are to_accum's: every 8- and 16-bit integer is a
/// float exactly.
template <class A, class T>
HIPSTENCIL_HOST_DEVICE inline accum<A, pixel_traits<T>::channels> to_accum_cvt(const T& p) {
  if constexpr (std::is_integral<typename pixel_traits<T>::channel_type>::value) {
    accum<A, pixel_traits<T>::channels> a;
    HIPSTENCIL_UNROLL
    for (int c = 0; c < pixel_traits<T>::channels; ++c) a.v[c] = static_cast<A>(pixel_traits<T>::get(p, c));
    return a;
  } else {
    return to_accum<A>(p);
  }
}

/// Stores an accumulator as pixel type T (rounded and saturated per channel).
template <class T, class A, int N>
HIPSTENCIL_HOST_DEVICE inline T from_accum(const accum<A, N>& a) {
  static_assert(N == pixel_traits<T>::channels, "channel count of input and output must match");
  T p{};
  HIPSTENCIL_UNROLL
  for (int c = 0; c < N; ++c)
    pixel_traits<T>::set(p, c, saturate_cast<typename pixel_traits<T>::channel_type>(a.v[c]));
  return p;
}

}  // namespace hipstencil
