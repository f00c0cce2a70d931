// bfloat16 by its bits (detail/bf16_bits.hpp), which every GPU kernel and the host
// reference use for hipstencil::bfloat16: every one of the 2^16 values back to float and
// again, and float -> bfloat16 rounding against the nearest-even rule worked out in double.
#include "test_support.hpp"

#include <hipstencil/detail/bf16_bits.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace {
using hipstencil::detail::bf16_bits_to_float;
using hipstencil::detail::float_to_bf16_bits;

float float_of(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}
std::uint32_t bits_of(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}
/// The value of bfloat16 bits as a double, with the one step past the largest finite
/// bfloat16 counted as 2^128 (where IEEE rounding puts the overflow threshold).
double value_of(std::uint32_t b16) {
  if ((b16 & 0x7fffu) == 0x7f80u) return (b16 & 0x8000u) ? -std::ldexp(1.0, 128) : std::ldexp(1.0, 128);
  return double(float_of(b16 << 16));
}
/// Nearest bfloat16 to finite f, ties to even, from the two candidates around it: worked
/// out with double differences (exact: both are floats), not with the bit trick under test.
std::uint16_t nearest_even(float f) {
  const std::uint32_t u = bits_of(f);
  const std::uint32_t down = u >> 16;  // toward zero
  const std::uint32_t up = down + 1;   // away from zero (the next magnitude)
  const double dd = std::fabs(double(f) - value_of(down)), du = std::fabs(value_of(up) - double(f));
  if (dd < du) return std::uint16_t(down);
  if (du < dd) return std::uint16_t(up);
  return std::uint16_t((down & 1u) ? up : down);
}
}  // namespace

TEST_CASE("bfloat16: every value converts to float exactly and back unchanged", "[pixel][bf16]") {
  long long bad = 0;
  for (std::uint32_t b = 0; b < 0x10000u; ++b) {
    const float f = bf16_bits_to_float(std::uint16_t(b));
    if (bits_of(f) != b << 16) ++bad;  // the top 16 bits of a float, low bits zero
    const bool nan = (b & 0x7fffu) > 0x7f80u;
    const std::uint16_t back = float_to_bf16_bits(f);
    if (nan ? !((back & 0x7fffu) > 0x7f80u && (back & 0x8000u) == (b & 0x8000u)) : back != b) ++bad;
  }
  CHECK(bad == 0);
}

TEST_CASE("bfloat16: floats round to nearest, ties to even, overflow to infinity", "[pixel][bf16]") {
  long long checked = 0, bad = 0;
  auto check = [&](std::uint32_t u) {
    const float f = float_of(u);
    if (!std::isfinite(f)) return;  // infinities and NaN: checked on their own below
    ++checked;
    if (float_to_bf16_bits(f) != nearest_even(f)) ++bad;
  };
  // Every exact tie and its two neighbours, for every upper half (both signs, every exponent).
  for (std::uint32_t hi = 0; hi < 0x10000u; ++hi)
    for (std::uint32_t lo : {0x0000u, 0x0001u, 0x7fffu, 0x8000u, 0x8001u, 0xffffu}) check(hi << 16 | lo);
  // A spread of all floats: a stride prime to 2^32 visits every residue pattern.
  for (std::uint64_t u = 0; u < (1ull << 32); u += 65521) check(std::uint32_t(u));
  CHECK(bad == 0);
  CHECK(checked > 400000);  // the finite ones of the two loops above

  CHECK(float_to_bf16_bits(1.0f) == 0x3f80u);
  CHECK(float_to_bf16_bits(float_of(0x3f808000u)) == 0x3f80u);  // tie, down to even
  CHECK(float_to_bf16_bits(float_of(0x3f818000u)) == 0x3f82u);  // tie, up to even
  CHECK(float_to_bf16_bits(std::numeric_limits<float>::max()) == 0x7f80u);    // rounds past the largest bfloat16
  CHECK(float_to_bf16_bits(std::numeric_limits<float>::infinity()) == 0x7f80u);
  CHECK(float_to_bf16_bits(-std::numeric_limits<float>::infinity()) == 0xff80u);
  CHECK(float_to_bf16_bits(float_of(0x7f7f7fffu)) == 0x7f7fu);  // just below the threshold: the largest
}

TEST_CASE("bfloat16: a NaN stays a NaN with its sign, even one whose payload sits in the low bits", "[pixel][bf16]") {
  for (std::uint32_t u : {0x7fc00000u, 0x7f800001u, 0xff800001u, 0x7fa00000u, 0xffffffffu}) {
    INFO("float bits " << std::hex << u);
    const std::uint16_t b = float_to_bf16_bits(float_of(u));
    CHECK((b & 0x7fffu) > 0x7f80u);  // not infinity: truncating 0x7f800001 would give 0x7f80
    CHECK((b & 0x8000u) == ((u >> 16) & 0x8000u));
  }
}
