// hipstencil/detail/factor_svd.hpp
// A dense filter as a sum of a few separable terms, by the singular value decomposition of
// its coefficient matrix (Eigen, from Debian's libeigen3-dev): with K = U S V^T,
// the k largest singular values give the best rank-k approximation (Eckart-Young), and
// term t is column sqrt(s_t) U(:, t) times row sqrt(s_t) V(:, t). Host code only.
//
// Eigen is a heavy header (several seconds a translation unit, more under nvcc), so
// hipstencil's own build compiles svd_terms once, in the kernel library
// (cmake/HipstencilInstances.cmake), and every other unit of that build, which defines
// HIPSTENCIL_PRECOMPILED_KERNELS, sees the declaration only. A user's build includes Eigen
// where it includes this header. If Eigen is not yet included, it is included with its
// CUDA and HIP device support off (EIGEN_NO_CUDA, EIGEN_NO_HIP): hipstencil calls it from
// host code only, and nvcc otherwise warns about every host function Eigen's
// host-and-device functions call (warning 20011). A translation unit that uses Eigen in
// device code includes Eigen before hipstencil.
#pragma once

#include <vector>

#include "../filter.hpp"

namespace hipstencil {
namespace detail {

/// The fewest separable terms, at most `max_terms`, whose sum, with every factor rounded to
/// float, is within `tolerance` sum |k| of f's coefficients (sum over every tap of the
/// absolute difference): each term a separable_filter with f's size and anchors, the
/// largest first. Empty when no sum of max_terms terms is that close, or when a sum of two
/// or more terms could round worse than the dense filter itself (see factor.hpp). Fails
/// for nothing (an all-zero filter gives no terms). Cost: an SVD of a height x width matrix,
/// once per filter2d (g++ -O2, one core: 1.5 ms at 63 x 63, 6 ms at 127 x 127, 27 ms at
/// 255 x 255).
template <class Filter>
std::vector<separable_filter> svd_terms(const Filter& f, int max_terms, double tolerance);

#if defined(HIPSTENCIL_PRECOMPILED_KERNELS) && !defined(HIPSTENCIL_COMPILE_SVD_TERMS)
extern template std::vector<separable_filter> svd_terms<filter2d>(const filter2d&, int, double);
#else
}  // namespace detail
}  // namespace hipstencil

#if !defined(EIGEN_CORE_H) && !defined(EIGEN_NO_CUDA)
#define EIGEN_NO_CUDA
#endif
#if !defined(EIGEN_CORE_H) && !defined(EIGEN_NO_HIP)
#define EIGEN_NO_HIP
#endif
#include <Eigen/SVD>
#include <cmath>

namespace hipstencil {
namespace detail {

template <class Filter>
std::vector<separable_filter> svd_terms(const Filter& f, int max_terms, double tolerance) {
  const int w = f.width(), h = f.height();
  Eigen::MatrixXd k(h, w);
  double total = 0;
  for (int j = 0; j < h; ++j)
    for (int i = 0; i < w; ++i) total += std::fabs(k(j, i) = double(f(i, j)));
  if (!(total > 0)) return {};
  // BDCSVD (divide and conquer: 8x faster than JacobiSVD at 255 x 255); Eigen 3.4.0's
  // gives NaN for some matrices whose entries span a wide range (a Gaussian of sigma 0.8
  // over 35 x 35 taps, with entries down to 1e-45), where the slower JacobiSVD does not.
  Eigen::BDCSVD<Eigen::MatrixXd> bdc(k, Eigen::ComputeThinU | Eigen::ComputeThinV);
  Eigen::JacobiSVD<Eigen::MatrixXd> jacobi;
  const bool finite = bdc.singularValues().allFinite() && bdc.matrixU().allFinite() && bdc.matrixV().allFinite();
  if (!finite) jacobi.compute(k, Eigen::ComputeThinU | Eigen::ComputeThinV);
  const Eigen::MatrixXd& u = finite ? bdc.matrixU() : jacobi.matrixU();
  const Eigen::MatrixXd& v = finite ? bdc.matrixV() : jacobi.matrixV();
  const Eigen::VectorXd& s = finite ? bdc.singularValues() : jacobi.singularValues();
  if (!s.allFinite() || !u.allFinite() || !v.allFinite()) return {};
  std::vector<separable_filter> terms;
  Eigen::MatrixXd residual = k;
  double rounding = 0;  // sum over the terms of sum |column| * sum |row| (see factor.hpp)
  for (int t = 0; t < max_terms && t < int(s.size()) && s(t) > 0; ++t) {
    const double scale = std::sqrt(s(t));
    std::vector<float> row(static_cast<std::size_t>(w)), col(static_cast<std::size_t>(h));
    double row_l1 = 0, col_l1 = 0;
    for (int i = 0; i < w; ++i) row_l1 += std::fabs(row[i] = float(scale * v(i, t)));
    for (int j = 0; j < h; ++j) col_l1 += std::fabs(col[j] = float(scale * u(j, t)));
    for (int j = 0; j < h; ++j)
      for (int i = 0; i < w; ++i) residual(j, i) -= double(col[j]) * double(row[i]);
    rounding += row_l1 * col_l1;
    terms.emplace_back(std::move(row), std::move(col), f.anchor_x(), f.anchor_y());
    if (residual.cwiseAbs().sum() <= tolerance * total) {
      const int n = int(terms.size());
      // A sum of n terms rounds (w + h + n) times per term sum where the dense sum rounds
      // w h times per tap: keep it only when its bound is no larger.
      if (n > 1 && double(w + h + n) * rounding > double(w) * double(h) * total) return {};
      return terms;
    }
  }
  return {};
}
#endif

}  // namespace detail
}  // namespace hipstencil
