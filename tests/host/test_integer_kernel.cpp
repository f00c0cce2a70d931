// filters::integer_kernel (an integer kernel with a divisor) and its accuracy contract,
// integer_kernel_exact: the taps, the errors, and the contract checked against an oracle
// written here in integer arithmetic (int64 sums, ties to even), for the host reference
// and for float accumulation as the kernels do it (std::fma in float, taps in any order).
#include "test_support.hpp"

#include <hipstencil/filter.hpp>
#include <hipstencil/reference.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace {
namespace hs = hipstencil;
namespace filters = hipstencil::filters;
using Catch::Contains;

/// round(num / den) to nearest, ties to even, for den >= 1 (exact: integers only).
long long div_round_even(long long num, long long den) {
  long long q = num / den, r = num % den;  // truncated toward zero
  if (r < 0) r += den, q -= 1;             // now 0 <= r < den: num = q * den + r
  if (2 * r > den || (2 * r == den && (q & 1))) ++q;
  return q;
}

std::uint8_t saturate_u8(long long v) { return std::uint8_t(std::min(255LL, std::max(0LL, v))); }

struct case_t {
  int w, h;
  std::vector<int> k;
  int divisor;
};

/// A random odd-sized kernel of small integers with a divisor of the given kind.
case_t random_case(std::mt19937& rng, int kind) {
  std::uniform_int_distribution<int> size(0, 3), coef(-9, 9), odd(0, 40), power(0, 8);
  case_t c;
  c.w = 2 * size(rng) + 1, c.h = 2 * size(rng) + 1;
  c.k.resize(std::size_t(c.w) * c.h);
  for (int& v : c.k) v = coef(rng);
  c.divisor = kind == 0 ? 1 << power(rng) : kind == 1 ? 2 * odd(rng) + 1 : 6 * (odd(rng) + 1);
  return c;
}

/// The oracle: sum of k * in over the window (replicate border) in int64, then divided
/// and rounded to nearest, ties to even, and saturated to 8 bits.
std::uint8_t oracle(const std::vector<std::uint8_t>& img, int iw, int ih, const case_t& c, int x, int y) {
  long long s = 0;
  for (int j = 0; j < c.h; ++j)
    for (int i = 0; i < c.w; ++i) {
      const int sx = std::min(iw - 1, std::max(0, x + i - c.w / 2));
      const int sy = std::min(ih - 1, std::max(0, y + j - c.h / 2));
      s += (long long)c.k[std::size_t(j) * c.w + i] * img[std::size_t(sy) * iw + sx];
    }
  return saturate_u8(div_round_even(s, c.divisor));
}

/// The same window summed as a kernel does: float taps, one fmaf per tap, in `order`.
std::uint8_t float_sum(const std::vector<std::uint8_t>& img, int iw, int ih, const hs::filter2d& f,
                       const std::vector<int>& order, int x, int y) {
  float acc = 0.0f;
  for (int t : order) {
    const int i = t % f.width(), j = t / f.width();
    const int sx = std::min(iw - 1, std::max(0, x + i - f.anchor_x()));
    const int sy = std::min(ih - 1, std::max(0, y + j - f.anchor_y()));
    acc = std::fma(f(i, j), float(img[std::size_t(sy) * iw + sx]), acc);
  }
  return hs::saturate_cast<std::uint8_t>(acc);
}

}  // namespace

TEST_CASE("integer_kernel: taps are kernel / divisor, anchors as filter2d", "[filters][integer_kernel]") {
  const auto f = filters::integer_kernel(3, 1, {1, 2, 1}, 4, 0, -1);
  CHECK(f.width() == 3);
  CHECK(f.height() == 1);
  CHECK(f.anchor_x() == 0);
  CHECK(f.anchor_y() == 0);
  CHECK(f(0, 0) == 0.25f);
  CHECK(f(1, 0) == 0.5f);
  const auto box = filters::integer_kernel(3, 3, std::vector<int>(9, 1), 9);
  CHECK(box(1, 1) == float(1.0 / 9.0));
  const auto sobel = filters::integer_kernel(3, 3, {-1, 0, 1, -2, 0, 2, -1, 0, 1});
  CHECK(sobel(0, 1) == -2.0f);
}

TEST_CASE("integer_kernel rejects bad arguments and names them", "[filters][integer_kernel][errors]") {
  CHECK_THROWS_WITH(filters::integer_kernel(3, 1, {1, 2, 1}, 0), Contains("divisor must be >= 1, got 0"));
  CHECK_THROWS_WITH(filters::integer_kernel(1, 1, {(1 << 24) + 1}), Contains("kernel[0] = 16777217 is beyond 2^24"));
  CHECK_THROWS_WITH(filters::integer_kernel(3, 1, {1, 2}, 1), Contains("coefficients has 2 values"));
  CHECK_THROWS_WITH(filters::integer_kernel(2, 1, {1, 2}, 1), Contains("width must be odd"));
}

TEST_CASE("integer_kernel_exact: the usual kernels", "[filters][integer_kernel]") {
  const std::vector<int> box3(9, 1), sobel{-1, 0, 1, -2, 0, 2, -1, 0, 1};
  std::vector<int> binomial5;
  const int b[5] = {1, 4, 6, 4, 1};
  for (int j = 0; j < 5; ++j)
    for (int i = 0; i < 5; ++i) binomial5.push_back(b[i] * b[j]);
  CHECK(filters::integer_kernel_exact(box3, 9, 255));
  CHECK(filters::integer_kernel_exact(sobel, 1, 255));
  CHECK(filters::integer_kernel_exact(binomial5, 256, 255));
  CHECK(filters::integer_kernel_exact(binomial5, 256, 65535));      // 65535 * 256 < 2^24
  CHECK_FALSE(filters::integer_kernel_exact(binomial5, 256, 65536));  // = 2^24: a sum may not fit
  CHECK_FALSE(filters::integer_kernel_exact(std::vector<int>(36 * 36, 1), 36 * 36, 255));  // even, not 2^k
  CHECK_FALSE(filters::integer_kernel_exact(box3, 6, 255));
  CHECK_FALSE(filters::integer_kernel_exact(box3, 0, 255));
}

TEST_CASE("integer_kernel: exact where integer_kernel_exact says so, in the reference and in float sums",
          "[filters][integer_kernel]") {
  std::mt19937 rng(20261123);
  std::uniform_int_distribution<int> pixel(0, 255), side(1, 23);
  long long exact_cases = 0, ties_missed = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const case_t c = random_case(rng, trial % 3);
    const hs::filter2d f = filters::integer_kernel(c.w, c.h, c.k, c.divisor);
    const bool exact = filters::integer_kernel_exact(c.k, c.divisor, 255);
    const int iw = side(rng), ih = side(rng);
    std::vector<std::uint8_t> img(std::size_t(iw) * ih);
    for (auto& p : img) p = std::uint8_t(pixel(rng));
    hs::host_image<std::uint8_t> src(iw, ih), ref(iw, ih);
    std::copy(img.begin(), img.end(), src.view().data);
    hs::reference::convolve(src.view(), ref.view(), f, hs::border::replicate{});
    std::vector<int> order(c.k.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = int(i);
    std::vector<int> reversed(order.rbegin(), order.rend());
    long long wrong_ref = 0, wrong_float = 0, far = 0;
    for (int y = 0; y < ih; ++y)
      for (int x = 0; x < iw; ++x) {
        const int want = oracle(img, iw, ih, c, x, y);
        const int a = float_sum(img, iw, ih, f, order, x, y), b = float_sum(img, iw, ih, f, reversed, x, y);
        wrong_ref += ref(x, y) != want;
        wrong_float += (a != want) + (b != want);
        far += std::abs(a - want) > 1 || std::abs(b - want) > 1 || std::abs(int(ref(x, y)) - want) > 1;
      }
    INFO("kernel " << c.w << "x" << c.h << " / " << c.divisor << " on " << iw << "x" << ih);
    CHECK(far == 0);  // within 1 always
    if (exact) {
      ++exact_cases;
      CHECK(wrong_ref == 0);
      CHECK(wrong_float == 0);
    } else {
      ties_missed += wrong_float;
    }
  }
  CHECK(exact_cases >= 150);  // the random kernels mostly fall under the contract
  // The contract is not vacuous: [1 1 1] / 6 on 25s is 12.5, a tie; the float taps round
  // 1/6 up, their sum (12.500001) passes it and rounds to 13 where ties to even gives 12.
  const case_t tie{3, 1, {1, 1, 1}, 6};
  const std::vector<std::uint8_t> flat(3, 25);
  const auto f = filters::integer_kernel(3, 1, tie.k, tie.divisor);
  CHECK(oracle(flat, 3, 1, tie, 1, 0) == 12);
  CHECK(float_sum(flat, 3, 1, f, {0, 1, 2}, 1, 0) == 13);
  CHECK_FALSE(filters::integer_kernel_exact(tie.k, tie.divisor, 255));
  WARN("even divisors other than powers of two: " << ties_missed << " float-sum results off by one in these trials");
}
