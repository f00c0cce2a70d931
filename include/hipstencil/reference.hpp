// hipstencil/reference.hpp
// The host reference: the same function as hipstencil::convolve, on the CPU, accumulating
// in double. It is the oracle of every test and the path hipstencil-filter takes on a
// machine without a GPU. Straightforward loops; not fast.
#pragma once

#include <algorithm>
#include <thread>
#include <vector>

#include "border.hpp"
#include "detail/bordered.hpp"
#include "detail/geometry.hpp"
#include "detail/validate.hpp"
#include "filter.hpp"
#include "image.hpp"
#include "roi.hpp"

namespace hipstencil {
namespace reference {

namespace detail {
struct double_taps {
  const double* t;
  HIPSTENCIL_HOST_DEVICE double operator[](int i) const { return t[i]; }
};

template <class In, class Out>
void run(const char* fn, image_view<In> src, rect src_roi, image_view<Out> dst, rect dst_roi, int kw, int kh,
         int ax, int ay, const std::vector<double>& taps, border::any b, halo h, unsigned threads) {
  using I = std::remove_const_t<In>;
  static_assert(pixel_traits<I>::channels == pixel_traits<Out>::channels,
                "input and output pixel types must have the same number of channels");
  hipstencil::detail::validate_convolve(fn, src, src_roi, dst, dst_roi, kw, kh, ax, ay, b, h);
  const auto g = hipstencil::detail::make_geometry(src.bounds(), src_roi, dst_roi, kw, kh, ax, ay, b, h);
  const image_view<const I> s = src;
  auto rows = [&](int y0, int y1) {
    for (int y = y0; y < y1; ++y)
      for (int x = 0; x < g.width; ++x) {
        if (!g.writes(x, y)) continue;
        dst(g.dst_x0 + x, g.dst_y0 + y) =
            from_accum<Out>(hipstencil::detail::window_sum<double>(s, g, double_taps{taps.data()}, x, y));
      }
  };
  // Rows are independent: split them into contiguous bands, one per thread.
  const int n = int(std::max(1u, std::min<unsigned>(threads, unsigned(g.height))));
  if (n == 1) return rows(0, g.height);
  std::vector<std::thread> pool;
  for (int t = 0; t < n; ++t) pool.emplace_back(rows, int((long long)g.height * t / n), int((long long)g.height * (t + 1) / n));
  for (auto& th : pool) th.join();
}

}  // namespace detail

/// Threads for the reference: all hardware threads (at least 1).
inline unsigned all_threads() { return std::max(1u, std::thread::hardware_concurrency()); }

/// Filters src_roi of `src` into dst_roi of `dst` on the host (see roi.hpp for the exact
/// formula). In and Out must have the same channel count. Throws invalid_argument for the
/// same arguments hipstencil::convolve rejects, before writing anything. Pixels of dst
/// outside dst_roi, and under border::skip the outputs whose window leaves the domain,
/// are left untouched. `threads` > 1 splits the rows over that many std::threads
/// (reference::all_threads() for all of them); the result does not depend on it.
template <class In, class Out, class Border = border::reflect101>
void convolve(image_view<In> src, rect src_roi, image_view<Out> dst, rect dst_roi, const filter2d& f,
              Border b = {}, halo h = halo::isolated, unsigned threads = 1) {
  const std::vector<double> taps(f.coefficients().begin(), f.coefficients().end());
  detail::run("reference::convolve", src, src_roi, dst, dst_roi, f.width(), f.height(), f.anchor_x(), f.anchor_y(),
              taps, border::any(b), h, threads);
}

/// Separable filter: k(i, j) = column[j] * row[i], the products formed in double.
template <class In, class Out, class Border = border::reflect101>
void convolve(image_view<In> src, rect src_roi, image_view<Out> dst, rect dst_roi, const separable_filter& f,
              Border b = {}, halo h = halo::isolated, unsigned threads = 1) {
  std::vector<double> taps(std::size_t(f.width()) * f.height());
  for (int j = 0; j < f.height(); ++j)
    for (int i = 0; i < f.width(); ++i) taps[std::size_t(j) * f.width() + i] = double(f.column()[j]) * double(f.row()[i]);
  detail::run("reference::convolve", src, src_roi, dst, dst_roi, f.width(), f.height(), f.anchor_x(), f.anchor_y(),
              taps, border::any(b), h, threads);
}

/// Whole images of equal size (src_roi = src.bounds(), dst_roi = dst.bounds()).
template <class In, class Out, class Filter, class Border = border::reflect101>
void convolve(image_view<In> src, image_view<Out> dst, const Filter& f, Border b = {}, unsigned threads = 1) {
  hipstencil::detail::validate_same_size("reference::convolve", src, dst);
  convolve(src, src.bounds(), dst, dst.bounds(), f, b, halo::isolated, threads);
}

}  // namespace reference
}  // namespace hipstencil
