// hipstencil/detail/tuning/factor_tables.hpp
// Per-architecture tables of whether algo::automatic runs a dense filter as its separable
// factors: a rank-one filter as one separable filter, a low-rank one as a sum of terms.
#pragma once

#include "arch.hpp"
#include "shape.hpp"

namespace hipstencil {
namespace tuning {

/// Whether algo::automatic runs a dense filter whose coefficients factor into a column
/// times a row (detail/factor.hpp) as that separable filter, keyed by architecture as
/// automatic_table is. The generic table: sm_90's.
template <arch A>
struct factor_table {
  /// sm_90 (H200; `hipstencil-bench --dense --dense-rank1`, the Gaussian's outer product as a
  /// filter2d: automatic's separable run against the faster of dense tiled and shared_mem,
  /// bench/results/2026-11-23-factor/): radius 9 and 15 ran 1.05 to 17 times faster at
  /// every size (128x128: 1.05 to 1.6); radius 2 to 7 on one channel only on large images (8192x8192:
  /// 1.4 to 2.4; 3840x2160: radius 7 1.22 to 1.28, radius 2 and 4 0.88 to 1.09; 1920x1080
  /// and 512x512: 0.57 to 0.83, the dense tiled and shared_mem paths are that good there);
  /// on four channels from 1920x1080 (1.36 to 2.0; 512x512: 0.89 to 0.91). 3x3 stays dense.
  static constexpr bool factor(const problem_shape& s) {
    const int r = s.radius;
    const long long px = s.pixels();
    if (r < 2) return false;  // also -1: non-square or off-centre filters stay dense
    if (r > 8) return true;
    if (s.channels > 1) return px > (1LL << 19);
    return px > (1LL << (r <= 4 ? 23 : 22));
  }
};

/// Whether algo::automatic runs a dense kw x kh filter that is a sum of `terms` separable
/// terms (2 to 4, detail/factor.hpp) as those terms (kernels/low_rank.hpp) rather than
/// dense, keyed by architecture as automatic_table.
template <arch A>
struct low_rank_table {
  /// sm_90 (H200; `hipstencil-bench --dense --dense-log`, Laplacians of Gaussian, two
  /// terms, every case run as its terms against the faster of dense tiled and shared_mem,
  /// 512x512 to 8192x8192, u8, float, uchar4; bench/results/2026-11-24-lowrank/crossover/):
  /// the dense kernels win to radius 7 (tiled's compiled radii end at 8; the terms took
  /// 1.07 to 4.1x their time, uchar4 at radius 7 0.93 to 1.08x), the terms from radius 9
  /// (0.37 to 1.0x the dense time at radius 9, 0.036 to 0.17x at radius 31). So: more taps
  /// than 17 x 17. Each term costs about the same, so three and four terms (not timed) are
  /// taken while n (kw + kh) stays within 0.4 kw kh (two terms at radius 9: 0.21 kw kh).
  static constexpr bool factor(const problem_shape& s, int kw, int kh, int terms) {
    (void)s;
    const long long taps = (long long)kw * kh;
    return taps > 17 * 17 && 5LL * terms * (kw + kh) <= 2 * taps;
  }
};

}  // namespace tuning
}  // namespace hipstencil
