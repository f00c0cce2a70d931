// Shared machinery of the [gpu] tests: random inputs, poisoned outputs, one GPU run per
// poison, and the comparison with the host reference, pixel by pixel.
#pragma once

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

// The library but reduce.hpp (test_reduce.cpp includes it): CUB's headers, which it
// brings in, cost every unit through nvcc (test_naive.cpp, host code at -O0: 10.8 s of
// cudafe++, cicc and g++ with them, 7.1 without).
#include <hipstencil/algorithm.hpp>
#include <hipstencil/batch.hpp>
#include <hipstencil/border.hpp>
#include <hipstencil/convolve.hpp>
#include <hipstencil/convolve_batch.hpp>
#include <hipstencil/convolve_varshape.hpp>
#include <hipstencil/error.hpp>
#include <hipstencil/filter.hpp>
#include <hipstencil/image.hpp>
#include <hipstencil/pixel.hpp>
#include <hipstencil/platform/runtime.hpp>
#include <hipstencil/reference.hpp>
#include <hipstencil/roi.hpp>
#include <hipstencil/varshape.hpp>

namespace gpu_test {
using namespace hipstencil;

/// The seed of this run, shared by every [gpu] test: $HIPSTENCIL_TEST_SEED when set (a
/// decimal number up to 4294967295, to replay a failure), else fresh from
/// std::random_device. Throws std::runtime_error naming the variable and its value when
/// it is not such a number. main.cpp prints it (print_seed) before any test runs.
inline std::uint32_t seed() {
  static const std::uint32_t s = [] {
    const char* env = std::getenv("HIPSTENCIL_TEST_SEED");
    if (!env) return std::uint32_t(std::random_device{}());
    const std::string v = env;
    bool ok = !v.empty() && v.size() <= 10;
    for (char c : v) ok = ok && c >= '0' && c <= '9';
    if (!ok || std::stoull(v) > std::numeric_limits<std::uint32_t>::max())
      throw std::runtime_error("HIPSTENCIL_TEST_SEED=\"" + v +
                               "\" is not a decimal seed (expected digits only, at most 4294967295)");
    return std::uint32_t(std::stoull(v));
  }();
  return s;
}

/// Prints the seed on one line, with how to replay the run.
inline void print_seed() {
  const unsigned long s = seed();
  std::printf("[gpu] random seed %lu (replay: HIPSTENCIL_TEST_SEED=%lu)\n", s, s);
  std::fflush(stdout);
}

inline std::mt19937& rng() {
  static std::mt19937 g(seed());
  return g;
}

template <class C>
C random_channel() {
  if constexpr (std::is_same<C, half>::value) {
    return __float2half_rn(std::uniform_real_distribution<float>(-1.0f, 1.0f)(rng()));
  } else if constexpr (std::is_same<C, bfloat16>::value) {
    return saturate_cast<bfloat16>(std::uniform_real_distribution<float>(-1.0f, 1.0f)(rng()));
  } else if constexpr (std::is_floating_point<C>::value) {
    return std::uniform_real_distribution<C>(C(-1), C(1))(rng());
  } else {
    return C(std::uniform_int_distribution<long long>(std::numeric_limits<C>::min(), std::numeric_limits<C>::max())(rng()));
  }
}
template <class T>
host_image<T> random_image(int w, int h) {
  host_image<T> img(w, h);
  using tr = pixel_traits<T>;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int c = 0; c < tr::channels; ++c) tr::set(img(x, y), c, random_channel<typename tr::channel_type>());
  return img;
}

/// Random coefficients in [-0.5, 1], scaled so that sum |k| = 1: integer outputs stay
/// mostly inside their range, so rounding (not saturation) is what gets compared.
inline filter2d random_filter(int kw, int kh, int ax = -1, int ay = -1) {
  std::uniform_real_distribution<float> d(-0.5f, 1.0f);
  std::vector<float> k(std::size_t(kw) * kh);
  double s = 0;
  for (auto& v : k) s += std::fabs(v = d(rng()));
  for (auto& v : k) v = float(v / s);
  return filter2d(kw, kh, k, ax, ay);
}

template <class T>
double max_abs_channel(const host_image<T>& img) {
  double m = 0;
  for (int y = 0; y < img.height(); ++y)
    for (int x = 0; x < img.width(); ++x)
      for (int c = 0; c < pixel_traits<T>::channels; ++c)
        m = std::max(m, std::fabs(to_accum<double>(img(x, y)).v[c]));
  return m;
}

/// A problem: parent images, ROIs, filter, border, halo mode.
struct problem {
  int src_w, src_h, dst_w, dst_h;
  rect src_roi, dst_roi;
  halo halo_mode = halo::isolated;
  std::string describe(const filter2d& f, border::any b) const {
    std::ostringstream os;
    os << "src " << src_w << "x" << src_h << " roi{" << src_roi.x << "," << src_roi.y << "," << src_roi.width << ","
       << src_roi.height << "} dst " << dst_w << "x" << dst_h << " roi{" << dst_roi.x << "," << dst_roi.y << "} filter "
       << f.width() << "x" << f.height() << " anchor(" << f.anchor_x() << "," << f.anchor_y() << ") border "
       << border::name(b.rule) << " halo " << name(halo_mode);
    return os.str();
  }
};

/// The outputs the call must write: the whole target ROI, or under skip those whose
/// window lies inside the domain (computed here independently of the library).
inline bool must_write(const problem& p, const filter2d& f, border::kind b, int x, int y) {
  if (b != border::kind::skip) return true;
  const rect d = p.halo_mode == halo::isolated ? p.src_roi : rect{0, 0, p.src_w, p.src_h};
  const int x0 = p.src_roi.x + x - f.anchor_x(), y0 = p.src_roi.y + y - f.anchor_y();
  return x0 >= d.x && y0 >= d.y && x0 + f.width() <= d.x + d.width && y0 + f.height() <= d.y + d.height;
}

template <class T>
bool same_bytes(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}
template <class T>
T poison_pixel(unsigned char byte) {
  T p;
  std::memset(&p, byte, sizeof(T));
  return p;
}

/// Tolerance of float outputs for filter `f` on `src` under `b`: relative to the largest
/// sum a window can reach.
template <class In>
double float_tolerance(const filter2d& f, border::any b, const host_image<In>& src) {
  double ksum = 0;
  for (float k : f.coefficients()) ksum += std::fabs(k);
  const double scale =
      ksum * std::max(1.0, max_abs_channel(src)) + (b.rule == border::kind::constant ? std::fabs(b.value) * ksum : 0);
  return 1e-5 * scale + 1e-6;
}

/// Compares one output image `out`, poisoned with `poison` before the run, with the
/// reference `ref` (computed onto poisons[0]): every pixel that must be written matches
/// (integer outputs within 1, float within ftol); every other pixel kept its poison byte
/// for byte. Returns the mismatches; `first_bad` describes the first.
template <class Out>
long long count_mismatches(const problem& p, const filter2d& f, border::kind b, const host_image<Out>& ref,
                           const host_image<Out>& out, unsigned char poison, bool first_poison, double ftol,
                           std::string& first_bad) {
  const Out pp = poison_pixel<Out>(poison);
  long long bad = 0;
  for (int y = 0; y < p.dst_h; ++y)
    for (int x = 0; x < p.dst_w; ++x) {
      const bool in_roi = p.dst_roi.contains(rect{x, y, 1, 1});
      const bool written = in_roi && must_write(p, f, b, x - p.dst_roi.x, y - p.dst_roi.y);
      bool ok;
      if (!written) {
        ok = same_bytes(out(x, y), pp) && (!first_poison || same_bytes(ref(x, y), pp));
      } else {
        ok = true;
        for (int c = 0; c < pixel_traits<Out>::channels; ++c) {
          const double g = to_accum<double>(out(x, y)).v[c];
          const double r = to_accum<double>(ref(x, y)).v[c];
          using C = typename pixel_traits<Out>::channel_type;
          // half: the float sum rounded to 11 significant bits, so one unit in the last
          // place of the result (2^-10 relative; 2^-24 absolute below 2^-14) on top of ftol;
          // bfloat16: 8 significant bits and float's exponent range (2^-7 relative).
          const double tol = std::is_same<C, half>::value       ? ftol + std::max(std::fabs(r) * 0x1p-10, 0x1p-24)
                             : std::is_same<C, bfloat16>::value ? ftol + std::max(std::fabs(r) * 0x1p-7, 0x1p-133)
                             : is_float_channel<C>              ? ftol
                                                                : 1.0;
          if (!(std::fabs(g - r) <= tol)) ok = false;
        }
      }
      if (!ok && bad++ == 0) {
        std::ostringstream os;
        os << "first mismatch at (" << x << "," << y << ") " << (written ? "inside" : "outside")
           << " the written set, poison 0x" << std::hex << int(poison);
        first_bad = os.str();
      }
    }
  return bad;
}

/// The two poison patterns of every output: NaN / 3.4e38 for float; 255 / 127 for bytes.
constexpr unsigned char poisons[2] = {0xFF, 0x7F};

/// Runs `launch(src_view, dst_view)` on the GPU twice, with the output poisoned with two
/// different byte patterns, and checks against the host reference (count_mismatches).
/// Returns the number of pixels compared.
template <class In, class Out, class Launch>
long long check_against_reference(const problem& p, const filter2d& f, border::any b, const host_image<In>& src,
                                  Launch&& launch) {
  INFO(p.describe(f, b));
  // Host reference onto the first poison.
  host_image<Out> ref(p.dst_w, p.dst_h, poison_pixel<Out>(poisons[0]));
  reference::convolve(src.view(), p.src_roi, ref.view(), p.dst_roi, f, b, p.halo_mode, reference::all_threads());
  const double ftol = float_tolerance(f, b, src);

  device_image<In> d_src(p.src_w, p.src_h);
  d_src.upload(src.view());
  device_image<Out> d_dst(p.dst_w, p.dst_h);
  long long compared = 0;
  for (unsigned char poison : poisons) {
    d_dst.fill_bytes(poison);
    launch(image_view<const In>(d_src.view()), d_dst.view());
    host_image<Out> out(p.dst_w, p.dst_h);
    d_dst.download(out.view());
    gpu::stream_synchronize(nullptr);
    std::string first_bad;
    const long long bad = count_mismatches(p, f, b.rule, ref, out, poison, poison == poisons[0], ftol, first_bad);
    compared += (long long)p.dst_w * p.dst_h;
    INFO(first_bad);
    CHECK(bad == 0);
  }
  return compared;
}

}  // namespace gpu_test
