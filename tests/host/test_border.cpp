// Border index maps against tables generated from scipy.ndimage and OpenCV
// (tests/tools/gen_border_tables.py -> border_tables.inc).
#include <catch2/catch.hpp>

#include <hipstencil/border.hpp>

#include <climits>
#include <cstring>

namespace {
#include "border_tables.inc"

namespace b = hipstencil::border;

// Evaluated at COMPILE time: the maps must be constexpr (device code and tables use them
// so), and must give the generated values. The count is checked at run time so that a
// wrong value reports a failure instead of breaking the build.
template <std::size_t N>
constexpr int constexpr_mismatches(const border_row (&rows)[N]) {
  int bad = 0;
  for (const border_row& r : rows) {
    bad += b::map_replicate(r.p, r.n) != r.replicate;
    bad += b::map_reflect(r.p, r.n) != r.reflect;
    bad += b::map_reflect101(r.p, r.n) != r.reflect101;
    bad += b::map_wrap(r.p, r.n) != r.wrap;
    bad += b::map_constant(r.p, r.n) != r.constant;
  }
  return bad;
}
constexpr int kConstexprMismatches = constexpr_mismatches(border_rows);
constexpr int kConstexprFarMismatches = constexpr_mismatches(border_far_rows);

void check_row(const border_row& r) {
  INFO("n = " << r.n << ", p = " << r.p);
  // Free functions.
  CHECK(b::map_replicate(r.p, r.n) == r.replicate);
  CHECK(b::map_reflect(r.p, r.n) == r.reflect);
  CHECK(b::map_reflect101(r.p, r.n) == r.reflect101);
  CHECK(b::map_wrap(r.p, r.n) == r.wrap);
  CHECK(b::map_constant(r.p, r.n) == r.constant);
  // Run-time rule.
  CHECK(b::map_index(b::kind::replicate, r.p, r.n) == r.replicate);
  CHECK(b::map_index(b::kind::reflect, r.p, r.n) == r.reflect);
  CHECK(b::map_index(b::kind::reflect101, r.p, r.n) == r.reflect101);
  CHECK(b::map_index(b::kind::wrap, r.p, r.n) == r.wrap);
  CHECK(b::map_index(b::kind::constant, r.p, r.n) == r.constant);
  // Policy types.
  CHECK(b::replicate::map(r.p, r.n) == r.replicate);
  CHECK(b::reflect::map(r.p, r.n) == r.reflect);
  CHECK(b::reflect101::map(r.p, r.n) == r.reflect101);
  CHECK(b::wrap::map(r.p, r.n) == r.wrap);
  CHECK(b::constant::map(r.p, r.n) == r.constant);
}
}  // namespace

TEST_CASE("border maps equal scipy/OpenCV for n in {1,2,3,4,5,7}, p in [-3n-4, 4n+4]", "[border]") {
  // The table covers n = 1 and several periods on each side.
  int n1 = 0, beyond_one_reflection = 0;
  for (const border_row& r : border_rows) {
    n1 += r.n == 1;
    beyond_one_reflection += r.p < -r.n || r.p >= 2 * r.n;
    check_row(r);
  }
  CHECK(n1 == 16);
  CHECK(beyond_one_reflection > 100);
}

TEST_CASE("border maps equal scipy at distances up to 1001", "[border]") {
  for (const border_row& r : border_far_rows) check_row(r);
}

TEST_CASE("border maps are constexpr and right at compile time", "[border]") {
  CHECK(kConstexprMismatches == 0);
  CHECK(kConstexprFarMismatches == 0);
}

TEST_CASE("border maps at the extremes of int: periodic, no overflow", "[border]") {
  // map(p) must equal map(p mod period) for the rule's period, with the remainder taken in
  // 64 bits (so no 32-bit overflow can hide in the expected side); small p are covered by
  // the tables above.
  auto mod = [](long long p, long long q) { return ((p % q) + q) % q; };
  for (int n : {1, 2, 3, 5, 7, 1000}) {
    for (long long p : {(long long)INT_MIN, (long long)INT_MIN + 1, (long long)INT_MIN + 2, -1000000007LL,
                        1000000007LL, (long long)INT_MAX - 2, (long long)INT_MAX - 1, (long long)INT_MAX}) {
      INFO("n = " << n << ", p = " << p);
      const int pi = int(p);
      CHECK(b::map_wrap(pi, n) == b::map_wrap(int(mod(p, n)), n));
      CHECK(b::map_reflect(pi, n) == b::map_reflect(int(mod(p, 2LL * n)), n));
      if (n > 1) CHECK(b::map_reflect101(pi, n) == b::map_reflect101(int(mod(p, 2LL * n - 2)), n));
      else CHECK(b::map_reflect101(pi, n) == 0);
      CHECK(b::map_replicate(pi, n) == (p < 0 ? 0 : n - 1));
      CHECK(b::map_constant(pi, n) == -1);
      for (int m : {b::map_wrap(pi, n), b::map_reflect(pi, n), b::map_reflect101(pi, n)}) {
        CHECK(m >= 0);
        CHECK(m < n);
      }
    }
  }
}

TEST_CASE("reflect and reflect101 are right for extents past 2^30", "[border]") {
  // The period 2n (2n - 2) no longer fits an int here. Expected values from the rules'
  // definitions in 64-bit arithmetic: fold p into one period, then mirror the upper half.
  auto reflect = [](long long p, long long n) {
    const long long m = ((p % (2 * n)) + 2 * n) % (2 * n);
    return m < n ? m : 2 * n - 1 - m;
  };
  auto reflect101 = [](long long p, long long n) {
    const long long q = 2 * n - 2;
    const long long m = ((p % q) + q) % q;
    return m < n ? m : q - m;
  };
  for (long long n : {(1LL << 30) + 1, (1LL << 30) + 7, 2000000000LL, (long long)INT_MAX - 1, (long long)INT_MAX}) {
    for (long long p : {(long long)INT_MIN, -n, -n + 1, -3LL, -2LL, -1LL, 0LL, 1LL, n - 2, n - 1, n, n + 1,
                        (long long)INT_MAX}) {
      if (p < INT_MIN || p > INT_MAX) continue;
      INFO("n = " << n << ", p = " << p);
      CHECK(b::map_reflect(int(p), int(n)) == reflect(p, n));
      CHECK(b::map_reflect101(int(p), int(n)) == reflect101(p, n));
    }
    // The left and top edges: the first reads outside mirror onto pixels 0, 1, 2 (reflect)
    // and 1, 2, 3 (reflect101), not onto pixel 0 as the 32-bit period gave.
    CHECK(b::map_reflect(-1, int(n)) == 0);
    CHECK(b::map_reflect(-3, int(n)) == 2);
    CHECK(b::map_reflect101(-1, int(n)) == 1);
    CHECK(b::map_reflect101(-3, int(n)) == 3);
    CHECK(b::map_reflect(int(n), int(n)) == int(n) - 1);
    CHECK(b::map_reflect101(int(n), int(n)) == int(n) - 2);
  }
}

TEST_CASE("skip and padded leave the index unchanged", "[border]") {
  for (int n : {1, 4}) {
    for (int p = -9; p <= 12; ++p) {
      CHECK(b::map_index(b::kind::skip, p, n) == p);
      CHECK(b::map_index(b::kind::padded, p, n) == p);
      CHECK(b::skip::map(p, n) == p);
      CHECK(b::padded::map(p, n) == p);
    }
  }
}

TEST_CASE("border kinds: names, policy tags and run-time conversion", "[border]") {
  CHECK(std::strcmp(b::name(b::kind::replicate), "replicate") == 0);
  CHECK(std::strcmp(b::name(b::kind::constant), "constant") == 0);
  CHECK(std::strcmp(b::name(b::kind::reflect), "reflect") == 0);
  CHECK(std::strcmp(b::name(b::kind::reflect101), "reflect101") == 0);
  CHECK(std::strcmp(b::name(b::kind::wrap), "wrap") == 0);
  CHECK(std::strcmp(b::name(b::kind::skip), "skip") == 0);
  CHECK(std::strcmp(b::name(b::kind::padded), "padded") == 0);

  CHECK(b::replicate::rule == b::kind::replicate);
  CHECK(b::constant::rule == b::kind::constant);
  CHECK(b::reflect::rule == b::kind::reflect);
  CHECK(b::reflect101::rule == b::kind::reflect101);
  CHECK(b::wrap::rule == b::kind::wrap);
  CHECK(b::skip::rule == b::kind::skip);
  CHECK(b::padded::rule == b::kind::padded);

  CHECK(b::any(b::replicate{}).rule == b::kind::replicate);
  CHECK(b::any(b::reflect{}).rule == b::kind::reflect);
  CHECK(b::any(b::reflect101{}).rule == b::kind::reflect101);
  CHECK(b::any(b::wrap{}).rule == b::kind::wrap);
  CHECK(b::any(b::skip{}).rule == b::kind::skip);
  CHECK(b::any(b::padded{}).rule == b::kind::padded);
  const b::any c = b::constant{-3.25f};
  CHECK(c.rule == b::kind::constant);
  CHECK(c.value == -3.25f);
  const b::any k(b::kind::constant, 7.5f);
  CHECK(k.value == 7.5f);
  // OpenCV's default (BORDER_REFLECT_101) is the library's default too.
  CHECK(b::any{}.rule == b::kind::reflect101);
}
