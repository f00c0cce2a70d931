// Invalid arguments of reference::convolve (detail/validate.hpp, shared with the GPU entry
// points): each must throw hipstencil::invalid_argument naming the parameter and value,
// before anything is written (the output buffer is byte-for-byte unchanged).
#include "test_support.hpp"

#include <hipstencil/reference.hpp>

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <random>
#include <string>
#include <tuple>
#include <vector>

namespace {
using Catch::Contains;
using hipstencil::filter2d;
using hipstencil::float4;
using hipstencil::halo;
using hipstencil::image_view;
using hipstencil::rect;
namespace border = hipstencil::border;
namespace reference = hipstencil::reference;

const filter2d k3(3, 3, {1, 2, 1, 2, 4, 2, 1, 2, 1});

/// Runs `call`, which must throw invalid_argument whose what() contains every needle, and
/// checks that none of the watched buffers changed.
template <class F, class... Bufs>
void expect_rejected(F&& call, std::initializer_list<const char*> needles, const Bufs&... watched) {
  const auto before = std::make_tuple(watched.snapshot()...);
  const std::string msg = test::invalid_what(call);
  INFO("what(): " << msg);
  CHECK_THAT(msg, Catch::StartsWith("hipstencil: reference::convolve: "));
  for (const char* n : needles) CHECK_THAT(msg, Contains(n));
  bool unchanged = true;
  std::apply([&](const auto&... snaps) { ((unchanged = unchanged && watched.unchanged_since(snaps)), ...); }, before);
  CHECK(unchanged);
}
}  // namespace

TEST_CASE("null data", "[errors]") {
  test::pitched<float> src(4, 3), dst(4, 3);
  std::mt19937 rng(test::run_seed());
  test::fill_random(src.view(), rng);
  const image_view<const float> null_src(nullptr, 4, 3);
  const image_view<float> null_dst(nullptr, 4, 3);
  expect_rejected([&] { reference::convolve(null_src, dst.view(), k3); }, {"src.data is null"}, dst, src);
  expect_rejected([&] { reference::convolve(null_src, rect{0, 0, 2, 2}, dst.view(), rect{0, 0, 2, 2}, k3); },
                  {"src.data is null"}, dst);
  expect_rejected([&] { reference::convolve(src.cview(), null_dst, k3); }, {"dst.data is null"}, src);
  expect_rejected([&] { reference::convolve(src.cview(), rect{0, 0, 2, 2}, null_dst, rect{0, 0, 2, 2}, k3); },
                  {"dst.data is null"}, src);
  // A default-constructed view (null, 0x0) through the whole-image overload is reported as
  // null, not as a size mismatch with the other image.
  test::pitched<float> dst4(4, 4), src4(4, 4);
  expect_rejected([&] { reference::convolve(image_view<const float>{}, dst4.view(), k3); }, {"src.data is null"},
                  dst4);
  expect_rejected([&] { reference::convolve(src4.cview(), image_view<float>{}, k3); }, {"dst.data is null"}, src4);
}

TEST_CASE("empty images", "[errors]") {
  test::pitched<float> src(4, 3), dst(4, 3);
  const image_view<const float> s = src.cview();
  const image_view<float> d = dst.view();
  const image_view<const float> s0w(s.data, 0, 3, s.pitch_bytes), s0h(s.data, 4, 0, s.pitch_bytes),
      sneg(s.data, -2, 3, s.pitch_bytes);
  const image_view<float> d0w(d.data, 0, 3, d.pitch_bytes), d0h(d.data, 4, 0, d.pitch_bytes);
  const rect r{0, 0, 1, 1};
  expect_rejected([&] { reference::convolve(s0w, r, d, r, k3); }, {"src is empty", "width=0", "height=3"}, dst);
  expect_rejected([&] { reference::convolve(s0h, r, d, r, k3); }, {"src is empty", "width=4", "height=0"}, dst);
  expect_rejected([&] { reference::convolve(sneg, r, d, r, k3); }, {"src is empty", "width=-2"}, dst);
  expect_rejected([&] { reference::convolve(s, r, d0w, r, k3); }, {"dst is empty", "width=0"}, dst);
  expect_rejected([&] { reference::convolve(s, r, d0h, r, k3); }, {"dst is empty", "height=0"}, dst);
  // The whole-image overload (equal sizes, both empty).
  const image_view<float> dd0(d.data, 0, 3, d.pitch_bytes);
  expect_rejected([&] { reference::convolve(s0w, dd0, k3); }, {"src is empty", "width=0"}, dst);
}

TEST_CASE("pitch smaller than a row", "[errors]") {
  test::pitched<float> src(4, 3), dst(4, 3);
  const image_view<const float> s(src.cview().data, 4, 3, 12);  // a row is 16 bytes
  const image_view<float> d(dst.view().data, 4, 3, 15);
  expect_rejected([&] { reference::convolve(s, dst.view(), k3); },
                  {"src.pitch_bytes=12", "smaller than a row", "16 bytes"}, dst);
  expect_rejected([&] { reference::convolve(src.cview(), d, k3); }, {"dst.pitch_bytes=15", "smaller than a row"},
                  dst);
  const image_view<const float> zero(src.cview().data, 4, 3, 0);
  expect_rejected([&] { reference::convolve(zero, dst.view(), k3); }, {"src.pitch_bytes=0"}, dst);
}

TEST_CASE("misaligned pitch or data for float4", "[errors]") {
  test::pitched<float4> src(3, 3, 64), dst(3, 3, 64);
  // 3 pixels = 48 bytes; a pitch of 56 is large enough but not a multiple of 16.
  const image_view<const float4> s(src.cview().data, 3, 3, 56);
  const image_view<float4> d(dst.view().data, 3, 3, 56);
  expect_rejected([&] { reference::convolve(s, dst.view(), k3); },
                  {"src.pitch_bytes=56", "not a multiple of 16"}, dst);
  expect_rejected([&] { reference::convolve(src.cview(), d, k3); },
                  {"dst.pitch_bytes=56", "not a multiple of 16"}, dst);
  // Data 8 bytes past an aligned address (never dereferenced: rejected first).
  const auto* mis = reinterpret_cast<const float4*>(reinterpret_cast<const unsigned char*>(src.cview().data) + 8);
  const image_view<const float4> sm(mis, 3, 3, 64);
  expect_rejected([&] { reference::convolve(sm, dst.view(), k3); }, {"src.data is not aligned to 16"}, dst);
  // float: a pitch of 18 bytes is not a multiple of 4.
  test::pitched<float> fs(4, 3, 8), fd(4, 3);
  const image_view<const float> f18(fs.cview().data, 4, 3, 18);
  expect_rejected([&] { reference::convolve(f18, fd.view(), k3); }, {"src.pitch_bytes=18", "not a multiple of 4"},
                  fd);
}

TEST_CASE("ROI outside its image, at each edge", "[errors]") {
  test::pitched<std::uint8_t> src(6, 5), dst(6, 5);
  const auto s = src.cview();
  const auto d = dst.view();
  const rect ok{1, 1, 3, 2};
  struct bad_roi {
    rect r;
    const char* x;
    const char* y;
  };
  const bad_roi bad[] = {
      {{-1, 1, 3, 2}, "x=-1", "y=1"},  // left
      {{1, -1, 3, 2}, "x=1", "y=-1"},  // top
      {{4, 1, 3, 2}, "x=4", "y=1"},    // right: 4 + 3 > 6
      {{1, 4, 3, 2}, "x=1", "y=4"},    // bottom: 4 + 2 > 5
      {{6, 0, 3, 2}, "x=6", "y=0"},    // entirely right of it
  };
  for (const bad_roi& b : bad) {
    INFO("roi {" << b.r.x << "," << b.r.y << "," << b.r.width << "," << b.r.height << "}");
    const rect okr{1, 1, b.r.width, b.r.height};
    expect_rejected([&] { reference::convolve(s, b.r, d, okr, k3); },
                    {"src_roi {", b.x, b.y, "not inside its 6x5 image"}, dst);
    expect_rejected([&] { reference::convolve(s, okr, d, b.r, k3); },
                    {"dst_roi {", b.x, b.y, "not inside its 6x5 image"}, dst);
  }
  // The dst image's own size is the one named.
  test::pitched<std::uint8_t> small(3, 2);
  expect_rejected([&] { reference::convolve(s, ok, small.view(), rect{1, 0, 3, 2}, k3); },
                  {"dst_roi {x=1, y=0, width=3, height=2}", "3x2 image"}, small);
}

TEST_CASE("empty ROI", "[errors]") {
  test::pitched<std::uint8_t> src(6, 5), dst(6, 5);
  for (const rect& e : {rect{1, 1, 0, 2}, rect{1, 1, 2, 0}, rect{1, 1, -1, 2}, rect{0, 0, 0, 0}}) {
    INFO("roi {" << e.x << "," << e.y << "," << e.width << "," << e.height << "}");
    expect_rejected([&] { reference::convolve(src.cview(), e, dst.view(), e, k3); },
                    {"src_roi {", "is empty or not inside"}, dst);
    expect_rejected([&] { reference::convolve(src.cview(), rect{0, 0, 1, 1}, dst.view(), e, k3); },
                    {"dst_roi {", "is empty or not inside"}, dst);
  }
}

TEST_CASE("ROIs of different sizes; whole images of different sizes", "[errors]") {
  test::pitched<float> src(6, 5), dst(6, 5), dst2(6, 4), dst3(5, 5);
  expect_rejected([&] { reference::convolve(src.cview(), rect{0, 0, 2, 2}, dst.view(), rect{0, 0, 2, 3}, k3); },
                  {"src_roi is 2x2", "dst_roi is 2x3"}, dst);
  expect_rejected([&] { reference::convolve(src.cview(), rect{0, 0, 3, 2}, dst.view(), rect{1, 1, 2, 2}, k3); },
                  {"src_roi is 3x2", "dst_roi is 2x2"}, dst);
  expect_rejected([&] { reference::convolve(src.cview(), dst2.view(), k3); }, {"src is 6x5", "dst is 6x4"}, dst2);
  expect_rejected([&] { reference::convolve(src.cview(), dst3.view(), hipstencil::filters::box(1)); },
                  {"src is 6x5", "dst is 5x5"}, dst3);
}

TEST_CASE("dst overlapping the pixels read (in-place) is rejected", "[errors]") {
  std::mt19937 rng(test::run_seed());
  test::pitched<float> img(8, 6, 8);
  test::fill_random(img.view(), rng);
  const auto v = img.view();
  SECTION("the same image in place") {
    expect_rejected([&] { reference::convolve(image_view<const float>(v), v, k3); }, {"dst_roi overlaps"}, img);
    expect_rejected([&] { reference::convolve(v, rect{2, 1, 3, 3}, v, rect{2, 1, 3, 3}, k3, border::skip{}); },
                    {"dst_roi overlaps"}, img);
  }
  SECTION("partially overlapping ROIs") {
    expect_rejected([&] { reference::convolve(v, rect{0, 0, 4, 4}, v, rect{3, 2, 4, 4}, k3); }, {"dst_roi overlaps"},
                    img);
    // Under from_parent the pixels next to the source ROI are read too: the adjacent
    // right half is inside the window of the left half's last column.
    expect_rejected([&] {
      reference::convolve(v, rect{0, 0, 4, 6}, v, rect{4, 0, 4, 6}, k3, border::reflect101{}, halo::from_parent);
    }, {"dst_roi overlaps"}, img);
    // Under padded the window around the ROI is read.
    expect_rejected([&] {
      reference::convolve(v, rect{1, 1, 3, 3}, v, rect{4, 1, 3, 3}, k3, border::padded{}, halo::isolated);
    }, {"dst_roi overlaps"}, img);
  }
  SECTION("another view of the same memory (other pitch, other pixel type)") {
    const image_view<float> other(v.data, 4, 6, 16);  // the same bytes with a 16-byte pitch
    expect_rejected([&] { reference::convolve(image_view<const float>(v).sub(rect{0, 0, 4, 6}), other, k3); },
                    {"dst_roi overlaps"}, img);
    // img's memory read as bytes, written as floats.
    const image_view<const std::uint8_t> bytes(reinterpret_cast<const std::uint8_t*>(v.data), 16, 6, v.pitch_bytes);
    expect_rejected([&] { reference::convolve(bytes, rect{0, 0, 4, 4}, v, rect{0, 2, 4, 4}, k3); },
                    {"dst_roi overlaps"}, img);
  }
}

TEST_CASE("non-overlapping ROIs of the same image are legitimate", "[errors]") {
  std::mt19937 rng(test::run_seed() + 3);
  CAPTURE(test::run_seed());
  struct use {
    rect src_roi, dst_roi;
    border::any b;
    halo h;
  };
  // Left half -> right half (their byte spans interleave row by row, but no byte is
  // shared), top -> bottom, and padded with its window clear of dst.
  const use uses[] = {
      {{0, 0, 4, 6}, {4, 0, 4, 6}, border::reflect101{}, halo::isolated},
      {{4, 0, 4, 6}, {0, 0, 4, 6}, border::wrap{}, halo::isolated},
      {{0, 0, 8, 3}, {0, 3, 8, 3}, border::replicate{}, halo::isolated},
      {{0, 3, 8, 3}, {0, 0, 8, 3}, border::constant{2.0f}, halo::isolated},
      {{1, 1, 2, 3}, {5, 1, 2, 3}, border::padded{}, halo::isolated},
      {{1, 1, 2, 2}, {0, 4, 2, 2}, border::skip{}, halo::isolated},
  };
  for (const use& u : uses) {
    INFO("src_roi x=" << u.src_roi.x << " y=" << u.src_roi.y << ", dst_roi x=" << u.dst_roi.x << " y=" << u.dst_roi.y
                      << ", border " << border::name(u.b.rule));
    test::pitched<float> img(8, 6, 8), copy(8, 6, 8), expected(8, 6, 8);
    test::fill_random(img.view(), rng);
    std::memcpy(const_cast<unsigned char*>(copy.bytes()), img.bytes(), img.size_bytes());
    std::memcpy(const_cast<unsigned char*>(expected.bytes()), img.bytes(), img.size_bytes());
    // Expected: the same call from a separate copy of the source.
    reference::convolve(copy.cview(), u.src_roi, expected.view(), u.dst_roi, k3, u.b, u.h);
    CHECK_NOTHROW(reference::convolve(img.view(), u.src_roi, img.view(), u.dst_roi, k3, u.b, u.h));
    CHECK(img.unchanged_since(expected.snapshot()));
  }
}

// ---------------------------------------------------------------------------------------
// The overlap check against a brute force: random views of one small buffer.

namespace {
/// Byte offsets (from the buffer start) of the pixels of rect r of a view at `offset`.
template <class T>
std::vector<char> byte_set(std::size_t buf_bytes, long long offset, std::size_t pitch, const rect& r) {
  std::vector<char> s(buf_bytes, 0);
  for (int y = r.y; y < r.y + r.height; ++y)
    for (int x = r.x; x < r.x + r.width; ++x)
      for (std::size_t b = 0; b < sizeof(T); ++b) {
        const long long at = offset + (long long)y * (long long)pitch + (long long)x * (long long)sizeof(T) + (long long)b;
        if (at >= 0 && at < (long long)buf_bytes) s[std::size_t(at)] = 1;
      }
  return s;
}

struct aliasing_counts {
  int rejected = 0, accepted = 0, false_negative = 0, not_exact = 0, corrupted = 0;
};

/// Random src/dst views of one small buffer. A call must either be rejected (leaving the
/// buffer untouched) or give the same bytes as the same call reading a copy of the source.
/// `overlap` is decided by brute force over byte sets of what the call may read (the
/// source ROI under halo::isolated, the whole view under from_parent, the window under
/// padded) and the pixels of dst_roi.
template <class In, class Out>
aliasing_counts aliasing_trials(const char* types, bool report_not_exact) {
  const std::uint32_t seed = test::run_seed();
  CAPTURE(seed, types);
  std::mt19937 rng(seed ^ 0x51ed270bu);
  auto uni = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  constexpr std::size_t S = sizeof(In) > sizeof(Out) ? sizeof(In) : sizeof(Out);
  constexpr std::size_t N = 96 * S;  // bytes: small, so that views often share memory
  constexpr std::size_t A = alignof(In) > alignof(Out) ? alignof(In) : alignof(Out);
  aliasing_counts n;
  int& rejected = n.rejected;
  int& accepted = n.accepted;
  int& false_negative = n.false_negative;
  int& not_exact = n.not_exact;
  int& corrupted = n.corrupted;
  for (int t = 0; t < 3000; ++t) {
    // Source view, its ROI, and the filter (padded: the window stays inside the view).
    const int sw = uni(1, 8), sh = uni(1, 6);
    const std::size_t sp = (sw * sizeof(In) + std::size_t(uni(0, 3)) * A + A - 1) / A * A;
    const std::size_t s_span = (sh - 1) * sp + sw * sizeof(In);
    if (s_span > N) continue;
    const long long so = (long long)(std::size_t(uni(0, int((N - s_span) / A))) * A);
    const int kw = 2 * uni(0, 1) + 1, kh = 2 * uni(0, 1) + 1;
    const filter2d f(kw, kh, std::vector<float>(std::size_t(kw) * kh, 0.25f));
    const int rw = uni(1, sw), rh = uni(1, sh);
    const rect sr{uni(0, sw - rw), uni(0, sh - rh), rw, rh};
    const int which = uni(0, 3);
    const border::any b = which == 3 ? border::any(border::padded{}) : border::any(border::wrap{});
    const halo h = which == 2 ? halo::from_parent : halo::isolated;
    const rect window{sr.x - f.anchor_x(), sr.y - f.anchor_y(), sr.width + kw - 1, sr.height + kh - 1};
    if (b.rule == border::kind::padded && !rect{0, 0, sw, sh}.contains(window)) continue;
    // Destination view: the same pitch half of the time.
    const int dw = uni(rw, 9), dh = uni(rh, 7);
    std::size_t dp = (dw * sizeof(Out) + std::size_t(uni(0, 3)) * A + A - 1) / A * A;
    if (uni(0, 1) && sp >= dw * sizeof(Out)) dp = sp;
    const std::size_t d_span = (dh - 1) * dp + dw * sizeof(Out);
    if (d_span > N) continue;
    const long long doff = (long long)(std::size_t(uni(0, int((N - d_span) / A))) * A);
    const rect dr{uni(0, dw - rw), uni(0, dh - rh), rw, rh};

    test::pitched<unsigned char> buf(int(N), 1), copy(int(N), 1), expected(int(N), 1);
    test::fill_random(buf.view(), rng);
    std::memcpy(const_cast<unsigned char*>(copy.bytes()), buf.bytes(), N);
    std::memcpy(const_cast<unsigned char*>(expected.bytes()), buf.bytes(), N);
    auto src_at = [&](const unsigned char* base) {
      return image_view<const In>(reinterpret_cast<const In*>(base + so), sw, sh, sp);
    };
    auto dst_at = [&](const unsigned char* base) {
      return image_view<Out>(reinterpret_cast<Out*>(const_cast<unsigned char*>(base) + doff), dw, dh, dp);
    };
    // What the call may read, by the documented semantics, and what it writes.
    const rect read = b.rule == border::kind::padded ? window : h == halo::isolated ? sr : rect{0, 0, sw, sh};
    const auto rs = byte_set<In>(N, so, sp, read), ws = byte_set<Out>(N, doff, dp, dr);
    bool overlap = false;
    for (std::size_t i = 0; i < N; ++i) overlap = overlap || (rs[i] && ws[i]);

    INFO("trial " << t << ": src offset " << so << " " << sw << "x" << sh << " pitch " << sp << " roi {" << sr.x
                  << "," << sr.y << "," << sr.width << "," << sr.height << "}, dst offset " << doff << " " << dw
                  << "x" << dh << " pitch " << dp << " roi {" << dr.x << "," << dr.y << "}, border "
                  << border::name(b.rule) << ", halo " << hipstencil::name(h) << ", overlap " << overlap);
    // Expected: the same call reading a separate copy of the source.
    reference::convolve(src_at(copy.bytes()), sr, dst_at(expected.bytes()), dr, f, b, h);
    bool threw = false;
    try {
      reference::convolve(src_at(buf.bytes()), sr, dst_at(buf.bytes()), dr, f, b, h);
    } catch (const hipstencil::invalid_argument& e) {
      threw = true;
      CHECK_THAT(std::string(e.what()), Contains("dst_roi overlaps"));
    }
    if (threw) {
      ++rejected;
      if (!buf.unchanged_since(copy.snapshot())) ++corrupted;
      // validate.hpp: exact when both views have the same pitch.
      if (!overlap && sp == dp && ++not_exact <= 3 && report_not_exact)
        FAIL_CHECK("rejected although nothing read is written, with equal pitches");
    } else {
      ++accepted;
      if (overlap && ++false_negative <= 3) FAIL_CHECK("accepted although dst_roi overlaps the pixels read");
      if (!buf.unchanged_since(expected.snapshot())) ++corrupted;
    }
  }
  INFO(rejected << " rejected, " << accepted << " accepted");
  CHECK(false_negative == 0);
  CHECK(corrupted == 0);
  CHECK(rejected > 100);  // both outcomes are exercised
  CHECK(accepted > 100);
  return n;
}
}  // namespace

TEST_CASE("overlap check: no aliasing call gets through, a rejected call writes nothing", "[errors]") {
  aliasing_trials<float, float>("float -> float", false);
  aliasing_trials<std::uint8_t, float>("uint8 -> float", false);
  aliasing_trials<float4, float4>("float4 -> float4", false);
  aliasing_trials<hipstencil::uchar4, float4>("uchar4 -> float4", false);
}

// Disjoint ROIs of two overlapping sub-views of one image (same pitch): the destination
// view starts left of the source view and its ROI reaches past the source view's first
// column, so the write rows are not inside one pitch-wide box. The overlap check must see
// that the columns touched are different (regression: it used to fall back to whole byte
// spans and reject this as in-place filtering).
TEST_CASE("overlap check accepts disjoint ROIs of overlapping sub-views of one image",
          "[errors]") {
  std::mt19937 rng(test::run_seed() + 5);
  test::pitched<float> img(8, 6), copy(8, 6), expected(8, 6);
  test::fill_random(img.view(), rng);
  std::memcpy(const_cast<unsigned char*>(copy.bytes()), img.bytes(), img.size_bytes());
  std::memcpy(const_cast<unsigned char*>(expected.bytes()), img.bytes(), img.size_bytes());
  // Parent columns 6..7 are read, parent columns 3..4 are written: disjoint.
  const auto src = img.cview().sub(rect{4, 0, 4, 6});
  const auto dst = img.view().sub(rect{0, 0, 6, 6});
  const rect src_roi{2, 0, 2, 6}, dst_roi{3, 0, 2, 6};
  reference::convolve(copy.cview().sub(rect{4, 0, 4, 6}), src_roi, expected.view().sub(rect{0, 0, 6, 6}), dst_roi,
                      k3, border::reflect101{}, halo::isolated);
  CHECK_NOTHROW(reference::convolve(src, src_roi, dst, dst_roi, k3, border::reflect101{}, halo::isolated));
  CHECK(img.unchanged_since(expected.snapshot()));
  // The same property on random views of one buffer.
  CHECK(aliasing_trials<float, float>("float -> float", true).not_exact == 0);
  CHECK(aliasing_trials<std::uint8_t, float>("uint8 -> float", true).not_exact == 0);
}

// error.hpp's contract: what() names "the parameter and the offending value(s)".
TEST_CASE("the overlap message gives dst_roi's rectangle", "[errors]") {
  test::pitched<float> img(8, 6);
  const auto v = img.view();
  const std::string msg =
      test::invalid_what([&] { reference::convolve(v, rect{0, 0, 4, 4}, v, rect{3, 2, 4, 4}, k3); });
  CHECK_THAT(msg, Contains("dst_roi overlaps"));
  CHECK_THAT(msg, Contains("x=3") && Contains("y=2"));
}

TEST_CASE("a non-finite border::constant value is rejected, naming it", "[errors]") {
  test::pitched<float> src(5, 4), dst(5, 4);
  std::mt19937 rng(test::run_seed());
  test::fill_random(src.view(), rng);
  for (const float v : {std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                        std::numeric_limits<float>::quiet_NaN()}) {
    INFO("value " << v);
    expect_rejected([&] { reference::convolve(src.cview(), dst.view(), k3, border::constant{v}); },
                    {"border::constant value", "not finite"}, dst, src);
  }
  // Any finite value is accepted, the largest float included.
  CHECK_NOTHROW(reference::convolve(src.cview(), dst.view(), k3, border::constant{std::numeric_limits<float>::max()}));
}

TEST_CASE("windows reaching past 32-bit coordinates are rejected, naming the span", "[errors]") {
  // A 2^31 - 1 pixel wide view over a one-row buffer: only its last pixels are named by the
  // ROI, and the call must throw before reading anything (the buffer is far smaller than
  // the view claims, so a read would be caught by ASan or crash).
  std::vector<std::uint8_t> row(64, 7), out(64, 0);
  const int w = 2147483647;
  const image_view<const std::uint8_t> src(row.data(), w, 1, std::size_t(w));
  const image_view<std::uint8_t> dst(out.data(), 8, 1, 8);
  const rect roi{w - 8, 0, 8, 1};
  const std::string msg =
      test::invalid_what([&] { reference::convolve(src, roi, dst, rect{0, 0, 8, 1}, filter2d(31, 1, std::vector<float>(31, 1.0f / 31))); });
  INFO(msg);
  CHECK_THAT(msg, Contains("past the 32-bit coordinates"));
  CHECK_THAT(msg, Contains("columns [2147483624, 2147483662)"));
  for (std::uint8_t v : out) CHECK(v == 0);
}
