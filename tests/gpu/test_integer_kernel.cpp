// [gpu] filters::integer_kernel's contract on every family that takes a dense filter and on
// automatic: 8-bit outputs equal the exact result (the integer window sum divided by the
// divisor, rounded to nearest with ties to even, saturated) wherever integer_kernel_exact
// holds; not within 1, equal. Random kernels with power-of-two and odd divisors, the box,
// binomial, Sobel and Scharr kernels, awkward image sizes (1x1, primes, a kernel larger than
// the image), every border rule that reads (constant with an integer value), the output
// poisoned before each call.
#include "algo_matrix.hpp"

#include <hipstencil/filter.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <vector>

using namespace gpu_test;

namespace {

/// round(num / den), ties to even, den >= 1, in integers.
long long div_round_even(long long num, long long den) {
  long long q = num / den, r = num % den;
  if (r < 0) r += den, q -= 1;
  if (2 * r > den || (2 * r == den && (q & 1))) ++q;
  return q;
}

struct int_kernel {
  int w, h;
  std::vector<int> k;
  int divisor;
};

std::vector<int_kernel> kernels(std::mt19937& rng) {
  std::vector<int_kernel> out;
  out.push_back({3, 3, std::vector<int>(9, 1), 9});                // box 3x3
  out.push_back({5, 5, std::vector<int>(25, 1), 25});              // box 5x5
  out.push_back({3, 3, {-1, 0, 1, -2, 0, 2, -1, 0, 1}, 1});        // Sobel x
  out.push_back({3, 3, {-3, 0, 3, -10, 0, 10, -3, 0, 3}, 32});     // Scharr x / 32
  std::vector<int> b5;
  const int b[5] = {1, 4, 6, 4, 1};
  for (int j = 0; j < 5; ++j)
    for (int i = 0; i < 5; ++i) b5.push_back(b[i] * b[j]);
  out.push_back({5, 5, b5, 256});                                  // binomial 5x5
  // Rank one: automatic runs these as separable filters (detail/factor.hpp) where its
  // table says so (from 19x19 at these sizes), which must keep them exact.
  std::vector<int> b7, tent;
  const int c7[7] = {1, 6, 15, 20, 15, 6, 1};
  for (int j = 0; j < 7; ++j)
    for (int i = 0; i < 7; ++i) b7.push_back(c7[i] * c7[j]);
  for (int j = 0; j < 19; ++j)
    for (int i = 0; i < 19; ++i) tent.push_back((10 - std::abs(i - 9)) * (10 - std::abs(j - 9)));
  out.push_back({7, 7, b7, 4096});                                 // binomial 7x7
  out.push_back({9, 9, std::vector<int>(81, 1), 81});              // box 9x9
  out.push_back({19, 19, std::vector<int>(361, 1), 512});          // box 19x19 / 512
  out.push_back({19, 19, tent, 16384});                            // tent 19x19 / 2^14
  std::uniform_int_distribution<int> size(0, 3), coef(-12, 12), odd(0, 30), power(0, 10);
  while (out.size() < 18) {
    int_kernel c;
    c.w = 2 * size(rng) + 1, c.h = 2 * size(rng) + 1;
    c.k.resize(std::size_t(c.w) * c.h);
    for (int& v : c.k) v = coef(rng);
    c.divisor = out.size() % 2 ? 1 << power(rng) : 2 * odd(rng) + 1;
    if (hipstencil::filters::integer_kernel_exact(c.k, c.divisor, 255)) out.push_back(c);
  }
  return out;
}

/// Exact outputs: the reference with the integer kernel itself (divisor 1) into float
/// gives the window sums exactly (integers below 2^24); they are divided here.
host_image<std::uint8_t> exact(const host_image<std::uint8_t>& src, const int_kernel& c, border::any b) {
  std::vector<float> taps(c.k.begin(), c.k.end());
  host_image<float> sums(src.width(), src.height());
  reference::convolve(src.view(), sums.view(), filter2d(c.w, c.h, taps), b);
  host_image<std::uint8_t> out(src.width(), src.height());
  for (int y = 0; y < src.height(); ++y)
    for (int x = 0; x < src.width(); ++x) {
      const long long q = div_round_even((long long)sums(x, y), c.divisor);
      out(x, y) = std::uint8_t(std::min(255LL, std::max(0LL, q)));
    }
  return out;
}

template <class Tag>
void check_family(const char* name, Tag tag, const std::vector<int_kernel>& ks, std::mt19937& rng) {
  const int sides[][2] = {{1, 1}, {2, 3}, {7, 5}, {31, 17}, {97, 61}, {257, 131}};
  const border::any rules[] = {border::replicate{}, border::reflect{}, border::reflect101{}, border::wrap{},
                               border::constant{7}};
  long long wrong = 0, compared = 0;
  for (const int_kernel& c : ks) {
    const filter2d f = hipstencil::filters::integer_kernel(c.w, c.h, c.k, c.divisor);
    for (const auto& s : sides) {
      const host_image<std::uint8_t> src = random_image<std::uint8_t>(s[0], s[1]);
      device_image<std::uint8_t> d_src(s[0], s[1]), d_dst(s[0], s[1]);
      d_src.upload(src.view());
      const border::any b = rules[rng() % 5];
      const host_image<std::uint8_t> want = exact(src, c, b);
      d_dst.fill_bytes(0xA5);  // poison: every pixel must be overwritten
      convolve(image_view<const std::uint8_t>(d_src.view()), d_dst.view(), f, b, tag);
      host_image<std::uint8_t> got(s[0], s[1]);
      d_dst.download(got.view());
      gpu::stream_synchronize(nullptr);
      long long bad = 0;
      for (int y = 0; y < s[1]; ++y)
        for (int x = 0; x < s[0]; ++x) bad += got(x, y) != want(x, y);
      if (bad)
        UNSCOPED_INFO(name << ": " << c.w << "x" << c.h << " / " << c.divisor << " on " << s[0] << "x" << s[1] << " "
                           << border::name(b.rule) << ": " << bad << " outputs differ");
      wrong += bad;
      compared += (long long)s[0] * s[1];
    }
  }
  INFO(name << ": " << compared << " outputs compared");
  CHECK(wrong == 0);
}

}  // namespace

TEST_CASE("integer_kernel: exact 8-bit results on every family", "[gpu][integer_kernel]") {
  std::mt19937 rng(seed());
  const std::vector<int_kernel> ks = kernels(rng);
  algo::for_each_family([&](auto tag) {
    using T = decltype(tag);
    if constexpr (algo::takes_dense<T>) check_family(T::name, tag, ks, rng);
  });
  check_family("automatic", algo::automatic{}, ks, rng);
}
