// The [gpu] matrix of the optimised families (shared_mem dense and fused separable,
// two_pass, tiled and streaming, dense and separable) x border strategy x border rule x
// radius, against the host reference, at awkward sizes with ROIs at every edge and
// corner. One translation unit per pixel type instantiates it (tests/gpu/test_algos_*.cpp),
// so the kernels compile in parallel.
#pragma once

#include "gpu_harness.hpp"

namespace gpu_test {

inline const border::any matrix_borders[] = {border::replicate{}, border::constant{0.37f}, border::reflect{},
                                             border::reflect101{}, border::wrap{}, border::skip{}, border::padded{}};

/// ROI placement: 0 = the whole image; 1..4 = touching the left, right, top, bottom edge of
/// a larger parent; 5..8 = each corner. Under `padded` the parent holds the filter's halo.
/// `aligned`: every ROI starts at a column that is a multiple of 16 pixels (so 16 bytes
/// or more for every pixel type), the placement algo::streaming's vector loads need.
inline problem place(int w, int h, int placement, halo hm, int reach_l, int reach_t, int reach_r, int reach_b,
                     border::kind b, bool aligned = false) {
  problem p;
  p.halo_mode = hm;
  const int mx = aligned ? 32 : 5, my = 4, cx = mx / 2, cy = my / 2;
  if (b == border::kind::padded) {
    const int left = aligned ? (reach_l + 15) / 16 * 16 : reach_l;
    p.src_w = w + left + reach_r, p.src_h = h + reach_t + reach_b;
    p.src_roi = rect{left, reach_t, w, h};
  } else if (placement == 0) {
    p.src_w = w, p.src_h = h, p.src_roi = rect{0, 0, w, h};
  } else {
    const int xs[9] = {0, 0, mx, cx, cx, 0, mx, 0, mx};
    const int ys[9] = {0, cy, cy, 0, my, 0, 0, my, my};
    p.src_w = w + mx, p.src_h = h + my, p.src_roi = rect{xs[placement], ys[placement], w, h};
  }
  const int dx = aligned ? 16 : 3;
  p.dst_w = w + dx, p.dst_h = h + 2;
  p.dst_roi = rect{(placement % 2) ? dx : 0, (placement / 2 % 2) ? 2 : 0, w, h};
  return p;
}

/// Random separable filter: each axis normalised to sum |t| = 1.
inline separable_filter random_separable(int kw, int kh, int ax = -1, int ay = -1) {
  std::uniform_real_distribution<float> d(-0.5f, 1.0f);
  auto axis = [&](int n) {
    std::vector<float> t(n);
    double s = 0;
    for (auto& v : t) s += std::fabs(v = d(rng()));
    for (auto& v : t) v = float(v / s);
    return t;
  };
  return separable_filter(axis(kw), axis(kh), ax, ay);
}

enum class family {
  smem_dense,
  smem_separable,
  two_pass,
  tiled_dense,
  tiled_separable,
  streaming_dense,
  streaming_separable
};
inline const char* name(family f) {
  switch (f) {
    case family::smem_dense: return "shared_mem (dense)";
    case family::smem_separable: return "shared_mem (separable)";
    case family::two_pass: return "two_pass";
    case family::tiled_dense: return "tiled (dense)";
    case family::tiled_separable: return "tiled (separable)";
    case family::streaming_dense: return "streaming (dense)";
    default: return "streaming (separable)";
  }
}
inline bool dense(family f) {
  return f == family::smem_dense || f == family::tiled_dense || f == family::streaming_dense;
}
inline bool streaming(family f) { return f == family::streaming_dense || f == family::streaming_separable; }

/// Calls convolve with the family's algorithm tag, strategy S.
template <class S, class In, class Out>
void convolve_family(family fam, image_view<const In> s, image_view<Out> d, const problem& p, const filter2d& f,
                     const separable_filter& sf, border::any b) {
  switch (fam) {
    case family::smem_dense: return convolve(s, p.src_roi, d, p.dst_roi, f, b, algo::shared_mem<S>{}, nullptr, p.halo_mode);
    case family::smem_separable: return convolve(s, p.src_roi, d, p.dst_roi, sf, b, algo::shared_mem<S>{}, nullptr, p.halo_mode);
    case family::two_pass: return convolve(s, p.src_roi, d, p.dst_roi, sf, b, algo::two_pass<S>{}, nullptr, p.halo_mode);
    case family::tiled_dense: return convolve(s, p.src_roi, d, p.dst_roi, f, b, algo::tiled<S>{}, nullptr, p.halo_mode);
    case family::tiled_separable: return convolve(s, p.src_roi, d, p.dst_roi, sf, b, algo::tiled<S>{}, nullptr, p.halo_mode);
    case family::streaming_dense: return convolve(s, p.src_roi, d, p.dst_roi, f, b, algo::streaming<S>{}, nullptr, p.halo_mode);
    case family::streaming_separable: return convolve(s, p.src_roi, d, p.dst_roi, sf, b, algo::streaming<S>{}, nullptr, p.halo_mode);
  }
}

/// One case: random source, random filter of kw x kh with anchor (ax, ay) (-1: centre),
/// the family's kernel against the reference. Returns the pixels compared.
template <class In, class Out>
long long run_family_case(family fam, bool tile_class, int w, int h, int kw, int kh, int ax, int ay, border::any b,
                          int placement, halo hm) {
  INFO(name(fam) << (tile_class ? ", tile_class" : ", per_access"));
  const bool sep = !dense(fam);
  const separable_filter sf = random_separable(kw, kh, ax, ay);
  const filter2d f = sep ? sf.to_2d() : random_filter(kw, kh, ax, ay);
  const problem p = place(w, h, placement, hm, f.reach_left(), f.reach_top(), f.reach_right(), f.reach_bottom(), b.rule,
                         streaming(fam));
  const auto src = random_image<In>(p.src_w, p.src_h);
  return check_against_reference<In, Out>(p, f, b, src, [&](image_view<const In> s, image_view<Out> d) {
    if (streaming(fam)) {
      // The aligned placement must reach the streaming kernel itself, not its fallback.
      const int r = detail::centred_radius(kw, kh, f.anchor_x(), f.anchor_y());
      const auto g = detail::make_geometry(s.bounds(), p.src_roi, p.dst_roi, kw, kh, f.anchor_x(), f.anchor_y(), b,
                                           p.halo_mode);
      const int compiled = dense(fam) ? 5 : 4;  // static_radii_streaming_dense / _separable
      CHECK(detail::streaming_fits(s, d, g, f.anchor_x(), f.anchor_y(), !dense(fam)) == (r >= 1 && r <= compiled));
    }
    if (tile_class) convolve_family<strategy::tile_class>(fam, s, d, p, f, sf, b);
    else convolve_family<strategy::per_access>(fam, s, d, p, f, sf, b);
  });
}

/// The full matrix for one pixel-type pair.
template <class In, class Out>
void family_matrix(bool with_full_hd) {
  const family fams[] = {family::smem_dense,      family::smem_separable,  family::two_pass,
                         family::tiled_dense,     family::tiled_separable, family::streaming_dense,
                         family::streaming_separable};
  long long cases = 0, pixels = 0;
  // Every family x strategy x border x radius at 31 x 33, ROI placement and halo mode cycling.
  for (family fam : fams)
    for (bool tc : {true, false})
      for (const border::any& b : matrix_borders)
        for (int r : {1, 2, 3, 4, 5, 6, 7, 8, 16, 32}) {
          if (r == 32 && dense(fam)) continue;  // dense fast paths go to 16
          // Radii 4, 6, 7 for streaming only: both sides of its compiled radii (1-5 dense, 1-4 separable).
          if ((r == 4 || r == 6 || r == 7) && !streaming(fam)) continue;
          const int placement = int(cases % 9);
          const halo hm = (cases / 9) % 2 ? halo::from_parent : halo::isolated;
          pixels += run_family_case<In, Out>(fam, tc, 31, 33, 2 * r + 1, 2 * r + 1, -1, -1, b, placement, hm);
          ++cases;
        }
  // Run-time-size paths: a radius not compiled, non-square and off-centre filters.
  for (family fam : fams)
    for (const border::any& b : matrix_borders) {
      pixels += run_family_case<In, Out>(fam, true, 31, 33, 19, 19, -1, -1, b, int(cases % 9), halo::isolated);
      pixels += run_family_case<In, Out>(fam, true, 31, 33, 7, 3, 1, 2, b, int((cases + 4) % 9), halo::from_parent);
      cases += 2;
    }
  // Awkward sizes: 1x1, a prime width, and a tile-spanning 257 x 129, radii 1, 5, 16.
  const int sizes[][2] = {{1, 1}, {97, 41}, {257, 129}};
  for (auto& s : sizes)
    for (family fam : fams)
      for (const border::any& b : matrix_borders)
        for (int r : {1, 5, 16}) {
          pixels += run_family_case<In, Out>(fam, cases % 2 == 0, s[0], s[1], 2 * r + 1, 2 * r + 1, -1, -1, b,
                                             int(cases % 9), (cases / 9) % 2 ? halo::from_parent : halo::isolated);
          ++cases;
        }
  // 1920 x 1080 (a frame of HD video), every family and strategy, two rules.
  if (with_full_hd)
    for (family fam : fams)
      for (bool tc : {true, false})
        for (const border::any& b : {border::any(border::reflect101{}), border::any(border::constant{3.0f})}) {
          pixels += run_family_case<In, Out>(fam, tc, 1920, 1080, 5, 5, -1, -1, b, 5, halo::from_parent);
          ++cases;
        }
  INFO("compared " << pixels << " pixels over " << cases << " cases");
  CHECK(cases > 0);
}

}  // namespace gpu_test
