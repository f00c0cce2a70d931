// [gpu] tests of reduce.hpp (min_max, difference) against host loops written here, on fresh
// random images of every pixel type: 1x1, prime sizes, an image larger than one reduction
// block, each also as a pitched sub-view of a larger parent; both overloads (caller's
// workspace, stream-ordered allocation) on a non-default stream; the result poisoned
// before each call; rejected calls leave it untouched; the 64-bit index path (over 2^32
// pixels) when the device has the memory.
#include <catch2/catch.hpp>

#include <hipstencil/hipstencil.hpp>

#include "gpu_harness.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <type_traits>

namespace {
namespace hs = hipstencil;
using hs::channel_set;
using hs::image_difference;
using hs::rect;

std::uint32_t seed() { return gpu_test::seed(); }  // the run's seed, printed by main.cpp
std::mt19937& rng() {
  static std::mt19937 g(seed());
  return g;
}

template <class T>
using channel_t = typename hs::pixel_traits<T>::channel_type;

/// Bounds of the random values: the type's range for integers, +-1e6 for float.
template <class C>
std::pair<double, double> value_bounds() {
  if (std::is_floating_point<C>::value) return {-1e6, 1e6};
  return {double(std::numeric_limits<C>::lowest()), double(std::numeric_limits<C>::max())};
}
template <class C>
C uniform(double lo, double hi) {
  if constexpr (std::is_floating_point<C>::value)
    return C(std::uniform_real_distribution<double>(lo, hi)(rng()));
  else
    return C(std::uniform_int_distribution<long long>((long long)lo, (long long)hi)(rng()));
}

/// A random image whose channels each draw from a range of their own (so the min/max of
/// all channels, of the colour channels and of each channel differ).
template <class T>
hs::host_image<T> random_image(int w, int h) {
  using C = channel_t<T>;
  constexpr int N = hs::pixel_traits<T>::channels;
  const auto b = value_bounds<C>();
  double lo[N], hi[N];
  for (int c = 0; c < N; ++c) {
    double x = uniform<C>(b.first, b.second), y = uniform<C>(b.first, b.second);
    lo[c] = std::min(x, y), hi[c] = std::max(x, y);
  }
  hs::host_image<T> img(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int c = 0; c < N; ++c) hs::pixel_traits<T>::set(img(x, y), c, uniform<C>(lo[c], hi[c]));
  return img;
}

// ----- host oracles ----------------------------------------------------------------------

template <class T>
hs::value_range<channel_t<T>> host_min_max(const hs::host_image<T>& img, rect r, unsigned mask) {
  using C = channel_t<T>;
  hs::value_range<C> out{std::numeric_limits<C>::has_infinity ? std::numeric_limits<C>::infinity() : std::numeric_limits<C>::max(),
                         std::numeric_limits<C>::has_infinity ? -std::numeric_limits<C>::infinity() : std::numeric_limits<C>::lowest()};
  for (int y = r.y; y < r.y + r.height; ++y)
    for (int x = r.x; x < r.x + r.width; ++x)
      for (int c = 0; c < hs::pixel_traits<T>::channels; ++c) {
        if (!(mask >> c & 1u)) continue;
        const C v = hs::pixel_traits<T>::get(img(x, y), c);
        if (std::isnan(double(v))) continue;
        out.min = std::min(out.min, v);
        out.max = std::max(out.max, v);
      }
  return out;
}

/// ra and rb are the compared rectangles of the two (host) parents.
template <class T>
image_difference host_difference(const hs::host_image<T>& a, rect ra, const hs::host_image<T>& b, rect rb, double tol) {
  image_difference d{0.0, 0};
  bool nan = false;
  for (int y = 0; y < ra.height; ++y)
    for (int x = 0; x < ra.width; ++x) {
      bool differs = false;
      for (int c = 0; c < hs::pixel_traits<T>::channels; ++c) {
        const double p = double(hs::pixel_traits<T>::get(a(ra.x + x, ra.y + y), c));
        const double q = double(hs::pixel_traits<T>::get(b(rb.x + x, rb.y + y), c));
        if (std::isnan(p) || std::isnan(q)) {
          nan = differs = true;
          continue;
        }
        const double e = p == q ? 0.0 : std::fabs(p - q);
        if (e > tol) differs = true;
        d.max_abs_diff = std::max(d.max_abs_diff, e);
      }
      d.differing_pixels += differs;
    }
  if (nan) d.max_abs_diff = std::numeric_limits<double>::quiet_NaN();
  return d;
}

// ----- device plumbing -------------------------------------------------------------------

struct stream_guard {
  hs::gpu::stream_t s = hs::gpu::stream_create();
  ~stream_guard() { hs::gpu::stream_destroy(s); }
};

/// One device result of type R, poisoned with a byte pattern before each use.
template <class R>
struct device_result {
  R* p = static_cast<R*>(hs::gpu::malloc(sizeof(R)));
  ~device_result() { hs::gpu::free(p); }
  void poison(unsigned char byte, hs::gpu::stream_t s) {
    R h;
    std::memset(static_cast<void*>(&h), byte, sizeof(R));
    hs::gpu::memcpy(p, &h, sizeof(R), hs::gpu::copy_kind::host_to_device, s);
  }
  R get(hs::gpu::stream_t s) const {
    R h;
    hs::gpu::memcpy(&h, p, sizeof(R), hs::gpu::copy_kind::device_to_host, s);
    hs::gpu::stream_synchronize(s);
    return h;
  }
};

struct device_buffer {
  void* p;
  explicit device_buffer(std::size_t bytes) : p(hs::gpu::malloc(bytes ? bytes : 1)) {}
  ~device_buffer() { hs::gpu::free(p); }
};

/// A device copy of a host parent image, and a view of `r` inside it.
template <class T>
struct on_device {
  hs::device_image<T> img;
  hs::image_view<const T> view;
  on_device(const hs::host_image<T>& h, rect r, hs::gpu::stream_t s) : img(h.width(), h.height()) {
    img.upload(h.view(), s);
    view = hs::image_view<const T>(img.view()).sub(r);
  }
};

/// Exact equality, with NaN equal to NaN (whatever its bit pattern).
template <class C>
bool same(C a, C b) {
  return a == b || (std::isnan(double(a)) && std::isnan(double(b)));
}

/// The shapes: {parent width, parent height, rect}. A rect smaller than its parent is a
/// pitched sub-view (offset from the parent's origin).
struct shape {
  int pw, ph;
  rect r;
};
const shape shapes[] = {
    {1, 1, {0, 0, 1, 1}},        {7, 3, {0, 0, 7, 3}},        {1, 13, {0, 0, 1, 13}},
    {509, 263, {0, 0, 509, 263}},  // several reduction blocks
    {6, 5, {3, 2, 1, 1}},        {12, 8, {2, 3, 7, 3}},       {523, 271, {5, 3, 509, 263}},
};

template <class T>
void check_min_max() {
  using C = channel_t<T>;
  constexpr int N = hs::pixel_traits<T>::channels;
  stream_guard stream;
  device_result<hs::value_range<C>> result;
  for (const shape& sh : shapes) {
    const auto host = random_image<T>(sh.pw, sh.ph);
    on_device<T> dev(host, sh.r, stream.s);
    std::vector<channel_set> sets{channel_set::all(), channel_set::colour()};
    for (int c = 0; c < N; ++c) sets.push_back(channel_set::only(c));
    for (const channel_set cs : sets) {
      const auto want = host_min_max(host, sh.r, cs.mask);
      for (int overload = 0; overload < 2; ++overload) {
        INFO("seed " << seed() << ", parent " << sh.pw << "x" << sh.ph << ", rect {" << sh.r.x << "," << sh.r.y << ","
                     << sh.r.width << "," << sh.r.height << "}, mask " << cs.mask << ", "
                     << (overload ? "stream-ordered allocation" : "caller's workspace"));
        for (unsigned char poison : {0x00, 0xFF}) {
          result.poison(poison, stream.s);
          if (overload == 0) {
            const std::size_t bytes = hs::min_max_workspace_bytes<T>(dev.view.width, dev.view.height);
            device_buffer ws(bytes);
            hs::min_max(dev.view, cs, result.p, ws.p, bytes, stream.s);
            const auto got = result.get(stream.s);  // synchronises before ws is freed
            CHECK(same(got.min, want.min));
            CHECK(same(got.max, want.max));
          } else {
            hs::min_max(dev.view, cs, result.p, stream.s);
            const auto got = result.get(stream.s);
            CHECK(same(got.min, want.min));
            CHECK(same(got.max, want.max));
          }
        }
      }
    }
  }
}

/// b = a with a few channels changed by small amounts (both directions), so that the
/// tolerance decides which of them count.
template <class T>
hs::host_image<T> perturbed(const hs::host_image<T>& a) {
  using C = channel_t<T>;
  constexpr int N = hs::pixel_traits<T>::channels;
  hs::host_image<T> b = a;
  const long long count = std::max<long long>(1, (long long)a.width() * a.height() / 20);
  const auto bounds = value_bounds<C>();
  for (long long k = 0; k < count; ++k) {
    const int x = uniform<int>(0, a.width() - 1), y = uniform<int>(0, a.height() - 1), c = uniform<int>(0, N - 1);
    const double v = double(hs::pixel_traits<T>::get(b(x, y), c));
    const double delta = std::is_floating_point<C>::value ? uniform<double>(0.25, 6.0) : double(uniform<int>(1, 6));
    const double moved = v + delta <= bounds.second ? v + delta : v - delta;
    hs::pixel_traits<T>::set(b(x, y), c, C(moved));
  }
  return b;
}

template <class T>
void check_difference() {
  stream_guard stream;
  device_result<image_difference> result;
  for (const shape& sh : shapes) {
    // a: a sub-view of its parent; b: an image of its own (another pitch, another origin).
    const auto a = random_image<T>(sh.pw, sh.ph);
    hs::host_image<T> b_whole(sh.r.width, sh.r.height);
    for (int y = 0; y < sh.r.height; ++y)
      for (int x = 0; x < sh.r.width; ++x) b_whole(x, y) = a(sh.r.x + x, sh.r.y + y);
    const rect rb{0, 0, sh.r.width, sh.r.height};
    const hs::host_image<T> variants[] = {b_whole, perturbed(b_whole)};
    on_device<T> da(a, sh.r, stream.s);
    for (const auto& b : variants) {
      on_device<T> db(b, rb, stream.s);
      for (double tol : {0.0, 2.0, 4.5}) {
        const image_difference want = host_difference(a, sh.r, b, rb, tol);
        for (int overload = 0; overload < 2; ++overload) {
          INFO("seed " << seed() << ", parent " << sh.pw << "x" << sh.ph << ", rect {" << sh.r.x << "," << sh.r.y << ","
                       << sh.r.width << "," << sh.r.height << "}, tolerance " << tol << ", expected max "
                       << want.max_abs_diff << " count " << want.differing_pixels << ", "
                       << (overload ? "stream-ordered allocation" : "caller's workspace"));
          for (unsigned char poison : {0x00, 0xFF}) {
            result.poison(poison, stream.s);
            image_difference got;
            if (overload == 0) {
              const std::size_t bytes = hs::difference_workspace_bytes<T>(sh.r.width, sh.r.height);
              device_buffer ws(bytes);
              hs::difference(da.view, db.view, tol, result.p, ws.p, bytes, stream.s);
              got = result.get(stream.s);
            } else {
              hs::difference(da.view, db.view, tol, result.p, stream.s);
              got = result.get(stream.s);
            }
            CHECK(same(got.max_abs_diff, want.max_abs_diff));
            CHECK(got.differing_pixels == want.differing_pixels);
          }
        }
      }
    }
  }
}

}  // namespace

TEMPLATE_TEST_CASE("min_max equals the host min/max for every channel set", "[gpu][reduce]", std::uint8_t,
                   std::uint16_t, std::int16_t, float, hs::uchar4, hs::float4) {
  check_min_max<TestType>();
}

TEMPLATE_TEST_CASE("difference equals the host max |a-b| and count", "[gpu][reduce]", std::uint8_t, std::uint16_t,
                   std::int16_t, float, hs::uchar4, hs::float4) {
  check_difference<TestType>();
}

TEMPLATE_TEST_CASE("non-finite values: min_max skips NaN and keeps infinities, difference reports NaN", "[gpu][reduce]",
                   float, hs::float4) {
  using C = channel_t<TestType>;
  constexpr int N = hs::pixel_traits<TestType>::channels;
  stream_guard stream;
  auto a = random_image<TestType>(37, 11);
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  for (int c = 0; c < N; ++c) hs::pixel_traits<TestType>::set(a(uniform<int>(0, 36), uniform<int>(0, 10)), c, nan);
  on_device<TestType> da(a, a.view().bounds(), stream.s);
  device_result<hs::value_range<C>> range;
  device_result<image_difference> diff;

  SECTION("NaN only: skipped by min_max, makes difference NaN") {
    hs::min_max(da.view, channel_set::all(), range.p, stream.s);
    const auto got = range.get(stream.s);
    const auto want = host_min_max(a, a.view().bounds(), channel_set::all().mask);
    CHECK(std::isfinite(got.min));
    CHECK(same(got.min, want.min));
    CHECK(same(got.max, want.max));
    // a against itself: NaN != NaN, so the NaN pixels differ and the maximum is NaN.
    hs::difference(da.view, da.view, 0.0, diff.p, stream.s);
    const auto d = diff.get(stream.s);
    CHECK(std::isnan(d.max_abs_diff));
    CHECK(d.differing_pixels == host_difference(a, a.view().bounds(), a, a.view().bounds(), 0.0).differing_pixels);
    CHECK(d.differing_pixels >= 1);
  }
  SECTION("infinities are values; equal infinities do not differ") {
    auto b = a;
    for (int y = 0; y < 11; ++y)
      for (int x = 0; x < 37; ++x)
        for (int c = 0; c < N; ++c)
          if (std::isnan(double(hs::pixel_traits<TestType>::get(a(x, y), c)))) {
            hs::pixel_traits<TestType>::set(a(x, y), c, 1.0f);
            hs::pixel_traits<TestType>::set(b(x, y), c, 1.0f);
          }
    hs::pixel_traits<TestType>::set(a(3, 4), 0, inf);
    hs::pixel_traits<TestType>::set(b(3, 4), 0, inf);
    hs::pixel_traits<TestType>::set(a(5, 6), 0, -inf);
    hs::pixel_traits<TestType>::set(b(5, 6), 0, -inf);
    on_device<TestType> da2(a, a.view().bounds(), stream.s), db2(b, b.view().bounds(), stream.s);
    hs::min_max(da2.view, channel_set::only(0), range.p, stream.s);
    const auto got = range.get(stream.s);
    CHECK(got.min == -inf);
    CHECK(got.max == inf);
    hs::difference(da2.view, db2.view, 0.0, diff.p, stream.s);
    const auto d = diff.get(stream.s);
    CHECK(d.max_abs_diff == 0.0);
    CHECK(d.differing_pixels == 0);
  }
}

TEST_CASE("reduce: invalid arguments throw before anything is queued", "[gpu][reduce]") {
  stream_guard stream;
  hs::device_image<hs::uchar4> a(9, 7), b(9, 8);
  a.fill_bytes(0x11, stream.s);
  b.fill_bytes(0x11, stream.s);
  device_result<hs::value_range<unsigned char>> range;
  device_result<image_difference> diff;
  range.poison(0xA5, stream.s);
  diff.poison(0xA5, stream.s);
  const auto v = hs::image_view<const hs::uchar4>(a.view());
  const std::size_t need = hs::min_max_workspace_bytes<hs::uchar4>(9, 7);
  device_buffer ws(need + 512);
  using hs::invalid_argument;

  CHECK_THROWS_AS(hs::min_max(v, channel_set{0x10u}, range.p, stream.s), invalid_argument);  // no channel of uchar4
  CHECK_THROWS_AS(hs::min_max(v, channel_set::only(7), range.p, stream.s), invalid_argument);
  CHECK_THROWS_AS(hs::min_max(v, channel_set::all(), static_cast<hs::value_range<unsigned char>*>(nullptr), stream.s),
                  invalid_argument);
  CHECK_THROWS_AS(hs::min_max(hs::image_view<const hs::uchar4>(), channel_set::all(), range.p, stream.s), invalid_argument);
  CHECK_THROWS_AS(hs::min_max(v, channel_set::all(), range.p, nullptr, need, stream.s), invalid_argument);
  CHECK_THROWS_AS(hs::min_max(v, channel_set::all(), range.p, ws.p, need - 1, stream.s), invalid_argument);
  CHECK_THROWS_AS(hs::min_max(v, channel_set::all(), range.p, static_cast<char*>(ws.p) + 4, need, stream.s),
                  invalid_argument);
  CHECK_THROWS_AS(hs::min_max_workspace_bytes<float>(0, 5), invalid_argument);
  CHECK_THROWS_AS(hs::difference(a.view(), b.view(), 0.0, diff.p, stream.s), invalid_argument);  // 9x7 vs 9x8
  CHECK_THROWS_AS(hs::difference(a.view(), a.view(), -1.0, diff.p, stream.s), invalid_argument);
  CHECK_THROWS_AS(hs::difference(a.view(), a.view(), std::nan(""), diff.p, stream.s), invalid_argument);
  CHECK_THROWS_AS(hs::difference(a.view(), a.view(), 0.0, static_cast<image_difference*>(nullptr), stream.s),
                  invalid_argument);
  hs::image_view<hs::uchar4> narrow = a.view();
  narrow.pitch_bytes = 8;  // smaller than a row of 9 pixels
  CHECK_THROWS_AS(hs::difference(narrow, narrow, 0.0, diff.p, stream.s), invalid_argument);
  try {
    hs::difference(a.view(), b.view(), 0.0, diff.p, stream.s);
  } catch (const invalid_argument& e) {
    CHECK(std::string(e.what()).find("9x7") != std::string::npos);  // names the sizes
  }

  // Nothing was written by the rejected calls.
  const auto r = range.get(stream.s);
  const auto d = diff.get(stream.s);
  unsigned char poison[sizeof(image_difference)];
  std::memset(poison, 0xA5, sizeof poison);
  CHECK(std::memcmp(&r, poison, sizeof r) == 0);
  CHECK(std::memcmp(&d, poison, sizeof d) == 0);
}

TEST_CASE("reduce over more than 2^32 pixels (64-bit indices)", "[gpu][reduce][large]") {
  // 70001 x 61357 uint8 = 4.295e9 pixels > 2^32 = 4.295e9. A uniform fill with a few
  // planted pixels, one of them past index 2^32, gives results known without a host pass.
  const int w = 70001, h = 61357;
  REQUIRE(std::uint64_t(w) * h > (std::uint64_t(1) << 32));
  stream_guard stream;
  hs::device_image<std::uint8_t> a, b;
  try {
    a = hs::device_image<std::uint8_t>(w, h);
    b = hs::device_image<std::uint8_t>(w, h);
  } catch (const hs::gpu_error& e) {
    WARN("not run: the device cannot hold two 4.3 GB images (" << e.what() << ")");
    return;
  }
  a.fill_bytes(0x40, stream.s);
  b.fill_bytes(0x40, stream.s);
  const std::uint64_t far_index = (std::uint64_t(1) << 32) + 12345;  // beyond 32 bits
  struct planted {
    int x, y;
    std::uint8_t va, vb;
  } const plants[] = {{int(far_index % w), int(far_index / w), 0xF0, 0x40},  // max of a, |d| = 0xB0
                      {w - 1, h - 1, 0x03, 0x45},                            // min of a, |d| = 0x42
                      {17, 0, 0x40, 0x41}};                                  // |d| = 1
  for (const planted& p : plants) {
    hs::gpu::memcpy(&a.view()(p.x, p.y), &p.va, 1, hs::gpu::copy_kind::host_to_device, stream.s);
    hs::gpu::memcpy(&b.view()(p.x, p.y), &p.vb, 1, hs::gpu::copy_kind::host_to_device, stream.s);
  }
  device_result<hs::value_range<std::uint8_t>> range;
  device_result<image_difference> diff;
  hs::min_max(a.view(), channel_set::all(), range.p, stream.s);
  const auto r = range.get(stream.s);
  CHECK(int(r.min) == 0x03);
  CHECK(int(r.max) == 0xF0);
  hs::difference(a.view(), b.view(), 0.0, diff.p, stream.s);
  auto d = diff.get(stream.s);
  CHECK(d.max_abs_diff == double(0xF0 - 0x40));
  CHECK(d.differing_pixels == 3);
  hs::difference(a.view(), b.view(), 1.0, diff.p, stream.s);
  d = diff.get(stream.s);
  CHECK(d.differing_pixels == 2);
}
