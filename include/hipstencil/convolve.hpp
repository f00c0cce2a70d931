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
#include "detail/automatic.hpp"
#include "detail/dispatch.hpp"
#include "detail/geometry.hpp"
#include "detail/validate.hpp"
#include "filter.hpp"
#include "image.hpp"
#include "platform/runtime.hpp"
#include "roi.hpp"

namespace hipstencil {

/// Caller-provided device memory for algorithms that need an intermediate image.
struct workspace {
  void* data = nullptr;
  std::size_t bytes = 0;
};

namespace detail {
template <class Algo>
struct algo_traits {
  static constexpr bool known = false;
};
template <>
struct algo_traits<algo::naive> {
  static constexpr bool known = true;
};
template <>
struct algo_traits<algo::automatic> {
  static constexpr bool known = true;
};
template <class S>
struct algo_traits<algo::two_pass<S>> {
  static constexpr bool known = true;
};
template <class S>
struct algo_traits<algo::shared_mem<S>> {
  static constexpr bool known = true;
};
template <class S>
struct algo_traits<algo::streaming<S>> {
  static constexpr bool known = true;
};
template <class S, int BX, int BY, int OX, int OY>
struct algo_traits<algo::tiled<S, BX, BY, OX, OY>> {
  static constexpr bool known = true;
};
template <class A>
struct is_tiled : std::false_type {};
template <class S, int BX, int BY, int OX, int OY>
struct is_tiled<algo::tiled<S, BX, BY, OX, OY>> : std::true_type {};
template <class A, template <class> class Family>
struct is_family : std::false_type {};
template <class S, template <class> class Family>
struct is_family<Family<S>, Family> : std::true_type {};

template <class In, class Out>
void check_pixels() {
  using I = std::remove_const_t<In>;
  static_assert(is_pixel<I>::value && is_pixel<Out>::value, "unsupported pixel type");
  static_assert(pixel_traits<I>::channels == pixel_traits<Out>::channels,
                "input and output pixel types must have the same number of channels");
}

/// Dense filter: naive; streaming or tiled (or shared_mem where they have no instantiation
/// or, streaming, unaligned ROIs); shared_mem (or naive where the filter does not fit
/// shared memory); automatic = the table of automatic.hpp, falling through the same way.
template <class Algo, class In, class Out>
void convolve_dense(const char* fn, const Algo& algo, image_view<In> src, rect src_roi, image_view<Out> dst,
                    rect dst_roi, const filter2d& f, border::any b, halo h, gpu::stream_t stream) {
  using I = std::remove_const_t<In>;
  check_pixels<In, Out>();
  static_assert(algo_traits<Algo>::known, "unknown algorithm tag");
  static_assert(!is_family<Algo, algo::two_pass>::value,
                "algo::two_pass needs a separable_filter (pass one, or use shared_mem for dense filters)");
  validate_convolve(fn, src, src_roi, dst, dst_roi, f.width(), f.height(), f.anchor_x(), f.anchor_y(), b.rule, h);
  const geometry g = make_geometry(src.bounds(), src_roi, dst_roi, f.width(), f.height(), f.anchor_x(),
                                   f.anchor_y(), b, h);
  const image_view<const I> s(src);
  if constexpr (std::is_same<Algo, algo::automatic>::value) {
    // The tuning table (automatic.hpp); each family falls through to the next that holds
    // the problem (streaming needs aligned ROIs and radius 1 to 5, tiled radius 1 to 8).
    using T = algo::tiled<>;
    const auto_family pick = automatic_choice(false, centred_radius(f.width(), f.height(), f.anchor_x(), f.anchor_y()),
                                              pixel_traits<I>::channels);
    if (pick == auto_family::streaming &&
        launch_streaming2d<I, Out>(s, dst, g, f.coefficients(), f.anchor_x(), f.anchor_y(), 0, true, stream))
      return;
    if ((pick == auto_family::streaming || pick == auto_family::tiled) &&
        launch_tiled2d<I, Out, T::block_x, T::block_y, T::out_x, T::out_y>(s, dst, g, f.coefficients(), f.anchor_x(),
                                                                            f.anchor_y(), true, stream))
      return;
  }
  if constexpr (is_family<Algo, algo::streaming>::value) {
    if (launch_streaming2d<I, Out>(s, dst, g, f.coefficients(), f.anchor_x(), f.anchor_y(), algo.strip_rows,
                                   Algo::border_strategy::enabled, stream))
      return;
  }
  if constexpr (is_tiled<Algo>::value) {
    if (launch_tiled2d<I, Out, Algo::block_x, Algo::block_y, Algo::out_x, Algo::out_y>(
            s, dst, g, f.coefficients(), f.anchor_x(), f.anchor_y(), Algo::border_strategy::enabled, stream))
      return;
  }
  if constexpr (!std::is_same<Algo, algo::naive>::value) {
    if (launch_smem2d<I, Out>(s, dst, g, f.coefficients(), f.anchor_x(), f.anchor_y(),
                              Algo::border_strategy::enabled, stream))
      return;
  }
  launch_naive<I, Out>(s, dst, g, f.coefficients(), stream);
}

template <class Algo, class In, class Out>
void convolve_separable(const char* fn, const Algo& algo, image_view<In> src, rect src_roi, image_view<Out> dst,
                        rect dst_roi, const separable_filter& f, border::any b, halo h, gpu::stream_t stream,
                        const workspace* ws) {
  using I = std::remove_const_t<In>;
  constexpr int C = pixel_traits<I>::channels;
  check_pixels<In, Out>();
  static_assert(algo_traits<Algo>::known, "unknown algorithm tag");
  validate_convolve(fn, src, src_roi, dst, dst_roi, f.width(), f.height(), f.anchor_x(), f.anchor_y(), b.rule, h);
  const geometry g = make_geometry(src.bounds(), src_roi, dst_roi, f.width(), f.height(), f.anchor_x(),
                                   f.anchor_y(), b, h);
  const image_view<const I> s(src);
  if constexpr (std::is_same<Algo, algo::automatic>::value) {
    const auto_family pick =
        automatic_choice(true, centred_radius(f.width(), f.height(), f.anchor_x(), f.anchor_y()), C);
    if (pick == auto_family::streaming &&
        launch_streaming_sep<I, Out>(s, dst, g, f.row(), f.column(), f.anchor_x(), f.anchor_y(), 0, true, stream))
      return;
    // two_pass only into a caller's workspace that holds it: automatic never allocates.
    if (pick == auto_family::two_pass && ws && ws->data && two_pass_fits<C>(f.width(), f.height()) &&
        ws->bytes >= two_pass_layout<C>(g.width, g.height, g.kh).bytes) {
      launch_two_pass<I, Out>(s, dst, g, f.row(), f.column(), true, ws->data, stream);
      return;
    }
  }
  if constexpr (is_family<Algo, algo::two_pass>::value) {
    if (two_pass_fits<C>(f.width(), f.height())) {
      const two_pass_layout<C> layout(g.width, g.height, g.kh);
      if (ws) {
        if (!ws->data || ws->bytes < layout.bytes)
          throw_invalid(fn, ": workspace of ", ws->bytes, " bytes at ", ws->data, " is too small: two_pass needs ",
                        layout.bytes, " bytes (two_pass_workspace_bytes)");
        launch_two_pass<I, Out>(s, dst, g, f.row(), f.column(), Algo::border_strategy::enabled, ws->data, stream);
      } else {
        void* w = gpu::malloc_async(layout.bytes, stream);
        try {
          launch_two_pass<I, Out>(s, dst, g, f.row(), f.column(), Algo::border_strategy::enabled, w, stream);
        } catch (...) {
          gpu::free_async(w, stream);
          throw;
        }
        gpu::free_async(w, stream);
      }
      return;
    }
  } else if constexpr (!std::is_same<Algo, algo::naive>::value) {
    if constexpr (is_family<Algo, algo::streaming>::value) {
      if (launch_streaming_sep<I, Out>(s, dst, g, f.row(), f.column(), f.anchor_x(), f.anchor_y(), algo.strip_rows,
                                       Algo::border_strategy::enabled, stream))
        return;
    }
    if constexpr (is_tiled<Algo>::value) {
      if (launch_tiled_sep<I, Out, Algo::block_x, Algo::block_y, Algo::out_x, Algo::out_y>(
              s, dst, g, f.row(), f.column(), f.anchor_x(), f.anchor_y(), Algo::border_strategy::enabled, stream))
        return;
    }
    if (launch_smem_sep<I, Out>(s, dst, g, f.row(), f.column(), f.anchor_x(), f.anchor_y(),
                                Algo::border_strategy::enabled, stream))
      return;
  }
  launch_naive<I, Out>(s, dst, g, f.to_2d().coefficients(), stream);
}
}  // namespace detail

/// Bytes of device workspace algo::two_pass needs to filter a width x height ROI of
/// pixels of type In with `f` (0 when two_pass would fall back to naive for this filter).
template <class In>
std::size_t two_pass_workspace_bytes(int width, int height, const separable_filter& f) {
  constexpr int C = pixel_traits<std::remove_const_t<In>>::channels;
  if (width < 1 || height < 1)
    detail::throw_invalid("two_pass_workspace_bytes: the ROI is empty (", width, "x", height, ")");
  if (!detail::two_pass_fits<C>(f.width(), f.height())) return 0;
  return detail::two_pass_layout<C>(width, height, f.height()).bytes;
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
/// square centred filters up to radius 16, run-time size otherwise; falls back to naive
/// for filters over 33x33 taps or tiles over 48 KiB of shared memory); algo::tiled
/// (register-blocked, square centred filters of radius 1 to 8, otherwise shared_mem);
/// algo::streaming (register streaming, square centred filters of radius 1 to 5 whose
/// ROIs start at vector-aligned columns, otherwise shared_mem); algo::automatic (the
/// family the H200 measurements found fastest for the radius and pixel type, see
/// detail/automatic.hpp). algo::two_pass does not take dense filters (compile-time
/// error).
///
/// @param src     device image of In pixels (uint8_t, uint16_t, int16_t, float, uchar4, float4)
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
  detail::convolve_dense<Algo>("convolve", algo, src, src_roi, dst, dst_roi, f, border::any(border), h, stream);
}

/// Separable filter, k(i, j) = column[j] * row[i]; same semantics as the dense overload.
/// Algorithms: algo::two_pass (row pass written transposed, then the same kernel on the
/// workspace; compile-time radius up to 32 taps each side; this overload ALLOCATES its
/// workspace stream-ordered on `stream` (MallocAsync/FreeAsync) — pass a workspace to
/// avoid that); algo::shared_mem (both passes fused in shared memory, compile-time radius
/// up to 32 for square centred filters); algo::tiled (register-blocked with shared
/// horizontal results, square centred filters of radius 1 to 8, otherwise shared_mem);
/// algo::streaming (register streaming, square centred filters of radius 1 to 4 with
/// vector-aligned ROIs, otherwise shared_mem); algo::naive (the dense outer product);
/// algo::automatic (the measured table of detail/automatic.hpp: streaming, shared_mem,
/// or two_pass for radius over 10 when the workspace overload gives it
/// two_pass_workspace_bytes; it never allocates). Filters a family cannot hold fall back
/// to naive.
template <class In, class Out, class Border = border::reflect101, class Algo = algo::automatic>
void convolve(image_view<In> src, rect src_roi, image_view<Out> dst, rect dst_roi, const separable_filter& f,
              Border border = {}, Algo algo = {}, gpu::stream_t stream = {}, halo h = halo::isolated) {
  detail::convolve_separable<Algo>("convolve", algo, src, src_roi, dst, dst_roi, f, border::any(border), h, stream, nullptr);
}

/// Separable filter with a caller-provided workspace (algo::two_pass needs
/// two_pass_workspace_bytes<In>(roi width, roi height, f) bytes; algo::automatic uses it
/// where its table picks two_pass and runs shared_mem if it is smaller; other algorithms
/// ignore it). No allocation. @throws invalid_argument if the workspace is null or too small.
template <class In, class Out, class Border, class Algo>
void convolve(image_view<In> src, rect src_roi, image_view<Out> dst, rect dst_roi, const separable_filter& f,
              Border border, Algo algo, gpu::stream_t stream, halo h, workspace ws) {
  detail::convolve_separable<Algo>("convolve", algo, src, src_roi, dst, dst_roi, f, border::any(border), h, stream, &ws);
}

/// Whole images of equal size: src_roi = src.bounds(), dst_roi = dst.bounds().
/// @throws invalid_argument if the sizes differ, and as the ROI overloads.
template <class In, class Out, class Filter, class Border = border::reflect101, class Algo = algo::automatic>
void convolve(image_view<In> src, image_view<Out> dst, const Filter& f, Border border = {}, Algo algo = {},
              gpu::stream_t stream = {}) {
  detail::validate_same_size("convolve", src, dst);
  convolve(src, src.bounds(), dst, dst.bounds(), f, border, algo, stream, halo::isolated);
}

}  // namespace hipstencil
#endif
