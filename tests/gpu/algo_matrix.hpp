// The [gpu] matrix of every family of the library's list (algo::for_each_family), in each
// filter form it takes, x border strategy x border rule (border::all_rules) x radius,
// against the host reference, at awkward sizes with ROIs at every edge and
// corner. One translation unit per pixel type instantiates it (tests/gpu/test_algos_*.cpp),
// so the kernels compile in parallel.
#pragma once

#include "gpu_harness.hpp"

#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace gpu_test {

/// Every border rule (border::all_rules), the constant with a value that is not a pixel value.
inline std::vector<border::any> matrix_borders() {
  std::vector<border::any> v;
  border::for_each_rule([&](auto rule) { v.push_back(border::any(rule)); });
  for (auto& b : v)
    if (b.rule == border::kind::constant) b.value = 0.37f;
  return v;
}

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

/// The dense form of a filter, which the reference takes: the filter itself, or a
/// separable filter's outer product (in float, as separable_filter::to_2d builds it).
inline const filter2d& dense_form(const filter2d& f) { return f; }
inline filter2d dense_form(const separable_filter& f) { return f.to_2d(); }

/// One placed case of `algo` with `f` (a filter2d or a separable_filter) on a fresh random
/// source against the reference (outputs poisoned): check(resolved_algorithm's answer)
/// first, then the call. Returns the pixels compared.
template <class In, class Out, class Filter, class Algo, class Check>
long long run_placed(const Filter& f, border::any b, int w, int h, int placement, halo hm, Algo algo, Check&& check) {
  const filter2d df = dense_form(f);
  const problem p =
      place(w, h, placement, hm, df.reach_left(), df.reach_top(), df.reach_right(), df.reach_bottom(), b.rule);
  const auto src = random_image<In>(p.src_w, p.src_h);
  return check_against_reference<In, Out>(p, df, b, src, [&](image_view<const In> s, image_view<Out> d) {
    const resolution res = resolved_algorithm(s, p.src_roi, d, p.dst_roi, f, b, algo, p.halo_mode);
    INFO("runs " << res.str());
    check(res);
    convolve(s, p.src_roi, d, p.dst_roi, f, b, algo, nullptr, p.halo_mode);
  });
}

/// Every filter of `filters` under every border of `borders` with `algo`, on the image
/// sizes of `sides` in turn, the ROI placement (place) and the halo mode cycling, on fresh
/// random sources against the reference; checks through resolved_algorithm that `family`
/// runs each. Returns the pixels compared.
template <class In, class Out, class Filter = filter2d, class Algo>
long long placed_matrix(const std::vector<Filter>& filters, const std::vector<border::any>& borders,
                        const std::vector<std::array<int, 2>>& sides, Algo algo, const char* family) {
  long long cases = 0, pixels = 0;
  const long long n = (long long)sides.size();
  for (const Filter& f : filters)
    for (const border::any& b : borders) {
      const auto& s = sides[std::size_t(cases % n)];
      const halo hm = (cases / n) % 2 ? halo::from_parent : halo::isolated;
      INFO("case " << cases << ": " << f.width() << "x" << f.height() << " on " << s[0] << "x" << s[1]);
      pixels += run_placed<In, Out>(f, b, s[0], s[1], int(cases % 9), hm, algo,
                                    [&](const resolution& res) { CHECK(std::string(res.family) == family); });
      ++cases;
    }
  INFO(cases << " cases, " << pixels << " pixels");
  CHECK(pixels > 0);
  return pixels;
}

/// `algo` on a 150 x 140 image of In with infinities and NaNs (the run checked to be
/// `family`'s): each output must be NaN where the reference is, the same infinity where it
/// is one, and within the float tolerance of it elsewhere, as window sums give them:
/// families that mix a tile's pixels (products with zeros, transforms) must not carry a
/// NaN into windows that do not hold it.
template <class In, class Filter, class Algo>
void nonfinite_case(const Filter& f, border::any b, Algo algo, const char* family) {
  const int w = 150, h = 140;  // (tensor_core: 3 x 3 tiles of 64 x 64, the last ones partial)
  host_image<In> src = random_image<In>(w, h);
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  const int spots[][3] = {{10, 10, 0}, {100, 70, 0}, {70, 20, 1}, {149, 139, 2}, {64, 64, 1}};
  for (const auto& s : spots) src(s[0], s[1]) = In(s[2] == 0 ? nan : s[2] == 1 ? inf : -inf);
  host_image<In> ref(w, h);
  reference::convolve(src.view(), rect{0, 0, w, h}, ref.view(), rect{0, 0, w, h}, dense_form(f), b, halo::isolated,
                      reference::all_threads());
  device_image<In> d_src(w, h), d_dst(w, h);
  d_src.upload(src.view());
  d_dst.fill_bytes(0x7F);
  const resolution res = resolved_algorithm(image_view<const In>(d_src.view()), d_dst.view(), f, b, algo);
  CHECK(std::string(res.family) == family);
  convolve(image_view<const In>(d_src.view()), d_dst.view(), f, b, algo);
  host_image<In> out(w, h);
  d_dst.download(out.view());
  gpu::stream_synchronize(nullptr);
  // The filter held by name: a range-for over dense_form(f).coefficients() reads the vector
  // of a temporary filter2d destroyed before the loop starts (a separable f). A run on the
  // H200 (seed 2504144502) failed all 20619 finite outputs of one case, the first printed
  // equal to the reference to six places: the tolerance's sum had been read from freed
  // memory.
  const filter2d df = dense_form(f);
  double ksum = 0;
  for (float k : df.coefficients()) ksum += std::fabs(k);
  long long bad = 0, nans = 0, infs = 0;
  std::string first_bad;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const double r = double(float(ref(x, y))), g = double(float(out(x, y)));
      bool ok;
      if (std::isnan(r)) ok = std::isnan(g), ++nans;
      else if (std::isinf(r)) ok = g == r, ++infs;
      else ok = std::fabs(g - r) <= 1e-5 * ksum + 1e-6 + (std::is_same<In, half>::value ? std::fabs(r) * 0x1p-10 : 0.0);
      if (!ok && bad++ == 0)
        first_bad = "first mismatch at (" + std::to_string(x) + "," + std::to_string(y) + "): " + std::to_string(g) +
                    " against " + std::to_string(r);
    }
  INFO(nans << " NaN and " << infs << " infinite outputs in the reference; " << first_bad);
  CHECK(nans > 0);
  CHECK(infs > 0);
  CHECK(bad == 0);
}

/// Whether algo::tensor_core runs on this device: NVIDIA compute capability 8.0 or later
/// (the H200 is 9.0); elsewhere what it would take runs shared_mem.
inline bool tensor_cores_here() {
#if defined(HIPSTENCIL_BACKEND_CUDA)
  int major = 0;
  gpu::check(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, gpu::current_device()),
             "DeviceGetAttribute");
  return major >= 8;
#else
  return false;
#endif
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

/// A random dense (2r + 1)^2 filter that the packed plan takes: about nine in ten are, so
/// up to 20 are drawn; requires that one was.
inline filter2d random_packed_dense(int r) {
  filter2d f = random_filter(2 * r + 1, 2 * r + 1);
  for (int tries = 1; tries < 20 && !detail::plan_packed_dense(f.coefficients()).ok; ++tries)
    f = random_filter(2 * r + 1, 2 * r + 1);
  REQUIRE(detail::plan_packed_dense(f.coefficients()).ok);
  return f;
}

/// One family of the library's list (algo::for_each_family) with one form of the filter.
struct family_case {
  const char* name;  ///< the family's name, as resolved_algorithm reports it
  bool dense;        ///< dense filter2d (else separable_filter)
  bool streaming;    ///< needs vector-aligned ROIs to run itself (else it falls back)
};

/// Every family of the library's list, in every filter form it takes.
inline std::vector<family_case> all_family_cases() {
  std::vector<family_case> v;
  algo::for_each_family([&](auto tag) {
    using T = decltype(tag);
    const bool streaming = std::is_same<T, algo::streaming<>>::value;
    if (algo::takes_dense<T>) v.push_back({T::name, true, streaming});
    if (algo::takes_separable<T>) v.push_back({T::name, false, streaming});
  });
  return v;
}

/// True when `r` is a radius the family's default policy compiles for this form (then
/// the family must run the problem itself, with that instantiation).
inline bool compiled_radius(const family_case& fc, int r) {
  bool yes = false;
  algo::for_each_family([&](auto tag) {
    using T = decltype(tag);
    using P = typename detail::family_of<T>::type::default_policy;
    if (std::strcmp(T::name, fc.name) == 0)
      yes = fc.dense ? detail::compiled(r, typename P::dense_radii{}) : detail::compiled(r, typename P::separable_radii{});
  });
  return yes;
}

/// Calls run(tag, filter) once with the algorithm tag of fc's family under the strategy
/// asked (tile_class, else per_access): with `f` for a dense case, `sf` for a separable one.
template <class Run>
void with_family_tag(const family_case& fc, bool tile_class, const filter2d& f, const separable_filter& sf,
                     Run&& run) {
  auto dispatch = [&](auto strategy) {
    algo::for_each_family<decltype(strategy)>([&](auto tag) {
      using T = decltype(tag);
      if (std::strcmp(T::name, fc.name) != 0) return;
      if constexpr (algo::takes_dense<T>) {
        if (fc.dense) run(tag, f);
      }
      if (!fc.dense) run(tag, sf);
    });
  };
  if (tile_class) dispatch(strategy::tile_class{});
  else dispatch(strategy::per_access{});
}

/// Checks resolved_algorithm's answer `res` for filter f: a square centred filter of a
/// radius fc's family compiles runs that family itself, with that radius. `runner`, where
/// given, is the family that must run it instead: streaming's fallback for pixels its
/// vectors do not hold (three channels).
inline void check_runs_itself(const family_case& fc, const filter2d& f, const resolution& res,
                              const char* runner = nullptr) {
  INFO("runs " << res.str());
  const int kw = f.width(), kh = f.height();
  const int r = f.anchor_x() == kw / 2 && f.anchor_y() == kh / 2 && kw == kh ? kw / 2 : -1;
  if (!compiled_radius(fc, r)) return;
  if (runner) CHECK(std::strcmp(res.family, runner) == 0);
  else CHECK((std::strcmp(res.family, fc.name) == 0 && res.radius == r));
}

/// Whether algo::packed (default policy) runs a separable filter of radius r on pixels T
/// in one pass, as its outer product: uchar3 always (packed_three_kernel), uchar4 on one
/// image of `roi_pixels` pixels (-1: a batch) whose reads are replicate where
/// packed_four_kernel runs it (the policy's four_out_y).
template <class T>
bool packed_one_pass(long long roi_pixels, border::kind rule, int r) {
  if constexpr (pixel_traits<T>::channels == 3) {
    return true;
  } else if constexpr (std::is_same<T, uchar4>::value) {
    return roi_pixels >= 0 && detail::packed_family::reads_replicate(rule) &&
           tuning::packed_policy<>::four_out_y(roi_pixels, r, true) > 0;
  } else {
    return (void)roi_pixels, (void)rule, (void)r, false;
  }
}

/// The half-precision plan (detail/packed_plan.hpp) algo::packed runs filter f with (sf in
/// a separable case; f is then its outer product) on pixels T, radius r, rule `rule`: the
/// dense form's for a dense filter and where packed_one_pass, else the separable form's.
template <class T>
detail::packed_plan packed_plan_for(bool dense, const filter2d& f, const separable_filter& sf,
                                    long long roi_pixels, border::kind rule, int r) {
  return dense || packed_one_pass<T>(roi_pixels, rule, r) ? detail::plan_packed_dense(f.coefficients())
                                                          : detail::plan_packed_separable(sf.row(), sf.column());
}

/// The family that must run fc's compiled radii for pixels In -> Out, filter f (sf in a
/// separable case; f is then its outer product) and border b instead of fc's own, or null:
/// streaming's fallback where its vectors do not hold whole pixels; packed's where the
/// pixels are not u8, uchar3 or uchar4 in and out, the constant is no integer byte,
/// uchar3's reads are not replicate, or the half-precision plan refuses the filter
/// (packed_plan_for, computed here from the host plan, which the host tests check;
/// `roi_pixels`: the call's ROI, -1 for a batch).
template <class In, class Out>
const char* runner_for(const family_case& fc, const filter2d& f, const separable_filter& sf, border::any b,
                       long long roi_pixels) {
  using S = detail::streaming_family;
  if (fc.streaming && !S::whole_pixels<In, Out>) return S::fallback::name;
  using P = detail::packed_family;
  if (std::strcmp(fc.name, P::name) == 0) {
    constexpr bool three = pixel_traits<In>::channels == 3;
    const bool holds = P::takes_pixels<In, Out> && (b.rule != border::kind::constant || detail::packed_constant(b.value)) &&
                       (!three || P::reads_replicate(b.rule)) &&
                       packed_plan_for<In>(fc.dense, f, sf, roi_pixels, b.rule, f.width() / 2).ok;
    if (!holds) return P::fallback::name;
  }
  return nullptr;
}

/// One case: random source, random filter of kw x kh with anchor (ax, ay) (-1: centre),
/// the family's kernel against the reference. Checks with resolved_algorithm that a
/// square centred filter of a compiled radius runs the family itself with that radius (so
/// the aligned placement reaches streaming, not its fallback). Returns the pixels compared.
template <class In, class Out>
long long run_family_case(const family_case& fc, bool tile_class, int w, int h, int kw, int kh, int ax, int ay,
                          border::any b, int placement, halo hm) {
  INFO(fc.name << (fc.dense ? " (dense)" : " (separable)") << (tile_class ? ", tile_class" : ", per_access"));
  const separable_filter sf = random_separable(kw, kh, ax, ay);
  const filter2d f = fc.dense ? random_filter(kw, kh, ax, ay) : sf.to_2d();
  const problem p = place(w, h, placement, hm, f.reach_left(), f.reach_top(), f.reach_right(), f.reach_bottom(), b.rule,
                         fc.streaming);
  const auto src = random_image<In>(p.src_w, p.src_h);
  return check_against_reference<In, Out>(p, f, b, src, [&](image_view<const In> s, image_view<Out> d) {
    with_family_tag(fc, tile_class, f, sf, [&](auto tag, const auto& filter) {
      check_runs_itself(fc, f, resolved_algorithm(s, p.src_roi, d, p.dst_roi, filter, b, tag, p.halo_mode),
                        runner_for<In, Out>(fc, f, sf, b, (long long)p.src_roi.width * p.src_roi.height));
      convolve(s, p.src_roi, d, p.dst_roi, filter, b, tag, nullptr, p.halo_mode);
    });
  });
}

/// The full matrix for one pixel-type pair.
template <class In, class Out>
void family_matrix(bool with_full_hd) {
  const std::vector<family_case> fams = all_family_cases();
  const std::vector<border::any> borders = matrix_borders();
  long long cases = 0, pixels = 0;
  // Every family x strategy x border x radius at 31 x 33, ROI placement and halo mode cycling.
  for (const family_case& fam : fams)
    for (bool tc : {true, false})
      for (const border::any& b : borders)
        for (int r : {1, 2, 3, 4, 5, 6, 7, 8, 16, 32}) {
          if (r == 32 && fam.dense) continue;  // dense fast paths go to 16
          // Radii 4, 6, 7 for streaming only: both sides of its compiled radii (1-5 dense, 1-4 separable).
          if ((r == 4 || r == 6 || r == 7) && !fam.streaming) continue;
          const int placement = int(cases % 9);
          const halo hm = (cases / 9) % 2 ? halo::from_parent : halo::isolated;
          pixels += run_family_case<In, Out>(fam, tc, 31, 33, 2 * r + 1, 2 * r + 1, -1, -1, b, placement, hm);
          ++cases;
        }
  // Run-time-size paths: a radius not compiled, non-square and off-centre filters.
  for (const family_case& fam : fams)
    for (const border::any& b : borders) {
      pixels += run_family_case<In, Out>(fam, true, 31, 33, 19, 19, -1, -1, b, int(cases % 9), halo::isolated);
      pixels += run_family_case<In, Out>(fam, true, 31, 33, 7, 3, 1, 2, b, int((cases + 4) % 9), halo::from_parent);
      cases += 2;
    }
  // Awkward sizes: 1x1, a prime width, and a tile-spanning 257 x 129, radii 1, 5, 16.
  const int sizes[][2] = {{1, 1}, {97, 41}, {257, 129}};
  for (auto& s : sizes)
    for (const family_case& fam : fams)
      for (const border::any& b : borders)
        for (int r : {1, 5, 16}) {
          pixels += run_family_case<In, Out>(fam, cases % 2 == 0, s[0], s[1], 2 * r + 1, 2 * r + 1, -1, -1, b,
                                             int(cases % 9), (cases / 9) % 2 ? halo::from_parent : halo::isolated);
          ++cases;
        }
  // 1920 x 1080 (a frame of HD video), every family and strategy, two rules.
  if (with_full_hd)
    for (const family_case& fam : fams)
      for (bool tc : {true, false})
        for (const border::any& b : {border::any(border::reflect101{}), border::any(border::constant{3.0f})}) {
          pixels += run_family_case<In, Out>(fam, tc, 1920, 1080, 5, 5, -1, -1, b, 5, halo::from_parent);
          ++cases;
        }
  INFO("compared " << pixels << " pixels over " << cases << " cases");
  CHECK(cases > 0);
}

/// A smaller matrix, for compute-sanitizer (whose tools slow every launch by 10 to 1000
/// times, racecheck most of all with wide filters in shared memory): every family and form
/// x strategy x border rule at radii 1, 2 and 5 on 31 x 33 with the ROI placement and halo
/// mode cycling through all 18 combinations; a run-time-size off-centre 7 x 3 filter; 1 x 1
/// and a prime 97 x 41.
template <class In, class Out>
void family_matrix_small() {
  const std::vector<family_case> fams = all_family_cases();
  const std::vector<border::any> borders = matrix_borders();
  long long cases = 0, pixels = 0;
  auto placement = [&] { return int(cases % 9); };
  auto halo_mode = [&] { return (cases / 9) % 2 ? halo::from_parent : halo::isolated; };
  for (const family_case& fam : fams)
    for (bool tc : {true, false})
      for (const border::any& b : borders) {
        for (int r : {1, 2, 5}) {
          pixels += run_family_case<In, Out>(fam, tc, 31, 33, 2 * r + 1, 2 * r + 1, -1, -1, b, placement(), halo_mode());
          ++cases;
        }
        pixels += run_family_case<In, Out>(fam, tc, 31, 33, 7, 3, 1, 2, b, placement(), halo_mode());
        ++cases;
        for (auto s : {std::pair<int, int>{1, 1}, std::pair<int, int>{97, 41}}) {
          pixels += run_family_case<In, Out>(fam, tc, s.first, s.second, 3, 3, -1, -1, b, placement(), halo_mode());
          ++cases;
        }
      }
  INFO("compared " << pixels << " pixels over " << cases << " cases");
  CHECK(cases > 0);
}

}  // namespace gpu_test
