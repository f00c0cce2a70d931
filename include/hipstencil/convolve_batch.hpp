// hipstencil/convolve_batch.hpp
// Uniform batches in one launch: every image of a batch_view filtered with one filter,
// one ROI pair and one border rule, by any family (grid.z indexes the images; each image
// gets the tile-class dispatch it would get alone). A loop of convolve calls pays a launch
// per image, which for small images is most of the time (the bench's batch rows).
#pragma once

#include "platform/config.hpp"
#if HIPSTENCIL_HAS_GPU
#include <algorithm>
#include <type_traits>

#include "batch.hpp"
#include "convolve.hpp"
#include "detail/validate_batch.hpp"

namespace hipstencil {

namespace detail {

/// Validates a batch call, then resolves (and when Launch, runs) it in launches of at most
/// max_grid_images images, one after another on `stream`. Returns the first launch's
/// resolution.
template <bool Launch, class Algo, class In, class Out>
resolution run_batch(const char* fn, const Algo& algo, const batch_view<In>& src, const rect& src_roi,
                     const batch_view<Out>& dst, const rect& dst_roi, const filter2d* d, const separable_filter* s,
                     border::any b, halo h, gpu::stream_t stream, const workspace* ws) {
  const filter_shape f = shape_of(d, s);
  validate_batch(fn, src, src_roi, dst, dst_roi, f.kw, f.kh, f.ax, f.ay, b, h);
  resolution first;
  for (int k0 = 0; k0 < src.count; k0 += max_grid_images) {
    auto p = make_problem(fn, algo, src[k0], src_roi, dst[k0], dst_roi, d, s, b, h, stream, ws);
    p.images = std::min(max_grid_images, src.count - k0);
    p.strides.src_bytes = (long long)src.image_stride_bytes;
    p.strides.dst_bytes = (long long)dst.image_stride_bytes;
    const resolution r = dispatch<Algo, Launch, true>(p);
    if (k0 == 0) first = r;
    if (!Launch) break;
  }
  return first;
}

/// The filter as run_batch takes it: the dense one or the separable one (the other null).
template <class Filter>
const filter2d* dense_of(const Filter& f) {
  static_assert(std::is_same<Filter, filter2d>::value || std::is_same<Filter, separable_filter>::value,
                "a filter2d or a separable_filter");
  if constexpr (std::is_same<Filter, filter2d>::value) return &f;
  else return (void)f, nullptr;
}
template <class Filter>
const separable_filter* separable_of(const Filter& f) {
  if constexpr (std::is_same<Filter, separable_filter>::value) return &f;
  else return (void)f, nullptr;
}

}  // namespace detail

/// Filters every image of a uniform batch in one launch (a batch over 65535 images in
/// launches of 65535): for each k in [0, src.count),
///
///   convolve(src[k], src_roi, dst[k], dst_roi, f, border, algo, stream, h)
///
/// with the same results, the same algorithms and fallbacks (resolved_algorithm of the
/// batch says which; algo::automatic chooses by the batch's total pixel count, since its
/// grid is that large) and the same border rules, anchors and halo modes.
///
/// @param src  count images of In pixels (batch.hpp: one size and pitch, a constant stride
///             in bytes, 0 to repeat one image)
/// @param dst  as many images of Out pixels, the same channel count; strides of at least
///             one image's span (dst.first.span_bytes()): output images do not overlap
/// @param f    a filter2d or a separable_filter (dense two_pass is a compile-time error)
/// @throws invalid_argument for everything convolve rejects (checked on image 0; every
///         image has its size and pitch), for counts below 1 or unequal, a stride not a
///         multiple of the pixel's alignment, output images that overlap each other, or an
///         output image that overlaps the pixels read of any input image (naming both
///         indices); nothing is queued.
/// @throws gpu_error when the runtime rejects an allocation, copy or launch.
template <class In, class Out, class Filter, class Border = border::reflect101, class Algo = algo::automatic>
void convolve_batch(batch_view<In> src, rect src_roi, batch_view<Out> dst, rect dst_roi, const Filter& f,
                    Border border = {}, Algo algo = {}, gpu::stream_t stream = {}, halo h = halo::isolated) {
  if constexpr (std::is_same<Filter, filter2d>::value) detail::check_dense_algo<Algo>();
  detail::run_batch<true>("convolve_batch", algo, src, src_roi, dst, dst_roi, detail::dense_of(f),
                          detail::separable_of(f), border::any(border), h, stream, nullptr);
}

/// Separable filter with a caller-provided workspace, as convolve's workspace overload:
/// algo::two_pass needs two_pass_workspace_bytes<In>(roi width, roi height, f, src.count)
/// bytes (one workspace image per image of a launch; launches of 65535 images reuse it in
/// stream order). No allocation. @throws invalid_argument as convolve_batch, and if the
/// workspace is null or too small.
template <class In, class Out, class Border, class Algo>
void convolve_batch(batch_view<In> src, rect src_roi, batch_view<Out> dst, rect dst_roi, const separable_filter& f,
                    Border border, Algo algo, gpu::stream_t stream, halo h, workspace ws) {
  detail::run_batch<true>("convolve_batch", algo, src, src_roi, dst, dst_roi, nullptr, &f, border::any(border), h,
                          stream, &ws);
}

/// Whole images of equal size: src_roi = dst_roi = the images' bounds.
/// @throws invalid_argument if the sizes differ, and as the ROI overloads.
template <class In, class Out, class Filter, class Border = border::reflect101, class Algo = algo::automatic>
void convolve_batch(batch_view<In> src, batch_view<Out> dst, const Filter& f, Border border = {}, Algo algo = {},
                    gpu::stream_t stream = {}) {
  detail::validate_same_size("convolve_batch", src.first, dst.first);
  convolve_batch(src, src.first.bounds(), dst, dst.first.bounds(), f, border, algo, stream, halo::isolated);
}

/// What convolve_batch with the same arguments runs on the current device (its first
/// launch of at most 65535 images), without running it. Same validation and exceptions.
template <class In, class Out, class Filter, class Border = border::reflect101, class Algo = algo::automatic>
resolution resolved_algorithm(batch_view<In> src, rect src_roi, batch_view<Out> dst, rect dst_roi, const Filter& f,
                              Border border = {}, Algo algo = {}, halo h = halo::isolated,
                              const workspace* ws = nullptr) {
  if constexpr (std::is_same<Filter, filter2d>::value) detail::check_dense_algo<Algo>();
  return detail::run_batch<false>("resolved_algorithm", algo, src, src_roi, dst, dst_roi, detail::dense_of(f),
                                  detail::separable_of(f), border::any(border), h, {}, ws);
}

}  // namespace hipstencil
#endif
