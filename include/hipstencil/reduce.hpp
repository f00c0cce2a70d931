// hipstencil/reduce.hpp
// Device-wide reductions over pitched images, through CUB on NVIDIA and rocPRIM on AMD:
//
//   min_max(image, channels, d_range, ...)           smallest and largest channel value
//   difference(a, b, tolerance, d_difference, ...)   largest |a - b| and how many pixels differ
//
// used to scale filter responses for display (hipstencil-filter's Sobel) and to compare
// large outputs without copying them to the host (tests, benchmark).
//
// Conventions, as CUB's device-wide algorithms and the rest of this library:
//   - results are written to DEVICE memory (`d_...` pointers), asynchronously on the
//     caller's stream: copy them out (gpu::memcpy) and synchronise the stream to read them
//     on the host. No call synchronises the device or the stream.
//   - no hidden allocation: `*_workspace_bytes` gives the device workspace a call needs,
//     and the overload that takes `workspace` uses exactly that; the overload without it
//     allocates the workspace stream-ordered (gpu::malloc_async / gpu::free_async on the
//     caller's stream), and says so.
//   - arguments are checked before anything is queued (invalid_argument); runtime
//     failures throw gpu_error.
// The image is read in place, pitch and all: a linear index i in [0, width * height) is
// mapped to pixel (i % width, i / width) by the transform that feeds the reduction, so
// sub-views (image_view::sub) need no copy.
//
// The result types and channel_set are plain structs, also in host-only builds; the
// functions exist when HIPSTENCIL_HAS_GPU is 1.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "error.hpp"
#include "image.hpp"
#include "pixel.hpp"
#include "platform/config.hpp"

#if HIPSTENCIL_HAS_GPU
#include "detail/validate.hpp"
#include "platform/runtime.hpp"
#if defined(HIPSTENCIL_BACKEND_CUDA)
#include <cub/device/device_reduce.cuh>
#include <thrust/iterator/counting_iterator.h>
#else
#include <iostream>  // rocPRIM 2.10's device_reduce.hpp uses std::cout without including it
#include <rocprim/device/device_reduce.hpp>
#include <rocprim/iterator/counting_iterator.hpp>
#include <rocprim/iterator/transform_iterator.hpp>
#endif
#endif

namespace hipstencil {

/// A set of a pixel's channels: bit c selects channel c (x, y, z, w of uchar4 and float4,
/// i.e. R, G, B, A; channel 0 of a scalar pixel). Bits beyond the pixel's channel count
/// are ignored, so colour() of a grey image is its one channel.
struct channel_set {
  unsigned mask = 0;
  /// Every channel, alpha included.
  static constexpr channel_set all() { return {0xFu}; }
  /// R, G and B of a 4-channel pixel (alpha excluded); the one channel of a scalar pixel.
  static constexpr channel_set colour() { return {0x7u}; }
  /// Channel c alone (0 <= c < 4): per-channel results are one call per channel.
  static constexpr channel_set only(int c) { return {c >= 0 && c < 4 ? 1u << c : 0u}; }
};

/// Smallest and largest value over the selected channels of an image, in the pixel's
/// channel type C (unsigned char for uchar4, float for float4, ...).
template <class C>
struct value_range {
  C min;
  C max;
};

/// How two images of the same size differ.
struct image_difference {
  /// Largest |a - b| over every channel of every pixel, computed in double (exact for the
  /// integer pixel types; no overflow for float). Equal values differ by 0 (equal
  /// infinities too); an infinity against anything else by +inf; a NaN in either image
  /// (it equals nothing, itself included) makes the result NaN, so that a check
  /// `max_abs_diff <= tol` fails.
  double max_abs_diff;
  /// Pixels with at least one channel whose |a - b| exceeds the tolerance or is NaN.
  unsigned long long differing_pixels;
};

#if HIPSTENCIL_HAS_GPU
namespace detail {
namespace reduce {

/// Linear index -> pixel of a pitched view. Index is 32-bit when width * height fits,
/// because a 64-bit division per item costs several times a 32-bit one.
template <class T, class Index>
HIPSTENCIL_HOST_DEVICE HIPSTENCIL_FORCEINLINE const T& pixel_at(const image_view<const T>& v, Index width, Index i) {
  return v.row(static_cast<long long>(i / width))[i % width];
}

template <class T, class Index>
struct range_of_pixel {
  using C = typename pixel_traits<T>::channel_type;
  image_view<const T> image;
  Index width;
  unsigned mask;
  value_range<C> empty;  // {highest, lowest}: computed on the host (numeric_limits is host-only in nvcc)
  HIPSTENCIL_HOST_DEVICE value_range<C> operator()(Index i) const {
    const T p = pixel_at(image, width, i);
    value_range<C> r = empty;
    HIPSTENCIL_UNROLL
    for (int c = 0; c < pixel_traits<T>::channels; ++c)
      if (mask >> c & 1u) {
        const C v = pixel_traits<T>::get(p, c);
        // Comparisons with NaN are false: NaN channel values are skipped.
        if (v < r.min) r.min = v;
        if (v > r.max) r.max = v;
      }
    return r;
  }
};

template <class C>
struct range_union {
  HIPSTENCIL_HOST_DEVICE value_range<C> operator()(const value_range<C>& a, const value_range<C>& b) const {
    return {b.min < a.min ? b.min : a.min, b.max > a.max ? b.max : a.max};
  }
};

/// max that lets NaN win (commutative and associative, NaN absorbing): a failed
/// comparison must not be hidden by a later finite value.
HIPSTENCIL_HOST_DEVICE HIPSTENCIL_FORCEINLINE double nan_max(double a, double b) { return (a != a || a >= b) ? a : b; }

template <class T, class Index>
struct difference_of_pixels {
  image_view<const T> a, b;
  Index width;
  double tolerance;
  HIPSTENCIL_HOST_DEVICE image_difference operator()(Index i) const {
    const T pa = pixel_at(a, width, i), pb = pixel_at(b, width, i);
    double m = 0;
    bool differs = false;
    HIPSTENCIL_UNROLL
    for (int c = 0; c < pixel_traits<T>::channels; ++c) {
      const double x = double(pixel_traits<T>::get(pa, c)), y = double(pixel_traits<T>::get(pb, c));
      const double d = x == y ? 0.0 : (x > y ? x - y : y - x);  // NaN when either is NaN
      differs = differs || !(d <= tolerance);
      m = nan_max(m, d);
    }
    return {m, differs ? 1ull : 0ull};
  }
};

struct difference_union {
  HIPSTENCIL_HOST_DEVICE image_difference operator()(const image_difference& a, const image_difference& b) const {
    return {nan_max(a.max_abs_diff, b.max_abs_diff), a.differing_pixels + b.differing_pixels};
  }
};

/// The one backend switch of this header: out[0] = reduce(op, init, f(0), ..., f(n - 1)).
/// With workspace == nullptr only sets `bytes` (no device work), as CUB and rocPRIM do.
template <class Index, class Acc, class Transform, class Op>
void transform_reduce(void* workspace, std::size_t& bytes, Index n, Transform f, Op op, Acc init, Acc* out,
                      gpu::stream_t stream) {
#if defined(HIPSTENCIL_BACKEND_CUDA)
  gpu::check(cub::DeviceReduce::TransformReduce(workspace, bytes, thrust::counting_iterator<Index>(0), out, n, op, f,
                                                init, stream),
             workspace ? "cub::DeviceReduce::TransformReduce" : "cub::DeviceReduce::TransformReduce (size query)");
#else
  gpu::check(rocprim::reduce(workspace, bytes, rocprim::make_transform_iterator(rocprim::counting_iterator<Index>(0), f),
                             out, init, std::size_t(n), op, stream),
             workspace ? "rocprim::reduce" : "rocprim::reduce (size query)");
#endif
}

inline bool fits_32_bits(int width, int height) {
  return std::uint64_t(width) * std::uint64_t(height) <= std::uint64_t(0xFFFFFFFFu);
}

inline void validate_size(const char* fn, int width, int height) {
  if (width < 1 || height < 1) throw_invalid(fn, ": the image is empty (width=", width, ", height=", height, ")");
}

/// The call with either index type; `workspace == nullptr` is the size query.
template <class T, class Index>
void run_min_max(image_view<const T> image, unsigned mask, value_range<typename pixel_traits<T>::channel_type>* out,
                 void* workspace, std::size_t& bytes, gpu::stream_t stream) {
  using C = typename pixel_traits<T>::channel_type;
  const value_range<C> empty{std::numeric_limits<C>::has_infinity ? std::numeric_limits<C>::infinity()
                                                                  : std::numeric_limits<C>::max(),
                             std::numeric_limits<C>::has_infinity ? -std::numeric_limits<C>::infinity()
                                                                  : std::numeric_limits<C>::lowest()};
  const Index width = Index(image.width), n = Index(std::uint64_t(image.width) * std::uint64_t(image.height));
  transform_reduce(workspace, bytes, n, range_of_pixel<T, Index>{image, width, mask, empty}, range_union<C>{}, empty,
                   out, stream);
}

template <class T, class Index>
void run_difference(image_view<const T> a, image_view<const T> b, double tolerance, image_difference* out,
                    void* workspace, std::size_t& bytes, gpu::stream_t stream) {
  const Index width = Index(a.width), n = Index(std::uint64_t(a.width) * std::uint64_t(a.height));
  transform_reduce(workspace, bytes, n, difference_of_pixels<T, Index>{a, b, width, tolerance}, difference_union{},
                   image_difference{0.0, 0ull}, out, stream);
}

inline void validate_workspace(const char* fn, const void* workspace, std::size_t given, std::size_t needed) {
  if (workspace == nullptr) throw_invalid(fn, ": workspace is null (", needed, " bytes are needed)");
  if (reinterpret_cast<std::uintptr_t>(workspace) % 256 != 0)
    throw_invalid(fn, ": workspace is not aligned to 256 bytes (use an allocation of its own, as gpu::malloc gives)");
  if (given < needed)
    throw_invalid(fn, ": workspace_bytes=", given, " is smaller than the ", needed, " bytes needed");
}

/// Checks min_max's arguments; returns the channel mask restricted to T's channels.
template <class T>
unsigned check_min_max(const char* fn, const image_view<T>& image, channel_set channels, const void* d_range) {
  using P = std::remove_const_t<T>;
  static_assert(is_pixel<P>::value, "unsupported pixel type");
  validate_view(fn, "image", image);
  const unsigned mask = channels.mask & ((1u << pixel_traits<P>::channels) - 1u);
  if (mask == 0)
    throw_invalid(fn, ": channels (mask ", channels.mask, ") selects none of the ", pixel_traits<P>::channels,
                  " channel(s) of the pixel type");
  if (d_range == nullptr) throw_invalid(fn, ": d_range is null");
  return mask;
}

template <class TA, class TB>
void check_difference(const char* fn, const image_view<TA>& a, const image_view<TB>& b, double tolerance,
                      const void* d_difference) {
  static_assert(std::is_same<std::remove_const_t<TA>, std::remove_const_t<TB>>::value,
                "difference: a and b must have the same pixel type");
  static_assert(is_pixel<std::remove_const_t<TA>>::value, "unsupported pixel type");
  validate_view(fn, "a", a);
  validate_view(fn, "b", b);
  if (a.width != b.width || a.height != b.height)
    throw_invalid(fn, ": a is ", a.width, "x", a.height, " but b is ", b.width, "x", b.height,
                  " (the images must have the same size)");
  if (!(tolerance >= 0)) throw_invalid(fn, ": tolerance must be >= 0, got ", tolerance);
  if (d_difference == nullptr) throw_invalid(fn, ": d_difference is null");
}

/// Runs `call(workspace)` on a stream-ordered allocation of `bytes`, freed on the same
/// stream afterwards, whether or not the call throws. 255 bytes of slack let the
/// workspace start on a 256-byte boundary whatever alignment the pool gives.
template <class Call>
void with_stream_ordered_workspace(std::size_t bytes, gpu::stream_t stream, Call&& call) {
  void* workspace = gpu::malloc_async(bytes + 255, stream);
  try {
    call(reinterpret_cast<void*>((reinterpret_cast<std::uintptr_t>(workspace) + 255) & ~std::uintptr_t(255)));
  } catch (...) {
    try {
      gpu::free_async(workspace, stream);
    } catch (...) {  // the first failure is the one to report
    }
    throw;
  }
  gpu::free_async(workspace, stream);
}

}  // namespace reduce
}  // namespace detail

/// Bytes of device workspace min_max needs for a width x height image of T pixels, on the
/// current device (CUB and rocPRIM size their passes by the device). Queues nothing.
/// @throws invalid_argument if width or height is < 1; gpu_error if the runtime fails.
template <class T>
std::size_t min_max_workspace_bytes(int width, int height) {
  using P = std::remove_const_t<T>;
  static_assert(is_pixel<P>::value, "unsupported pixel type");
  detail::reduce::validate_size("min_max_workspace_bytes", width, height);
  std::size_t bytes = 0;
  const image_view<const P> shape(nullptr, width, height);  // only the size matters to the query
  if (detail::reduce::fits_32_bits(width, height))
    detail::reduce::run_min_max<P, unsigned>(shape, 0, nullptr, nullptr, bytes, nullptr);
  else
    detail::reduce::run_min_max<P, unsigned long long>(shape, 0, nullptr, nullptr, bytes, nullptr);
  return bytes;
}

/// Smallest and largest value of the selected channels over every pixel of `image`,
/// written to `*d_range` (device memory) asynchronously on `stream`. The result is over
/// all selected channels together (one min and one max for the image); for per-channel
/// values call once per channel with channel_set::only(c). NaN channel values are
/// skipped; if every selected value is NaN the result is {+inf, -inf} (min > max).
///
/// @param image      device image of T (uint8_t, uint16_t, int16_t, float, uchar4, float4;
///                   const or not), any pitch; a sub-view is read in place.
/// @param channels   the channels to include, e.g. channel_set::colour() (R, G, B) for a
///                   display range that ignores alpha.
/// @param d_range    device pointer to one value_range<C>, C the channel type of T.
/// @param workspace  device memory of at least min_max_workspace_bytes<T>(image.width,
///                   image.height) bytes, aligned to 256 bytes (an allocation of its own
///                   is), not used by other work until this call's work on `stream` is done.
/// @param stream     the caller's stream; the call is asynchronous on it.
/// @throws invalid_argument (before queueing anything) for a null, empty or misaligned
///         image or a pitch smaller than a row; `channels` selecting none of T's channels;
///         a null d_range; a null, misaligned or too small workspace.
/// @throws gpu_error if CUB or rocPRIM reports a failure (e.g. a launch error).
template <class T>
void min_max(image_view<T> image, channel_set channels,
             value_range<typename pixel_traits<std::remove_const_t<T>>::channel_type>* d_range, void* workspace,
             std::size_t workspace_bytes, gpu::stream_t stream = {}) {
  using P = std::remove_const_t<T>;
  const unsigned mask = detail::reduce::check_min_max("min_max", image, channels, d_range);
  detail::reduce::validate_workspace("min_max", workspace, workspace_bytes,
                                     min_max_workspace_bytes<P>(image.width, image.height));
  std::size_t bytes = workspace_bytes;
  if (detail::reduce::fits_32_bits(image.width, image.height))
    detail::reduce::run_min_max<P, unsigned>(image, mask, d_range, workspace, bytes, stream);
  else
    detail::reduce::run_min_max<P, unsigned long long>(image, mask, d_range, workspace, bytes, stream);
}

/// min_max without a caller's workspace: ALLOCATES its workspace stream-ordered on
/// `stream` (gpu::malloc_async, released with gpu::free_async after the reduction, on the
/// same stream). Same result, preconditions and exceptions as the workspace overload,
/// plus gpu_error if the allocation fails. Nothing is allocated when an argument is invalid.
template <class T>
void min_max(image_view<T> image, channel_set channels,
             value_range<typename pixel_traits<std::remove_const_t<T>>::channel_type>* d_range,
             gpu::stream_t stream = {}) {
  using P = std::remove_const_t<T>;
  detail::reduce::check_min_max("min_max", image, channels, d_range);  // before allocating
  const std::size_t bytes = min_max_workspace_bytes<P>(image.width, image.height);
  detail::reduce::with_stream_ordered_workspace(bytes, stream, [&](void* workspace) {
    min_max(image, channels, d_range, workspace, bytes, stream);
  });
}

/// Bytes of device workspace difference needs for two width x height images of T pixels,
/// on the current device. Queues nothing.
/// @throws invalid_argument if width or height is < 1; gpu_error if the runtime fails.
template <class T>
std::size_t difference_workspace_bytes(int width, int height) {
  using P = std::remove_const_t<T>;
  static_assert(is_pixel<P>::value, "unsupported pixel type");
  detail::reduce::validate_size("difference_workspace_bytes", width, height);
  std::size_t bytes = 0;
  const image_view<const P> shape(nullptr, width, height);
  if (detail::reduce::fits_32_bits(width, height))
    detail::reduce::run_difference<P, unsigned>(shape, shape, 0.0, nullptr, nullptr, bytes, nullptr);
  else
    detail::reduce::run_difference<P, unsigned long long>(shape, shape, 0.0, nullptr, nullptr, bytes, nullptr);
  return bytes;
}

/// Compares two images of the same size channel by channel and writes to
/// `*d_difference` (device memory), asynchronously on `stream`:
///   max_abs_diff     = max over every channel of every pixel of |a - b| (NaN if any is NaN)
///   differing_pixels = number of pixels with some channel where |a - b| > tolerance or NaN
/// so tolerance 0 counts the pixels that are not equal. Differences are formed in double.
///
/// @param a, b         device images of the same pixel type T (any supported one; each
///                     const or not), same width and height, any pitches (sub-views too).
/// @param tolerance    >= 0, in the channel's units (e.g. 1 to accept off-by-one rounding).
/// @param d_difference device pointer to one image_difference.
/// @param workspace    device memory of at least difference_workspace_bytes<T>(a.width,
///                     a.height) bytes, aligned to 256 bytes.
/// @param stream       the caller's stream; the call is asynchronous on it.
/// @throws invalid_argument (before queueing anything) for a null, empty or misaligned
///         view, a pitch smaller than a row, images of different sizes, a negative or NaN
///         tolerance, a null d_difference, or a null, misaligned or too small workspace.
/// @throws gpu_error if CUB or rocPRIM reports a failure.
template <class TA, class TB>
void difference(image_view<TA> a, image_view<TB> b, double tolerance, image_difference* d_difference,
                void* workspace, std::size_t workspace_bytes, gpu::stream_t stream = {}) {
  using P = std::remove_const_t<TA>;
  detail::reduce::check_difference("difference", a, b, tolerance, d_difference);
  detail::reduce::validate_workspace("difference", workspace, workspace_bytes,
                                     difference_workspace_bytes<P>(a.width, a.height));
  std::size_t bytes = workspace_bytes;
  if (detail::reduce::fits_32_bits(a.width, a.height))
    detail::reduce::run_difference<P, unsigned>(a, b, tolerance, d_difference, workspace, bytes, stream);
  else
    detail::reduce::run_difference<P, unsigned long long>(a, b, tolerance, d_difference, workspace, bytes, stream);
}

/// difference without a caller's workspace: ALLOCATES its workspace stream-ordered on
/// `stream` (gpu::malloc_async, released with gpu::free_async after the reduction, on the
/// same stream). Same result, preconditions and exceptions as the workspace overload,
/// plus gpu_error if the allocation fails. Nothing is allocated when an argument is invalid.
template <class TA, class TB>
void difference(image_view<TA> a, image_view<TB> b, double tolerance, image_difference* d_difference,
                gpu::stream_t stream = {}) {
  using P = std::remove_const_t<TA>;
  detail::reduce::check_difference("difference", a, b, tolerance, d_difference);  // before allocating
  const std::size_t bytes = difference_workspace_bytes<P>(a.width, a.height);
  detail::reduce::with_stream_ordered_workspace(bytes, stream, [&](void* workspace) {
    difference(a, b, tolerance, d_difference, workspace, bytes, stream);
  });
}
#endif  // HIPSTENCIL_HAS_GPU

}  // namespace hipstencil
