// [gpu] algo::tensor_core (detail/kernels/tensor_core.hpp) beyond what the family matrix
// gives it: every filter width its kernels take (1 to 25 taps, so every count of
// 8-column units for both operand formats), off-centre anchors and non-square filters, filters
// larger than the image, images of one to several 64 x 64 tiles with partial tiles at
// both edges, every border rule and halo mode, ROIs at every edge and corner, outputs
// poisoned; every one-channel pixel pair of the precompiled list, so both the fp16
// (8-bit, half) and the TF32 (float, 16-bit, bfloat16) operands; coefficients of extreme
// magnitudes; and what it leaves to shared_mem (wider filters, integer kernels, four
// channels, a constant border value that fp16 operands would round). On a device without
// tensor cores (compute capability below 8.0) the same cases must run shared_mem instead,
// and say so.
#include "algo_matrix.hpp"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

using namespace gpu_test;

namespace {

/// The family that must run what algo::tensor_core takes: itself where the device has
/// tensor cores, shared_mem elsewhere (said plainly).
const char* tensor_core_runner() {
  if (tensor_cores_here()) return "tensor_core";
  WARN("no tensor-core path on this device (NVIDIA compute capability 8.0 or later only): shared_mem must run "
       "these cases");
  return "shared_mem";
}

template <class In, class Out, class Algo = algo::tensor_core<>>
long long run_tc_case(const filter2d& f, border::any b, int w, int h, int placement, halo hm, const char* family,
                      Algo algo = {}) {
  return run_placed<In, Out>(f, b, w, h, placement, hm, algo,
                             [&](const resolution& res) { CHECK(std::string(res.family) == family); });
}

template <class In, class Out>
void tensor_core_matrix() {
  // Widths 1 to 25: every count of 8-column units (tc_units: 1; 2 to 9; 10 to 17; 18 to
  // 25 taps), so fp16 both with and without its depth-8 last step. (The one column of
  // three taps has float mantissas summing past 2^24: not an integer kernel, as every
  // single tap is.)
  const std::vector<filter2d> filters = {
      filter2d(1, 3, {0.1f, 0.7f, -0.2f}), random_filter(3, 3),         random_filter(9, 9),
      random_filter(11, 3, 0, 2),          random_filter(15, 15),       random_filter(17, 5, 16, 4),
      random_filter(19, 25, 3, 20),        random_filter(25, 25),       random_filter(1, 25, 0, 12)};
  // The constant 0.375, which fp16 holds (the matrix's 0.37 is test "what it does not take").
  std::vector<border::any> borders = matrix_borders();
  for (auto& b : borders)
    if (b.rule == border::kind::constant) b.value = 0.375f;
  // One pixel; smaller than the filters; a prime 97 x 61 (two tiles across, one down,
  // both partial); 130 x 131 (three tiles a side, the last two pixels wide).
  placed_matrix<In, Out>(filters, borders, {{1, 1}, {7, 5}, {97, 61}, {130, 131}}, algo::tensor_core<>{},
                         tensor_core_runner());
}

}  // namespace

TEST_CASE("tensor_core: widths 1 to 25, every border and ROI: float (TF32)", "[gpu][tensor_core]") {
  tensor_core_matrix<float, float>();
}
TEST_CASE("tensor_core: widths 1 to 25, every border and ROI: uint8 (fp16)", "[gpu][tensor_core]") {
  tensor_core_matrix<std::uint8_t, std::uint8_t>();
}
TEST_CASE("tensor_core: widths 1 to 25, every border and ROI: uint8 -> float and -> half", "[gpu][tensor_core]") {
  tensor_core_matrix<std::uint8_t, float>();
  tensor_core_matrix<std::uint8_t, half>();
}
TEST_CASE("tensor_core: widths 1 to 25, every border and ROI: half, uint16, int16, bfloat16", "[gpu][tensor_core]") {
  tensor_core_matrix<half, half>();
  tensor_core_matrix<std::uint16_t, std::uint16_t>();
  tensor_core_matrix<std::int16_t, std::int16_t>();
  tensor_core_matrix<bfloat16, bfloat16>();
}

TEST_CASE("tensor_core: what it does not take runs shared_mem", "[gpu][tensor_core][sanitize]") {
  // One tap: an exact product, which the direct families compute exactly.
  run_tc_case<float, float>(random_filter(1, 1), border::replicate{}, 97, 61, 0, halo::isolated, "shared_mem");
  // 27 taps: past tc_max_taps.
  run_tc_case<float, float>(random_filter(27, 3), border::replicate{}, 97, 61, 1, halo::isolated, "shared_mem");
  // A constant border value fp16 does not hold, with fp16 operands (8-bit, half); TF32
  // holds it as two parts.
  run_tc_case<std::uint8_t, std::uint8_t>(random_filter(5, 5), border::constant{0.37f}, 97, 61, 4, halo::isolated,
                                          "shared_mem");
  run_tc_case<half, half>(random_filter(5, 5), border::constant{0.37f}, 97, 61, 5, halo::isolated, "shared_mem");
  run_tc_case<float, float>(random_filter(5, 5), border::constant{0.37f}, 97, 61, 6, halo::isolated,
                            tensor_core_runner());
  // An integer kernel the direct sums compute exactly (a 5x5 box of ones over 32).
  const filter2d box = filters::integer_kernel(5, 5, std::vector<int>(25, 1), 32);
  run_tc_case<std::uint8_t, std::uint8_t>(box, border::reflect101{}, 97, 61, 2, halo::isolated, "shared_mem");
  // Four channels.
  run_tc_case<uchar4, uchar4>(random_filter(9, 9), border::wrap{}, 97, 61, 3, halo::isolated, "shared_mem");
}

TEST_CASE("tensor_core: coefficients of very different magnitudes keep float accuracy",
          "[gpu][tensor_core][sanitize]") {
  // The fp16 operands scale the coefficients so that the largest is near 2^14: filters
  // of tiny coefficients (1e-7 times random) with one 300 times larger, and the same of
  // huge ones (1e6), must stay within the float tolerance; so must TF32 with both. Widths
  // 5, 11 and 21: 2, 3 and 4 units, fp16 with and without its depth-8 last step (also the
  // compute-sanitizer subset of the family).
  const char* runner = tensor_core_runner();
  int placement = 0;
  for (int kw : {5, 11, 21})
    for (float base : {1e-7f, 1e6f}) {
      const filter2d f = random_filter(kw, kw);
      std::vector<float> k = f.coefficients();
      for (float& v : k) v *= base;
      k[k.size() / 2] = 300.0f * base;
      const filter2d g(kw, kw, k);
      run_tc_case<std::uint8_t, float>(g, border::reflect{}, 130, 70, placement++ % 9, halo::isolated, runner);
      run_tc_case<float, float>(g, border::reflect{}, 130, 70, placement++ % 9, halo::from_parent, runner);
    }
}

TEST_CASE("tensor_core: infinities and NaNs stay in the windows that hold them", "[gpu][tensor_core][sanitize]") {
  // Positive taps, so that each infinite output has one sign; 9x9 and 15x15 (an fp16
  // depth-8 last step); a mapped border that reflects the NaN at the corner.
  for (int k : {9, 15}) {
    std::vector<float> taps(std::size_t(k) * k);
    for (std::size_t i = 0; i < taps.size(); ++i) taps[i] = float(1 + i % 7) / float(4 * taps.size());
    const filter2d f(k, k, taps);
    INFO(k << "x" << k);
    nonfinite_case<float>(f, border::reflect101{}, algo::tensor_core<>{}, tensor_core_runner());
    nonfinite_case<half>(f, border::replicate{}, algo::tensor_core<>{}, tensor_core_runner());
  }
}
