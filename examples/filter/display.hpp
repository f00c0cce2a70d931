// examples/filter/display.hpp
// hipstencil-filter: showing the float responses of sobel and laplacian as pixels of the
// image's own type (8-bit, 16-bit or float), on the host (engine.cpp has the device version,
// for 8-bit images).
#pragma once

#include <hipstencil/hipstencil.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace hsf {

namespace hs = hipstencil;

// ---------------------------------------------------------------------------------------
// Display post-processing of float results: on the host after download (host reference,
// and every type but uint8 and uchar4), or on the device (GPU runs of uint8 and uchar4),
// where the Sobel scale comes from hs::min_max. Both give the same bytes for the same float
// responses: the device reduces the SQUARED magnitude, which is exact in float for 8-bit
// inputs and integer taps (|g| <= 1020, g^2 + g^2 < 2^24), and sqrt(max g^2) is
// max sqrt(g^2), correctly rounded on both sides.

template <class P>
constexpr int colour_channels() {
  return hs::pixel_traits<P>::channels == 1 ? 1 : 3;  // RGBA: R, G, B (alpha excluded)
}

/// The display scale of channel type C: Sobel's largest magnitude is shown as `full`, a
/// Laplacian response of 0 as `mid`, and alpha becomes `full`. 255 and 128 for 8 bits,
/// 65535 and 32768 for 16 bits (each clamped to the type's range), 1 and 0.5 for float (not
/// clamped: float holds any value).
template <class C>
struct display_scale {
  static constexpr double full = 255.0, mid = 128.0;
};
template <>
struct display_scale<std::uint16_t> {
  static constexpr double full = 65535.0, mid = 32768.0;
};
template <>
struct display_scale<float> {
  static constexpr double full = 1.0, mid = 0.5;
};

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
  /// Adds another range (e.g. of another colour plane).
  void add(const response_range& r) {
    if (!r.empty) add(r.min), add(r.max);
  }
};

/// Range of the Sobel magnitude sqrt(gx^2 + gy^2) over the ROI's colour channels (double
/// maths); NaN (not written) is skipped.
template <class F>
response_range sobel_range(const hs::host_image<F>& gx, const hs::host_image<F>& gy, const hs::rect& roi) {
  using tf = hs::pixel_traits<F>;
  response_range range;
  for (int y = roi.y; y < roi.y + roi.height; ++y)
    for (int x = roi.x; x < roi.x + roi.width; ++x)
      for (int c = 0; c < colour_channels<F>(); ++c) {
        const double a = tf::get(gx(x, y), c), b = tf::get(gy(x, y), c);
        range.add(std::sqrt(a * a + b * b));
      }
  return range;
}

/// Sobel shown with `max_mag` (a sobel_range's max; 0 when it is empty) as full scale:
/// out = full * sqrt(gx^2 + gy^2) / max_mag per colour channel (double maths, then
/// saturate_cast: ties to even); alpha full. Outputs that were not computed (NaN:
/// border::skip) keep the input pixel.
template <class In, class F>
void sobel_write(const hs::host_image<F>& gx, const hs::host_image<F>& gy, const hs::rect& roi, double max_mag,
                 hs::host_image<In>& out) {
  using ti = hs::pixel_traits<In>;
  using tf = hs::pixel_traits<F>;
  using C = typename ti::channel_type;
  constexpr int colours = colour_channels<In>();
  const double scale = max_mag > 0 ? display_scale<C>::full / max_mag : 0.0;
  for (int y = roi.y; y < roi.y + roi.height; ++y)
    for (int x = roi.x; x < roi.x + roi.width; ++x) {
      if (std::isnan(double(tf::get(gx(x, y), 0)))) continue;  // not written (skip)
      In p = out(x, y);
      for (int c = 0; c < colours; ++c) {
        const double a = tf::get(gx(x, y), c), b = tf::get(gy(x, y), c);
        ti::set(p, c, hs::saturate_cast<C>(std::sqrt(a * a + b * b) * scale));
      }
      if constexpr (ti::channels == 4) ti::set(p, 3, C(display_scale<C>::full));
      out(x, y) = p;
    }
}

/// Sobel: sobel_write with the largest magnitude over the ROI's colour channels. For 8 bits:
/// out = round(255 * sqrt(gx^2 + gy^2) / max), alpha 255.
template <class In, class F>
response_range sobel_display(const hs::host_image<F>& gx, const hs::host_image<F>& gy, const hs::rect& roi,
                             hs::host_image<In>& out) {
  const response_range range = sobel_range(gx, gy, roi);
  sobel_write(gx, gy, roi, range.empty ? 0.0 : range.max, out);
  return range;
}

/// Laplacian: out = mid + value per colour channel (saturate_cast: clamped to the type's
/// range and rounded, ties to even, for integers; 8 bits: clamp(round(128 + value), 0,
/// 255)); alpha full. NaN (not written under border::skip) keeps the input pixel.
template <class In, class F>
response_range laplacian_display(const hs::host_image<F>& v, const hs::rect& roi, hs::host_image<In>& out) {
  using ti = hs::pixel_traits<In>;
  using tf = hs::pixel_traits<F>;
  using C = typename ti::channel_type;
  constexpr int colours = colour_channels<In>();
  response_range range;
  for (int y = roi.y; y < roi.y + roi.height; ++y)
    for (int x = roi.x; x < roi.x + roi.width; ++x) {
      if (std::isnan(double(tf::get(v(x, y), 0)))) continue;
      In p = out(x, y);
      for (int c = 0; c < colours; ++c) {
        range.add(double(tf::get(v(x, y), c)));
        ti::set(p, c, hs::saturate_cast<C>(display_scale<C>::mid + double(tf::get(v(x, y), c))));
      }
      if constexpr (ti::channels == 4) ti::set(p, 3, C(display_scale<C>::full));
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
struct float_of<std::uint16_t> : float_of<std::uint8_t> {};
template <>
struct float_of<float> : float_of<std::uint8_t> {};
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
template <>
struct float_of<hs::float4> : float_of<hs::uchar4> {};

}  // namespace hsf
