// hipstencil/detail/factor.hpp
// A dense filter whose coefficients are one column times one row (a rank-one matrix: a
// Gaussian, a box, a binomial, any separable filter handed over as a filter2d) runs as that
// separable filter under algo::automatic: 2n taps a pixel instead of n^2; one that is a
// sum of a few such products (a Laplacian of Gaussian, a difference of Gaussians) runs as
// those terms, summed in one kernel (kernels/low_rank.hpp). Host code only; computed once
// per filter2d object (its cache, filter.hpp) and never on the GPU.
//
// Two ways to find the factors:
//  - integer coefficients: when every coefficient is m * 2^-p with one p and integers
//    |m| < 2^24 (NPP-style integer kernels over a power of two, boxes, binomials), the
//    integer matrix m is factored exactly, c[j] * r[i] = m[j][i], or not at all. The
//    factors are integers over powers of two, so every product and partial sum of the
//    separable passes is exact where the dense sum is (filters::integer_kernel_exact), and
//    the integer outputs are the same bit for bit. One that is not exactly rank one stays
//    dense while sum |m| < 2^24 (it may be exact for some input range, and a fit could
//    move an output across a tie); beyond that it is fitted as below. O(width * height).
//  - otherwise, the fewest separable terms (one to low_rank_max_terms) whose sum is within
//    2^-22 sum |k| of k, with the factors rounded to float (factor_svd.hpp: the truncated
//    singular value decomposition). For one term that bounds the change of any output by
//    2^-22 sum|k| max|in|: four units in the last place of the float sum, below the
//    rounding error of the dense sum itself (one rounding per tap and per addition). For
//    an odd-divisor integer kernel the margin of integer_kernel_exact still holds: the
//    separable sum makes 2 (w + h) + 1 roundings where the bound allows 2 w h + 1, which
//    leaves the 4 for w, h >= 3. A sum of n > 1 terms t rounds w + h + n times per
//    sum |column_t| sum |row_t| |in|, which may exceed sum |k| |in| when the terms cancel
//    (a Laplacian of Gaussian's do): it is kept only when
//      (w + h + n) sum_t sum |column_t| sum |row_t| <= w h sum |k|,
//    so that its worst-case rounding is no larger than the dense sum's.
// Filters of more than separable_capacity taps a side, which no separable kernel holds,
// are not fitted.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <numeric>
#include <type_traits>
#include <vector>

#include "../filter.hpp"
#include "factor_svd.hpp"
#include "kernels/taps.hpp"

namespace hipstencil {
namespace detail {

/// Relative L1 tolerance of a non-integer factoring: sum |k - sum_t column_t * row_t| <=
/// tol sum |k|.
constexpr double factor_tolerance = 1.0 / 4194304.0;  // 2^-22

/// If every coefficient is m * 2^-p for one p and integers |m| < 2^24, sets m and p.
inline bool integer_form(const std::vector<float>& c, std::vector<std::int64_t>& m, int& p) {
  // A nonzero float is an odd integer times 2^e; p must reach -min(e) and stays within
  // 2^24 only if the largest coefficient does too.
  bool any = false;
  int need = -100000;
  for (float v : c) {
    if (v == 0) continue;
    int e = 0;
    double f = std::frexp(double(v), &e);  // v = f 2^e, 0.5 <= |f| < 1
    std::int64_t mant = std::int64_t(std::ldexp(f, 24));
    int shift = 24 - e;  // v = mant 2^-shift
    while (mant % 2 == 0) mant /= 2, --shift;
    need = any ? (shift > need ? shift : need) : shift;
    any = true;
  }
  if (!any) return false;
  p = need;
  m.resize(c.size());
  for (std::size_t i = 0; i < c.size(); ++i) {
    const double s = std::ldexp(double(c[i]), p);
    if (!(std::fabs(s) < 16777216.0)) return false;
    m[i] = std::int64_t(s);
  }
  return true;
}

/// sum |m|.
inline std::int64_t abs_sum(const std::vector<std::int64_t>& m) {
  std::int64_t sum = 0;
  for (std::int64_t v : m) sum += v < 0 ? -v : v;
  return sum;
}

/// Exact integer factoring m[j][i] = col[j] * row[i] (w columns, h rows), or false.
inline bool integer_rank_one(const std::vector<std::int64_t>& m, int w, int h, std::vector<std::int64_t>& row,
                             std::vector<std::int64_t>& col) {
  // Pivot: the column and row of the largest magnitude (nonzero: some m is).
  std::size_t piv = 0;
  for (std::size_t k = 1; k < m.size(); ++k)
    if (std::llabs(m[k]) > std::llabs(m[piv])) piv = k;
  const int pi = int(piv % std::size_t(w)), pj = int(piv / std::size_t(w));
  col.assign(std::size_t(h), 0);
  std::int64_t g = 0;
  for (int j = 0; j < h; ++j) g = std::gcd(g, std::llabs(col[j] = m[std::size_t(j) * w + pi]));
  for (auto& v : col) v /= g;
  row.assign(std::size_t(w), 0);
  for (int i = 0; i < w; ++i) {
    const std::int64_t v = m[std::size_t(pj) * w + i];
    if (v % col[pj] != 0) return false;
    row[i] = v / col[pj];
  }
  for (int j = 0; j < h; ++j)
    for (int i = 0; i < w; ++i)
      if (col[j] * row[i] != m[std::size_t(j) * w + i]) return false;
  return true;
}

/// Only filter2d: these functions are templates so that the SVD (Eigen, factor_svd.hpp),
/// which costs a translation unit tens of seconds to compile (nvcc 13 on a 2-core x86
/// machine: 23 s in cicc and 50 in g++ for svd_terms alone), is compiled where a call may
/// factor a filter (algo::automatic, and the fits of fft and tensor_core), not in every unit
/// that includes hipstencil.hpp (an empty one took 68 s through nvcc before, 17 after).
template <class Filter>
using if_filter2d = std::enable_if_t<std::is_same<Filter, filter2d>::value, int>;

/// The separable forms of `f` (see the top of this file): `rank_one` when its coefficients
/// are a rank-one matrix, else `low_rank` when they are a sum of 2 to low_rank_max_terms
/// separable terms, else neither. Anchors as f's.
template <class Filter, if_filter2d<Filter> = 0>
void factor_filter(const Filter& f, factor_cache& out) {
  const int w = f.width(), h = f.height();
  std::vector<std::int64_t> m, mr, mc;
  int p = 0;
  if (integer_form(f.coefficients(), m, p)) {
    out.small_integer = abs_sum(m) < (std::int64_t(1) << 24);
    if (integer_rank_one(m, w, h, mr, mc)) {
      std::vector<float> row(static_cast<std::size_t>(w)), col(static_cast<std::size_t>(h));
      const int pr = p / 2, pc = p - pr;  // split the scale: both factors stay normal floats
      for (int i = 0; i < w; ++i) row[i] = float(std::ldexp(double(mr[i]), -pr));
      for (int j = 0; j < h; ++j) col[j] = float(std::ldexp(double(mc[j]), -pc));
      out.rank_one = std::make_shared<const separable_filter>(std::move(row), std::move(col), f.anchor_x(), f.anchor_y());
      return;
    }
    // Not exactly rank one. If sum |m| < 2^24 this may be an integer kernel over a power
    // of two whose outputs are exact for some input range (integer_kernel_exact), which a
    // fit within 2^-22 could move across a tie: it stays dense. Beyond, no input range
    // keeps it exact (m needs a 2^p divisor >= the integer kernel's), and a fit is safe.
    if (out.small_integer) return;
  }
  if (std::max(w, h) > separable_capacity) return;
  std::vector<separable_filter> terms = svd_terms(f, low_rank_max_terms, factor_tolerance);
  if (terms.size() == 1)
    out.rank_one = std::make_shared<const separable_filter>(std::move(terms[0]));
  else if (terms.size() > 1)
    out.low_rank = std::make_shared<const std::vector<separable_filter>>(std::move(terms));
}

/// The factor_cache of f, filled by factor_filter on the first call for f or any copy of
/// it (thread-safe), then remembered; null for a moved-from object.
template <class Filter, if_filter2d<Filter>>
const factor_cache* filter_factors(const Filter& f) {
  detail::factor_cache* c = f.factors_.get();
  if (!c) return nullptr;
  std::call_once(c->once, [&] { factor_filter(f, *c); });
  return c;
}

/// f's rank-one separable form, or null (filter_factors).
template <class Filter, if_filter2d<Filter> = 0>
const separable_filter* rank_one_factors(const Filter& f) {
  const factor_cache* c = filter_factors(f);
  return c ? c->rank_one.get() : nullptr;
}

/// True when f's coefficients are m 2^-p with integers sum |m| < 2^24 (factor_cache).
template <class Filter, if_filter2d<Filter> = 0>
bool small_integer_kernel(const Filter& f) {
  const factor_cache* c = filter_factors(f);
  return c && c->small_integer;
}

/// The same for a separable filter's outer product: each axis in integer form, the
/// product of their sums below 2^24 (the outer product's sum |m|). O(kw + kh), per call.
inline bool small_integer_kernel(const separable_filter& f) {
  std::vector<std::int64_t> mr, mc;
  int pr = 0, pc = 0;
  if (!integer_form(f.row(), mr, pr) || !integer_form(f.column(), mc, pc)) return false;
  return double(abs_sum(mr)) * double(abs_sum(mc)) < 16777216.0;
}

/// f's separable terms when it is a sum of 2 to low_rank_max_terms of them, or null.
template <class Filter, if_filter2d<Filter> = 0>
const std::vector<separable_filter>* low_rank_factors(const Filter& f) {
  const factor_cache* c = filter_factors(f);
  return c ? c->low_rank.get() : nullptr;
}

}  // namespace detail
}  // namespace hipstencil
