// saturate_cast (rounding and saturation), pixel traits, rect::contains and image_view::sub.
#include "test_support.hpp"

#include <hipstencil/image.hpp>
#include <hipstencil/pixel.hpp>

#include <climits>
#include <cmath>
#include <cstdint>
#include <limits>

namespace {
#include "golden_saturate.inc"

using hipstencil::float4;
using hipstencil::image_view;
using hipstencil::rect;
using hipstencil::saturate_cast;
using hipstencil::uchar4;
}  // namespace

TEST_CASE("saturate_cast rounds ties to even and saturates like OpenCV (float and double sources)", "[pixel]") {
  for (const saturate_row& r : saturate_rows) {
    INFO("value = " << r.value);
    const float f = float(r.value);
    REQUIRE(double(f) == r.value);  // the generator chose float-exact values
    CHECK(int(saturate_cast<std::uint8_t>(r.value)) == r.to_uint8);
    CHECK(int(saturate_cast<std::uint8_t>(f)) == r.to_uint8);
    CHECK(int(saturate_cast<std::uint16_t>(r.value)) == r.to_uint16);
    CHECK(int(saturate_cast<std::uint16_t>(f)) == r.to_uint16);
    CHECK(int(saturate_cast<std::int16_t>(r.value)) == r.to_int16);
    CHECK(int(saturate_cast<std::int16_t>(f)) == r.to_int16);
  }
}

TEST_CASE("saturate_cast: ties to even, spelled out", "[pixel]") {
  // The brief's examples (IEEE round-half-to-even, as OpenCV's cvRound); also in the table.
  CHECK(saturate_cast<std::uint8_t>(0.5f) == 0);
  CHECK(saturate_cast<std::uint8_t>(1.5f) == 2);
  CHECK(saturate_cast<std::uint8_t>(2.5f) == 2);
  CHECK(saturate_cast<std::int16_t>(-2.5) == -2);
  // Just below / above a tie.
  CHECK(saturate_cast<std::uint8_t>(std::nextafter(2.5f, 0.0f)) == 2);
  CHECK(saturate_cast<std::uint8_t>(std::nextafter(2.5f, 3.0f)) == 3);
  CHECK(saturate_cast<std::uint8_t>(std::nextafter(0.5, 1.0)) == 1);
}

TEST_CASE("saturate_cast: NaN -> 0 and out-of-range (incl. infinities) clamp first", "[pixel]") {
  // pixel.hpp's contract: "NaN becomes 0, other values are clamped to C's range and
  // rounded". (OpenCV differs for huge values: it rounds to int first, so 1e30 -> 0 for
  // uint8 there; hence these are not in the generated table.)
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const float nanf = std::numeric_limits<float>::quiet_NaN();
  const float inff = std::numeric_limits<float>::infinity();
  CHECK(saturate_cast<std::uint8_t>(nan) == 0);
  CHECK(saturate_cast<std::uint8_t>(nanf) == 0);
  CHECK(saturate_cast<std::uint16_t>(nan) == 0);
  CHECK(saturate_cast<std::uint16_t>(-nanf) == 0);
  CHECK(saturate_cast<std::int16_t>(nan) == 0);
  CHECK(saturate_cast<std::int16_t>(nanf) == 0);

  CHECK(saturate_cast<std::uint8_t>(inf) == 255);
  CHECK(saturate_cast<std::uint8_t>(-inff) == 0);
  CHECK(saturate_cast<std::uint16_t>(inff) == 65535);
  CHECK(saturate_cast<std::uint16_t>(-inf) == 0);
  CHECK(saturate_cast<std::int16_t>(inf) == 32767);
  CHECK(saturate_cast<std::int16_t>(-inff) == -32768);

  CHECK(saturate_cast<std::uint8_t>(1e30) == 255);
  CHECK(saturate_cast<std::uint8_t>(-1e30f) == 0);
  CHECK(saturate_cast<std::uint16_t>(3e9f) == 65535);
  CHECK(saturate_cast<std::int16_t>(1e30) == 32767);
  CHECK(saturate_cast<std::int16_t>(-3e9) == -32768);
  CHECK(saturate_cast<std::uint8_t>(std::numeric_limits<double>::max()) == 255);
  CHECK(saturate_cast<std::int16_t>(std::numeric_limits<float>::lowest()) == -32768);
}

TEST_CASE("saturate_cast to floating point is a plain conversion", "[pixel]") {
  CHECK(saturate_cast<float>(2.5) == 2.5f);
  CHECK(saturate_cast<float>(-1e30) == -1e30f);
  CHECK(saturate_cast<double>(0.1f) == double(0.1f));
  CHECK(std::isnan(saturate_cast<float>(std::numeric_limits<double>::quiet_NaN())));
  CHECK(std::isinf(saturate_cast<float>(1e300)));  // out of float's range: inf, not clamped
}

TEST_CASE("pixel traits, to_accum and from_accum", "[pixel]") {
  STATIC_REQUIRE(hipstencil::pixel_traits<std::uint8_t>::channels == 1);
  STATIC_REQUIRE(hipstencil::pixel_traits<float>::channels == 1);
  STATIC_REQUIRE(hipstencil::pixel_traits<uchar4>::channels == 4);
  STATIC_REQUIRE(hipstencil::pixel_traits<float4>::channels == 4);
  STATIC_REQUIRE(std::is_same<hipstencil::pixel_traits<uchar4>::channel_type, unsigned char>::value);
  STATIC_REQUIRE(std::is_same<hipstencil::pixel_traits<float4>::channel_type, float>::value);
  STATIC_REQUIRE(hipstencil::is_pixel<std::int16_t>::value);
  STATIC_REQUIRE(hipstencil::is_pixel<float4>::value);
  STATIC_REQUIRE(!hipstencil::is_pixel<rect>::value);
  STATIC_REQUIRE(sizeof(uchar4) == 4);
  STATIC_REQUIRE(sizeof(float4) == 16);
  STATIC_REQUIRE(alignof(float4) == 16);

  const uchar4 u{1, 2, 3, 250};
  const auto a = hipstencil::to_accum<double>(u);
  CHECK(a.v[0] == 1.0);
  CHECK(a.v[1] == 2.0);
  CHECK(a.v[2] == 3.0);
  CHECK(a.v[3] == 250.0);

  hipstencil::accum<double, 4> acc{{0.5, 1.5, 300.0, std::numeric_limits<double>::quiet_NaN()}};
  const uchar4 o = hipstencil::from_accum<uchar4>(acc);
  CHECK(int(o.x) == 0);
  CHECK(int(o.y) == 2);
  CHECK(int(o.z) == 255);
  CHECK(int(o.w) == 0);
  STATIC_REQUIRE(sizeof(hipstencil::ushort4) == 8);
  STATIC_REQUIRE(std::is_same<hipstencil::pixel_traits<hipstencil::ushort4>::channel_type, unsigned short>::value);
  hipstencil::accum<double, 4> acc16{{65535.5, -3.0, 1000.5, 70000.0}};
  const hipstencil::ushort4 o16 = hipstencil::from_accum<hipstencil::ushort4>(acc16);
  CHECK(int(o16.x) == 65535);  // saturated
  CHECK(int(o16.y) == 0);
  CHECK(int(o16.z) == 1000);  // tie to even
  CHECK(int(o16.w) == 65535);
  CHECK(hipstencil::to_accum<double>(o16).v[2] == 1000.0);
  const float4 f = hipstencil::from_accum<float4>(acc);
  CHECK(f.x == 0.5f);
  CHECK(f.y == 1.5f);
  CHECK(f.z == 300.0f);
  CHECK(std::isnan(f.w));
  hipstencil::accum<float, 1> s{{-7.5f}};
  CHECK(hipstencil::from_accum<std::int16_t>(s) == -8);
  CHECK(hipstencil::from_accum<std::uint16_t>(s) == 0);
}

TEST_CASE("3-channel pixels: packed RGB, channels x, y, z", "[pixel]") {
  using hipstencil::float3;
  using hipstencil::uchar3;
  using hipstencil::ushort3;
  STATIC_REQUIRE(hipstencil::pixel_traits<uchar3>::channels == 3);
  STATIC_REQUIRE(hipstencil::pixel_traits<float3>::channels == 3);
  STATIC_REQUIRE(std::is_same<hipstencil::pixel_traits<ushort3>::channel_type, unsigned short>::value);
  STATIC_REQUIRE(sizeof(uchar3) == 3);  // packed as NPP's C3 and the runtimes' vector types
  STATIC_REQUIRE(sizeof(ushort3) == 6);
  STATIC_REQUIRE(sizeof(float3) == 12);

  const uchar3 u{7, 128, 255};
  const auto a = hipstencil::to_accum<double>(u);
  CHECK((a.v[0] == 7.0 && a.v[1] == 128.0 && a.v[2] == 255.0));
  const hipstencil::accum<double, 3> acc{{2.5, -1.0, 65535.5}};
  const uchar3 o = hipstencil::from_accum<uchar3>(acc);
  CHECK((int(o.x) == 2 && int(o.y) == 0 && int(o.z) == 255));  // tie to even, saturated
  const ushort3 o16 = hipstencil::from_accum<ushort3>(acc);
  CHECK((int(o16.x) == 2 && int(o16.y) == 0 && int(o16.z) == 65535));
  const float3 f = hipstencil::from_accum<float3>(acc);
  CHECK((f.x == 2.5f && f.y == -1.0f && f.z == 65535.5f));
}

TEST_CASE("rect::contains edge cases", "[pixel][image]") {
  const rect img{0, 0, 8, 6};
  CHECK(img.contains(img));                    // itself
  CHECK(img.contains(rect{7, 5, 1, 1}));       // the last pixel
  CHECK(img.contains(rect{0, 0, 1, 1}));       // the first pixel
  CHECK_FALSE(img.contains(rect{7, 5, 2, 1}));  // one column past the right edge
  CHECK_FALSE(img.contains(rect{7, 5, 1, 2}));  // one row past the bottom
  CHECK_FALSE(img.contains(rect{-1, 0, 2, 2}));
  CHECK_FALSE(img.contains(rect{0, -1, 2, 2}));
  CHECK_FALSE(img.contains(rect{8, 0, 1, 1}));  // starts at the right edge
  CHECK_FALSE(img.contains(rect{0, 6, 1, 1}));
  CHECK_FALSE(img.contains(rect{0, 0, 9, 6}));  // larger
  // Empty rectangles are never contained, even when they sit inside.
  CHECK_FALSE(img.contains(rect{2, 2, 0, 3}));
  CHECK_FALSE(img.contains(rect{2, 2, 3, 0}));
  CHECK_FALSE(img.contains(rect{2, 2, -1, 3}));
  CHECK_FALSE(img.contains(rect{}));
  CHECK(rect{2, 2, 0, 1}.empty());
  CHECK(rect{2, 2, 1, -1}.empty());
  CHECK_FALSE(rect{2, 2, 1, 1}.empty());
  // An empty container contains nothing.
  CHECK_FALSE(rect{}.contains(rect{0, 0, 1, 1}));
  // No 32-bit overflow in x + width.
  const rect big{0, 0, INT_MAX, INT_MAX};
  CHECK(big.contains(rect{INT_MAX - 1, INT_MAX - 1, 1, 1}));
  CHECK_FALSE(big.contains(rect{INT_MAX - 1, 0, 2, 1}));
  CHECK_FALSE(big.contains(rect{INT_MAX, 0, INT_MAX, 1}));
  CHECK_FALSE(img.contains(rect{4, 4, INT_MAX, INT_MAX}));
  // Offset container.
  const rect off{10, 20, 5, 5};
  CHECK(off.contains(rect{10, 20, 5, 5}));
  CHECK(off.contains(rect{14, 24, 1, 1}));
  CHECK_FALSE(off.contains(rect{9, 20, 1, 1}));
  CHECK_FALSE(off.contains(rect{0, 0, 1, 1}));
  CHECK(rect{1, 2, 3, 4} == rect{1, 2, 3, 4});
  CHECK(rect{1, 2, 3, 4} != rect{1, 2, 4, 3});
}

TEST_CASE("image_view: rows, sub-views and their edge cases", "[pixel][image]") {
  test::pitched<std::uint16_t> buf(7, 5, 6);  // 3 pixels of padding per row
  auto v = buf.view();
  REQUIRE(v.pitch_bytes == 7 * 2 + 6);
  for (int y = 0; y < 5; ++y)
    for (int x = 0; x < 7; ++x) v(x, y) = std::uint16_t(100 * y + x);
  CHECK(v.span_bytes() == 4 * 20 + 7 * 2);
  CHECK(v.bounds() == rect{0, 0, 7, 5});
  // Rows advance by the pitch in bytes, not by width pixels.
  CHECK(reinterpret_cast<const unsigned char*>(v.row(2)) == buf.bytes() + 2 * 20);
  CHECK(v(3, 2) == 203);

  SECTION("a sub-view shares the pitch and starts at the rect's origin") {
    const auto s = v.sub(rect{2, 1, 4, 3});
    CHECK(s.data == &v(2, 1));
    CHECK(s.width == 4);
    CHECK(s.height == 3);
    CHECK(s.pitch_bytes == v.pitch_bytes);
    CHECK(s(0, 0) == 102);
    CHECK(s(3, 2) == 305);
    // A sub-view of a sub-view is relative to it.
    const auto ss = s.sub(rect{1, 1, 3, 2});
    CHECK(ss.data == &v(3, 2));
    CHECK(ss(2, 1) == 305);  // parent (3 + 2, 2 + 1)
    // Writes go through to the parent.
    ss(0, 0) = 9999;
    CHECK(v(3, 2) == 9999);
  }
  SECTION("whole image and single pixels at the corners") {
    CHECK(v.sub(v.bounds()).data == v.data);
    CHECK(v.sub(rect{6, 4, 1, 1})(0, 0) == 406);
    CHECK(v.sub(rect{0, 4, 1, 1})(0, 0) == 400);
    CHECK(v.sub(rect{6, 0, 1, 1})(0, 0) == 6);
  }
  SECTION("a const view converts implicitly and sub() keeps constness") {
    image_view<const std::uint16_t> c = v;
    CHECK(c.data == v.data);
    CHECK(c.pitch_bytes == v.pitch_bytes);
    auto cs = c.sub(rect{1, 1, 1, 1});
    STATIC_REQUIRE(std::is_same<decltype(cs), image_view<const std::uint16_t>>::value);
    CHECK(cs(0, 0) == 101);
  }
  SECTION("a rect outside or empty throws and names the rect and the image") {
    using Catch::Contains;
    CHECK_THROWS_AS(v.sub(rect{6, 4, 2, 1}), hipstencil::invalid_argument);
    CHECK_THROWS_WITH(v.sub(rect{6, 4, 2, 1}), Contains("image_view::sub") && Contains("x=6") &&
                                                  Contains("width=2") && Contains("7x5"));
    CHECK_THROWS_WITH(v.sub(rect{-1, 0, 1, 1}), Contains("x=-1"));
    CHECK_THROWS_WITH(v.sub(rect{0, -2, 1, 1}), Contains("y=-2"));
    CHECK_THROWS_WITH(v.sub(rect{0, 4, 1, 2}), Contains("height=2"));
    CHECK_THROWS_WITH(v.sub(rect{0, 0, 0, 1}), Contains("width=0"));
    CHECK_THROWS_AS(v.sub(rect{3, 3, 1, 0}), hipstencil::invalid_argument);
    CHECK_THROWS_AS(v.sub(rect{0, 0, 8, 5}), hipstencil::invalid_argument);
  }
  SECTION("tightly packed constructor and host_image") {
    std::uint16_t raw[6] = {};
    image_view<std::uint16_t> t(raw, 3, 2);
    CHECK(t.pitch_bytes == 6);
    t(2, 1) = 7;
    CHECK(raw[5] == 7);
    hipstencil::host_image<float4> h(3, 2, float4{1, 2, 3, 4});
    CHECK(h.pitch_bytes() == 3 * sizeof(float4));
    CHECK(h(2, 1).w == 4.0f);
    CHECK(h.view()(1, 1).y == 2.0f);
    CHECK_THROWS_WITH((hipstencil::host_image<float>(0, 3)), Catch::Contains("0x3"));
    CHECK_THROWS_WITH((hipstencil::host_image<float>(3, 0)), Catch::Contains("3x0"));
    CHECK_THROWS_AS((hipstencil::host_image<float>(-2, -3)), hipstencil::invalid_argument);
  }
}

// With one negative side, size_t(width) * size_t(height) wraps to a huge count: the size
// must be checked before std::vector is sized, or std::length_error escapes instead of
// hipstencil::invalid_argument (regression).
TEST_CASE("host_image with one negative side throws invalid_argument (before sizing its vector)",
          "[image]") {
  CHECK_THROWS_AS((hipstencil::host_image<float>(2, -1)), hipstencil::invalid_argument);
  CHECK_THROWS_AS((hipstencil::host_image<std::uint8_t>(-1, 1)), hipstencil::invalid_argument);
}
