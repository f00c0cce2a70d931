// The factoring that lets algo::automatic run a dense filter2d as a separable filter or as
// a sum of a few separable terms (detail/factor.hpp, factor_svd.hpp): which filters factor,
// into how many terms, how close the factors are, that integer kernels factor exactly or
// not at all, that terms which would round worse than the dense sum are refused, and that
// the result is computed once per filter.
// A wrong factoring would filter every pixel wrongly under automatic only, so the host
// checks the factors themselves; the [gpu] tests check the pixels.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <random>
#include <thread>
#include <vector>

#include <hipstencil/detail/factor.hpp>
#include <hipstencil/detail/tuning/tables.hpp>

#include "test_support.hpp"

namespace {

namespace hs = hipstencil;
using hs::detail::rank_one_factors;

// What factor_filter finds for f, computed anew (not through f's cache).
struct found {
  std::shared_ptr<const hs::separable_filter> rank_one;
  std::shared_ptr<const std::vector<hs::separable_filter>> low_rank;
  bool small_integer;
};
found factor(const hs::filter2d& f) {
  hs::detail::factor_cache c;
  hs::detail::factor_filter(f, c);
  return {c.rank_one, c.low_rank, c.small_integer};
}
std::shared_ptr<const hs::separable_filter> factor_rank_one(const hs::filter2d& f) { return factor(f).rank_one; }

// sum |k - sum_t column_t * row_t| / sum |k|, in double.
double relative_residual(const hs::filter2d& f, const std::vector<hs::separable_filter>& terms) {
  double r = 0, t = 0;
  for (int j = 0; j < f.height(); ++j)
    for (int i = 0; i < f.width(); ++i) {
      double v = f(i, j);
      for (const auto& s : terms) v -= double(s.column()[j]) * double(s.row()[i]);
      r += std::fabs(v);
      t += std::fabs(double(f(i, j)));
    }
  return r / t;
}

// sum |k - column * row| / sum |k|, in double.
double relative_residual(const hs::filter2d& f, const hs::separable_filter& s) {
  double r = 0, t = 0;
  for (int j = 0; j < f.height(); ++j)
    for (int i = 0; i < f.width(); ++i) {
      r += std::fabs(double(f(i, j)) - double(s.column()[j]) * double(s.row()[i]));
      t += std::fabs(double(f(i, j)));
    }
  return r / t;
}

// Pascal's row n: the binomial coefficients C(n, k).
std::vector<int> binomial(int n) {
  std::vector<int> b(1, 1);
  for (int k = 0; k < n; ++k) {
    std::vector<int> c(b.size() + 1, 0);
    for (std::size_t i = 0; i < b.size(); ++i) c[i] += b[i], c[i + 1] += b[i];
    b = c;
  }
  return b;
}

std::vector<int> outer(const std::vector<int>& col, const std::vector<int>& row) {
  std::vector<int> k;
  for (int c : col)
    for (int r : row) k.push_back(c * r);
  return k;
}

}  // namespace

TEST_CASE("factor: Gaussians, boxes and any separable filter given as a filter2d factor within 2^-22", "[factor]") {
  for (int r = 1; r <= 20; ++r)
    for (double sigma : {0.3, 0.8, 2.0, 0.4 + 0.6 * r, 3.0 * r}) {
      CAPTURE(r, sigma);
      const hs::filter2d f = hs::filters::gaussian(sigma, r).to_2d();
      const auto s = factor_rank_one(f);
      REQUIRE(s);
      CHECK(s->width() == f.width());
      CHECK(s->height() == f.height());
      CHECK(relative_residual(f, *s) <= hs::detail::factor_tolerance);
    }
  // Anisotropic, non-square, off-centre anchors, negative coefficients.
  const hs::separable_filter a({-1, 0.5f, 3, 0.25f, -2, 1, 7}, hs::filters::gaussian_taps(1.3, 4), 1, 6);
  const hs::filter2d f = a.to_2d();
  const auto s = factor_rank_one(f);
  REQUIRE(s);
  CHECK(s->width() == 7);
  CHECK(s->height() == 9);
  CHECK(s->anchor_x() == 1);
  CHECK(s->anchor_y() == 6);
  CHECK(relative_residual(f, *s) <= hs::detail::factor_tolerance);
}

TEST_CASE("factor: random separable filters factor, random dense ones do not", "[factor]") {
  const auto seed = test::run_seed();
  CAPTURE(seed);
  std::mt19937_64 g(seed);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  std::uniform_int_distribution<int> size(0, 12);
  for (int t = 0; t < 300; ++t) {
    const int w = 2 * size(g) + 1, h = 2 * size(g) + 1;
    std::vector<float> row(w), col(h), dense(std::size_t(w) * h);
    for (float& v : row) v = u(g);
    for (float& v : col) v = u(g);
    for (float& v : dense) v = u(g);
    CAPTURE(t, w, h);
    const hs::filter2d sep = hs::separable_filter(row, col).to_2d();
    const auto s = factor_rank_one(sep);
    REQUIRE(s);
    CHECK(relative_residual(sep, *s) <= hs::detail::factor_tolerance);
    if (w > 1 && h > 1) {
      const found d = factor(hs::filter2d(w, h, dense));
      CHECK_FALSE(d.rank_one);
      // Rank min(w, h): a sum of terms only when that is at most four (and then only when
      // its rounding bound allows).
      if (std::min(w, h) > hs::detail::low_rank_max_terms) CHECK_FALSE(d.low_rank);
      if (d.low_rank) {
        CHECK(int(d.low_rank->size()) <= std::min(w, h));
        CHECK(relative_residual(hs::filter2d(w, h, dense), *d.low_rank) <= hs::detail::factor_tolerance);
      }
    }
  }
}

TEST_CASE("factor: the tolerance decides near rank-one filters", "[factor]") {
  hs::filter2d g = hs::filters::gaussian(2.5, 7).to_2d();
  std::vector<float> k = g.coefficients();
  float sum = 0;
  for (float v : k) sum += v;
  SECTION("a change of 2^-18 of the sum at one tap: not rank one") {
    k[3] += sum * 0x1p-18f;
    CHECK_FALSE(factor_rank_one(hs::filter2d(15, 15, k)));
  }
  SECTION("the same change of 2^-28: within the tolerance") {
    k[3] += sum * 0x1p-28f;
    const hs::filter2d f(15, 15, k);
    const auto s = factor_rank_one(f);
    REQUIRE(s);
    CHECK(relative_residual(f, *s) <= hs::detail::factor_tolerance);
  }
}

TEST_CASE("factor: sums of two to four separable terms factor into that many terms", "[factor]") {
  SECTION("Laplacians of Gaussian: two terms within 2^-22") {
    for (int r = 1; r <= 63; r += (r < 8 ? 1 : 7))
      for (double sigma : {0.25 * r + 0.5, r / 3.0, 0.5 * r}) {
        CAPTURE(r, sigma);
        const hs::filter2d f = hs::filters::laplacian_of_gaussian(sigma, r);
        const found d = factor(f);
        CHECK_FALSE(d.rank_one);
        REQUIRE(d.low_rank);
        CHECK(d.low_rank->size() == 2);
        CHECK(relative_residual(f, *d.low_rank) <= hs::detail::factor_tolerance);
        for (const auto& t : *d.low_rank) {
          CHECK(t.width() == f.width());
          CHECK(t.height() == f.height());
          CHECK(t.anchor_x() == r);
          CHECK(t.anchor_y() == r);
        }
      }
  }
  SECTION("differences of Gaussians, off-centre anchors: two terms") {
    const std::vector<float> g1 = hs::filters::gaussian_taps(1.5, 9), g2 = hs::filters::gaussian_taps(3.0, 9);
    std::vector<float> k(19 * 19);
    for (int j = 0; j < 19; ++j)
      for (int i = 0; i < 19; ++i) k[j * 19 + i] = g1[j] * g1[i] - g2[j] * g2[i];
    const hs::filter2d f(19, 19, k, 3, 15);
    const found d = factor(f);
    REQUIRE(d.low_rank);
    CHECK(d.low_rank->size() == 2);
    CHECK(relative_residual(f, *d.low_rank) <= hs::detail::factor_tolerance);
    CHECK((*d.low_rank)[1].anchor_x() == 3);
    CHECK((*d.low_rank)[1].anchor_y() == 15);
  }
  SECTION("random sums of n separable terms: n terms up to four, none beyond") {
    const auto seed = test::run_seed();
    CAPTURE(seed);
    std::mt19937_64 g(seed);
    std::uniform_real_distribution<float> u(0.5f, 1.f);
    for (int n = 2; n <= 6; ++n)
      for (int w : {9, 15, 21}) {
        const int h = w + 4;
        // Positive terms: they add up rather than cancel, so the rounding bound holds.
        std::vector<double> k(std::size_t(w) * h, 0.0);
        for (int t = 0; t < n; ++t) {
          std::vector<double> row(w), col(h);
          for (double& v : row) v = u(g);
          for (double& v : col) v = u(g);
          for (int j = 0; j < h; ++j)
            for (int i = 0; i < w; ++i) k[std::size_t(j) * w + i] += col[j] * row[i];
        }
        const hs::filter2d f(w, h, std::vector<float>(k.begin(), k.end()));
        CAPTURE(n, w);
        const found d = factor(f);
        CHECK_FALSE(d.rank_one);
        if (n <= hs::detail::low_rank_max_terms) {
          REQUIRE(d.low_rank);
          CHECK(int(d.low_rank->size()) == n);
          CHECK(relative_residual(f, *d.low_rank) <= hs::detail::factor_tolerance);
        } else {
          CHECK_FALSE(d.low_rank);
        }
      }
  }
  SECTION("two terms that would round worse than the dense sum: refused") {
    // 0.1 times the 3x3 Laplacian (rank two, not an integer kernel over a power of two):
    // its terms' (3 + 3 + 2) sum_t |column_t| |row_t| exceeds 9 sum |k|.
    const hs::filter2d f(3, 3, {0, 0.1f, 0, 0.1f, -0.4f, 0.1f, 0, 0.1f, 0});
    const found d = factor(f);
    CHECK_FALSE(d.rank_one);
    CHECK_FALSE(d.low_rank);
    // The 3x3 Laplacian of Gaussian's terms cancel less (ratio 1.03 against 1.21): kept.
    const found l = factor(hs::filters::laplacian_of_gaussian(0.6, 1));
    REQUIRE(l.low_rank);
    CHECK(l.low_rank->size() == 2);
  }
  SECTION("filters wider than separable_capacity are not fitted") {
    const int w = hs::detail::separable_capacity + 2;
    const std::vector<float> row(w, 1.0f / float(w)), col{0.25f, 0.5f, 0.25f};
    const hs::separable_filter s(row, col);
    CHECK_FALSE(factor(s.to_2d()).rank_one);  // 1/257: not an integer form
  }
}

TEST_CASE("factor: integer kernels factor exactly into integers over powers of two, or not at all", "[factor]") {
  SECTION("binomials over their power-of-two divisor") {
    for (int n : {2, 4, 6, 8, 10, 14}) {
      const std::vector<int> b = binomial(n);
      const int divisor = 1 << (2 * n);
      const hs::filter2d f = hs::filters::integer_kernel(n + 1, n + 1, outer(b, b), divisor);
      const auto s = factor_rank_one(f);
      CAPTURE(n);
      REQUIRE(s);
      for (int j = 0; j <= n; ++j)
        for (int i = 0; i <= n; ++i) CHECK(s->column()[j] * s->row()[i] == f(i, j));  // exact products
      for (int i = 0; i <= n; ++i) CHECK(s->row()[i] * float(1 << n) == float(b[i]));  // b / 2^n
    }
  }
  SECTION("box 7x7 over 49 and an anisotropic integer outer product") {
    const hs::filter2d box = hs::filters::integer_kernel(7, 7, std::vector<int>(49, 1), 49);
    const auto s = factor_rank_one(box);
    REQUIRE(s);
    for (int j = 0; j < 7; ++j)
      for (int i = 0; i < 7; ++i) CHECK(double(s->column()[j]) * double(s->row()[i]) == double(box(i, j)));
    const hs::filter2d a = hs::filters::integer_kernel(5, 3, outer({-3, 6, 9}, {2, -4, 10, 0, 6}), 64);
    const auto t = factor_rank_one(a);
    REQUIRE(t);
    for (int j = 0; j < 3; ++j)
      for (int i = 0; i < 5; ++i) CHECK(double(t->column()[j]) * double(t->row()[i]) == double(a(i, j)));
  }
  SECTION("integer kernels of rank two: the Laplacian, a sharpen, a cross") {
    CHECK_FALSE(factor_rank_one(hs::filters::laplacian()));
    CHECK_FALSE(factor_rank_one(hs::filters::sharpen()));
    // A binomial 3x3 with one corner changed: integer form, rank two.
    CHECK_FALSE(factor_rank_one(hs::filters::integer_kernel(3, 3, {1, 2, 1, 2, 4, 2, 1, 2, 2}, 16)));
  }
  SECTION("which kernels count as small integer ones (algo::fft leaves them to direct sums)") {
    const std::vector<int> b = binomial(4);
    CHECK(factor(hs::filters::integer_kernel(5, 5, outer(b, b), 256)).small_integer);
    CHECK(factor(hs::filters::laplacian()).small_integer);
    CHECK(hs::detail::small_integer_kernel(hs::filters::sobel_x()));
    CHECK(hs::detail::small_integer_kernel(hs::filters::integer_kernel(5, 5, outer(b, b), 256)));
    // 4097 x 4097 > 2^24 as an integer sum; a Gaussian's float taps; a box of 1/9.
    CHECK_FALSE(hs::detail::small_integer_kernel(hs::separable_filter({4097}, {4097})));
    CHECK_FALSE(factor(hs::filters::gaussian(2.0, 6).to_2d()).small_integer);
    CHECK_FALSE(hs::detail::small_integer_kernel(hs::filters::gaussian(2.0, 6)));
    CHECK_FALSE(factor(hs::filters::box(1).to_2d()).small_integer);
  }
  SECTION("nothing to factor: all zeros") {
    CHECK_FALSE(factor_rank_one(hs::filter2d(5, 5, std::vector<float>(25, 0.f))));
  }
}

TEST_CASE("factor: computed once per filter2d and shared by its copies, from any thread", "[factor]") {
  const hs::filter2d f = hs::filters::gaussian(3.0, 9).to_2d();
  const hs::filter2d copy = f;
  std::vector<const hs::separable_filter*> seen(8, nullptr);
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) threads.emplace_back([&, t] { seen[t] = rank_one_factors(t % 2 ? f : copy); });
  for (auto& t : threads) t.join();
  REQUIRE(seen[0] != nullptr);
  for (const auto* p : seen) CHECK(p == seen[0]);
  // A filter2d with the same coefficients but built anew has a factoring of its own.
  const hs::filter2d again(f.width(), f.height(), f.coefficients());
  CHECK(rank_one_factors(again) != seen[0]);
  CHECK(rank_one_factors(again)->row() == seen[0]->row());
  CHECK(rank_one_factors(hs::filters::laplacian()) == nullptr);
}

TEST_CASE("factor_table: automatic factors 5x5 to 17x17 on large images only, wider always, 3x3 never", "[factor]") {
  namespace tu = hs::tuning;
  const auto shape = [](int r, int w, int h, int channels = 1) {
    tu::problem_shape s;
    s.radius = r, s.width = w, s.height = h, s.channels = channels;
    return s;
  };
  using table = tu::factor_table<tu::arch::sm_90>;
  for (auto wh : {std::pair<int, int>{128, 128}, {1920, 1080}, {8192, 8192}, {128, 65536}}) {
    CAPTURE(wh.first, wh.second);
    for (int c : {1, 4}) {
      CHECK_FALSE(table::factor(shape(1, wh.first, wh.second, c)));
      CHECK_FALSE(table::factor(shape(-1, wh.first, wh.second, c)));  // non-square or off-centre
      CHECK(table::factor(shape(9, wh.first, wh.second, c)));
      CHECK(table::factor(shape(15, wh.first, wh.second, c)));
    }
  }
  // One channel, radius 2 to 4: from 2^23 pixels (1920x1080 u8 9x9: dense tiled 29 us,
  // separable 36; 8192x8192: 599 against 252); radius 5 to 8 from 2^22 (3840x2160 15x15:
  // 170 against 139).
  CHECK_FALSE(table::factor(shape(2, 1920, 1080)));
  CHECK_FALSE(table::factor(shape(4, 3840, 2160)));
  CHECK(table::factor(shape(4, 4096, 4096)));
  CHECK_FALSE(table::factor(shape(7, 1920, 1080)));
  CHECK(table::factor(shape(7, 3840, 2160)));
  // Four channels, radius 2 to 8: beyond 2^19 pixels (512x512 uchar4 5x5: dense shared_mem
  // 9.1 us, separable 10.0; 1920x1080: 35.6 against 26.0).
  CHECK_FALSE(table::factor(shape(2, 512, 512, 4)));
  CHECK(table::factor(shape(2, 1920, 1080, 4)));
  CHECK(table::factor(shape(7, 1920, 1080, 4)));
  // The generic table is sm_90's.
  CHECK(tu::factor_table<tu::arch::generic>::factor(shape(12, 64, 64)));
  CHECK_FALSE(tu::factor_table<tu::arch::generic>::factor(shape(2, 64, 64)));
}

TEST_CASE("low_rank_table: sums of terms run as terms beyond 17x17 taps while their taps stay few", "[factor]") {
  namespace tu = hs::tuning;
  tu::problem_shape s;
  s.width = 1920, s.height = 1080;
  using table = tu::low_rank_table<tu::arch::sm_90>;
  // Two terms (a Laplacian of Gaussian): radius 7 dense (uchar4 3840x2160: dense 508 us,
  // terms 522), radius 9 as terms (float 3840x2160: 740 against 305), any image size.
  CHECK_FALSE(table::factor(s, 15, 15, 2));
  CHECK_FALSE(table::factor(s, 17, 17, 2));
  CHECK(table::factor(s, 19, 19, 2));
  CHECK(table::factor(s, 127, 127, 2));
  CHECK(table::factor(s, 41, 9, 2));  // 369 taps, non-square
  s.width = s.height = 1;
  CHECK(table::factor(s, 19, 19, 2));
  // Three and four terms: while 5 n (kw + kh) <= 2 kw kh.
  CHECK(table::factor(s, 19, 19, 3));   // 570 <= 722
  CHECK_FALSE(table::factor(s, 19, 19, 4));  // 760 > 722
  CHECK(table::factor(s, 21, 21, 4));   // 840 <= 882
  CHECK(tu::low_rank_table<tu::arch::generic>::factor(s, 31, 31, 2));
}
