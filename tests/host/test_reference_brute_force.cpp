// hipstencil::reference::convolve, the oracle of the GPU tests, checked against an
// independent brute force on fresh random data (reference_oracles.hpp): every rule, halo
// and ROI placement, scalar, vector and mixed pixel types; border::padded; the whole-image
// overload.
#include "reference_oracles.hpp"

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

using namespace oracle;

namespace {
/// b) one pixel-type pair over every rule, halo, ROI placement (corners, edges, centre,
/// whole image) and random filters including ones larger than the ROI.
template <class In, class Out>
void bruteforce_suite(const char* types) {
  const std::uint32_t seed = test::run_seed();
  CAPTURE(seed, types);
  std::mt19937 rng(seed ^ std::uint32_t(std::hash<std::string>{}(types)));
  constexpr int W = 13, H = 11;
  trapped_source<In> src(W, H, rng);
  const image_view<const In> s = src.view;
  const rect sizes[] = {{0, 0, 5, 4}, {0, 0, 2, 1}, {0, 0, 1, 1}, {0, 0, 1, 3}};
  std::vector<rect> rois{{0, 0, W, H}};
  for (const rect& r : sizes)
    for (int yi = 0; yi < 3; ++yi)
      for (int xi = 0; xi < 3; ++xi)
        rois.push_back({xi * (W - r.width) / 2, yi * (H - r.height) / 2, r.width, r.height});
  int calls = 0, failures = 0;
  for (const rect& roi : rois)
    for (halo h : {halo::isolated, halo::from_parent})
      for (kind rule : {kind::replicate, kind::constant, kind::reflect, kind::reflect101, kind::wrap, kind::skip})
        for (int rep = 0; rep < 2; ++rep) {
          const problem p = random_problem(rng, rep == 0 ? 2 : 5, rule, random_constant<test::channel_t<In>>(rng), h);
          // dst: a poisoned image larger than the ROI, the ROI somewhere inside it.
          test::pitched<Out> dbuf(roi.width + 3, roi.height + 2, sizeof(Out));
          const rect dst_roi{std::uniform_int_distribution<int>(0, 3)(rng),
                             std::uniform_int_distribution<int>(0, 2)(rng), roi.width, roi.height};
          INFO(describe(p, roi, dst_roi, W, H));
          call_reference(s, roi, dbuf.view(), dst_roi, filter2d(p.kw, p.kh, p.k, p.ax, p.ay), rule, p.value, h);
          std::string first;
          const int bad = compare(dbuf.cview(), dst_roi, brute_force(s, roi, p), first);
          ++calls;
          if (bad) {
            ++failures;
            if (failures <= 5) FAIL_CHECK(bad << " bad pixel(s); first: " << first);
          }
        }
  INFO(failures << " failing calls of " << calls);
  CHECK(failures == 0);
  CHECK(calls == int(rois.size()) * 2 * 6 * 2);
}

/// b) border::padded: the caller's halo is read. The source is the interior of a buffer
/// with a halo of R pixels; the filter reaches at most R pixels out of any ROI.
template <class In, class Out>
void padded_suite(const char* types) {
  const std::uint32_t seed = test::run_seed();
  CAPTURE(seed, types);
  std::mt19937 rng(seed ^ 0x9e3779b9u ^ std::uint32_t(std::hash<std::string>{}(types)));
  constexpr int W = 9, H = 7, R = 4;
  test::pitched<In> buf(W + 2 * R, H + 2 * R, sizeof(In));
  test::fill_random(buf.view(), rng);
  const image_view<const In> all = buf.cview();
  const image_view<const In> s = all.sub(rect{R, R, W, H});
  const std::vector<rect> rois{{0, 0, W, H}, {0, 0, 3, 2}, {W - 3, 0, 3, 2}, {0, H - 2, 3, 2}, {W - 3, H - 2, 3, 2},
                               {3, 0, 3, 1}, {0, 3, 1, 2}, {W - 1, 3, 1, 2}, {3, H - 1, 3, 1}, {4, 3, 1, 1}};
  int failures = 0;
  for (const rect& roi : rois)
    for (halo h : {halo::isolated, halo::from_parent})
      for (int rep = 0; rep < 4; ++rep) {
        problem p;
        p.kw = 2 * std::uniform_int_distribution<int>(0, R)(rng) + 1;
        p.kh = 2 * std::uniform_int_distribution<int>(0, R)(rng) + 1;
        // reach left = ax <= R and reach right = kw - 1 - ax <= R
        p.ax = std::uniform_int_distribution<int>(std::max(0, p.kw - 1 - R), std::min(p.kw - 1, R))(rng);
        p.ay = std::uniform_int_distribution<int>(std::max(0, p.kh - 1 - R), std::min(p.kh - 1, R))(rng);
        p.k.resize(std::size_t(p.kw) * p.kh);
        for (float& c : p.k) c = std::uniform_real_distribution<float>(-0.5f, 1.0f)(rng) * 2.0f / float(p.kw * p.kh);
        p.rule = kind::padded;
        p.value = 0;
        p.h = h;
        test::pitched<Out> dbuf(W + 1, H + 2);
        const rect dst_roi{1, 2, roi.width, roi.height};
        INFO(describe(p, roi, dst_roi, W, H));
        call_reference(s, roi, dbuf.view(), dst_roi, filter2d(p.kw, p.kh, p.k, p.ax, p.ay), kind::padded, 0.0f, h);
        // Expected: the plain window sum over the buffer, no border rule at all. (Treating
        // the whole buffer as the domain with any rule gives exactly that, since no window
        // leaves it.)
        problem q = p;
        q.rule = kind::replicate;
        q.h = halo::from_parent;
        const rect roi_in_buf{roi.x + R, roi.y + R, roi.width, roi.height};
        std::string first;
        const int bad = compare(dbuf.cview(), dst_roi, brute_force(all, roi_in_buf, q), first);
        if (bad && ++failures <= 5) FAIL_CHECK(bad << " bad pixel(s); first: " << first);
      }
  CHECK(failures == 0);
}
}  // namespace

// ---------------------------------------------------------------------------------------
// b) brute force on random data

TEST_CASE("reference::convolve equals the brute-force padded-image formula: scalar types", "[reference]") {
  bruteforce_suite<std::uint8_t, std::uint8_t>("uint8 -> uint8");
  bruteforce_suite<std::uint16_t, std::uint16_t>("uint16 -> uint16");
  bruteforce_suite<std::int16_t, std::int16_t>("int16 -> int16");
  bruteforce_suite<float, float>("float -> float");
}

TEST_CASE("reference::convolve equals the brute-force padded-image formula: vector pixels", "[reference]") {
  bruteforce_suite<uchar4, uchar4>("uchar4 -> uchar4");
  bruteforce_suite<float4, float4>("float4 -> float4");
  bruteforce_suite<hipstencil::uchar3, hipstencil::uchar3>("uchar3 -> uchar3");
  bruteforce_suite<hipstencil::ushort3, hipstencil::ushort3>("ushort3 -> ushort3");
  bruteforce_suite<hipstencil::float3, hipstencil::float3>("float3 -> float3");
}

TEST_CASE("reference::convolve equals the brute-force padded-image formula: mixed types", "[reference]") {
  bruteforce_suite<std::uint8_t, float>("uint8 -> float");
  bruteforce_suite<float, std::uint8_t>("float -> uint8 (rounded, saturated)");
  bruteforce_suite<std::uint16_t, float>("uint16 -> float");
  bruteforce_suite<std::int16_t, std::uint8_t>("int16 -> uint8");
  bruteforce_suite<uchar4, float4>("uchar4 -> float4");
  bruteforce_suite<float4, uchar4>("float4 -> uchar4");
  bruteforce_suite<double, double>("double -> double");
}

TEST_CASE("border::padded reads the caller's halo around the view", "[reference]") {
  padded_suite<float, float>("float -> float");
  padded_suite<std::uint8_t, std::uint8_t>("uint8 -> uint8");
  padded_suite<uchar4, float4>("uchar4 -> float4");
}

TEST_CASE("whole-image overload: bounds as ROIs, reflect101 by default", "[reference]") {
  const std::uint32_t seed = test::run_seed();
  CAPTURE(seed);
  std::mt19937 rng(seed + 17);
  for (int rep = 0; rep < 20; ++rep) {
    const int W = std::uniform_int_distribution<int>(1, 9)(rng), H = std::uniform_int_distribution<int>(1, 9)(rng);
    test::pitched<float> in(W, H, 8);
    test::fill_random(in.view(), rng);
    const problem p = random_problem(rng, 4, kind::reflect101, 0.0f, halo::isolated);
    const filter2d f(p.kw, p.kh, p.k, p.ax, p.ay);
    INFO(describe(p, in.cview().bounds(), in.cview().bounds(), W, H));
    test::pitched<float> a(W, H), b(W, H, 4);
    reference::convolve(in.cview(), a.view(), f);  // default border
    reference::convolve(in.view(), b.view(), f, border::reflect101{});
    std::string first;
    CHECK(compare(a.cview(), a.cview().bounds(), brute_force(in.cview(), in.cview().bounds(), p), first) == 0);
    CHECK(first == "");
    for (int y = 0; y < H; ++y)
      for (int x = 0; x < W; ++x) CHECK(a(x, y) == b(x, y));
    // And with another rule.
    problem w = p;
    w.rule = kind::wrap;
    test::pitched<float> c(W, H);
    reference::convolve(in.cview(), c.view(), f, border::wrap{});
    CHECK(compare(c.cview(), c.cview().bounds(), brute_force(in.cview(), in.cview().bounds(), w), first) == 0);
    CHECK(first == "");
  }
}
