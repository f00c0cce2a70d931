// [gpu] The channel conversions every kernel uses (pixel.hpp's to_accum and saturate_cast,
// and the streaming family's unpacking of loaded words), run on the device against the host
// definition: integers to float exactly; float to 8- and 16-bit channels clamped, rounded to
// nearest with ties to even, NaN to 0. On NVIDIA these go through the float's bit pattern
// (detail/float_bits.hpp) instead of the conversion instructions, so every value of each
// channel type, every tie, the neighbours of each tie and the special values are checked,
// not a sample.
#include <catch2/catch.hpp>

#include <hipstencil/detail/kernels/streaming_io.hpp>

#include "gpu_harness.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace {
namespace hs = hipstencil;

/// to_accum, or (Cvt) to_accum_cvt, the conversion-instruction spelling that the
/// shared-memory staging uses.
template <class C, bool Cvt>
__global__ void to_float_kernel(const C* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = Cvt ? hs::to_accum_cvt<float>(in[i]).v[0] : hs::to_accum<float>(in[i]).v[0];
}

template <class C>
__global__ void from_float_kernel(const float* in, C* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = hs::saturate_cast<C>(in[i]);
}

/// Words per unit and pixels per unit of unpacking: a word holds 1, 2 or 4 pixels of up to
/// 4 bytes; an 8-byte pixel (ushort4) spans two words.
template <class In>
constexpr int unit_words = sizeof(In) > 4 ? int(sizeof(In)) / 4 : 1;
template <class In>
constexpr int unit_pixels = sizeof(In) >= 4 ? 1 : 4 / int(sizeof(In));

/// Each unit of words unpacked as the streaming kernels do: every pixel of type In in it,
/// as floats.
template <class In>
__global__ void unpack_kernel(const unsigned* words, float* out, int n) {
  constexpr int C = hs::pixel_traits<In>::channels;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  for (int k = 0; k < unit_pixels<In>; ++k) {
    const auto a = hs::detail::unpack_pixel<In>(&words[i * unit_words<In>], k * int(sizeof(In)));
    for (int c = 0; c < C; ++c) out[(i * unit_pixels<In> + k) * C + c] = a.v[c];
  }
}

/// Device buffer of n elements of T, freed on scope exit.
template <class T>
struct buffer {
  T* p = nullptr;
  std::size_t n = 0;
  explicit buffer(std::size_t count) : n(count) { p = static_cast<T*>(hs::gpu::malloc(count * sizeof(T))); }
  ~buffer() { hs::gpu::free(p); }
  buffer(const buffer&) = delete;
  buffer& operator=(const buffer&) = delete;
  void upload(const std::vector<T>& v) {
    hs::gpu::memcpy(p, v.data(), v.size() * sizeof(T), hs::gpu::copy_kind::host_to_device, nullptr);
  }
  std::vector<T> download() const {
    std::vector<T> v(n);
    hs::gpu::memcpy(v.data(), p, n * sizeof(T), hs::gpu::copy_kind::device_to_host, nullptr);
    hs::gpu::stream_synchronize(nullptr);
    return v;
  }
};

unsigned blocks(std::size_t n) { return unsigned((n + 255) / 256); }

/// The floats whose conversion can go wrong: every integer in [lo - 4, hi + 4], every tie
/// k + 0.5 there and its two float neighbours, signed zeros, the largest float below 0.5,
/// infinities, NaN, huge and denormal values, and random floats in and around the range.
std::vector<float> hard_floats(double lo, double hi) {
  std::vector<float> v;
  for (double k = lo - 4; k <= hi + 4; k += 1) {
    const float t = float(k + 0.5);
    v.push_back(float(k));
    v.push_back(t);
    v.push_back(std::nextafter(t, -INFINITY));
    v.push_back(std::nextafter(t, INFINITY));
  }
  const float special[] = {0.0f, -0.0f, 0.49999997f, -0.49999997f, std::numeric_limits<float>::infinity(),
                           -std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN(),
                           -std::numeric_limits<float>::quiet_NaN(), 1e30f, -1e30f, 3.0e38f, -3.0e38f,
                           std::numeric_limits<float>::denorm_min(), -std::numeric_limits<float>::denorm_min(),
                           4194304.5f, 8388607.0f, 8388608.0f, 12582912.0f, -8388608.0f, 16777216.0f};
  v.insert(v.end(), std::begin(special), std::end(special));
  std::uniform_real_distribution<double> d(lo - 0.25 * (hi - lo), hi + 0.25 * (hi - lo));
  for (int i = 0; i < 100000; ++i) v.push_back(float(d(gpu_test::rng())));
  return v;
}

template <class C>
void check_channel(const char* name) {
  INFO("channel type " << name);
  constexpr double lo = double(std::numeric_limits<C>::min()), hi = double(std::numeric_limits<C>::max());
  // Every value of C to float: exact.
  std::vector<C> all;
  for (double k = lo; k <= hi; k += 1) all.push_back(C(k));
  buffer<C> in(all.size());
  buffer<float> out(all.size());
  in.upload(all);
  for (const bool cvt : {false, true}) {
    INFO((cvt ? "to_accum_cvt" : "to_accum"));
    hs::gpu::memset_2d(out.p, all.size() * sizeof(float), 0x5A, all.size() * sizeof(float), 1, nullptr);  // poison
    if (cvt) to_float_kernel<C, true><<<blocks(all.size()), 256>>>(in.p, out.p, int(all.size()));
    else to_float_kernel<C, false><<<blocks(all.size()), 256>>>(in.p, out.p, int(all.size()));
    hs::gpu::check_launch("to_float_kernel");
    const std::vector<float> got = out.download();
    long long wrong = 0;
    for (std::size_t i = 0; i < all.size(); ++i) wrong += got[i] != float(all[i]);
    CHECK(wrong == 0);
  }

  // Floats to C: the host's saturate_cast is the definition (clamp, ties to even, NaN -> 0).
  const std::vector<float> f = hard_floats(lo, hi);
  buffer<float> fin(f.size());
  buffer<C> outc(f.size());
  fin.upload(f);
  hs::gpu::memset_2d(outc.p, f.size() * sizeof(C), 0x5A, f.size() * sizeof(C), 1, nullptr);  // poison
  from_float_kernel<C><<<blocks(f.size()), 256>>>(fin.p, outc.p, int(f.size()));
  hs::gpu::check_launch("from_float_kernel");
  const std::vector<C> back = outc.download();
  long long mismatches = 0;
  for (std::size_t i = 0; i < f.size(); ++i) {
    const C want = hs::saturate_cast<C>(f[i]);
    if (back[i] != want) {
      if (++mismatches <= 5) UNSCOPED_INFO("saturate_cast(" << f[i] << "): device " << double(back[i]) << ", host " << double(want));
    }
  }
  CHECK(mismatches == 0);
}

template <class In>
void check_unpack(const char* name) {
  INFO("unpacked as " << name);
  constexpr int per_unit = unit_pixels<In>, unit = unit_words<In>;
  constexpr int C = hs::pixel_traits<In>::channels;
  std::vector<unsigned> words;
  std::uniform_int_distribution<unsigned> d;
  for (int i = 0; i < 65536; ++i) words.push_back(d(gpu_test::rng()));
  words.push_back(0u), words.push_back(0xFFFFFFFFu), words.push_back(0x80008000u), words.push_back(0x7FFF7FFFu);
  const std::size_t units = words.size() / unit;
  buffer<unsigned> in(words.size());
  buffer<float> out(units * per_unit * C);
  in.upload(words);
  unpack_kernel<In><<<blocks(units), 256>>>(in.p, out.p, int(units));
  hs::gpu::check_launch("unpack_kernel");
  const std::vector<float> got = out.download();
  long long wrong = 0;
  for (std::size_t i = 0; i < units; ++i)
    for (int k = 0; k < per_unit; ++k) {
      In p;
      std::memcpy(&p, reinterpret_cast<const unsigned char*>(&words[i * unit]) + k * sizeof(In), sizeof(In));
      for (int c = 0; c < C; ++c)
        wrong += got[(i * per_unit + k) * C + c] != float(hs::pixel_traits<In>::get(p, c));
    }
  CHECK(wrong == 0);
}

}  // namespace

TEST_CASE("channel conversions on the device equal the host definition", "[gpu][conversions]") {
  check_channel<std::uint8_t>("uint8");
  check_channel<std::uint16_t>("uint16");
  check_channel<std::int16_t>("int16");
}

TEST_CASE("words unpack into the pixels they hold", "[gpu][conversions]") {
  check_unpack<std::uint8_t>("uint8");
  check_unpack<std::uint16_t>("uint16");
  check_unpack<std::int16_t>("int16");
  check_unpack<hs::uchar4>("uchar4");
  check_unpack<hs::ushort4>("ushort4");
}
