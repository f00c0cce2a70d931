// hipstencil/filter.hpp
// Filters (host-side value types) and the usual factories.
//
// Semantics are CORRELATION, as OpenCV filter2D and scipy.ndimage.correlate:
//   out(x, y) = sum_{j < height} sum_{i < width} k(i, j) * in(x + i - anchor_x, y + j - anchor_y)
// For true convolution, filter with f.flipped() (coefficients reversed on both axes and
// the anchor mirrored), which equals scipy.ndimage.convolve for odd sizes.
#pragma once

#include <cmath>
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>
#include <vector>

#include "error.hpp"

namespace hipstencil {

class filter2d;
class separable_filter;

namespace detail {
struct factor_cache;
// detail/factor.hpp; a template (filter2d only) so that its SVD is compiled only where used
template <class Filter, std::enable_if_t<std::is_same<Filter, filter2d>::value, int> = 0>
const factor_cache* filter_factors(const Filter& f);
inline void check_taps(const char* who, const char* param, std::size_t size, int anchor) {
  if (size < 1 || size % 2 == 0)
    throw_invalid(who, ": ", param, " must have an odd number (>= 1) of taps, got ", size);
  if (anchor < -1 || (anchor >= 0 && std::size_t(anchor) >= size))
    throw_invalid(who, ": ", param, " anchor must be -1 (centre) or in [0, ", size, "), got ", anchor);
}
inline void check_finite(const char* who, const char* param, const std::vector<float>& c) {
  for (std::size_t i = 0; i < c.size(); ++i)
    if (!std::isfinite(c[i])) throw_invalid(who, ": ", param, "[", i, "] is not finite (", c[i], ")");
}
}  // namespace detail

/// A dense width x height filter (odd sizes), coefficients row-major: k(i, j) is
/// coefficients[j * width + i]. The anchor is the tap aligned with the output pixel;
/// -1 selects the centre (width / 2, height / 2), as OpenCV's Point(-1, -1).
/// Throws invalid_argument for an even or zero size, a coefficient count other than
/// width * height, an anchor outside the filter, or a non-finite coefficient.
///
/// A filter2d is immutable. algo::automatic runs one whose coefficients are one column times
/// one row as that separable filter, and one that is a sum of two to four such products (a
/// Laplacian of Gaussian, a difference of Gaussians) as those separable terms, summed in one
/// pass (detail/factor.hpp); the factoring is computed on first use, once per object and
/// its copies, on the host.
class filter2d {
 public:
  filter2d(int width, int height, std::vector<float> coefficients, int anchor_x = -1, int anchor_y = -1);

  /// Size in taps and the anchor's column and row (0-based, inside the filter).
  int width() const { return w_; }
  int height() const { return h_; }
  int anchor_x() const { return ax_; }
  int anchor_y() const { return ay_; }
  /// Taps to the left of / above / right of / below the anchor (the halo each side needs).
  int reach_left() const { return ax_; }
  int reach_top() const { return ay_; }
  int reach_right() const { return w_ - 1 - ax_; }
  int reach_bottom() const { return h_ - 1 - ay_; }
  /// Number of coefficients, width * height.
  std::size_t taps() const { return c_.size(); }
  const std::vector<float>& coefficients() const { return c_; }
  /// Coefficient of column i, row j (0 <= i < width, 0 <= j < height).
  float operator()(int i, int j) const { return c_[std::size_t(j) * w_ + i]; }
  /// The filter for true convolution: coefficients reversed on both axes, anchor mirrored.
  filter2d flipped() const {
    return filter2d(w_, h_, std::vector<float>(c_.rbegin(), c_.rend()), w_ - 1 - ax_, h_ - 1 - ay_);
  }

 private:
  template <class Filter, std::enable_if_t<std::is_same<Filter, filter2d>::value, int>>
  friend const detail::factor_cache* detail::filter_factors(const Filter& f);
  int w_, h_, ax_ = 0, ay_ = 0;
  std::vector<float> c_;
  std::shared_ptr<detail::factor_cache> factors_;  ///< shared by copies: same coefficients
};

/// A separable filter: k(i, j) = column[j] * row[i]. Both tap counts odd; anchors as in
/// filter2d (anchor_x indexes `row`, anchor_y indexes `column`). Throws invalid_argument
/// like filter2d.
class separable_filter {
 public:
  separable_filter(std::vector<float> row, std::vector<float> column, int anchor_x = -1, int anchor_y = -1)
      : row_(std::move(row)), col_(std::move(column)) {
    detail::check_taps("separable_filter", "row", row_.size(), anchor_x);
    detail::check_taps("separable_filter", "column", col_.size(), anchor_y);
    detail::check_finite("separable_filter", "row", row_);
    detail::check_finite("separable_filter", "column", col_);
    ax_ = anchor_x < 0 ? int(row_.size()) / 2 : anchor_x;
    ay_ = anchor_y < 0 ? int(col_.size()) / 2 : anchor_y;
  }
  /// Size in taps (row taps x column taps) and the anchor, as filter2d.
  int width() const { return int(row_.size()); }
  int height() const { return int(col_.size()); }
  int anchor_x() const { return ax_; }
  int anchor_y() const { return ay_; }
  const std::vector<float>& row() const { return row_; }
  const std::vector<float>& column() const { return col_; }
  /// The equivalent dense filter (outer product), e.g. for algorithms that are not separable.
  filter2d to_2d() const {
    std::vector<float> k(row_.size() * col_.size());
    for (std::size_t j = 0; j < col_.size(); ++j)
      for (std::size_t i = 0; i < row_.size(); ++i) k[j * row_.size() + i] = col_[j] * row_[i];
    return filter2d(width(), height(), std::move(k), ax_, ay_);
  }
  /// The filter for true convolution: both tap lists reversed, anchors mirrored.
  separable_filter flipped() const {
    return separable_filter(std::vector<float>(row_.rbegin(), row_.rend()),
                            std::vector<float>(col_.rbegin(), col_.rend()), width() - 1 - ax_, height() - 1 - ay_);
  }

 private:
  std::vector<float> row_, col_;
  int ax_ = 0, ay_ = 0;
};

namespace detail {
/// The separable forms of a filter2d, found once (detail/factor.hpp fills them): at most
/// one of the two is set.
struct factor_cache {
  std::once_flag once;
  std::shared_ptr<const separable_filter> rank_one;  ///< null: not a rank-one filter
  /// Two or more separable terms (all with the filter's anchors) whose sum is the filter;
  /// null when it is rank one or has no such form within the tolerance.
  std::shared_ptr<const std::vector<separable_filter>> low_rank;
  /// The coefficients are m 2^-p (one p) with integers sum |m| < 2^24: an integer kernel
  /// over a power of two whose direct sums may be exact, which algo::fft leaves to them.
  bool small_integer = false;
};
}  // namespace detail

inline filter2d::filter2d(int width, int height, std::vector<float> coefficients, int anchor_x, int anchor_y)
    : w_(width), h_(height), c_(std::move(coefficients)), factors_(std::make_shared<detail::factor_cache>()) {
  if (width < 1 || width % 2 == 0) detail::throw_invalid("filter2d: width must be odd and >= 1, got ", width);
  if (height < 1 || height % 2 == 0) detail::throw_invalid("filter2d: height must be odd and >= 1, got ", height);
  if (c_.size() != std::size_t(width) * std::size_t(height))
    detail::throw_invalid("filter2d: coefficients has ", c_.size(), " values, expected width*height = ",
                          std::size_t(width) * std::size_t(height));
  if (anchor_x < -1 || anchor_x >= width)
    detail::throw_invalid("filter2d: anchor_x must be -1 (centre) or in [0, ", width, "), got ", anchor_x);
  if (anchor_y < -1 || anchor_y >= height)
    detail::throw_invalid("filter2d: anchor_y must be -1 (centre) or in [0, ", height, "), got ", anchor_y);
  detail::check_finite("filter2d", "coefficients", c_);
  ax_ = anchor_x < 0 ? width / 2 : anchor_x;
  ay_ = anchor_y < 0 ? height / 2 : anchor_y;
}

/// Filter factories. Sizes are given as radii: a radius r gives 2r + 1 taps.
namespace filters {

/// Largest radius a filter factory accepts: 2r + 1 taps must fit an int.
constexpr int max_radius = (2147483647 - 1) / 2;

/// Normalised box (mean) filter of (2rx+1) x (2ry+1) taps. Throws invalid_argument for a
/// radius below 0 or above max_radius.
inline separable_filter box(int radius_x, int radius_y) {
  if (radius_x < 0 || radius_y < 0 || radius_x > max_radius || radius_y > max_radius)
    detail::throw_invalid("filters::box: radii must be in [0, ", max_radius, "], got ", radius_x, ", ", radius_y);
  return separable_filter(std::vector<float>(2 * radius_x + 1, 1.0f / float(2 * radius_x + 1)),
                          std::vector<float>(2 * radius_y + 1, 1.0f / float(2 * radius_y + 1)));
}
/// Square box filter, (2r+1) x (2r+1).
inline separable_filter box(int radius) { return box(radius, radius); }

/// 1D normalised Gaussian taps exp(-x^2 / (2 sigma^2)), x in [-radius, radius], summing to 1
/// (scipy.ndimage.gaussian_filter1d's kernel; OpenCV getGaussianKernel for sigma > 0).
/// radius < 0 selects scipy's default, int(4 sigma + 0.5). Throws invalid_argument for
/// sigma <= 0 or not finite, and for a radius above max_radius. A sigma so small that
/// sigma^2 underflows gives the identity (its limit), as scipy does.
inline std::vector<float> gaussian_taps(double sigma, int radius = -1) {
  if (!(sigma > 0) || !std::isfinite(sigma)) detail::throw_invalid("filters::gaussian: sigma must be > 0, got ", sigma);
  if (radius > max_radius)
    detail::throw_invalid("filters::gaussian: radius must be <= ", max_radius, ", got ", radius);
  if (radius < 0) {
    if (4.0 * sigma + 0.5 > 1e6) detail::throw_invalid("filters::gaussian: sigma=", sigma, " gives a radius over 10^6 taps");
    radius = int(4.0 * sigma + 0.5);
  }
  std::vector<double> t(2 * radius + 1);
  double sum = 0;
  for (int x = -radius; x <= radius; ++x) {
    const double z = x / sigma;  // not x * x / (sigma * sigma): sigma * sigma underflows to 0
    sum += t[x + radius] = std::exp(-0.5 * z * z);
  }
  std::vector<float> out(t.size());
  for (std::size_t i = 0; i < t.size(); ++i) out[i] = float(t[i] / sum);
  return out;
}
/// Isotropic Gaussian blur, separable, normalised. See gaussian_taps for sigma and radius.
inline separable_filter gaussian(double sigma, int radius = -1) {
  auto t = gaussian_taps(sigma, radius);
  return separable_filter(t, t);
}

/// Sobel derivative along x (columns), 3x3: [-1 0 1] x [1 2 1]^T, as OpenCV Sobel(dx=1)
/// and scipy.ndimage.sobel(axis=1). Positive where intensity increases to the right.
inline separable_filter sobel_x() { return separable_filter({-1, 0, 1}, {1, 2, 1}); }
/// Sobel derivative along y (rows), 3x3. Positive where intensity increases downwards.
inline separable_filter sobel_y() { return separable_filter({1, 2, 1}, {-1, 0, 1}); }
/// Scharr derivative along x, 3x3: [-1 0 1] x [3 10 3]^T (OpenCV Scharr dx=1).
inline separable_filter scharr_x() { return separable_filter({-1, 0, 1}, {3, 10, 3}); }
/// Scharr derivative along y, 3x3.
inline separable_filter scharr_y() { return separable_filter({3, 10, 3}, {-1, 0, 1}); }

/// 4-neighbour Laplacian, 3x3 [0 1 0; 1 -4 1; 0 1 0] (OpenCV Laplacian ksize=1).
inline filter2d laplacian() { return filter2d(3, 3, {0, 1, 0, 1, -4, 1, 0, 1, 0}); }

/// Laplacian of Gaussian, (2r+1) x (2r+1), as scipy.ndimage.gaussian_laplace: the sum of
/// the Gaussian's second derivative along x and along y, d2(i) g(j) + g(i) d2(j), with g
/// gaussian_taps(sigma, radius) and d2(x) = g(x) (x^2 / sigma^4 - 1 / sigma^2) (scipy's
/// order-2 kernel: the normalised Gaussian times the polynomial, not renormalised).
/// Negative at the centre: filter with it and negate for the usual blob response. A dense
/// filter of rank two, which algo::automatic runs as two separable terms, or, where its
/// tables say so, on the tensor cores (one-channel 8-bit and float images up to 25x25) or
/// from 21x21 on large images through the FFT. sigma and radius as gaussian_taps
/// (radius < 0: int(4 sigma + 0.5)).
inline filter2d laplacian_of_gaussian(double sigma, int radius = -1) {
  const std::vector<float> g = gaussian_taps(sigma, radius);
  const int n = int(g.size()), r = n / 2;
  std::vector<double> d2(g.size());
  const double s2 = sigma * sigma;
  for (int x = -r; x <= r; ++x) d2[x + r] = double(g[x + r]) * (double(x) * x / (s2 * s2) - 1.0 / s2);
  std::vector<float> k(std::size_t(n) * std::size_t(n));
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) k[std::size_t(j) * n + i] = float(d2[i] * g[j] + double(g[i]) * d2[j]);
  return filter2d(n, n, std::move(k));
}

/// Sharpening: identity minus `amount` times the Laplacian,
/// [0 -a 0; -a 1+4a -a; 0 -a 0]; coefficients sum to 1. amount = 1 is the classic kernel.
inline filter2d sharpen(float amount = 1.0f) {
  const float a = amount;
  return filter2d(3, 3, {0, -a, 0, -a, 1 + 4 * a, -a, 0, -a, 0});
}

/// An integer kernel with a divisor, as NPP's filters take one (an Npp32s kernel and
/// nDivisor) and as OpenCV's integer kernels scaled by 1 / divisor: out = (sum of
/// k(i, j) * in(...)) / divisor, in hipstencil's correlation order (filter2d), then for
/// integer outputs rounded to nearest, ties to even, and saturated. The filter's taps are
/// k / divisor as floats. Integer outputs are exact (the correctly rounded quotient of the
/// exact integer sum) where integer_kernel_exact() says so, and within 1 of it otherwise;
/// under border::constant, for an integer constant. algo::packed (8-bit pixels in half
/// precision; automatic runs it for u8 and uchar4 at radius 1 and 2) finds the divisor from
/// the taps and runs only the kernels it computes exactly, leaving the rest to a float
/// family: for any divisor up to 4096 and for powers of two up to 2^16. A kernel over
/// another divisor it takes as any filter (within 1; detail/packed_plan.hpp).
/// Throws invalid_argument as filter2d does, and for a divisor below 1 or a coefficient
/// beyond 2^24 in magnitude (not every such integer is a float).
inline filter2d integer_kernel(int width, int height, const std::vector<int>& kernel, int divisor = 1,
                               int anchor_x = -1, int anchor_y = -1) {
  if (divisor < 1) detail::throw_invalid("filters::integer_kernel: divisor must be >= 1, got ", divisor);
  std::vector<float> taps(kernel.size());
  for (std::size_t i = 0; i < kernel.size(); ++i) {
    if (kernel[i] > (1 << 24) || kernel[i] < -(1 << 24))
      detail::throw_invalid("filters::integer_kernel: kernel[", i, "] = ", kernel[i], " is beyond 2^24 in magnitude");
    taps[i] = float(double(kernel[i]) / double(divisor));  // one rounding: the nearest float
  }
  return filter2d(width, height, std::move(taps), anchor_x, anchor_y);
}

/// True when integer_kernel(w, h, kernel, divisor) gives the exact result (see there) on
/// every family and in the reference for input channel values of magnitude up to
/// `max_input` (255 for 8-bit pixels, 65535 for uint16, 32768 for int16). With
/// s = max_input * sum |k| and n taps, kernels accumulate k / divisor * in in float:
///  - divisor a power of two: the taps are exact, every product and partial sum is a
///    multiple of 1 / divisor below s / divisor in magnitude: all exact while s < 2^24;
///  - divisor odd: the quotient is never a tie (twice the sum is even, an odd multiple of
///    an odd divisor is odd), so it lies at least 1 / (2 divisor) from one, while the float
///    sum is off by at most (2n + 1) 2^-24 s / divisor (one rounding per tap, per product
///    and per addition): it rounds to the same integer while 2 (2n + 1) s < 2^24;
///  - any other divisor: a quotient can be a tie, and the float sum may fall on either
///    side of it (within 1).
inline bool integer_kernel_exact(const std::vector<int>& kernel, int divisor, double max_input) {
  if (divisor < 1 || !(max_input >= 0)) return false;
  double sum = 0;
  for (int k : kernel) sum += std::fabs(double(k));
  const double s = max_input * sum, two24 = 16777216.0;
  if ((divisor & (divisor - 1)) == 0) return s < two24;
  if (divisor % 2 == 1) return 2.0 * (2.0 * double(kernel.size()) + 1.0) * s < two24;
  return false;
}

}  // namespace filters
}  // namespace hipstencil
