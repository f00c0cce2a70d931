// hipstencil/detail/packed_plan.hpp
// Host side of the packed family (kernels/packed.hpp): whether 8-bit pixels filtered in
// packed half-precision lanes give what the library promises for a filter, and the
// half-precision constants the kernel takes. Host code only, no GPU types, so that the
// host tests check it.
//
// The arithmetic it bounds: each pixel enters as x - 128 (an integer in [-128, 127],
// exact in half); the taps are rounded to half once; every partial sum is a half, one
// rounding per fused multiply-add; the sum starts at the fractional part of 128 * sum(h)
// and ends with one addition of 1024 plus its integer part, which rounds to an integer
// (halves in [1024, 2048) are the integers), to nearest with ties to even, and lands the
// byte in the low bits of the pattern. So the computed value before that last rounding
// differs from the exact sum of k * x by at most
//   E = 255 sum |h - k|                       (the taps' rounding; 0 <= x <= 255)
//     + |cf - half(cf)|                       (the starting fraction's)
//     + sum over the steps of ulp(P) / 2      (each step's, with P the bound on the
//                                              partial sum so far, 128 sum |h| + 1)
// where a step is exact (no term) when every value it can take is a multiple of ulp(P):
// taps and start of at most q fractional bits with P <= 2^(11 - q), as for Sobel, Scharr
// and the Laplacian, whose every partial sum is an integer below 2048. The separable form
// bounds its row sums the same way and carries their error through the column taps.
//
// What is promised (filter.hpp): an integer kernel with a divisor (filters::integer_kernel,
// NPP's kernel + divisor) gives the correctly rounded quotient; any other filter the
// correctly rounded value or one next to it. If |computed - exact| < 1, the rounded values
// differ by at most 1. For an integer kernel over an odd divisor D the exact quotient lies
// at least 1 / (2D) from a tie, so E < 1 / (2D) gives the correctly rounded value; over
// any other divisor only E = 0 does. The plan therefore finds the divisor: the least
// common denominator of the taps as fractions (small_denominator), and accepts the filter
// only under the matching condition. A filter it refuses runs in float (the fallback
// family). The divisors it finds: any up to 4096, and powers of two up to 2^16; an integer
// kernel over another divisor is taken as any filter (within 1).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <vector>

namespace hipstencil {
namespace detail {

/// Radius the packed plan holds at most: the kernel's words reach 4 pixels past its outputs.
constexpr int packed_max_radius = 4;

/// The nearest half-precision value to v (ties to even), as a double; infinity beyond the
/// largest half (65504).
inline double round_to_half(double v) {
  if (v == 0 || !std::isfinite(v)) return v;
  int e = 0;
  std::frexp(v, &e);  // |v| = f 2^e, 0.5 <= f < 1
  const int quantum = (e < -13 ? -13 : e) - 11;  // 11 significant bits; subnormals step 2^-24
  const double r = std::ldexp(std::nearbyint(std::ldexp(v, -quantum)), quantum);
  return std::fabs(r) > 65504.0 ? std::copysign(INFINITY, v) : r;
}

/// The bit pattern of a finite half-precision value h (one round_to_half gave).
inline std::uint16_t half_bits(double h) {
  const std::uint16_t sign = h < 0 ? 0x8000u : 0u;
  const double a = std::fabs(h);
  if (a == 0) return sign;
  int e = 0;
  std::frexp(a, &e);
  if (e < -13) return std::uint16_t(sign | std::uint16_t(std::ldexp(a, 24)));  // subnormal: a / 2^-24
  const int m = int(std::ldexp(a, 11 - e)) - 1024;                              // 10 stored bits
  return std::uint16_t(sign | std::uint16_t((e + 14) << 10) | std::uint16_t(m));
}

/// Unit in the last place of half-precision values of magnitude up to p.
inline double half_ulp(double p) {
  if (p < std::ldexp(1.0, -14)) return std::ldexp(1.0, -24);
  int e = 0;
  std::frexp(p, &e);  // 2^(e-1) <= p < 2^e
  return std::ldexp(1.0, e - 1 - 10);
}

/// Fractional bits of a finite double v (v * 2^q is an integer for this least q >= 0), from
/// its exponent and the trailing zeros of its significand.
inline int fraction_bits(double v) {
  if (v == 0) return 0;
  int e = 0;
  const double f = std::frexp(std::fabs(v), &e);  // |v| = f 2^e, f in [0.5, 1): 53 bits
  std::uint64_t m = std::uint64_t(std::ldexp(f, 53));
  int q = 53 - e;
  while (q > 0 && (m & 1u) == 0) m >>= 1, --q;
  return q > 0 ? q : 0;
}

/// The denominator of |t| as a fraction p / q: 2^k when |t| 2^k is an integer for some
/// k <= 16 (an integer kernel over a power of two up to 2^16, exactly); else the least q <=
/// 4096 of a continued-fraction convergent within 2^-23 of |t| relative (a float tap n / q
/// is within 2^-24, a product of two within 2^-23); 0 when there is none.
/// Denominators beyond 4096 are not searched: every float lies that close to a fraction of
/// some denominator below about 4096, so a larger bound would find one for any tap.
inline long long small_denominator(double t) {
  const double x = std::fabs(t);
  const int k = fraction_bits(x);
  if (k <= 16) return 1LL << k;
  const double tol = x * std::ldexp(1.01, -23);
  long long p0 = 0, q0 = 1, p1 = 1, q1 = 0;
  double r = x;
  for (int it = 0; it < 64; ++it) {
    const double a = std::floor(r);
    if (a > 4096.0) return 0;
    const long long p2 = (long long)a * p1 + p0, q2 = (long long)a * q1 + q0;
    if (q2 > 4096) return 0;
    if (q2 > 0 && std::fabs(x * double(q2) - double(p2)) <= tol * double(q2)) return q2;
    p0 = p1, q0 = q1, p1 = p2, q1 = q2;
    const double f = r - a;
    if (!(f > 0)) return 0;
    r = 1.0 / f;
  }
  return 0;
}

/// What the packed kernel takes for one filter, and why it may not run it.
struct packed_plan {
  bool ok = false;
  const char* why = "";            ///< when !ok: the reason, for the tests
  int taps = 0;                    ///< K * K dense, or 2K separable (row, then column)
  std::uint16_t k[(2 * packed_max_radius + 1) * (2 * packed_max_radius + 1)] = {};  ///< half bits
  std::uint16_t init = 0;          ///< half bits of the starting fraction cf
  std::uint16_t add = 0;           ///< half bits of 1024 + the integer part of 128 sum(h)
  double error_bound = 0;          ///< E above
  long long divisor = 0;           ///< the integer kernel's divisor found, 0 for none
};

namespace packed_detail {
/// The rounding error of accumulating `steps` terms in half, each of magnitude up to
/// `term[i]`, from a start of magnitude `start`, with every value a multiple of 2^-q;
/// negative when a partial sum may leave the half range.
inline double accumulate_error(double start, const std::vector<double>& term, int q, double carried) {
  double p = start, e = carried;
  for (double t : term) {
    p += t;
    if (p + e > 32768.0) return -1;  // far from 65504: the bound stays meaningful
    const double u = half_ulp(p + e);
    if (u > std::ldexp(1.0, -q)) e += u / 2;  // else every value is on the grid: exact
  }
  return e;
}

/// Accepts or refuses the plan by the promise above, given the exact taps k.
inline void settle(packed_plan& pl, const std::vector<double>& k) {
  long long d = 1;
  for (double t : k) {
    if (t == 0) continue;
    const long long q = small_denominator(t);
    if (q == 0) { d = 0; break; }
    d = std::lcm(d, q);
    if (d > (1LL << 24)) { d = 0; break; }
  }
  pl.divisor = d;
  const double e = pl.error_bound;
  if (d == 0) pl.ok = e < 1.0, pl.why = pl.ok ? "" : "rounding bound >= 1";
  else if (d % 2 == 1)
    pl.ok = e < 0.5 / double(d), pl.why = pl.ok ? "" : "integer kernel, odd divisor: bound >= 1/(2 divisor)";
  else pl.ok = e == 0, pl.why = pl.ok ? "" : "integer kernel, even divisor: not exact";
}

/// Sets init and add from c = 128 * sum(h); false when 1024 + floor(c) is no half integer.
inline bool set_offsets(packed_plan& pl, double c, double& cf_error, int& cf_bits) {
  const double ci = std::floor(c), cf = c - ci, cfh = round_to_half(cf);
  if (ci < -3072 || ci > 1024) return false;
  pl.init = half_bits(cfh);
  pl.add = half_bits(1024.0 + ci);
  cf_error = std::fabs(cf - cfh);
  cf_bits = fraction_bits(cfh);
  return true;
}
/// The last step of both plans: the final accumulation (from a start below 1 in magnitude,
/// terms `term`, every value a multiple of 2^-q, `carried` error so far), the bound with the
/// taps' rounding `quant` (sum |h - k|), and the verdict on the exact taps k.
inline packed_plan finish(packed_plan& pl, const std::vector<double>& term, int q, double carried, double quant,
                          const std::vector<double>& k) {
  const double acc = accumulate_error(1.0, term, q, carried);
  if (acc < 0) return pl.why = "partial sums beyond half range", pl;
  pl.error_bound = 255.0 * quant + acc;
  settle(pl, k);
  return pl;
}
}  // namespace packed_detail

/// Plan for a dense K x K filter, coefficients row-major (K = 2R + 1; refused beyond
/// R = packed_max_radius).
inline packed_plan plan_packed_dense(const std::vector<float>& c) {
  packed_plan pl;
  constexpr std::size_t most = sizeof(pl.k) / sizeof(pl.k[0]);
  if (c.empty() || c.size() > most) return pl.why = "filter wider than the kernel's reach", pl;
  pl.taps = int(c.size());
  std::vector<double> h(c.size()), k(c.size()), term(c.size());
  double sum = 0, quant = 0;
  int q = 0;
  for (std::size_t i = 0; i < c.size(); ++i) {
    k[i] = double(c[i]);
    h[i] = round_to_half(k[i]);
    if (!std::isfinite(h[i])) return pl.why = "tap beyond half range", pl;
    pl.k[i] = half_bits(h[i]);
    sum += h[i];  // exact: dyadic values of 11 significant bits between 2^-24 and 2^16
    quant += std::fabs(h[i] - k[i]);
    term[i] = 128.0 * std::fabs(h[i]);
    const int b = fraction_bits(h[i]);
    q = b > q ? b : q;
  }
  double cf_error = 0;
  int cf_bits = 0;
  if (!packed_detail::set_offsets(pl, 128.0 * sum, cf_error, cf_bits)) return pl.why = "taps sum too large", pl;
  return packed_detail::finish(pl, term, cf_bits > q ? cf_bits : q, cf_error, quant, k);
}

/// Plan for a separable filter of K row and K column taps, run as a row pass then a column
/// pass (pl.k: the row's halves, then the column's).
inline packed_plan plan_packed_separable(const std::vector<float>& row, const std::vector<float>& col) {
  packed_plan pl;
  const std::size_t n = row.size();
  if (n == 0 || n != col.size() || n > std::size_t(2 * packed_max_radius + 1))
    return pl.why = "filter wider than the kernel's reach, or not square", pl;
  pl.taps = int(2 * n);
  std::vector<double> hr(n), hc(n), rterm(n), cterm(n), k(n * n);
  double rsum = 0, csum = 0, rp = 0, quant = 0;
  int qr = 0, qc = 0;
  for (std::size_t i = 0; i < n; ++i) {
    hr[i] = round_to_half(double(row[i]));
    hc[i] = round_to_half(double(col[i]));
    if (!std::isfinite(hr[i]) || !std::isfinite(hc[i])) return pl.why = "tap beyond half range", pl;
    pl.k[i] = half_bits(hr[i]);
    pl.k[n + i] = half_bits(hc[i]);
    rsum += hr[i];
    csum += hc[i];
    rterm[i] = 128.0 * std::fabs(hr[i]);
    rp += rterm[i];
    const int br = fraction_bits(hr[i]), bc = fraction_bits(hc[i]);
    qr = br > qr ? br : qr;
    qc = bc > qc ? bc : qc;
  }
  for (std::size_t j = 0; j < n; ++j)
    for (std::size_t i = 0; i < n; ++i) {
      k[j * n + i] = double(col[j]) * double(row[i]);
      quant += std::fabs(hc[j] * hr[i] - k[j * n + i]);  // a product of halves: exact in double
    }
  const double er = packed_detail::accumulate_error(0.0, rterm, qr, 0.0);  // one row sum
  if (er < 0) return pl.why = "partial sums beyond half range", pl;
  const double c = 128.0 * rsum * csum;  // one rounding in double, bounded below
  double cf_error = 0;
  int cf_bits = 0;
  if (!packed_detail::set_offsets(pl, c, cf_error, cf_bits)) return pl.why = "taps sum too large", pl;
  double carried = cf_error + std::fabs(c) * std::ldexp(1.0, -52);
  for (std::size_t j = 0; j < n; ++j) {
    cterm[j] = std::fabs(hc[j]) * (rp + er);
    carried += std::fabs(hc[j]) * er;
  }
  const int q = qr + qc;
  return packed_detail::finish(pl, cterm, cf_bits > q ? cf_bits : q, carried, quant, k);
}

/// True for a constant border value the packed kernel reads exactly: an integer byte.
inline bool packed_constant(float v) { return v >= 0 && v <= 255 && v == std::floor(v); }

}  // namespace detail
}  // namespace hipstencil
