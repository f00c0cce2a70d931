// hipstencil/convolve.hpp
// Public entry points: validate, then pick and launch an algorithm on the caller's stream.
// Every call is asynchronous (it returns once the work is queued), never synchronises the
// device, and rejects bad arguments with invalid_argument before queueing anything, so a
// rejected call leaves dst untouched. Runtime failures throw gpu_error.
#pragma once

#include "platform/config.hpp"
#if HIPSTENCIL_HAS_GPU
#include <algorithm>
#include <type_traits>
#include <utility>

#include "algorithm.hpp"
#include "border.hpp"
#include "detail/dispatch.hpp"
#include "detail/geometry.hpp"
#include "detail/problem.hpp"
#include "detail/validate.hpp"
#include "filter.hpp"
#include "image.hpp"
#include "platform/runtime.hpp"
#include "roi.hpp"

namespace hipstencil {

namespace detail {

template <class In, class Out>
void check_pixels() {
  using I = std::remove_const_t<In>;
  static_assert(is_pixel<I>::value && is_pixel<Out>::value, "unsupported pixel type");
  static_assert(pixel_traits<I>::channels == pixel_traits<Out>::channels,
                "input and output pixel types must have the same number of channels");
}

/// A tag's strip_rows member (streaming, packed), or 0 for tags without one.
template <class Algo, class = void>
struct has_strip_rows : std::false_type {};
template <class Algo>
struct has_strip_rows<Algo, std::void_t<decltype(std::declval<const Algo&>().strip_rows)>> : std::true_type {};
template <class Algo>
int strip_rows_of(const Algo& a) {
  if constexpr (has_strip_rows<Algo>::value) return a.strip_rows;
  else return (void)a, 0;
}

/// A filter's size and anchor in taps: kw x kh, tap (ax, ay) over the output pixel.
struct filter_shape {
  int kw, kh, ax, ay;
};

/// The shape of the dense filter `d` or the separable one `s` (one is null), as every
/// entry point validates it.
inline filter_shape shape_of(const filter2d* d, const separable_filter* s) {
  return d ? filter_shape{d->width(), d->height(), d->anchor_x(), d->anchor_y()}
           : filter_shape{s->width(), s->height(), s->anchor_x(), s->anchor_y()};
}

/// Validates a call and builds its problem (dense: `d`, separable: `s`; one is null).
template <class Algo, class In, class Out>
problem<std::remove_const_t<In>, Out> make_problem(const char* fn, const Algo& algo, image_view<In> src, rect src_roi,
                                                   image_view<Out> dst, rect dst_roi, const filter2d* d,
                                                   const separable_filter* s, border::any b, halo h,
                                                   gpu::stream_t stream, const workspace* ws) {
  using I = std::remove_const_t<In>;
  check_pixels<In, Out>();
  static_assert(std::is_same<Algo, algo::automatic>::value || !std::is_void<typename family_of<Algo>::type>::value,
                "unknown algorithm tag");
  const auto [kw, kh, ax, ay] = shape_of(d, s);
  validate_convolve(fn, src, src_roi, dst, dst_roi, kw, kh, ax, ay, b, h);
  problem<I, Out> p;
  p.src = image_view<const I>(src);
  p.dst = dst;
  p.g = make_geometry(src.bounds(), src_roi, dst_roi, kw, kh, ax, ay, b, h);
  p.anchor_x = ax, p.anchor_y = ay;
  p.radius = centred_radius(kw, kh, ax, ay);
  p.dense = d;
  p.separable = s;
  p.tile_class = Algo::border_strategy::enabled;
  p.may_allocate = std::is_same<typename family_of<Algo>::type, two_pass_family>::value;
  p.strip_rows = strip_rows_of(algo);
  p.ws = ws;
  p.arch = tuning::current_arch();
  p.stream = stream;
  return p;
}

template <class Algo>
constexpr void check_dense_algo() {
  static_assert(!std::is_same<typename family_of<Algo>::type, two_pass_family>::value,
                "algo::two_pass needs a separable_filter (pass one, or use shared_mem for dense filters)");
}

}  // namespace detail

/// Bytes of device workspace algo::two_pass needs to filter a width x height ROI of
/// pixels of type In with `f` on the current device (0 when two_pass cannot hold the
/// filter and would fall back to naive); for convolve_batch, of a batch of `images` (one
/// workspace image per image of a launch, at most 65535). @throws invalid_argument for an
/// empty ROI or images < 1.
template <class In>
std::size_t two_pass_workspace_bytes(int width, int height, const separable_filter& f, int images = 1) {
  constexpr int C = pixel_traits<std::remove_const_t<In>>::channels;
  if (width < 1 || height < 1)
    detail::throw_invalid("two_pass_workspace_bytes: the ROI is empty (", width, "x", height, ")");
  if (images < 1) detail::throw_invalid("two_pass_workspace_bytes: images=", images, " (at least one)");
  const bool holds = tuning::with_arch(tuning::current_arch(), [&](auto a) {
    return detail::two_pass_holds<detail::tuned_policy<detail::two_pass_family, decltype(a)::value>, C>(f.width(),
                                                                                                     f.height());
  });
  return holds ? detail::two_pass_layout<C>(width, height, f.height(), std::min(images, detail::max_grid_images)).bytes
               : 0;
}

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
/// Algorithms for a dense filter: algo::naive; algo::shared_mem (compile-time radius for
/// the policy's radii, 1 to 16, a run-time size otherwise; naive for filters over 33x33
/// taps or tiles over the shared-memory budget); algo::tiled (register-blocked, square
/// centred filters of radius 1 to 8, otherwise shared_mem); algo::streaming (register
/// streaming, square centred filters of radius 1 to 5 whose ROIs start at vector-aligned
/// columns, otherwise shared_mem); algo::fft (the FFT, overlap-save: any filter up to 512
/// taps a side; integer kernels whose direct sums are exact, and every filter where no FFT
/// library is wired in (AMD), run shared_mem; allocates its workspace stream-ordered on
/// `stream`); algo::automatic (the device's tuning table,
/// detail/tuning/tables.hpp). algo::two_pass does not take dense filters (compile-time
/// error). resolved_algorithm() says which family and instantiation a call runs.
///
/// @param src     device image of In pixels (uint8_t, uint16_t, int16_t, float, half,
///                bfloat16, uchar3, ushort3, float3, uchar4, ushort4, float4, half4,
///                bfloat16x4; streaming does not take the 3-channel ones: they run its
///                fallback)
/// @param dst     device image of Out pixels with the same channel count as In; may differ
///                in type (e.g. uint8_t in, float out). Integer outputs are rounded to
///                nearest (ties to even) and saturated. Must not overlap the pixels read.
/// @param f       filter; coefficients are passed by value up to 33x33 taps; the naive
///                kernel stages a larger filter in a stream-ordered allocation on
///                `stream` (MallocAsync, FreeAsync) for the duration of the launch.
/// @param stream  the caller's stream; the call is asynchronous on it
/// @throws invalid_argument for a null or empty view, a pitch smaller than a row or not a
///         multiple of the pixel's alignment, a ROI that is empty or outside its image,
///         ROIs of different sizes, or dst overlapping the pixels read; nothing is queued.
/// @throws gpu_error when the runtime rejects an allocation, copy or launch.
template <class In, class Out, class Border = border::reflect101, class Algo = algo::automatic>
void convolve(image_view<In> src, rect src_roi, image_view<Out> dst, rect dst_roi, const filter2d& f,
              Border border = {}, Algo algo = {}, gpu::stream_t stream = {}, halo h = halo::isolated) {
  detail::check_dense_algo<Algo>();
  const auto p = detail::make_problem("convolve", algo, src, src_roi, dst, dst_roi, &f, nullptr, border::any(border), h,
                                      stream, nullptr);
  detail::dispatch<Algo, true>(p);
}

/// Separable filter, k(i, j) = column[j] * row[i]; same semantics as the dense overload.
/// Algorithms: algo::two_pass (row pass written transposed, then the same kernel on the
/// workspace; compile-time radius for the policy's radii, 3 to 16; this overload
/// ALLOCATES its workspace stream-ordered on `stream` (MallocAsync/FreeAsync) — pass a
/// workspace to avoid that); algo::shared_mem (both passes fused in shared memory,
/// compile-time radius 1 to 16 for square centred filters); algo::tiled (register-blocked
/// with shared horizontal results, square centred filters of radius 1 to 8, otherwise
/// shared_mem); algo::streaming (register streaming, square centred filters of radius 1 to
/// 4 with vector-aligned ROIs, otherwise shared_mem); algo::naive (the dense outer
/// product); algo::automatic (the device's tuning table: streaming, shared_mem, or
/// two_pass for radius over 10 when the workspace overload gives it
/// two_pass_workspace_bytes; it never allocates). Filters a family cannot hold fall back
/// to naive.
template <class In, class Out, class Border = border::reflect101, class Algo = algo::automatic>
void convolve(image_view<In> src, rect src_roi, image_view<Out> dst, rect dst_roi, const separable_filter& f,
              Border border = {}, Algo algo = {}, gpu::stream_t stream = {}, halo h = halo::isolated) {
  const auto p = detail::make_problem("convolve", algo, src, src_roi, dst, dst_roi, nullptr, &f, border::any(border), h,
                                      stream, nullptr);
  detail::dispatch<Algo, true>(p);
}

/// Separable filter with a caller-provided workspace (algo::two_pass needs
/// two_pass_workspace_bytes<In>(roi width, roi height, f) bytes; algo::automatic uses it
/// where its table picks two_pass and runs shared_mem if it is smaller; other algorithms
/// ignore it). No allocation. @throws invalid_argument if the workspace is null or too small.
template <class In, class Out, class Border, class Algo>
void convolve(image_view<In> src, rect src_roi, image_view<Out> dst, rect dst_roi, const separable_filter& f,
              Border border, Algo algo, gpu::stream_t stream, halo h, workspace ws) {
  const auto p = detail::make_problem("convolve", algo, src, src_roi, dst, dst_roi, nullptr, &f, border::any(border), h,
                                      stream, &ws);
  detail::dispatch<Algo, true>(p);
}

/// Whole images of equal size: src_roi = src.bounds(), dst_roi = dst.bounds().
/// @throws invalid_argument if the sizes differ, and as the ROI overloads.
template <class In, class Out, class Filter, class Border = border::reflect101, class Algo = algo::automatic>
void convolve(image_view<In> src, image_view<Out> dst, const Filter& f, Border border = {}, Algo algo = {},
              gpu::stream_t stream = {}) {
  detail::validate_same_size("convolve", src, dst);
  convolve(src, src.bounds(), dst, dst.bounds(), f, border, algo, stream, halo::isolated);
}

/// What convolve with the same arguments runs on the current device, without running it:
/// the family (after every fallback: streaming on an unaligned ROI runs shared_mem, a
/// filter too large for shared memory runs naive, ...), its compiled radius or run-time
/// size, the strategy and the tuning table. Same validation as convolve (and throws the
/// same invalid_argument); `ws` as convolve's workspace (null: none).
template <class In, class Out, class Filter, class Border = border::reflect101, class Algo = algo::automatic>
resolution resolved_algorithm(image_view<In> src, rect src_roi, image_view<Out> dst, rect dst_roi, const Filter& f,
                              Border border = {}, Algo algo = {}, halo h = halo::isolated,
                              const workspace* ws = nullptr) {
  constexpr bool separable = std::is_same<Filter, separable_filter>::value;
  static_assert(separable || std::is_same<Filter, filter2d>::value, "a filter2d or a separable_filter");
  const filter2d* d = nullptr;
  const separable_filter* s = nullptr;
  if constexpr (separable) s = &f;
  else d = &f, detail::check_dense_algo<Algo>();
  const auto p =
      detail::make_problem("resolved_algorithm", algo, src, src_roi, dst, dst_roi, d, s, border::any(border), h, {}, ws);
  return detail::dispatch<Algo, false>(p);
}

/// Whole images of equal size.
template <class In, class Out, class Filter, class Border = border::reflect101, class Algo = algo::automatic>
resolution resolved_algorithm(image_view<In> src, image_view<Out> dst, const Filter& f, Border border = {},
                              Algo algo = {}) {
  detail::validate_same_size("resolved_algorithm", src, dst);
  return resolved_algorithm(src, src.bounds(), dst, dst.bounds(), f, border, algo);
}

}  // namespace hipstencil
#endif
