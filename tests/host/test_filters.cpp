// Filter value types and factories: against scipy (Gaussian) and OpenCV (Sobel, Scharr,
// Laplacian) values generated into golden_filters.inc, and constructor errors.
#include "test_support.hpp"

#include <hipstencil/filter.hpp>

#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

namespace {
#include "golden_filters.inc"

using Catch::Contains;
using hipstencil::filter2d;
using hipstencil::separable_filter;
namespace filters = hipstencil::filters;

double sum(const std::vector<float>& v) {
  double s = 0;
  for (float x : v) s += x;
  return s;
}

void check_dense_equals(const filter2d& f, const double (&expected)[9]) {
  REQUIRE(f.width() == 3);
  REQUIRE(f.height() == 3);
  CHECK(f.anchor_x() == 1);
  CHECK(f.anchor_y() == 1);
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 3; ++i) {
      INFO("tap (" << i << ", " << j << ")");
      CHECK(double(f(i, j)) == expected[j * 3 + i]);
    }
}
}  // namespace

TEST_CASE("box: 2r+1 equal taps summing to 1", "[filters]") {
  for (int r = 0; r <= 6; ++r) {
    INFO("radius " << r);
    const separable_filter f = filters::box(r);
    REQUIRE(f.row().size() == std::size_t(2 * r + 1));
    REQUIRE(f.column().size() == std::size_t(2 * r + 1));
    CHECK(f.anchor_x() == r);
    CHECK(f.anchor_y() == r);
    CHECK(sum(f.row()) == Approx(1.0).epsilon(1e-6));
    CHECK(sum(f.column()) == Approx(1.0).epsilon(1e-6));
    for (float t : f.row()) CHECK(t == f.row()[0]);
    const filter2d d = f.to_2d();
    CHECK(d.taps() == std::size_t((2 * r + 1) * (2 * r + 1)));
    CHECK(sum(d.coefficients()) == Approx(1.0).epsilon(1e-5));
  }
  const separable_filter a = filters::box(3, 1);
  CHECK(a.width() == 7);
  CHECK(a.height() == 3);
  CHECK(a.row()[0] == Approx(1.0 / 7));
  CHECK(a.column()[0] == Approx(1.0 / 3));
}

TEST_CASE("gaussian taps equal scipy's gaussian_filter1d kernel", "[filters]") {
  for (const gaussian_case& g : gaussian_cases) {
    INFO("sigma " << g.sigma << ", radius argument " << g.radius_arg << ", scipy radius " << g.radius);
    const std::vector<float> t = filters::gaussian_taps(g.sigma, g.radius_arg);
    REQUIRE(t.size() == std::size_t(2 * g.radius + 1));
    for (std::size_t i = 0; i < t.size(); ++i) {
      INFO("tap " << i << ": " << t[i] << " vs scipy " << g.taps[i]);
      CHECK(std::abs(double(t[i]) - g.taps[i]) <= 1e-7);
      CHECK(std::abs(double(t[i]) - g.taps[i]) <= 1e-6 * g.taps[i]);  // also relatively (tiny tails)
    }
    // The separable factory uses the same taps on both axes, centred.
    const separable_filter f = filters::gaussian(g.sigma, g.radius_arg);
    CHECK(f.row() == t);
    CHECK(f.column() == t);
    CHECK(f.anchor_x() == g.radius);
    CHECK(f.anchor_y() == g.radius);
  }
}

TEST_CASE("gaussian: default radius is scipy's int(4 sigma + 0.5)", "[filters]") {
  // The generated cases with radius_arg -1 carry scipy's radius (from the support of its
  // impulse response); here the default argument is used explicitly.
  for (const gaussian_case& g : gaussian_cases) {
    if (g.radius_arg != -1) continue;
    INFO("sigma " << g.sigma);
    CHECK(filters::gaussian_taps(g.sigma).size() == std::size_t(2 * g.radius + 1));
    CHECK(filters::gaussian(g.sigma).width() == 2 * g.radius + 1);
  }
}

TEST_CASE("sobel, scharr and laplacian equal OpenCV's kernels", "[filters]") {
  check_dense_equals(filters::sobel_x().to_2d(), cv_sobel_x);
  check_dense_equals(filters::sobel_y().to_2d(), cv_sobel_y);
  check_dense_equals(filters::scharr_x().to_2d(), cv_scharr_x);
  check_dense_equals(filters::scharr_y().to_2d(), cv_scharr_y);
  check_dense_equals(filters::laplacian(), cv_laplacian);
  CHECK(sum(filters::laplacian().coefficients()) == 0.0);
  CHECK(sum(filters::sobel_x().to_2d().coefficients()) == 0.0);
}

TEST_CASE("sharpen: identity minus amount x Laplacian, sums to 1", "[filters]") {
  for (float a : {0.0f, 0.5f, 1.0f, 2.0f}) {
    INFO("amount " << a);
    const filter2d s = filters::sharpen(a);
    CHECK(sum(s.coefficients()) == Approx(1.0).epsilon(1e-6));
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 3; ++i)
        CHECK(double(s(i, j)) == Approx((i == 1 && j == 1 ? 1.0 : 0.0) - a * cv_laplacian[j * 3 + i]));
  }
  CHECK(filters::sharpen()(1, 1) == 5.0f);  // amount 1 by default: the classic kernel
}

TEST_CASE("filter2d: layout, anchors, reach and flipped()", "[filters]") {
  std::vector<float> c(7 * 5);
  std::iota(c.begin(), c.end(), 1.0f);
  const filter2d f(7, 5, c, 1, 3);
  CHECK(f(0, 0) == 1.0f);
  CHECK(f(6, 0) == 7.0f);
  CHECK(f(0, 1) == 8.0f);  // row-major: k(i, j) = c[j * width + i]
  CHECK(f(6, 4) == 35.0f);
  CHECK(f.reach_left() == 1);
  CHECK(f.reach_right() == 5);
  CHECK(f.reach_top() == 3);
  CHECK(f.reach_bottom() == 1);
  const filter2d centred(7, 5, c);
  CHECK(centred.anchor_x() == 3);
  CHECK(centred.anchor_y() == 2);

  const filter2d g = f.flipped();
  CHECK(g.anchor_x() == 5);
  CHECK(g.anchor_y() == 1);
  for (int j = 0; j < 5; ++j)
    for (int i = 0; i < 7; ++i) CHECK(g(i, j) == f(6 - i, 4 - j));
  const filter2d gg = g.flipped();
  CHECK(gg.coefficients() == f.coefficients());
  CHECK(gg.anchor_x() == 1);
  CHECK(gg.anchor_y() == 3);

  // separable: flipped() and to_2d() commute; anchors index row / column.
  const separable_filter s({1, 2, 3, 4, 5}, {-1, 0.5f, 7}, 0, 2);
  CHECK(s.anchor_x() == 0);
  CHECK(s.anchor_y() == 2);
  const filter2d a = s.flipped().to_2d(), b = s.to_2d().flipped();
  CHECK(a.coefficients() == b.coefficients());
  CHECK(a.anchor_x() == b.anchor_x());
  CHECK(a.anchor_y() == b.anchor_y());
  CHECK(s.to_2d()(3, 1) == 0.5f * 4.0f);
}

TEST_CASE("filter constructors reject bad arguments and name them", "[filters][errors]") {
  const std::vector<float> nine(9, 1.0f);
  SECTION("filter2d") {
    CHECK_THROWS_AS(filter2d(2, 3, std::vector<float>(6, 1.0f)), hipstencil::invalid_argument);
    CHECK_THROWS_WITH(filter2d(2, 3, std::vector<float>(6, 1.0f)), Contains("width") && Contains("got 2"));
    CHECK_THROWS_WITH(filter2d(0, 3, {}), Contains("width") && Contains("got 0"));
    CHECK_THROWS_WITH(filter2d(-3, 3, nine), Contains("width") && Contains("got -3"));
    CHECK_THROWS_WITH(filter2d(3, 4, std::vector<float>(12, 1.0f)), Contains("height") && Contains("got 4"));
    CHECK_THROWS_WITH(filter2d(3, 0, {}), Contains("height") && Contains("got 0"));
    CHECK_THROWS_WITH(filter2d(3, 3, std::vector<float>(8, 1.0f)), Contains("coefficients") && Contains("8") &&
                                                                        Contains("9"));
    CHECK_THROWS_WITH(filter2d(3, 3, std::vector<float>(10, 1.0f)), Contains("coefficients") && Contains("10"));
    CHECK_THROWS_WITH(filter2d(3, 3, nine, 3, 1), Contains("anchor_x") && Contains("got 3"));
    CHECK_THROWS_WITH(filter2d(3, 3, nine, -2, 1), Contains("anchor_x") && Contains("got -2"));
    CHECK_THROWS_WITH(filter2d(3, 3, nine, 1, 3), Contains("anchor_y") && Contains("got 3"));
    CHECK_THROWS_WITH(filter2d(3, 3, nine, 1, -5), Contains("anchor_y") && Contains("got -5"));
    std::vector<float> bad = nine;
    bad[4] = std::numeric_limits<float>::quiet_NaN();
    CHECK_THROWS_AS(filter2d(3, 3, bad), hipstencil::invalid_argument);
    CHECK_THROWS_WITH(filter2d(3, 3, bad), Contains("coefficients[4]") && Contains("not finite"));
    bad[4] = 1.0f;
    bad[8] = -std::numeric_limits<float>::infinity();
    CHECK_THROWS_WITH(filter2d(3, 3, bad), Contains("coefficients[8]"));
    CHECK_NOTHROW(filter2d(1, 1, {2.0f}));
    CHECK_NOTHROW(filter2d(3, 3, nine, 0, 2));
    CHECK_THROWS_WITH(filters::sharpen(std::numeric_limits<float>::quiet_NaN()), Contains("not finite"));
  }
  SECTION("separable_filter") {
    CHECK_THROWS_AS(separable_filter({1, 2}, {1}), hipstencil::invalid_argument);
    CHECK_THROWS_WITH(separable_filter({1, 2}, {1}), Contains("row") && Contains("got 2"));
    CHECK_THROWS_WITH(separable_filter({}, {1}), Contains("row") && Contains("got 0"));
    CHECK_THROWS_WITH(separable_filter({1}, {1, 2, 3, 4}), Contains("column") && Contains("got 4"));
    CHECK_THROWS_WITH(separable_filter({1, 2, 3}, {1}, 3, -1), Contains("row") && Contains("anchor") &&
                                                                  Contains("got 3"));
    CHECK_THROWS_WITH(separable_filter({1, 2, 3}, {1, 2, 3}, 1, -2), Contains("column") && Contains("anchor") &&
                                                                        Contains("got -2"));
    CHECK_THROWS_WITH(separable_filter({1, std::numeric_limits<float>::infinity(), 3}, {1}),
                      Contains("not finite"));
    CHECK_NOTHROW(separable_filter({1}, {1, 2, 3}, -1, 0));
  }
  SECTION("factories") {
    CHECK_THROWS_AS(filters::gaussian(0.0), hipstencil::invalid_argument);
    CHECK_THROWS_WITH(filters::gaussian(0.0), Contains("sigma") && Contains("got 0"));
    CHECK_THROWS_WITH(filters::gaussian(-1.5), Contains("sigma") && Contains("-1.5"));
    CHECK_THROWS_WITH(filters::gaussian_taps(std::numeric_limits<double>::quiet_NaN()), Contains("sigma"));
    CHECK_THROWS_WITH(filters::gaussian_taps(std::numeric_limits<double>::infinity(), 3), Contains("sigma"));
    CHECK_THROWS_AS(filters::box(-1), hipstencil::invalid_argument);
    CHECK_THROWS_WITH(filters::box(-1), Contains("radi") && Contains("-1"));
    CHECK_THROWS_WITH(filters::box(2, -3), Contains("radi") && Contains("-3"));
    CHECK_THROWS_WITH(filters::box(-4, 2), Contains("radi") && Contains("-4"));
    // gaussian's radius is documented as "radius < 0 selects scipy's default", so a
    // negative radius is not an error there: -1 gives the default.
    CHECK(filters::gaussian_taps(1.0, -1) == filters::gaussian_taps(1.0));
  }
}

// filter.hpp promises that what() names the parameter: for a separable_filter, `row` or
// `column`.
TEST_CASE("separable_filter's non-finite-tap message names row or column",
          "[filters][errors]") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  CHECK_THROWS_WITH(separable_filter({1, nan, 3}, {1}), Contains("row"));
  CHECK_THROWS_WITH(separable_filter({1}, {1, 2, nan}), Contains("column"));
}

TEST_CASE("filter factories: radii past what an int holds, and a sigma whose square underflows", "[filters][errors]") {
  // 2r + 1 taps must fit an int: r = 2^30 would overflow (undefined behaviour before).
  CHECK_THROWS_AS(filters::box(1 << 30), hipstencil::invalid_argument);
  CHECK_THROWS_WITH(filters::box(1 << 30), Contains("filters::box") && Contains("1073741824"));
  CHECK_THROWS_WITH(filters::box(3, 2147483647), Contains("2147483647"));
  CHECK_THROWS_AS(filters::gaussian(2.0, 1 << 30), hipstencil::invalid_argument);
  CHECK_THROWS_WITH(filters::gaussian(2.0, 1 << 30), Contains("radius") && Contains("1073741824"));
  // sigma = 1e-200: sigma^2 is 0 in double; the kernel is the identity, its limit (scipy
  // gives [1.0] as well: radius int(4 sigma + 0.5) = 0), with any explicit radius too.
  const auto t0 = filters::gaussian_taps(1e-200);
  REQUIRE(t0.size() == 1);
  CHECK(t0[0] == 1.0f);
  const auto t3 = filters::gaussian_taps(1e-200, 3);
  REQUIRE(t3.size() == 7);
  for (int i = 0; i < 7; ++i) CHECK(t3[i] == (i == 3 ? 1.0f : 0.0f));
  CHECK_NOTHROW(filters::gaussian(1e-200));
  CHECK_NOTHROW(filters::gaussian(std::numeric_limits<double>::denorm_min(), 2));
}
