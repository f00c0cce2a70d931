// Shared by the standalone A/B drivers of bench/experiments/ (the .cu files that include
// it; not built by CMake): the median time of a call by device events, a hash of an output
// and random inputs, the dense filter they time, the packed drivers' walk over their cases,
// and the library's variants, timing and line of one case of the replicate kernels'
// probes, so that their figures are taken the same way.
#pragma once
#include <hipstencil/hipstencil.hpp>
#include <cuda_runtime.h>
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

/// FNV-1a over the rows of `count` images, each w x h pixels of `bytes` bytes, `stride` apart.
inline unsigned long long hash_rows(const void* dev, std::size_t pitch, int w, int h, int count, std::size_t stride,
                                    int bytes) {
  std::vector<unsigned char> o(std::size_t(w) * bytes * h);
  unsigned long long hash = 1469598103934665603ull;
  for (int k = 0; k < count; ++k) {
    cudaMemcpy2D(o.data(), std::size_t(w) * bytes, static_cast<const char*>(dev) + k * stride, pitch,
                 std::size_t(w) * bytes, h, cudaMemcpyDeviceToHost);
    for (auto v : o) hash = (hash ^ v) * 1099511628211ull;
  }
  return hash;
}
inline void fill_random(void* dev, std::size_t pitch, std::size_t row_bytes, std::size_t rows, unsigned& s) {
  std::vector<unsigned char> h(row_bytes * rows);
  for (auto& v : h) { s = s * 1664525u + 1013904223u; v = (unsigned char)(s >> 24); }
  cudaMemcpy2D(dev, pitch, h.data(), row_bytes, row_bytes, rows, cudaMemcpyHostToDevice);
}
/// Fills a pitched device image of w x h floats with values in [0, 1) from the same
/// generator (random bytes could be NaN).
inline void fill_random_floats(float* dev, std::size_t pitch, int w, int h, unsigned& s) {
  std::vector<float> v(std::size_t(w) * h);
  for (auto& x : v) { s = s * 1664525u + 1013904223u; x = (s >> 8) / 16777216.f; }
  cudaMemcpy2D(dev, pitch, v.data(), std::size_t(w) * 4, std::size_t(w) * 4, h, cudaMemcpyHostToDevice);
}
/// A device image of random pixels: floats in [0, 1), other types random bytes.
template <class T>
void fill_random_pixels(hipstencil::device_image<T>& im, unsigned& s) {
  if constexpr (std::is_same<T, float>::value)
    fill_random_floats(im.data(), im.pitch_bytes(), im.width(), im.height(), s);
  else
    fill_random(im.data(), im.pitch_bytes(), std::size_t(im.width()) * sizeof(T), im.height(), s);
}

/// Host wall time per call of f, in microseconds, over n calls queued without a sync (after
/// one call and a sync); with `drain_us`, also per call until the device has run them all.
template <class F>
double host_enqueue_us(F f, int n, double* drain_us = nullptr) {
  f();
  cudaDeviceSynchronize();
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < n; ++i) f();
  const auto t1 = std::chrono::steady_clock::now();
  cudaDeviceSynchronize();
  const auto t2 = std::chrono::steady_clock::now();
  if (drain_us) *drain_us = std::chrono::duration<double, std::micro>(t2 - t0).count() / n;
  return std::chrono::duration<double, std::micro>(t1 - t0).count() / n;
}

/// Spins one thread for `cycles` clock cycles: work queued behind it on the stream waits on
/// the device, not on the host (time_us's `held`).
static __global__ void ab_spin_kernel(long long cycles) {
  const long long t0 = clock64();
  while (clock64() - t0 < cycles) {
  }
}

/// Median of `runs` timings of f() in microseconds (device events around each call), after
/// one synchronised call and 5 more to warm up. runs <= 100. `held`: the warm-up and timed
/// calls queue behind ab_spin_kernel for longer than the host takes to queue them (about
/// 60 us a call at 2 GHz), so that the device runs them back to back, as
/// hipstencil-bench --hold does.
template <class F>
double time_us(F f, int runs = 40, bool held = false) {
  static std::vector<cudaEvent_t> ev;
  if (ev.empty()) { ev.resize(200); for (auto& e : ev) cudaEventCreate(&e); }
  f(); cudaDeviceSynchronize();
  if (held) ab_spin_kernel<<<1, 1>>>(2000LL * (600 + 60 * (runs + 5)));
  for (int i = 0; i < 5; ++i) f();
  for (int i = 0; i < runs; ++i) { cudaEventRecord(ev[2 * i]); f(); cudaEventRecord(ev[2 * i + 1]); }
  cudaDeviceSynchronize();
  std::vector<double> t;
  for (int i = 0; i < runs; ++i) { float ms; cudaEventElapsedTime(&ms, ev[2 * i], ev[2 * i + 1]); t.push_back(ms * 1000.0); }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

/// One variant of an A/B case: poisons `out` (0xA5 bytes), runs `call` once and stores the
/// hash of its whole output in `hash`, then returns time_us(call, runs, held). The shape
/// probes (direct_shape_ab.cu, tiled_order_ab.cu, smem_rows_ab.cu, and held:
/// direct_regs_ab.cu, interior_u16_ab.cu, tiled_order_u16_ab.cu) compare variants by these.
template <class T, class F>
double hashed_time_us(hipstencil::device_image<T>& out, F call, unsigned long long& hash, int runs = 60,
                      bool held = false) {
  out.fill_bytes(0xA5);
  call();
  cudaDeviceSynchronize();
  hash = hash_rows(out.data(), out.pitch_bytes(), out.width(), out.height(), 1, 0, int(sizeof(T)));
  return time_us(call, runs, held);
}

/// The A/B probes' alternating runs (frame_clamp_ab.cu, interior_shape_ab.cu,
/// interior_block_ab.cu, interior_rules_ab.cu, packed_upfront_ab.cu): each variant of
/// `calls` timed by hashed_time_us (40 runs, held), every variant once and then every one
/// once more, so that a drift of the device's speed falls on all of them alike. Fills
/// t[k][0] and t[k][1] with variant k's two times and hash[k] with its output's hash.
template <class T, class... F>
void ab_time_alternating(hipstencil::device_image<T>& out, double (*t)[2], unsigned long long* hash, F... calls) {
  for (int rep = 0; rep < 2; ++rep) {
    int k = 0;
    ((t[k][rep] = hashed_time_us(out, calls, hash[k], 40, true), ++k), ...);
  }
}

/// One variant of a case of the replicate kernels' probes (dense_clamp_ab.cu,
/// sep_clamp_ab.cu, dense_vec_ab.cu): its name and its call.
using ab_variant = std::pair<std::string, std::function<void()>>;

/// A variant of those probes that runs the library: convolve(src, out, f) under replicate
/// with the algorithm tag `algo` (src, out and f outlive the variant).
template <class T, class Filter, class Algo>
ab_variant ab_library_variant(const char* name, hipstencil::image_view<const T> src, hipstencil::device_image<T>& out,
                              const Filter& f, Algo algo) {
  return {name, [src, &out, &f, algo] {
            hipstencil::convolve(src, out.view(), f, hipstencil::border::replicate{}, algo);
          }};
}

/// Appends to v the variants every replicate probe times first: automatic, direct and, for
/// 8-bit channels, packed (ab_library_variant).
template <class T, class Filter>
void ab_add_library_firsts(std::vector<ab_variant>& v, hipstencil::image_view<const T> src,
                           hipstencil::device_image<T>& out, const Filter& f) {
  namespace hs = hipstencil;
  v.push_back(ab_library_variant("auto", src, out, f, hs::algo::automatic{}));
  v.push_back(ab_library_variant("direct", src, out, f, hs::algo::direct<>{}));
  if constexpr (sizeof(typename hs::pixel_traits<T>::channel_type) == 1)
    v.push_back(ab_library_variant("packed", src, out, f, hs::algo::packed<>{}));
}

/// Times one case of those probes and prints its line but for the outputs' check: `label`
/// (the pixel, size and filter), then each variant's time (v[0] automatic, v[1] to
/// v[first - 1] the library's other algorithms, v[first] on the kernel's shapes), each
/// the better of two hashed_time_us (40 runs, held) taken in turn as ab_time_alternating
/// does, then the fastest shape over the fastest other algorithm and automatic over the
/// fastest of both. Returns the hashes of the variants' outputs; the caller prints its
/// check of them and ends the line.
template <class T>
std::vector<unsigned long long> ab_time_kernel_case(const std::string& label, hipstencil::device_image<T>& out,
                                                    const std::vector<ab_variant>& v, int first) {
  const int n = int(v.size());
  std::vector<double> t(n, 1e9);
  std::vector<unsigned long long> hash(n);
  for (int rep = 0; rep < 2; ++rep)
    for (int k = 0; k < n; ++k) t[k] = std::min(t[k], hashed_time_us(out, v[k].second, hash[k], 40, true));
  std::printf("%s", label.c_str());
  int best_other = 1, best_shape = first;
  for (int k = 0; k < n; ++k) {
    std::printf(" %s %5.2f", v[k].first.c_str(), t[k]);
    if (k >= 1 && k < first && t[k] < t[best_other]) best_other = k;
    if (k >= first && t[k] < t[best_shape]) best_shape = k;
  }
  std::printf("  | best %s %.2f / %s %.2f = %.2f, auto/best %.2f  ", v[best_shape].first.c_str(), t[best_shape],
              v[best_other].first.c_str(), t[best_other], t[best_shape] / t[best_other],
              t[0] / std::min(t[best_shape], t[best_other]));
  return hash;
}

/// Prints the line of one case of a probe that times `count` variants twice each
/// (interior_shape_ab.cu, interior_block_ab.cu, packed_strips_ab.cu): the case, each
/// variant's better time (t[k] holds its two), the fastest, and whether the outputs of
/// variants first to last - 1 hashed as variant `first`'s did: `same` if so, else `differ`.
inline void ab_print_variants(const char* type, int w, int h, int r, bool dense, int count, const char* const* names,
                              const double (*t)[2], const unsigned long long* hash, int first, int last,
                              const char* same = "tiled identical", const char* differ = "TILED OUTPUTS DIFFER") {
  std::printf("%-6s %4dx%-4d %s %dx%d ", type, w, h, dense ? "dense" : "sep  ", 2 * r + 1, 2 * r + 1);
  int best = 0;
  bool all_same = true;
  for (int k = 0; k < count; ++k) {
    const double b = std::min(t[k][0], t[k][1]);
    if (b < std::min(t[best][0], t[best][1])) best = k;
    if (k > first && k < last && hash[k] != hash[first]) all_same = false;
    std::printf(" %s %6.2f", names[k], b);
  }
  std::printf("  best %s  %s\n", names[best], all_same ? same : differ);
  std::fflush(stdout);
}

/// Largest difference between the 8-bit channels of two device images of T of one size, and
/// how many channels differ.
template <class T>
std::pair<int, long long> ab_compare_bytes(const hipstencil::device_image<T>& a, const hipstencil::device_image<T>& b) {
  const int w = a.width(), h = a.height();
  const std::size_t row = std::size_t(w) * sizeof(T);
  std::vector<unsigned char> x(row * h), y(x.size());
  cudaMemcpy2D(x.data(), row, a.data(), a.pitch_bytes(), row, h, cudaMemcpyDeviceToHost);
  cudaMemcpy2D(y.data(), row, b.data(), b.pitch_bytes(), row, h, cudaMemcpyDeviceToHost);
  int most = 0;
  long long n = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const int d = std::abs(int(x[i]) - int(y[i]));
    most = std::max(most, d);
    n += d != 0;
  }
  return {most, n};
}

/// The 8-bit probes' check (packed3_ab.cu, packed_one_ab.cu): runs variant `ref` of v, then
/// each variant from `first` on a poisoned `out`, and ends the case's line with the largest
/// difference from ref's output and how many channels differ at most, "WRONG" past 1 (the
/// packed family's promise).
template <class T>
void ab_print_within_one(const char* ref_name, hipstencil::device_image<T>& out, const std::vector<ab_variant>& v,
                         int ref, int first) {
  hipstencil::device_image<T> r(out.width(), out.height());
  v[ref].second();
  cudaMemcpy2D(r.data(), r.pitch_bytes(), out.data(), out.pitch_bytes(), std::size_t(out.width()) * sizeof(T),
               out.height(), cudaMemcpyDeviceToDevice);
  int most = 0;
  long long differ = 0;
  for (int k = first; k < int(v.size()); ++k) {
    out.fill_bytes(0xA5);
    v[k].second();
    cudaDeviceSynchronize();
    const auto d = ab_compare_bytes(r, out);
    most = std::max(most, d.first);
    differ = std::max(differ, d.second);
  }
  std::printf(" vs %s: max diff %d, %lld channels differ%s\n", ref_name, most, differ, most <= 1 ? "" : "  WRONG");
  std::fflush(stdout);
}

/// A fixed dense (2r + 1)^2 smoothing filter: positive taps from a seeded LCG, sum 1.
inline hipstencil::filter2d ab_dense_filter(int r) {
  const int k = 2 * r + 1;
  std::vector<float> d(k * k);
  float sum = 0;
  unsigned q = 777u + r;
  for (auto& c : d) { q = q * 1664525u + 1013904223u; c = 0.05f + (q >> 8) / 16777216.f; sum += c; }
  for (auto& c : d) c /= sum;
  return hipstencil::filter2d(k, k, d);
}

/// Image sizes, width x height, as the probes list them (a braced list converts).
using ab_sizes = std::vector<std::pair<int, int>>;

/// Sizes from a command line's list "WxH,WxH,..." (`list`), or `defaults` where it is
/// null; prints `probe`'s complaint and exits with status 2 on a bad entry.
inline ab_sizes ab_parse_sizes(const char* probe, const char* list, ab_sizes defaults) {
  if (!list) return defaults;
  ab_sizes sizes;
  for (const char* c = list; *c;) {
    int w = 0, h = 0, n = 0;
    if (std::sscanf(c, "%dx%d%n", &w, &h, &n) != 2 || w < 1 || h < 1) {
      std::fprintf(stderr, "%s: bad size list '%s' (expected WxH,WxH,...)\n", probe, list);
      std::exit(2);
    }
    sizes.push_back({w, h});
    c += n;
    if (*c == ',') ++c;
  }
  return sizes;
}

/// For each size w x h, a random input of T (the generator seeded once with `seed`) and an
/// output image of that size: calls f(w, h, src, out).
template <class T, class F>
void ab_for_each_size(const ab_sizes& sizes, unsigned seed, F f) {
  for (auto sz : sizes) {
    hipstencil::device_image<T> a(sz.first, sz.second), b(sz.first, sz.second);
    fill_random_pixels(a, seed);
    const hipstencil::image_view<const T> src = a.view();
    f(sz.first, sz.second, src, b);
  }
}

/// The 16-byte u8 probes' walk (u8_floor_probe.cu, packed_row16_ab.cu): the sizes of the
/// command line's first argument, else `defaults`, each a random u8 image and an output
/// (ab_for_each_size, seed 4242), f(w, h, src, out) for those whose width is a multiple of
/// 16 (their kernels load rows as whole 16-byte words), a line for the others.
template <class F>
void ab_for_each_u8_size16(const char* probe, int argc, char** argv, const ab_sizes& defaults, F f) {
  const ab_sizes sizes = ab_parse_sizes(probe, argc > 1 ? argv[1] : nullptr, defaults);
  cudaFree(nullptr);
  ab_for_each_size<std::uint8_t>(sizes, 4242u, [&](int w, int h, hipstencil::image_view<const std::uint8_t> src,
                                                   hipstencil::device_image<std::uint8_t>& out) {
    if (w % 16) {
      std::printf("%dx%d: width not a multiple of 16, skipped\n", w, h);
      return;
    }
    f(w, h, src, out);
  });
}

/// The clamp-kernel probes' walk (sep_clamp_ab.cu, sep_upfront_ab.cu, dense_vec_ab.cu, and
/// dense_clamp_ab.cu with Dense): for each size w x h a random input of T (one seed across
/// sizes) and an output image; radius 1 and 2, a Gaussian (Dense: ab_dense_filter), under
/// replicate.
/// Calls f(w, h, r, src, out, filter, p, gr): p the library's problem for that call on the
/// whole images (detail::make_problem) and gr its reads' geometry, with which a probe
/// launches a family's kernels directly.
template <class T, bool Dense, class F>
void ab_for_each_problem(const ab_sizes& sizes, F f) {
  namespace hs = hipstencil;
  ab_for_each_size<T>(sizes, 12345u, [&](int w, int h, hs::image_view<const T> src, hs::device_image<T>& out) {
    for (int r : {1, 2}) {
      const auto g = hs::filters::gaussian_taps(0.4 + 0.6 * r, r);
      const hs::separable_filter sep(g, g);
      const hs::filter2d dense = ab_dense_filter(r);
      const auto p = hs::detail::make_problem("probe", hs::algo::tiled<>{}, src, src.bounds(), out.view(),
                                              out.view().bounds(), Dense ? &dense : nullptr, Dense ? nullptr : &sep,
                                              hs::border::any(hs::border::replicate{}), hs::halo::isolated, nullptr,
                                              nullptr);
      if constexpr (Dense) f(w, h, r, src, out, dense, p, p.g.for_reads());
      else f(w, h, r, src, out, sep, p, p.g.for_reads());
    }
  });
}
template <class T, class F>
void ab_for_each_separable_problem(const ab_sizes& sizes, F f) {
  ab_for_each_problem<T, false>(sizes, f);
}

/// The clamp probes' three mode (dense_clamp_ab.cu and sep_clamp_ab.cu): calls
/// probe(tag, name, sizes) for uchar3, ushort3 and float3, tag a null T*, on 128x128 to
/// 8192x8192.
template <class Probe>
void ab_three_mode(Probe probe) {
  const auto sizes = {std::pair<int, int>{128, 128}, {256, 256}, {512, 512}, {724, 724},
                      {1280, 720},                   {1920, 1080}, {3840, 2160}, {8192, 8192}};
  probe(static_cast<uchar3*>(nullptr), "uchar3", sizes);
  probe(static_cast<ushort3*>(nullptr), "ushort3", sizes);
  probe(static_cast<float3*>(nullptr), "float3", sizes);
}

/// The shape probes' walk (direct_shape_ab.cu, smem_rows_ab.cu): for each size w x h a
/// random input of T (one seed across sizes) and an output image; radius 1 and 2,
/// separable (a Gaussian) then dense (ab_dense_filter), under replicate. Calls f(w, h, r,
/// dense, out, run) where run(algo) convolves the case with the algorithm tag `algo`.
template <class T, class F>
void ab_for_each_shape_case(const ab_sizes& sizes, F f) {
  namespace hs = hipstencil;
  ab_for_each_size<T>(sizes, 12345u, [&](int w, int h, hs::image_view<const T> src, hs::device_image<T>& b) {
    for (int r : {1, 2}) {
      const auto g = hs::filters::gaussian_taps(0.4 + 0.6 * r, r);
      const hs::separable_filter sep(g, g);
      const hs::filter2d dense = ab_dense_filter(r);
      for (int dn = 0; dn < 2; ++dn) {
        auto run = [&](auto algo) {
          if (dn) hs::convolve(src, b.view(), dense, hs::border::replicate{}, algo);
          else hs::convolve(src, b.view(), sep, hs::border::replicate{}, algo);
        };
        f(w, h, r, dn != 0, b, run);
      }
    }
  });
}

/// Every case both drivers time, in their order: radius 1 and 2; replicate, constant 7 and
/// reflect101; separable (a Gaussian) then dense (ab_dense_filter). For each, f(r, rule,
/// dense, call) where call(go) runs go(filter, border) with the case's filter and rule.
template <class F>
void ab_for_each_case(F f) {
  namespace hs = hipstencil;
  const char* names[] = {"replicate", "constant", "reflect101"};
  for (int r : {1, 2}) {
    const auto g = hs::filters::gaussian_taps(0.4 + 0.6 * r, r);
    const hs::separable_filter sep(g, g);
    const hs::filter2d dense = ab_dense_filter(r);
    for (int bi = 0; bi < 3; ++bi)
      for (int dn = 0; dn < 2; ++dn) {
        auto call = [&](auto&& go) {
          auto with = [&](auto border) {
            if (dn) go(dense, border);
            else go(sep, border);
          };
          if (bi == 0) with(hs::border::replicate{});
          else if (bi == 1) with(hs::border::constant{7.f});
          else with(hs::border::reflect101{});
        };
        f(r, names[bi], dn != 0, call);
      }
  }
}

/// The rules probes' walk (interior_shape_ab.cu's rules mode, interior_rules_ab.cu,
/// packed_upfront_ab.cu's u16 mode): for each size w x h a random input of T (one seed
/// across sizes) and an output image, and for each case of ab_for_each_case, calls f(w, h,
/// r, rule, dense, out, with), where with(algo) is a callable that runs the case with the
/// algorithm tag `algo`.
template <class T, class F>
void ab_for_each_rule_case(std::initializer_list<std::pair<int, int>> sizes, F f) {
  namespace hs = hipstencil;
  ab_for_each_size<T>(sizes, 12345u, [&](int w, int h, hs::image_view<const T> src, hs::device_image<T>& out) {
    ab_for_each_case([&](int r, const char* rule, bool dense, auto call) {
      auto with = [&](auto algo) {
        return [&, algo] { call([&](const auto& filter, auto b) { hs::convolve(src, out.view(), filter, b, algo); }); };
      };
      f(w, h, r, rule, dense, out, with);
    });
  });
}

/// algo::tiled pinned to one shape for the shape probes (smem_rows_ab.cu, tiled_small_ab.cu):
/// BX x BY threads of O x O outputs, radius 1 and 2, with the interior instance (under
/// every rule: ClampInteriorMinPixels and SmallRadiusInteriorMinPixels too) and the
/// small-image limits off, so that the shape runs at every size.
template <int BX, int BY, int O>
using ab_tiled_shape = hipstencil::algo::tiled<
    hipstencil::strategy::tile_class,
    hipstencil::tuning::tiled_policy<BX, BY, O, O, hipstencil::tuning::radii_range<1, 2>,
                                     hipstencil::tuning::shared_memory_budget, 12, 32, 2, 2, (1LL << 40), (1LL << 21),
                                     0, 0, 2, 0, 2, (1LL << 40), 4, 1, (1LL << 21), 1, (1LL << 40)>>;

/// algo::tiled with its frame grid first on ROIs of FrameFirstFrom pixels or more and its
/// interior grid first below, for every pixel type (tiled_policy's FrameFirstMinPixels and
/// NarrowFrameFirstMinPixels both), the rest of the policy the library's: the order probes
/// (tiled_order_ab.cu, tiled_order_u16_ab.cu) time 0 and LLONG_MAX against each other.
template <long long FrameFirstFrom>
using ab_tiled_frame_first_from = hipstencil::algo::tiled<
    hipstencil::strategy::tile_class,
    hipstencil::tuning::tiled_policy<8, 8, 4, 4, hipstencil::tuning::radii_range<1, 8>,
                                     hipstencil::tuning::shared_memory_budget, 12, 32, 2, 2, 1LL << 20, FrameFirstFrom,
                                     1LL << 17, 1LL << 20, 2, FrameFirstFrom>>;
