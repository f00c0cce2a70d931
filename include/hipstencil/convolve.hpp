// hipstencil/convolve.hpp
// Public entry points: validate, then pick and launch an algorithm on the caller's stream.
// Every call is asynchronous (it returns once the work is queued), never synchronises the
// device, and rejects bad arguments with invalid_argument before queueing anything, so a
// rejected call leaves dst untouched. Runtime failures throw gpu_error.
#pragma once

#include "platform/config.hpp"
#if HIPSTENCIL_HAS_GPU
#include <type_traits>

#include "algorithm.hpp"
#include "border.hpp"
#include "detail/dispatch.hpp"
#include "detail/geometry.hpp"
#include "detail/validate.hpp"
#include "filter.hpp"
#include "image.hpp"
#include "platform/runtime.hpp"
#include "roi.hpp"

namespace hipstencil {

namespace detail {
template <class Algo, class In, class Out>
void convolve_2d(const char* fn, image_view<In> src, rect src_roi, image_view<Out> dst, rect dst_roi, int kw, int kh,
                 int ax, int ay, const std::vector<float>& taps, border::any b, halo h, gpu::stream_t stream) {
  using I = std::remove_const_t<In>;
  static_assert(is_pixel<I>::value && is_pixel<Out>::value, "unsupported pixel type");
  static_assert(pixel_traits<I>::channels == pixel_traits<Out>::channels,
                "input and output pixel types must have the same number of channels");
  static_assert(std::is_same<Algo, algo::naive>::value || std::is_same<Algo, algo::automatic>::value,
                "unknown algorithm tag");
  validate_convolve(fn, src, src_roi, dst, dst_roi, kw, kh, ax, ay, b.rule, h);
  const geometry g = make_geometry(src.bounds(), src_roi, dst_roi, kw, kh, ax, ay, b, h);
  launch_naive<I, Out>(image_view<const I>(src), dst, g, taps, stream);
}
}  // namespace detail

/// Correlates the source ROI of `src` with `f` into the target ROI of `dst`, on the GPU.
///
///   dst(dst_roi.x + x, dst_roi.y + y) =
///       sum_{j<f.height(), i<f.width()} f(i, j) * src(src_roi.x + x + i - ax, src_roi.y + y + j - ay)
///
/// for 0 <= x < width, 0 <= y < height of the ROIs, with source pixels outside the border
/// domain given by `border` (see border.hpp). The domain is the source ROI itself under
/// halo::isolated (the default: nothing outside src_roi is read) and the whole of `src`
/// under halo::from_parent. Nothing outside dst_roi is written; under border::skip,
/// outputs whose window leaves the domain are not written either.
///
/// @param src     device image of In pixels (uint8_t, uint16_t, int16_t, float, uchar4, float4)
/// @param dst     device image of Out pixels with the same channel count as In; may differ
///                in type (e.g. uint8_t in, float out). Integer outputs are rounded to
///                nearest (ties to even) and saturated. Must not overlap the pixels read.
/// @param f       filter; coefficients are passed by value for up to 992 taps; a larger
///                filter is staged in a stream-ordered allocation on `stream`
///                (MallocAsync, FreeAsync) for the duration of the launch.
/// @param algo    algorithm tag (algorithm.hpp)
/// @param stream  the caller's stream; the call is asynchronous on it
/// @throws invalid_argument for a null or empty view, a pitch smaller than a row or not a
///         multiple of the pixel's alignment, a ROI that is empty or outside its image,
///         ROIs of different sizes, or dst overlapping the pixels read; nothing is queued.
/// @throws gpu_error when the runtime rejects an allocation, copy or launch.
template <class In, class Out, class Border = border::reflect101, class Algo = algo::automatic>
void convolve(image_view<In> src, rect src_roi, image_view<Out> dst, rect dst_roi, const filter2d& f,
              Border border = {}, Algo = {}, gpu::stream_t stream = {}, halo h = halo::isolated) {
  detail::convolve_2d<Algo>("convolve", src, src_roi, dst, dst_roi, f.width(), f.height(), f.anchor_x(),
                            f.anchor_y(), f.coefficients(), border::any(border), h, stream);
}

/// Separable filter, same semantics with k(i, j) = column[j] * row[i].
template <class In, class Out, class Border = border::reflect101, class Algo = algo::automatic>
void convolve(image_view<In> src, rect src_roi, image_view<Out> dst, rect dst_roi, const separable_filter& f,
              Border border = {}, Algo algo = {}, gpu::stream_t stream = {}, halo h = halo::isolated) {
  // The naive algorithm evaluates the dense outer product; the separable families (two
  // passes, fused shared-memory passes) are the optimised paths.
  convolve(src, src_roi, dst, dst_roi, f.to_2d(), border, algo, stream, h);
}

/// Whole images of equal size: src_roi = src.bounds(), dst_roi = dst.bounds().
/// @throws invalid_argument if the sizes differ, and as the ROI overload.
template <class In, class Out, class Filter, class Border = border::reflect101, class Algo = algo::automatic>
void convolve(image_view<In> src, image_view<Out> dst, const Filter& f, Border border = {}, Algo algo = {},
              gpu::stream_t stream = {}) {
  detail::validate_same_size("convolve", src, dst);
  convolve(src, src.bounds(), dst, dst.bounds(), f, border, algo, stream, halo::isolated);
}

}  // namespace hipstencil
#endif
