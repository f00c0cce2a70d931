// hipstencil::reference::convolve, the oracle of the GPU tests: separable filters against
// their outer product, flipped() against true convolution (reference_oracles.hpp's
// brute force and iterative border rule), the separable path (row pass, column pass)
// against the dense expansion on every rule, halo, ROI placement and pixel type, and a
// box filter far larger than its image against tap counts.
#include "reference_oracles.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

using namespace oracle;

// ---------------------------------------------------------------------------------------
// c) separable filters and true convolution

TEST_CASE("separable filter equals filter2d of its outer product", "[reference][separable]") {
  const std::uint32_t seed = test::run_seed();
  CAPTURE(seed);
  std::mt19937 rng(seed + 23);
  trapped_source<float> src(11, 9, rng);
  const image_view<const float> s = src.view;
  for (kind rule : {kind::replicate, kind::constant, kind::reflect, kind::reflect101, kind::wrap, kind::skip})
    for (int rep = 0; rep < 6; ++rep) {
      std::vector<float> row(odd_size(rng, 4)), col(odd_size(rng, 4));
      for (float& v : row) v = std::uniform_real_distribution<float>(-1.0f, 1.0f)(rng);
      for (float& v : col) v = std::uniform_real_distribution<float>(-1.0f, 1.0f)(rng);
      const int ax = std::uniform_int_distribution<int>(-1, int(row.size()) - 1)(rng);
      const int ay = std::uniform_int_distribution<int>(-1, int(col.size()) - 1)(rng);
      const separable_filter sf(row, col, ax, ay);
      const filter2d d = sf.to_2d();
      const rect roi = rep % 2 ? rect{2, 1, 6, 5} : s.bounds();
      const halo h = rep % 3 == 2 ? halo::from_parent : halo::isolated;
      INFO("row " << row.size() << " taps, column " << col.size() << " taps, anchor (" << ax << "," << ay
                  << "), border " << border::name(rule) << ", halo " << hipstencil::name(h));
      test::pitched<double> a(roi.width, roi.height), b(roi.width, roi.height);
      call_reference(s, roi, a.view(), a.cview().bounds(), sf.to_2d(), rule, 1.5f, h);
      switch (rule) {  // the separable overload, through each policy type
        case kind::replicate: reference::convolve(s, roi, b.view(), b.cview().bounds(), sf, border::replicate{}, h); break;
        case kind::constant: reference::convolve(s, roi, b.view(), b.cview().bounds(), sf, border::constant{1.5f}, h); break;
        case kind::reflect: reference::convolve(s, roi, b.view(), b.cview().bounds(), sf, border::reflect{}, h); break;
        case kind::reflect101: reference::convolve(s, roi, b.view(), b.cview().bounds(), sf, border::reflect101{}, h); break;
        case kind::wrap: reference::convolve(s, roi, b.view(), b.cview().bounds(), sf, border::wrap{}, h); break;
        default: reference::convolve(s, roi, b.view(), b.cview().bounds(), sf, border::skip{}, h); break;
      }
      // The outer product in double (the separable path) vs in float (to_2d): within
      // float rounding of each product.
      problem p{d.width(), d.height(), d.anchor_x(), d.anchor_y(), {}, rule, 1.5f, h};
      p.k.resize(d.taps());
      for (int j = 0; j < d.height(); ++j)
        for (int i = 0; i < d.width(); ++i) p.k[std::size_t(j) * d.width() + i] = float(double(col[j]) * double(row[i]));
      const expected_image e = brute_force(s, roi, p);
      int bad = 0;
      for (int y = 0; y < roi.height; ++y)
        for (int x = 0; x < roi.width; ++x) {
          const std::size_t i = std::size_t(y) * roi.width + x;
          if (!e.written[i]) {
            bad += !test::is_poison(a(x, y)) || !test::is_poison(b(x, y));
            continue;
          }
          const double tol = 1.2e-7 * e.mag[i] + 1e-12;
          bad += !(std::abs(a(x, y) - b(x, y)) <= tol);
          bad += !(std::abs(b(x, y) - e.v[i]) <= tol);
        }
      CHECK(bad == 0);
    }
}

TEST_CASE("flipped() gives true convolution", "[reference][separable]") {
  // True convolution: out(x, y) = sum_ij k(i, j) * in(x + ax - i, y + ay - j), evaluated
  // directly with the iterative border rule. (scipy's ndimage.convolve golden cases above
  // check the same on fixed data.)
  const std::uint32_t seed = test::run_seed();
  CAPTURE(seed);
  std::mt19937 rng(seed + 29);
  trapped_source<float> src(10, 8, rng);
  const image_view<const float> s = src.view;
  for (kind rule : {kind::replicate, kind::constant, kind::reflect, kind::reflect101, kind::wrap})
    for (int rep = 0; rep < 6; ++rep) {
      const problem p = random_problem(rng, 3, rule, -7.5f, rep % 2 ? halo::from_parent : halo::isolated);
      const rect roi = rep < 3 ? s.bounds() : rect{1, 2, 5, 4};
      INFO(describe(p, roi, roi, s.width, s.height));
      const filter2d f(p.kw, p.kh, p.k, p.ax, p.ay);
      test::pitched<double> out(roi.width, roi.height);
      call_reference(s, roi, out.view(), out.cview().bounds(), f.flipped(), rule, p.value, p.h);
      int bad = 0;
      for (int y = 0; y < roi.height; ++y)
        for (int x = 0; x < roi.width; ++x) {
          double acc = 0, mag = 0;
          for (int j = 0; j < p.kh; ++j)
            for (int i = 0; i < p.kw; ++i) {
              const int px = roi.x + x + p.ax - i, py = roi.y + y + p.ay - j;
              const rect dom = p.h == halo::isolated ? roi : s.bounds();
              const int qx = iterative_map(rule, px - dom.x, dom.width), qy = iterative_map(rule, py - dom.y, dom.height);
              const double v = qx < 0 || qy < 0 ? double(p.value) : double(s(dom.x + qx, dom.y + qy));
              acc += double(p.k[std::size_t(j) * p.kw + i]) * v;
              mag += std::abs(double(p.k[std::size_t(j) * p.kw + i]) * v);
            }
          bad += !(std::abs(out(x, y) - acc) <= 1e-13 * mag + 1e-300);
        }
      CHECK(bad == 0);
    }
}

// ---------------------------------------------------------------------------------------
// d) the separable path (a row pass, then a column pass over the row sums of the distinct
// mapped rows) against the dense expansion of the same filter (every k(i, j) =
// column[j] * row[i] formed in double, summed over the whole window), on the same data.

namespace {

/// A W x H source view inside a buffer with a margin of M pixels on every side. The margin
/// is the caller's halo under border::padded (random pixels); for the other rules it is a
/// trap (NaN where the channel type has one, random values otherwise), so that a read
/// outside the parent view shows up as a mismatch.
template <class In>
struct margin_source {
  int M;
  test::pitched<In> buf;
  image_view<In> view;
  margin_source(int W, int H, int margin, std::mt19937& rng, bool trap)
      : M(margin), buf(W + 2 * margin, H + 2 * margin, 2 * sizeof(In)) {
    auto all = buf.view();
    test::fill_random(all, rng);
    if constexpr (std::is_floating_point<test::channel_t<In>>::value)
      if (trap) {
        In nan{};
        for (int c = 0; c < test::channels_v<In>; ++c)
          hipstencil::pixel_traits<In>::set(nan, c, std::numeric_limits<test::channel_t<In>>::quiet_NaN());
        for (int y = 0; y < all.height; ++y)
          for (int x = 0; x < all.width; ++x) all(x, y) = nan;
      }
    view = all.sub(rect{M, M, W, H});
    test::fill_random(view, rng);
  }
};

/// Channel c of every pixel of `buf` (margin included) as doubles, in a buffer of the same
/// shape. Converting a channel to double is exact, so the reference on this plane with
/// double output does channel c's arithmetic of the pixel-type call, unrounded.
template <class In>
test::pitched<double> channel_plane(test::pitched<In>& buf, int c) {
  test::pitched<double> p(buf.width(), buf.height());
  for (int y = 0; y < buf.height(); ++y)
    for (int x = 0; x < buf.width(); ++x) p(x, y) = test::channel(buf(x, y), c);
  return p;
}

/// A random odd tap list of 2r + 1 taps. `dyadic`: multiples of 1/(64 * 2^s) with at most
/// 7 significant bits, so that every product of two taps is exact in float and a filter2d
/// of the outer product is the exact dense expansion; otherwise arbitrary floats.
inline std::vector<float> random_taps(std::mt19937& rng, int r, bool dyadic) {
  std::vector<float> t(std::size_t(2) * r + 1);
  int s = 0;
  while ((1 << s) < int(t.size())) ++s;  // taps of about 1 / size: sums of order 1
  for (float& v : t)
    v = dyadic ? std::ldexp(float(std::uniform_int_distribution<int>(-32, 96)(rng)), -6 - s)
               : std::uniform_real_distribution<float>(-0.5f, 1.0f)(rng) * 2.0f / float(t.size());
  return t;
}

/// Near a rounding tie of the integer conversion: where the separable and the dense sums,
/// equal up to double rounding, may legitimately round to neighbouring integers.
inline bool near_tie(double v) { return std::abs(v - std::floor(v) - 0.5) <= 1e-9 * (1.0 + std::abs(v)); }

struct image_size {
  int W, H;
  int max_rx, max_ry;  ///< radii drawn for the large filters (beyond the image where it is small)
};

/// For pixel type In: random images of awkward sizes (1x1, primes, one wider than a strip
/// of the separable path), ROIs at every corner and edge and the centre, every border rule,
/// both halo modes, random and off-centre anchors, filters larger than the image, 1 to 3
/// threads. For each problem: the separable call and the dense call in In -> In, and per
/// channel in double -> double on the channel's plane.
template <class In>
void separable_vs_dense(const char* type) {
  using Ch = test::channel_t<In>;
  constexpr int C = test::channels_v<In>;
  const std::uint32_t seed = test::run_seed();
  CAPTURE(seed, type);
  std::mt19937 rng(seed ^ 0x51ab1eu ^ std::uint32_t(std::hash<std::string>{}(type)));
  const image_size sizes[] = {{1, 1, 4, 4},    {1, 7, 10, 10},  {5, 1, 8, 8}, {7, 5, 10, 10},
                              {13, 11, 16, 16}, {3, 17, 20, 20}, {601, 2, 3, 5}};
  int problems = 0, failures = 0;
  for (const image_size& sz : sizes) {
    const int W = sz.W, H = sz.H, M = 2 * std::max(sz.max_rx, sz.max_ry) + 1;
    margin_source<In> trapped(W, H, M, rng, true), halo_src(W, H, M, rng, false);
    // The whole image, then half-size ROIs at the corners, the centre and the edge midpoints
    // (those last, which the large filters skip: their windows span every edge anyway).
    std::vector<rect> rois{{0, 0, W, H}};
    const int rw = (W + 1) / 2, rh = (H + 1) / 2;
    if (W * H > 1) {
      for (int yi = 0; yi < 3; ++yi)
        for (int xi = 0; xi < 3; ++xi)
          if ((xi == 1) == (yi == 1)) rois.push_back({xi * (W - rw) / 2, yi * (H - rh) / 2, rw, rh});
      for (int yi = 0; yi < 3; ++yi)
        for (int xi = 0; xi < 3; ++xi)
          if ((xi == 1) != (yi == 1)) rois.push_back({xi * (W - rw) / 2, yi * (H - rh) / 2, rw, rh});
    }
    for (kind rule : {kind::replicate, kind::constant, kind::reflect, kind::reflect101, kind::wrap, kind::skip,
                      kind::padded}) {
      margin_source<In>& src = rule == kind::padded ? halo_src : trapped;
      const image_view<const In> s = src.view;
      std::vector<test::pitched<double>> planes;
      for (int c = 0; c < C; ++c) planes.push_back(channel_plane(src.buf, c));
      double max_pixel = 0;  // over the finite channel values, margin included
      for (const auto& pl : planes)
        for (int y = 0; y < pl.height(); ++y)
          for (int x = 0; x < pl.width(); ++x)
            if (std::isfinite(pl.cview()(x, y))) max_pixel = std::max(max_pixel, std::abs(pl.cview()(x, y)));
      for (std::size_t ri = 0; ri < rois.size(); ++ri)
        for (halo h : {halo::isolated, halo::from_parent})
          for (int rep = 0; rep < (ri < 6 ? 2 : 1); ++rep) {
            const rect& roi = rois[ri];
            // rep 0: radii up to 2; rep 1: up to the size's large radii. Anchors -1 (centre) or any tap.
            const int rx = std::uniform_int_distribution<int>(0, rep ? sz.max_rx : 2)(rng);
            const int ry = std::uniform_int_distribution<int>(0, rep ? sz.max_ry : 2)(rng);
            const bool dyadic = rng() % 2;
            const std::vector<float> row = random_taps(rng, rx, dyadic), col = random_taps(rng, ry, dyadic);
            const separable_filter sf(row, col, std::uniform_int_distribution<int>(-1, 2 * rx)(rng),
                                      std::uniform_int_distribution<int>(-1, 2 * ry)(rng));
            const int kw = sf.width(), kh = sf.height(), ax = sf.anchor_x(), ay = sf.anchor_y();
            std::vector<double> dense_taps(std::size_t(kw) * kh);
            std::vector<float> dense_float(dense_taps.size());
            for (int j = 0; j < kh; ++j)
              for (int i = 0; i < kw; ++i) {
                dense_taps[std::size_t(j) * kw + i] = double(col[j]) * double(row[i]);
                dense_float[std::size_t(j) * kw + i] = col[j] * row[i];
              }
            const border::any b(rule, random_constant<Ch>(rng));
            const unsigned threads = std::uniform_int_distribution<unsigned>(1, 3)(rng);
            const rect dst_roi{std::uniform_int_distribution<int>(0, 3)(rng),
                               std::uniform_int_distribution<int>(0, 2)(rng), roi.width, roi.height};
            const int DW = roi.width + 3, DH = roi.height + 2;
            ++problems;
            INFO("image " << W << "x" << H << ", roi {" << roi.x << "," << roi.y << "," << roi.width << ","
                          << roi.height << "}, halo " << hipstencil::name(h) << ", border " << border::name(rule)
                          << " value " << b.value << ", filter " << kw << "x" << kh << " anchor (" << ax << ","
                          << ay << "), " << (dyadic ? "dyadic" : "arbitrary") << " taps, threads " << threads);

            // Written or not, by the definition of skip (the window inside the domain).
            const rect dom = h == halo::isolated ? roi : s.bounds();
            auto written = [&](int x, int y) {  // dst coordinates
              const int rx0 = x - dst_roi.x, ry0 = y - dst_roi.y;
              if (rx0 < 0 || ry0 < 0 || rx0 >= roi.width || ry0 >= roi.height) return false;
              const int px = roi.x + rx0 - ax, py = roi.y + ry0 - ay;
              return rule != kind::skip ||
                     (px >= dom.x && py >= dom.y && px + kw <= dom.x + dom.width && py + kh <= dom.y + dom.height);
            };

            // Per channel, in double: the separable and the dense sums agree within the rounding
            // of a kw*kh-term sum (the dense one) plus a kw+kh-term one, on the magnitude bound.
            double row_abs = 0, col_abs = 0;
            for (float v : row) row_abs += std::abs(double(v));
            for (float v : col) col_abs += std::abs(double(v));
            const double max_abs = std::max(max_pixel, std::abs(double(b.value)));
            const double tol = double(kw * kh + kw + kh + 2) * 2.3e-16 * row_abs * col_abs * max_abs + 1e-300;
            std::vector<test::pitched<double>> dense_planes;
            std::string first;
            int bad = 0;
            auto note = [&](const std::string& what) {
              if (bad++ == 0) first = what;
            };
            for (int c = 0; c < C; ++c) {
              const image_view<const double> ps = planes[c].cview().sub(rect{M, M, W, H});
              test::pitched<double> sep(DW, DH), den(DW, DH);
              reference::convolve(ps, roi, sep.view(), dst_roi, sf, b, h, threads);
              reference::detail::run("dense", ps, roi, den.view(), dst_roi, kw, kh, ax, ay, dense_taps, b, h, 1);
              for (int y = 0; y < DH; ++y)
                for (int x = 0; x < DW; ++x) {
                  if (!written(x, y)) {
                    if (!test::is_poison(sep(x, y)) || !test::is_poison(den(x, y)))
                      note("channel " + std::to_string(c) + " plane: dst (" + std::to_string(x) + "," +
                           std::to_string(y) + ") written, should not be");
                  } else if (!(std::abs(sep(x, y) - den(x, y)) <= tol)) {
                    std::ostringstream os;
                    os.precision(17);
                    os << "channel " << c << " plane: dst (" << x << "," << y << ") separable " << sep(x, y)
                       << ", dense " << den(x, y) << ", tolerance " << tol;
                    note(os.str());
                  }
                }
              dense_planes.push_back(std::move(den));
            }

            // In the pixel type: floats within a float rounding of each other; integers equal,
            // or one apart where the exact value is a rounding tie to within double rounding.
            // Arbitrary taps: the dense call with double products (the internal entry point);
            // dyadic taps: the public filter2d overload with the outer product.
            test::pitched<In> sep(DW, DH, sizeof(In)), den(DW, DH, sizeof(In));
            reference::convolve(s, roi, sep.view(), dst_roi, sf, b, h, threads);
            if (dyadic)
              reference::convolve(s, roi, den.view(), dst_roi, filter2d(kw, kh, dense_float, ax, ay), b, h);
            else
              reference::detail::run("dense", s, roi, den.view(), dst_roi, kw, kh, ax, ay, dense_taps, b, h, 1);
            for (int y = 0; y < DH; ++y)
              for (int x = 0; x < DW; ++x) {
                if (!written(x, y)) {
                  if (!test::is_poison(sep(x, y)) || !test::is_poison(den(x, y)))
                    note("pixel type: a pixel written that should not be");
                  continue;
                }
                for (int c = 0; c < C; ++c) {
                  const double a = test::channel(sep(x, y), c), d = test::channel(den(x, y), c);
                  const double exact = dense_planes[c](x, y);
                  const bool ok = std::is_floating_point<Ch>::value
                                      ? std::abs(a - d) <= 1.2e-7 * std::abs(d) + tol
                                      : a == d || (std::abs(a - d) == 1 && near_tie(exact));
                  if (!ok) {
                    std::ostringstream os;
                    os.precision(17);
                    os << "pixel type: dst (" << x << "," << y << ") channel " << c << " separable " << a
                       << ", dense " << d << " (double: " << exact << ")";
                    note(os.str());
                  }
                }
              }
            if (bad) {
              ++failures;
              if (failures <= 5) FAIL_CHECK(bad << " bad value(s); first: " << first);
            }
          }
    }
  }
  INFO(failures << " failing problems of " << problems);
  CHECK(failures == 0);
}

}  // namespace

TEST_CASE("separable path equals the dense expansion: uint8 and float", "[reference][separable]") {
  separable_vs_dense<std::uint8_t>("uint8");
  separable_vs_dense<float>("float");
}

TEST_CASE("separable path equals the dense expansion: uchar4 and float4", "[reference][separable]") {
  separable_vs_dense<uchar4>("uchar4");
  separable_vs_dense<float4>("float4");
}

namespace {
/// A one-channel pixel that throws when read with `trap` set: pixels the reference must not
/// read (outside the border domain, or under padded outside the ROI's windows) carry it.
struct guarded {
  float v;
  bool trap;
};
}  // namespace

namespace hipstencil {
template <>
struct pixel_traits<guarded> {
  using channel_type = float;
  static constexpr int channels = 1;
  static float get(const guarded& p, int) {
    if (p.trap) throw std::logic_error("read a pixel outside the domain");
    return p.v;
  }
  static void set(guarded& p, int, float v) { p.v = v, p.trap = false; }
};
}  // namespace hipstencil

TEST_CASE("separable path reads only the domain (under padded, the ROI's windows)", "[reference][separable]") {
  // The dense path reads exactly these pixels (window_sum over the geometry's maps); the
  // separable path must too, although it maps whole window rows and columns up front:
  // under skip the windows of unwritten outputs reach past the domain, and past the
  // image's memory where the image has no margin.
  const std::uint32_t seed = test::run_seed();
  CAPTURE(seed);
  std::mt19937 rng(seed + 37);
  constexpr int W = 9, H = 7, MR = 12, M = 2 * MR + 1;
  test::pitched<guarded> buf(W + 2 * M, H + 2 * M);
  const image_view<guarded> all = buf.view(), img = all.sub(rect{M, M, W, H});
  const std::vector<rect> rois{{0, 0, W, H}, {0, 0, 4, 3}, {5, 0, 4, 3}, {0, 4, 4, 3}, {5, 4, 4, 3},
                               {3, 2, 3, 3}, {0, 3, 9, 1}, {4, 0, 1, 7}};
  int failures = 0;
  for (kind rule : {kind::replicate, kind::constant, kind::reflect, kind::reflect101, kind::wrap, kind::skip,
                    kind::padded})
    for (const rect& roi : rois)
      for (halo h : {halo::isolated, halo::from_parent})
        for (int rep = 0; rep < 3; ++rep) {
          const int rx = std::uniform_int_distribution<int>(0, rep ? MR : 2)(rng);
          const int ry = std::uniform_int_distribution<int>(0, rep ? MR : 2)(rng);
          const separable_filter sf(random_taps(rng, rx, false), random_taps(rng, ry, false),
                                    std::uniform_int_distribution<int>(0, 2 * rx)(rng),
                                    std::uniform_int_distribution<int>(0, 2 * ry)(rng));
          const int ax = sf.anchor_x(), ay = sf.anchor_y();
          rect readable = h == halo::isolated ? roi : img.bounds();
          if (rule == kind::padded)
            readable = {roi.x - ax, roi.y - ay, roi.width + sf.width() - 1, roi.height + sf.height() - 1};
          for (int y = 0; y < all.height; ++y)
            for (int x = 0; x < all.width; ++x) {
              const int px = x - M, py = y - M;  // image coordinates
              const bool ok = px >= readable.x && py >= readable.y && px < readable.x + readable.width &&
                              py < readable.y + readable.height;
              all(x, y) = guarded{std::uniform_real_distribution<float>(-10.0f, 10.0f)(rng), !ok};
            }
          INFO("border " << border::name(rule) << ", halo " << hipstencil::name(h) << ", roi {" << roi.x << ","
                         << roi.y << "," << roi.width << "," << roi.height << "}, filter " << sf.width() << "x"
                         << sf.height() << " anchor (" << ax << "," << ay << ")");
          test::pitched<double> sep(W, H), den(W, H);
          const border::any b(rule, 2.5f);
          const image_view<const guarded> s = img;
          try {
            reference::convolve(s, roi, sep.view(), roi, sf, b, h, 2);
          } catch (const std::logic_error& e) {
            if (++failures <= 5) FAIL_CHECK("separable: " << e.what());
            continue;
          }
          // The same values as the dense path (which reads the same pixels).
          reference::convolve(s, roi, den.view(), roi, sf.to_2d(), b, h);
          int bad = 0;
          for (int y = 0; y < H; ++y)
            for (int x = 0; x < W; ++x)
              bad += test::is_poison(sep(x, y)) != test::is_poison(den(x, y)) ||
                     (!test::is_poison(den(x, y)) && !(std::abs(sep(x, y) - den(x, y)) <= 1e-5));
          if (bad && ++failures <= 5) FAIL_CHECK(bad << " values differ from the dense path's");
        }
  CHECK(failures == 0);
}

namespace {
/// How many of the 2r + 1 taps of window [x - r, x + r] read each of the n source pixels of
/// one axis under `rule`, and how many read the constant. Counted without the library's
/// maps: replicate by the lengths of the runs past each edge; the periodic rules by whole
/// periods of reference_oracles.hpp's iterative map (period n for wrap, 2n for reflect,
/// 2n - 2 for reflect101) plus the partial one.
struct axis_counts {
  std::vector<long long> n;
  long long outside = 0;
};
inline axis_counts count_taps(kind rule, int x, int r, int n) {
  const long long lo = (long long)x - r, hi = (long long)x + r, taps = 2ll * r + 1;
  axis_counts a;
  a.n.assign(n, 0);
  if (rule == kind::replicate) {
    for (int s = 0; s < n; ++s) a.n[s] = lo <= s && s <= hi;
    a.n[0] += std::max(0ll, std::min(hi, -1ll) - lo + 1);             // taps left of the image
    a.n[n - 1] += std::max(0ll, hi - std::max(lo, (long long)n) + 1);  // taps right of it
  } else if (rule == kind::constant) {
    for (int s = 0; s < n; ++s) a.n[s] = lo <= s && s <= hi;
    a.outside = taps;
    for (long long c : a.n) a.outside -= c;
  } else {
    const long long P = rule == kind::wrap ? n : rule == kind::reflect ? 2ll * n : std::max(1ll, 2ll * n - 2);
    for (long long t = 0; t < P; ++t) {
      const long long extra = (((t - lo) % P) + P) % P < taps % P;  // the partial period starts at lo
      a.n[iterative_map(rule, int(t), n)] += taps / P + extra;
    }
  }
  return a;
}
}  // namespace

TEST_CASE("separable path: box radius 20000 on a 16x12 image", "[reference][separable]") {
  // 40001 x 40001 taps: the dense expansion took 12.5 GB and minutes; the separable path
  // reads each distinct mapped row once. CTest's timeout guards the time. The expected
  // value counts how often each source pixel is read (count_taps), independently of the
  // library's border maps: out = w^2 * (sum_xy cx * cy * src + outside taps * constant).
  const std::uint32_t seed = test::run_seed();
  CAPTURE(seed);
  std::mt19937 rng(seed + 31);
  constexpr int W = 16, H = 12, R = 20000;
  test::pitched<std::uint8_t> src(W, H);
  test::fill_random(src.view(), rng);
  const separable_filter f = hipstencil::filters::box(R);
  const double w = double(f.row()[0]);  // every tap: float(1 / 40001)
  const long long taps = 2ll * R + 1;
  for (kind rule : {kind::replicate, kind::constant, kind::reflect, kind::reflect101, kind::wrap}) {
    INFO("border " << border::name(rule));
    const float value = 7.25f;
    test::pitched<double> out(W, H);
    reference::convolve(src.cview(), src.cview().bounds(), out.view(), out.cview().bounds(), f,
                        border::any(rule, value), halo::isolated, rule == kind::wrap ? 3u : 1u);
    int bad = 0;
    for (int y = 0; y < H; ++y) {
      const axis_counts cy = count_taps(rule, y, R, H);
      for (int x = 0; x < W; ++x) {
        const axis_counts cx = count_taps(rule, x, R, W);
        double sum = 0, inside_x = 0, inside_y = 0;
        for (int sy = 0; sy < H; ++sy)
          for (int sx = 0; sx < W; ++sx) sum += double(cx.n[sx]) * double(cy.n[sy]) * double(src(sx, sy));
        for (long long c : cx.n) inside_x += double(c);
        for (long long c : cy.n) inside_y += double(c);
        const double outside = double(taps) * double(taps) - inside_x * inside_y;
        const double expected = w * w * (sum + outside * double(value));
        // The separable path's rounding: two sums of 40001 terms of magnitude <= 255 / 40001
        // each, a few 1e-12 in all. A row or column of the window mapped wrongly changes
        // the result by w * (difference of two pixels), at least 2.5e-5 per grey level.
        if (!(std::abs(out(x, y) - expected) <= 1e-9 * (1.0 + std::abs(expected)))) {
          if (bad++ == 0) FAIL_CHECK("(" << x << "," << y << "): " << out(x, y) << ", expected " << expected);
        }
      }
    }
    CHECK(bad == 0);
  }
}
