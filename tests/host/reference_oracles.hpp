// The oracles the tests of hipstencil::reference::convolve share (test_reference_*.cpp):
// an independent brute force on fresh random data - the border rule applied with an
// ITERATIVE formulation (reflect once, again while still outside) into an explicitly
// padded image, then a plain window sum - a different algorithm from border.hpp's modular
// maps and geometry.hpp's per-tap mapping; the comparison of an output with it; random
// problems; a source image with NaN / random traps around it.
#pragma once

#include "test_support.hpp"

#include <hipstencil/reference.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

namespace oracle {
using hipstencil::filter2d;
using hipstencil::float4;
using hipstencil::halo;
using hipstencil::image_view;
using hipstencil::rect;
using hipstencil::separable_filter;
using hipstencil::uchar4;
namespace border = hipstencil::border;
namespace reference = hipstencil::reference;
using border::kind;

// ---------------------------------------------------------------------------------------
// The independent border rules: iterate single reflections / shifts until inside.
inline int iterative_map(kind k, int p, int n) {
  switch (k) {
    case kind::replicate:
      if (p < 0) p = 0;
      if (p > n - 1) p = n - 1;
      return p;
    case kind::reflect:  // fedcba|abcdef|fedcba
      while (p < 0 || p >= n) p = p < 0 ? -1 - p : 2 * n - 1 - p;
      return p;
    case kind::reflect101:  // gfedcb|abcdefg|fedcba
      if (n == 1) return 0;
      while (p < 0 || p >= n) p = p < 0 ? -p : 2 * n - 2 - p;
      return p;
    case kind::wrap:
      while (p < 0) p += n;
      while (p >= n) p -= n;
      return p;
    case kind::constant:
      return p < 0 || p >= n ? -1 : p;
    default:
      return p;  // skip / padded: no mapping
  }
}

/// A problem as the tests state it; `value` is the constant's value.
struct problem {
  int kw, kh, ax, ay;
  std::vector<float> k;  // row-major
  kind rule;
  float value;
  halo h;
};

inline std::string describe(const problem& p, rect src_roi, rect dst_roi, int pw, int ph) {
  std::ostringstream os;
  os << "filter " << p.kw << "x" << p.kh << " anchor (" << p.ax << "," << p.ay << "), border "
     << border::name(p.rule);
  if (p.rule == kind::constant) os << "{" << p.value << "}";
  os << ", halo " << hipstencil::name(p.h) << ", src " << pw << "x" << ph << " src_roi {" << src_roi.x << ","
     << src_roi.y << "," << src_roi.width << "," << src_roi.height << "} dst_roi {" << dst_roi.x << ","
     << dst_roi.y << "}";
  return os.str();
}

/// Expected output of a ROI, per channel, as exact doubles, with the magnitude sum for the
/// rounding tolerance, and whether each output is written at all (skip leaves some).
struct expected_image {
  int w = 0, h = 0, channels = 1;
  std::vector<double> v;       // (y * w + x) * channels + c
  std::vector<double> mag;     // sum |k| |x| per output (rounding tolerance)
  std::vector<char> written;
};

/// Brute force: build the padded image (ROI + window reach on each side) by applying the
/// iterative border rule in the domain, then sum every window.
/// `src` is the parent view (the domain under halo::from_parent).
template <class In>
expected_image brute_force(image_view<const In> src, rect roi, const problem& p) {
  constexpr int C = test::channels_v<In>;
  const rect dom = p.h == halo::isolated ? roi : src.bounds();
  const int PW = roi.width + p.kw - 1, PH = roi.height + p.kh - 1;
  const int ox = roi.x - p.ax, oy = roi.y - p.ay;  // parent coordinates of padded (0, 0)
  std::vector<double> pad(std::size_t(PW) * PH * C, std::numeric_limits<double>::quiet_NaN());
  std::vector<char> inside(std::size_t(PW) * PH, 0);
  for (int v = 0; v < PH; ++v)
    for (int u = 0; u < PW; ++u) {
      const int px = ox + u, py = oy + v;
      const bool in_dom = px >= dom.x && px < dom.x + dom.width && py >= dom.y && py < dom.y + dom.height;
      inside[std::size_t(v) * PW + u] = in_dom;
      double* dstp = &pad[(std::size_t(v) * PW + u) * C];
      if (p.rule == kind::skip && !in_dom) continue;  // never read
      const int qx = iterative_map(p.rule, px - dom.x, dom.width);
      const int qy = iterative_map(p.rule, py - dom.y, dom.height);
      if (qx < 0 || qy < 0) {
        for (int c = 0; c < C; ++c) dstp[c] = p.value;
      } else {
        const In& pix = src(dom.x + qx, dom.y + qy);
        for (int c = 0; c < C; ++c) dstp[c] = test::channel(pix, c);
      }
    }
  expected_image e;
  e.w = roi.width;
  e.h = roi.height;
  e.channels = C;
  e.v.assign(std::size_t(e.w) * e.h * C, 0.0);
  e.mag.assign(std::size_t(e.w) * e.h * C, 0.0);
  e.written.assign(std::size_t(e.w) * e.h, 1);
  for (int y = 0; y < e.h; ++y)
    for (int x = 0; x < e.w; ++x) {
      bool all_inside = true;
      for (int j = 0; j < p.kh; ++j)
        for (int i = 0; i < p.kw; ++i) {
          all_inside = all_inside && inside[std::size_t(y + j) * PW + x + i];
          for (int c = 0; c < C; ++c) {
            const double s = pad[(std::size_t(y + j) * PW + x + i) * C + c];
            const double kk = p.k[std::size_t(j) * p.kw + i];
            e.v[(std::size_t(y) * e.w + x) * C + c] += kk * s;
            e.mag[(std::size_t(y) * e.w + x) * C + c] += std::abs(kk * s);
          }
        }
      if (p.rule == kind::skip) e.written[std::size_t(y) * e.w + x] = all_inside;
    }
  return e;
}

/// True when `got` is what an exact `exact` becomes in channel type C: within rounding of
/// float/double, or for integers within 0.5 of the value clamped to C's range.
template <class C>
bool channel_ok(double got, double exact, double mag) {
  if (std::isnan(exact)) return false;  // the brute force never produces NaN where written
  if constexpr (std::is_floating_point<C>::value) {
    const double rel = std::is_same<C, float>::value ? 1.2e-7 : 1e-15;
    return std::abs(got - exact) <= rel * std::abs(exact) + 1e-13 * mag + 1e-300;
  } else {
    const double lo = double(std::numeric_limits<C>::lowest()), hi = double(std::numeric_limits<C>::max());
    const double e = std::min(std::max(exact, lo), hi);
    return got == std::nearbyint(got) && std::abs(got - e) <= 0.5 + 1e-9 * mag;
  }
}

/// Compares dst against the expectation: inside dst_roi the written outputs must match,
/// unwritten ones (skip) and every pixel outside dst_roi must still hold the poison.
/// Returns the number of bad pixels; `first` describes the first one.
template <class Out>
int compare(image_view<const Out> dst, rect dst_roi, const expected_image& e, std::string& first) {
  constexpr int C = test::channels_v<Out>;
  int bad = 0;
  auto note = [&](int x, int y, const std::string& what) {
    if (bad++ == 0) {
      std::ostringstream os;
      os << "dst pixel (" << x << ", " << y << "): " << what;
      first = os.str();
    }
  };
  for (int y = 0; y < dst.height; ++y)
    for (int x = 0; x < dst.width; ++x) {
      const Out& o = dst(x, y);
      const int rx = x - dst_roi.x, ry = y - dst_roi.y;
      const bool in_roi = rx >= 0 && ry >= 0 && rx < dst_roi.width && ry < dst_roi.height;
      if (!in_roi || !e.written[std::size_t(ry) * e.w + rx]) {
        if (!test::is_poison(o)) note(x, y, in_roi ? "written although its window leaves the domain (skip)"
                                                   : "written although outside dst_roi");
        continue;
      }
      for (int c = 0; c < C; ++c) {
        const std::size_t i = (std::size_t(ry) * e.w + rx) * C + c;
        const double got = test::channel(o, c);
        if (!channel_ok<test::channel_t<Out>>(got, e.v[i], e.mag[i])) {
          std::ostringstream os;
          os.precision(17);
          os << "channel " << c << " is " << got << ", expected " << e.v[i];
          note(x, y, os.str());
          break;
        }
      }
    }
  return bad;
}

/// Calls reference::convolve with the policy TYPE of the rule (the compile-time path).
template <class In, class Out>
void call_reference(image_view<In> src, rect src_roi, image_view<Out> dst, rect dst_roi, const filter2d& f,
                    kind rule, float value, halo h) {
  switch (rule) {
    case kind::replicate: return reference::convolve(src, src_roi, dst, dst_roi, f, border::replicate{}, h);
    case kind::constant: return reference::convolve(src, src_roi, dst, dst_roi, f, border::constant{value}, h);
    case kind::reflect: return reference::convolve(src, src_roi, dst, dst_roi, f, border::reflect{}, h);
    case kind::reflect101: return reference::convolve(src, src_roi, dst, dst_roi, f, border::reflect101{}, h);
    case kind::wrap: return reference::convolve(src, src_roi, dst, dst_roi, f, border::wrap{}, h);
    case kind::skip: return reference::convolve(src, src_roi, dst, dst_roi, f, border::skip{}, h);
    case kind::padded: return reference::convolve(src, src_roi, dst, dst_roi, f, border::padded{}, h);
  }
}

inline int odd_size(std::mt19937& rng, int max_radius) { return 2 * std::uniform_int_distribution<int>(0, max_radius)(rng) + 1; }

/// A random filter of odd sizes up to (2*max_radius+1) with a random anchor. Taps are
/// mostly positive (so integer outputs are mostly in range) with some negative ones.
inline problem random_problem(std::mt19937& rng, int max_radius, kind rule, float value, halo h) {
  problem p;
  p.kw = odd_size(rng, max_radius);
  p.kh = odd_size(rng, max_radius);
  p.ax = std::uniform_int_distribution<int>(0, p.kw - 1)(rng);
  p.ay = std::uniform_int_distribution<int>(0, p.kh - 1)(rng);
  std::uniform_real_distribution<float> d(-0.5f, 1.0f);
  p.k.resize(std::size_t(p.kw) * p.kh);
  for (float& c : p.k) c = d(rng) * 2.0f / float(p.kw * p.kh);
  p.rule = rule;
  p.value = value;
  p.h = h;
  return p;
}

template <class C>
float random_constant(std::mt19937& rng) {
  if constexpr (std::is_floating_point<C>::value) return std::uniform_real_distribution<float>(-50.0f, 50.0f)(rng);
  else
    return float(std::uniform_int_distribution<int>(int(std::numeric_limits<C>::lowest()),
                                                    int(std::numeric_limits<C>::max()))(rng)) + 0.25f;
}

/// The parent source image: a W x H view inside a buffer with a margin of M pixels all
/// round. Floating-point margins hold NaN and integer margins random values, so a read
/// outside the parent view shows up as a mismatch.
template <class In>
struct trapped_source {
  static constexpr int M = 3;
  test::pitched<In> buf;
  image_view<In> view;
  trapped_source(int W, int H, std::mt19937& rng) : buf(W + 2 * M, H + 2 * M, 2 * sizeof(In)) {
    auto all = buf.view();
    test::fill_random(all, rng);
    if constexpr (std::is_floating_point<test::channel_t<In>>::value) {
      In trap{};
      for (int c = 0; c < test::channels_v<In>; ++c)
        hipstencil::pixel_traits<In>::set(trap, c, std::numeric_limits<test::channel_t<In>>::quiet_NaN());
      for (int y = 0; y < all.height; ++y)
        for (int x = 0; x < all.width; ++x) all(x, y) = trap;
    }
    view = all.sub(rect{M, M, W, H});
    test::fill_random(view, rng);
  }
};
}  // namespace oracle
