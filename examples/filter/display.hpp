// examples/filter/display.hpp
// hipstencil-filter: showing the float responses of sobel and laplacian as 8-bit pixels,
// on the host (engine.cpp has the device version).
#pragma once

#include <hipstencil/hipstencil.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace hsf {

namespace hs = hipstencil;

// ---------------------------------------------------------------------------------------
// Display post-processing of float results: on the host after download (host reference),
// or on the device (GPU runs), where the Sobel scale comes from hs::min_max. Both give the
// same bytes for the same float responses: the device reduces the SQUARED magnitude, which
// is exact in float for 8-bit inputs and integer taps (|g| <= 1020, g^2 + g^2 < 2^24), and
// sqrt(max g^2) is max sqrt(g^2), correctly rounded on both sides.

template <class P>
constexpr int colour_channels() {
  return hs::pixel_traits<P>::channels == 1 ? 1 : 3;  // RGBA: R, G, B (alpha excluded)
}

/// Range of the response over the ROI's colour channels, for the summary: the gradient
/// magnitude (sobel) or the value (laplacian). empty when nothing was written.
struct response_range {
  bool empty = true;
  double min = 0, max = 0;
  void add(double v) {
    if (v != v) return;
    min = empty ? v : std::min(min, v);
    max = empty ? v : std::max(max, v);
    empty = false;
  }
};

/// Sobel: out = round(255 * sqrt(gx^2 + gy^2) / max) per colour channel (double maths,
/// ties to even, saturated), max over the ROI's colour channels; alpha 255. Outputs that
/// were not computed (NaN: border::skip) keep the input pixel.
template <class In, class F>
response_range sobel_display(const hs::host_image<F>& gx, const hs::host_image<F>& gy, const hs::rect& roi,
                             hs::host_image<In>& out) {
  using ti = hs::pixel_traits<In>;
  using tf = hs::pixel_traits<F>;
  constexpr int C = colour_channels<In>();
  response_range range;
  for (int y = roi.y; y < roi.y + roi.height; ++y)
    for (int x = roi.x; x < roi.x + roi.width; ++x)
      for (int c = 0; c < C; ++c) {
        const double a = tf::get(gx(x, y), c), b = tf::get(gy(x, y), c);
        range.add(std::sqrt(a * a + b * b));
      }
  const double max_mag = range.empty ? 0.0 : range.max;
  const double scale = max_mag > 0 ? 255.0 / max_mag : 0.0;
  for (int y = roi.y; y < roi.y + roi.height; ++y)
    for (int x = roi.x; x < roi.x + roi.width; ++x) {
      if (std::isnan(double(tf::get(gx(x, y), 0)))) continue;  // not written (skip)
      In p = out(x, y);
      for (int c = 0; c < C; ++c) {
        const double a = tf::get(gx(x, y), c), b = tf::get(gy(x, y), c);
        ti::set(p, c, hs::saturate_cast<typename ti::channel_type>(std::sqrt(a * a + b * b) * scale));
      }
      if constexpr (ti::channels == 4) ti::set(p, 3, 255);
      out(x, y) = p;
    }
  return range;
}

/// Laplacian: out = clamp(round(128 + value), 0, 255) per colour channel (ties to even);
/// alpha 255. NaN (not written under border::skip) keeps the input pixel.
template <class In, class F>
response_range laplacian_display(const hs::host_image<F>& v, const hs::rect& roi, hs::host_image<In>& out) {
  using ti = hs::pixel_traits<In>;
  using tf = hs::pixel_traits<F>;
  constexpr int C = colour_channels<In>();
  response_range range;
  for (int y = roi.y; y < roi.y + roi.height; ++y)
    for (int x = roi.x; x < roi.x + roi.width; ++x) {
      if (std::isnan(double(tf::get(v(x, y), 0)))) continue;
      In p = out(x, y);
      for (int c = 0; c < C; ++c) {
        range.add(double(tf::get(v(x, y), c)));
        ti::set(p, c, hs::saturate_cast<typename ti::channel_type>(128.0 + double(tf::get(v(x, y), c))));
      }
      if constexpr (ti::channels == 4) ti::set(p, 3, 255);
      out(x, y) = p;
    }
  return range;
}

template <class P>
struct float_of;
template <>
struct float_of<std::uint8_t> {
  using type = float;
  static float nan() { return std::numeric_limits<float>::quiet_NaN(); }
};
template <>
struct float_of<hs::uchar4> {
  using type = hs::float4;
  static hs::float4 nan() {
    const float n = std::numeric_limits<float>::quiet_NaN();
    hs::float4 v;
    v.x = v.y = v.z = v.w = n;
    return v;
  }
};

}  // namespace hsf
