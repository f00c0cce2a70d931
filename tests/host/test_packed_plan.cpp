// The packed family's host plan (detail/packed_plan.hpp): half-precision rounding and bit
// patterns, the integer-kernel divisor it finds, which filters it takes, and its error
// bound, against an emulation of the kernel's arithmetic on many random windows.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include <hipstencil/detail/packed_plan.hpp>
#include <hipstencil/filter.hpp>

using namespace hipstencil;
using detail::packed_plan;

namespace {

/// The value of a half bit pattern (independent of half_bits: decoded by the format).
double half_value(std::uint16_t b) {
  const int e = (b >> 10) & 31, m = b & 1023;
  const double v = e == 0 ? std::ldexp(double(m), -24) : std::ldexp(double(1024 + m), e - 25);
  return (b & 0x8000u) ? -v : v;
}

/// One fused multiply-add in half: the exact a * x + acc (exact in double here), rounded once.
double hfma(double a, double x, double acc) { return detail::round_to_half(a * x + acc); }

/// The byte the kernel writes from its final sum (acc + add, rounded, clamped to [1024, 1279]).
int final_byte(double acc, double add) {
  double v = detail::round_to_half(acc + add);
  v = v < 1024 ? 1024 : (v > 1279 ? 1279 : v);
  return int(v) - 1024;
}

/// The correctly rounded, saturated byte of an exact sum (ties to even).
int correct_byte(double s) {
  const double r = std::nearbyint(s);
  return int(r < 0 ? 0 : (r > 255 ? 255 : r));
}

struct emulated {
  double before_rounding;  ///< acc + add - 1024: the value the last addition rounds
  int byte;
};

/// The kernel's dense arithmetic on one K x K window of bytes (row-major, its tap order).
emulated emulate_dense(const packed_plan& pl, const std::vector<std::uint8_t>& win) {
  double acc = half_value(pl.init);
  for (std::size_t t = 0; t < win.size(); ++t) acc = hfma(half_value(pl.k[t]), double(win[t]) - 128, acc);
  const double add = half_value(pl.add);
  return {acc + add - 1024, final_byte(acc, add)};
}

/// The separable arithmetic: row sums (first product rounded alone), then the column pass.
emulated emulate_separable(const packed_plan& pl, int k, const std::vector<std::uint8_t>& win) {
  double acc = half_value(pl.init);
  for (int j = 0; j < k; ++j) {
    double h = detail::round_to_half(half_value(pl.k[0]) * (double(win[std::size_t(j) * k]) - 128));
    for (int i = 1; i < k; ++i) h = hfma(half_value(pl.k[i]), double(win[std::size_t(j) * k + i]) - 128, h);
    acc = hfma(half_value(pl.k[k + j]), h, acc);
  }
  const double add = half_value(pl.add);
  return {acc + add - 1024, final_byte(acc, add)};
}

/// Windows: random bytes, and the extremes that push partial sums furthest (all 0, all
/// 255, and 0/255 by the sign of the tap).
std::vector<std::vector<std::uint8_t>> windows(const std::vector<double>& k, std::mt19937& rng, int random_count) {
  std::vector<std::vector<std::uint8_t>> w;
  std::uniform_int_distribution<int> byte(0, 255);
  for (int n = 0; n < random_count; ++n) {
    std::vector<std::uint8_t> v(k.size());
    for (auto& b : v) b = std::uint8_t(byte(rng));
    w.push_back(v);
  }
  w.emplace_back(k.size(), std::uint8_t(0));
  w.emplace_back(k.size(), std::uint8_t(255));
  std::vector<std::uint8_t> pos(k.size()), neg(k.size());
  for (std::size_t i = 0; i < k.size(); ++i) pos[i] = k[i] > 0 ? 255 : 0, neg[i] = k[i] > 0 ? 0 : 255;
  w.push_back(pos);
  w.push_back(neg);
  return w;
}

/// Checks the plan's promise on many windows: the emulated value before the last rounding
/// within error_bound of the exact sum; the byte exact for an integer kernel, else within 1.
/// Returns the windows one off.
long long check_promise(const packed_plan& pl, const std::vector<double>& k, bool separable, int kk,
                        std::mt19937& rng) {
  REQUIRE(pl.ok);
  long long off = 0;
  for (const auto& win : windows(k, rng, 2000)) {
    double exact = 0;
    for (std::size_t t = 0; t < k.size(); ++t) exact += k[t] * double(win[t]);
    const emulated e = separable ? emulate_separable(pl, kk, win) : emulate_dense(pl, win);
    const int want = correct_byte(exact);
    INFO("exact " << exact << ", emulated " << e.before_rounding << ", bound " << pl.error_bound << ", divisor "
                  << pl.divisor);
    CHECK(std::fabs(e.before_rounding - exact) <= pl.error_bound);
    if (pl.divisor != 0) CHECK(e.byte == want);
    else CHECK(std::abs(e.byte - want) <= 1);
    off += e.byte != want;
  }
  return off;
}

std::vector<double> outer(const std::vector<float>& row, const std::vector<float>& col) {
  std::vector<double> k;
  for (float c : col)
    for (float r : row) k.push_back(double(c) * double(r));
  return k;
}

}  // namespace

TEST_CASE("packed plan: half rounding and bit patterns", "[packed]") {
  using detail::half_bits;
  using detail::round_to_half;
  CHECK(round_to_half(1.0 / 3.0) == 0.333251953125);  // 0x3555: 1365 / 4096
  CHECK(half_bits(round_to_half(1.0 / 3.0)) == 0x3555);
  CHECK(half_bits(1.0) == 0x3C00);
  CHECK(half_bits(1024.0) == 0x6400);
  CHECK(half_bits(1152.0) == 0x6480);
  CHECK(half_bits(-2.0) == 0xC000);
  CHECK(half_bits(65504.0) == 0x7BFF);
  CHECK(half_bits(std::ldexp(1.0, -24)) == 0x0001);  // the least subnormal
  CHECK(half_bits(std::ldexp(1.0, -14)) == 0x0400);  // the least normal
  CHECK(std::isinf(round_to_half(65520.0)));         // halfway to 2^16 rounds up, past the range
  CHECK(round_to_half(65519.0) == 65504.0);
  CHECK(round_to_half(std::ldexp(1.0, -25)) == 0.0);                    // a tie: to even (zero)
  CHECK(round_to_half(3 * std::ldexp(1.0, -25)) == std::ldexp(1.0, -23));  // a tie: to even (2 quanta)
  CHECK(round_to_half(1025.5) == 1026.0);  // ulp 1 in [1024, 2048): ties to even
  CHECK(round_to_half(1024.5) == 1024.0);
  for (std::uint32_t b = 0; b < 0x7C00u; ++b) {  // every finite positive pattern round-trips
    const double v = half_value(std::uint16_t(b));
    if (half_bits(round_to_half(v)) != b || round_to_half(v) != v) FAIL("pattern " << b);
  }
}

TEST_CASE("packed plan: the integer kernel's divisor", "[packed]") {
  using detail::small_denominator;
  CHECK(small_denominator(3.0) == 1);
  CHECK(small_denominator(0.25) == 4);
  CHECK(small_denominator(double(1.0f / 9.0f)) == 9);
  CHECK(small_denominator(double(2.0f / 7.0f)) == 7);
  CHECK(small_denominator(double(-5.0f / 273.0f)) == 273);
  CHECK(small_denominator(double(1.0f / 65536.0f)) == 65536);
  CHECK(small_denominator(double(1.0f / 131072.0f)) == 0);  // past 2^16, and no small fraction
  const packed_plan box = detail::plan_packed_separable(filters::box(1).row(), filters::box(1).column());
  CHECK(box.divisor == 9);
  const std::vector<float> g = filters::gaussian_taps(1.0, 2);
  CHECK(detail::plan_packed_dense(separable_filter(g, g).to_2d().coefficients()).divisor == 0);
}

TEST_CASE("packed plan: which filters it takes", "[packed]") {
  // Integer partial sums below 2048 (centred pixels times sum |k| = 4 for Sobel): exact, bound 0.
  for (const auto& f : {filters::sobel_x(), filters::sobel_y()}) {
    const packed_plan p = detail::plan_packed_separable(f.row(), f.column());
    CHECK(p.ok);
    CHECK(p.error_bound == 0);
    CHECK(p.divisor == 1);
  }
  // Scharr's column sums reach 16 x 128 = 2048 and beyond, where halves step by 2: refused.
  for (const auto& f : {filters::scharr_x(), filters::scharr_y()}) {
    const packed_plan p = detail::plan_packed_separable(f.row(), f.column());
    CHECK(p.divisor == 1);
    CHECK(p.error_bound > 0);
    CHECK_FALSE(p.ok);
  }
  for (const auto& f : {filters::laplacian(), filters::sharpen(1.0f)}) {
    const packed_plan p = detail::plan_packed_dense(f.coefficients());
    CHECK(p.ok);
    CHECK(p.error_bound == 0);
  }
  // Gaussians 3x3 and 5x5 (the benchmark's sigma 0.4 + 0.6 r), dense and separable: within 1.
  for (int r : {1, 2}) {
    const std::vector<float> g = filters::gaussian_taps(0.4 + 0.6 * r, r);
    const packed_plan sep = detail::plan_packed_separable(g, g);
    const packed_plan dense = detail::plan_packed_dense(separable_filter(g, g).to_2d().coefficients());
    INFO("radius " << r << ": bounds " << sep.error_bound << " (separable), " << dense.error_bound << " (dense)");
    CHECK(sep.ok);
    CHECK(dense.ok);
    CHECK(sep.divisor == 0);
    CHECK(dense.divisor == 0);
  }
  // A box's 1/9 is an odd-divisor integer kernel that half's taps miss by more than 1/18.
  const packed_plan box = detail::plan_packed_separable(filters::box(1).row(), filters::box(1).column());
  CHECK_FALSE(box.ok);
  // Large coefficients leave the half range or its precision.
  CHECK_FALSE(detail::plan_packed_dense(std::vector<float>(9, 40.0f)).ok);
  CHECK_FALSE(detail::plan_packed_dense(std::vector<float>(9, 3.7f)).ok);
  // An integer kernel over a power of two whose partial sums need more than 11 bits: not exact.
  const filter2d binomial = filters::integer_kernel(3, 3, {1, 2, 1, 2, 4, 2, 1, 2, 1}, 16);
  const packed_plan b = detail::plan_packed_dense(binomial.coefficients());
  CHECK(b.divisor == 16);
  CHECK(b.ok == (b.error_bound == 0));
  // Wider than the kernel's words reach (radius 4), or not square: refused, not read past.
  CHECK_FALSE(detail::plan_packed_dense(std::vector<float>(121, 1.0f / 121)).ok);
  CHECK_FALSE(detail::plan_packed_separable(std::vector<float>(11, 0.1f), std::vector<float>(11, 0.1f)).ok);
  CHECK_FALSE(detail::plan_packed_separable(std::vector<float>(3, 0.3f), std::vector<float>(5, 0.2f)).ok);
  CHECK(detail::packed_constant(0.0f));
  CHECK(detail::packed_constant(255.0f));
  CHECK_FALSE(detail::packed_constant(0.37f));
  CHECK_FALSE(detail::packed_constant(256.0f));
  CHECK_FALSE(detail::packed_constant(-1.0f));
}

TEST_CASE("packed plan: the bound holds for the kernel's arithmetic, emulated", "[packed]") {
  // Every filter the plan takes: the emulated sum before the final rounding lies within the
  // bound, and the byte is exact for integer kernels, within 1 otherwise.
  std::mt19937 rng(20261123);
  std::uniform_real_distribution<float> tap(-0.5f, 1.0f), sigma(0.3f, 3.0f);
  int taken = 0, tried = 0;
  long long off = 0;
  for (int n = 0; n < 200; ++n) {
    const int r = 1 + n % 2, kk = 2 * r + 1;
    std::vector<float> row(kk), col(kk);
    if (n % 3 == 0) {
      row = filters::gaussian_taps(sigma(rng), r), col = filters::gaussian_taps(sigma(rng), r);
    } else {
      double sr = 0, sc = 0;
      for (int i = 0; i < kk; ++i) sr += std::fabs(row[i] = tap(rng)), sc += std::fabs(col[i] = tap(rng));
      for (int i = 0; i < kk; ++i) row[i] = float(row[i] / sr), col[i] = float(col[i] / sc);
    }
    const std::vector<double> k = outer(row, col);
    ++tried;
    const packed_plan sep = detail::plan_packed_separable(row, col);
    if (sep.ok) ++taken, off += check_promise(sep, k, true, kk, rng);
    std::vector<float> dense(k.size());
    for (std::size_t t = 0; t < k.size(); ++t) dense[t] = float(k[t]);
    std::vector<double> kd(dense.begin(), dense.end());
    ++tried;
    const packed_plan d = detail::plan_packed_dense(dense);
    if (d.ok) ++taken, off += check_promise(d, kd, false, kk, rng);
  }
  // Integer kernels: Sobel, Laplacian, sharpen (exact) and the binomial if taken.
  for (const auto& f : {filters::sobel_x(), filters::sobel_y()})
    off += check_promise(detail::plan_packed_separable(f.row(), f.column()), outer(f.row(), f.column()), true, 3, rng);
  for (const auto& f : {filters::laplacian(), filters::sharpen(1.0f)}) {
    const std::vector<double> kd(f.coefficients().begin(), f.coefficients().end());
    off += check_promise(detail::plan_packed_dense(f.coefficients()), kd, false, 3, rng);
  }
  INFO(taken << " of " << tried << " random filters taken; " << off << " windows one off");
  CHECK(taken >= tried * 9 / 10);
}
