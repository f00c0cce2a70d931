// Helpers shared by the host tests: aligned pitched buffers with poison, random fills,
// the run's random seed, and an exception catcher that returns what().
#pragma once

#include <catch2/catch.hpp>

#include <hipstencil/error.hpp>
#include <hipstencil/image.hpp>
#include <hipstencil/pixel.hpp>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace test {

/// The seed of this run: $HIPSTENCIL_TEST_SEED if set (to reproduce a failure), else fresh
/// from std::random_device. Tests print it with CAPTURE/INFO so that a failure names it.
inline std::uint32_t run_seed() {
  static const std::uint32_t seed = [] {
    if (const char* s = std::getenv("HIPSTENCIL_TEST_SEED")) return std::uint32_t(std::strtoul(s, nullptr, 0));
    return std::uint32_t(std::random_device{}());
  }();
  return seed;
}

/// A pitched, 64-byte aligned buffer of T pixels: `width` x `height` pixels with
/// `pad_bytes` extra bytes at the end of every row (a multiple of alignof(T)).
template <class T>
class pitched {
 public:
  pitched(int width, int height, std::size_t pad_bytes = 0, unsigned char poison = 0xA5)
      : w_(width), h_(height), pitch_(std::size_t(width) * sizeof(T) + pad_bytes) {
    bytes_ = (pitch_ * std::size_t(height) + 63) / 64 * 64;
    mem_.reset(static_cast<unsigned char*>(std::aligned_alloc(64, bytes_ ? bytes_ : 64)));
    std::memset(mem_.get(), poison, bytes_);
  }
  hipstencil::image_view<T> view() { return {reinterpret_cast<T*>(mem_.get()), w_, h_, pitch_}; }
  hipstencil::image_view<const T> cview() const { return {reinterpret_cast<const T*>(mem_.get()), w_, h_, pitch_}; }
  T& operator()(int x, int y) { return view()(x, y); }
  const unsigned char* bytes() const { return mem_.get(); }
  std::size_t size_bytes() const { return bytes_; }
  std::vector<unsigned char> snapshot() const { return {mem_.get(), mem_.get() + bytes_}; }
  bool unchanged_since(const std::vector<unsigned char>& s) const {
    return s.size() == bytes_ && std::memcmp(s.data(), mem_.get(), bytes_) == 0;
  }
  std::size_t pitch_bytes() const { return pitch_; }
  int width() const { return w_; }
  int height() const { return h_; }

 private:
  struct freer {
    void operator()(unsigned char* p) const { std::free(p); }
  };
  int w_, h_;
  std::size_t pitch_, bytes_ = 0;
  std::unique_ptr<unsigned char, freer> mem_;
};

/// True when every byte of pixel p equals `poison`.
template <class T>
bool is_poison(const T& p, unsigned char poison = 0xA5) {
  const auto* b = reinterpret_cast<const unsigned char*>(&p);
  for (std::size_t i = 0; i < sizeof(T); ++i)
    if (b[i] != poison) return false;
  return true;
}

template <class T>
using channel_t = typename hipstencil::pixel_traits<T>::channel_type;
template <class T>
constexpr int channels_v = hipstencil::pixel_traits<T>::channels;

/// Channel c of pixel p as a double.
template <class T>
double channel(const T& p, int c) {
  return double(hipstencil::pixel_traits<T>::get(p, c));
}

/// A random channel value over the type's range (floats in [-100, 100]).
template <class C>
C random_channel(std::mt19937& rng) {
  if constexpr (std::is_floating_point<C>::value) {
    return C(std::uniform_real_distribution<double>(-100.0, 100.0)(rng));
  } else {
    return C(std::uniform_int_distribution<long long>(std::numeric_limits<C>::min(), std::numeric_limits<C>::max())(rng));
  }
}

template <class T>
T random_pixel(std::mt19937& rng) {
  T p{};
  for (int c = 0; c < channels_v<T>; ++c) hipstencil::pixel_traits<T>::set(p, c, random_channel<channel_t<T>>(rng));
  return p;
}

template <class T>
void fill_random(hipstencil::image_view<T> v, std::mt19937& rng) {
  for (int y = 0; y < v.height; ++y)
    for (int x = 0; x < v.width; ++x) v(x, y) = random_pixel<T>(rng);
}

/// Calls f, which must throw hipstencil::invalid_argument; returns its what(). Reports a
/// failure (and returns "") when f returns or throws anything else.
template <class F>
std::string invalid_what(F&& f) {
  try {
    f();
  } catch (const hipstencil::invalid_argument& e) {
    return e.what();
  } catch (const std::exception& e) {
    FAIL_CHECK("threw a different exception: " << e.what());
    return "";
  }
  FAIL_CHECK("did not throw hipstencil::invalid_argument");
  return "";
}

}  // namespace test
