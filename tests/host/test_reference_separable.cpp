// hipstencil::reference::convolve, the oracle of the GPU tests: separable filters against
// their outer product, flipped() against true convolution (reference_oracles.hpp's
// brute force and iterative border rule).
#include "reference_oracles.hpp"

#include <cmath>
#include <cstdint>
#include <random>
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
