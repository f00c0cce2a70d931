// Standalone A/B probe (not built by CMake): one-channel 8-bit 3x3 filters (dense and
// separable, replicate) in the packed family's half-precision lanes, each thread 16
// outputs of a row (one 16-byte load and the words either side per input row) in strips
// of ROWS rows, against the library's packed (the strip kernel: 8 outputs a thread). Why:
// u8_floor_probe's skeletons moved the strip walk's bytes fastest in that shape (16 bytes
// a thread, one row: 5.15 us at 1920x1080 on an H100 against the walk's 5.31), but each
// input row is then converted to lanes once per output row it feeds (three times at one
// row a thread, against 1.5 in the walk's 4-row strips). The kernel here takes the
// library's plan and taps (packed_plan.hpp) and adds the products in the walk's order
// (input rows top to bottom, tap columns left to right), so its outputs should be the
// library's bytes; each line ends with `identical` or the count of differing bytes.
// Held, each variant timed (hashed_time_us, 40 runs) once and then once more; the better.
// Images whose width is a multiple of 16 (the kernel's rows are whole 16-byte words).
// Variants: lib (algo::packed<>), r16xROWS/BXxBY (blocks of BX x BY threads).
// Its first runs (an H100, bench/results/2026-12-06-h100-main/row16.txt and
// row16-sizes.txt; every line identical to lib) were against the library before the wide
// kernel (the strip kernel, and at 8192x8192 the interior instance): r16x1 0.89 to 0.94
// times lib's time from 256x256 to 1280x720, r16x2 0.83 to 0.91 from 1600x900 to
// 2560x1440 (1920x1080 6.11 us dense against 6.72, 5.95 separable against 6.53), r16x4
// 0.67 to 0.97 from 3200x1800 to 8192x8192 (r16x1 lost there, up to 1.19). The library's
// packed_wide_kernel (kernels/packed_wide.hpp) is r16 in the blocks packed_wide_block
// gives by width (32 x 4, or 8 x 16 since the block-shape run below) with the rows
// tuning::packed_policy::wide_rows gives, plus the border rules' edge words and row map;
// against it (row16-wide*.txt there) lib runs that kernel. The block-shape run
// (bench/results/2026-12-06-h100-shapes/shape/) built the probe against the library with
// 32 x 4 blocks (lib32x4-*.txt) and with 8 x 16 (lib8x16-*.txt): the shapes here are
// blocks of 64 and 128 threads, warps of 32 x 1 and of 8 x 4 threads.
//   nvcc -std=c++17 -O3 -arch=sm_90 --expt-relaxed-constexpr -I<tree>/include \
//        -I/usr/include/eigen3 packed_row16_ab.cu -lcufft -o packed_row16_ab
#include "ab_common.hpp"
#include <cstdint>
#include <cstdio>
#include <string>
namespace hs = hipstencil;
namespace hd = hipstencil::detail;

// Outputs x0 .. x0 + 15 of rows y0 .. y0 + ROWS - 1, radius 1, under replicate. Words of
// an input row: w[0] bytes x0 - 4 to x0 - 1, w[1..4] x0 to x0 + 15, w[5] the 4 after.
template <bool Sep, int ROWS>
__global__ void __launch_bounds__(128) row16_kernel(const std::uint8_t* __restrict__ src, std::size_t sp,
                                                    std::uint8_t* __restrict__ dst, std::size_t dp, int w, int h,
                                                    hd::packed_taps<Sep ? 6 : 9> taps) {
  constexpr int K = 3, PAIRS = 8;
  const int x0 = int(blockIdx.x * blockDim.x + threadIdx.x) * 16;
  const int y0 = int(blockIdx.y * blockDim.y + threadIdx.y) * ROWS;
  if (x0 >= w || y0 >= h) return;
  const auto k = hd::taps_in_registers(taps, unsigned(w) >> 31);  // w >= 1: its sign bit is 0
  const __half2 init = hd::word_as_half2(k.init), add = hd::word_as_half2(k.add);
  unsigned wd[ROWS + 2][6];
#pragma unroll
  for (int t = 0; t < ROWS + 2; ++t) {
    int y = y0 + t - 1;
    y = y < 0 ? 0 : (y >= h ? h - 1 : y);
    const std::uint8_t* row = src + std::size_t(y) * sp + x0;
    const uint4 c = *reinterpret_cast<const uint4*>(row);
    wd[t][1] = c.x, wd[t][2] = c.y, wd[t][3] = c.z, wd[t][4] = c.w;
    wd[t][0] = x0 > 0 ? *reinterpret_cast<const unsigned*>(row - 4) : __byte_perm(c.x, 0u, 0x0000u);
    wd[t][5] = x0 + 16 < w ? *reinterpret_cast<const unsigned*>(row + 16) : __byte_perm(c.w, 0u, 0x3333u);
  }
  __half2 acc[ROWS][PAIRS];
#pragma unroll
  for (int o = 0; o < ROWS; ++o)
#pragma unroll
    for (int q = 0; q < PAIRS; ++q) acc[o][q] = init;
#pragma unroll
  for (int t = 0; t < ROWS + 2; ++t) {
    const hd::packed_byte_lanes<6> lanes(wd[t]);  // bytes x0 - 4 to x0 + 19
    auto lane = [&](int q, int i) { return lanes.lane(q, i, 1); };
    if constexpr (Sep) {
      __half2 hs_[PAIRS];
#pragma unroll
      for (int q = 0; q < PAIRS; ++q) hs_[q] = __hmul2(hd::word_as_half2(k.k[0]), lane(q, 0));
#pragma unroll
      for (int i = 1; i < K; ++i)
#pragma unroll
        for (int q = 0; q < PAIRS; ++q) hs_[q] = __hfma2(hd::word_as_half2(k.k[i]), lane(q, i), hs_[q]);
#pragma unroll
      for (int o = 0; o < ROWS; ++o)
        if (t - o >= 0 && t - o < K)
#pragma unroll
          for (int q = 0; q < PAIRS; ++q) acc[o][q] = __hfma2(hd::word_as_half2(k.k[K + t - o]), hs_[q], acc[o][q]);
    } else {
#pragma unroll
      for (int o = 0; o < ROWS; ++o)
        if (t - o >= 0 && t - o < K)
#pragma unroll
          for (int i = 0; i < K; ++i)
#pragma unroll
            for (int q = 0; q < PAIRS; ++q)
              acc[o][q] = __hfma2(hd::word_as_half2(k.k[(t - o) * K + i]), lane(q, i), acc[o][q]);
    }
  }
#pragma unroll
  for (int o = 0; o < ROWS; ++o) {
    if (y0 + o >= h) break;
    unsigned b[PAIRS];
#pragma unroll
    for (int q = 0; q < PAIRS; ++q) b[q] = hd::clamp_pair(__hadd2(acc[o][q], add));
    *reinterpret_cast<uint4*>(dst + std::size_t(y0 + o) * dp + x0) =
        make_uint4(__byte_perm(b[0], b[1], 0x6420u), __byte_perm(b[2], b[3], 0x6420u),
                   __byte_perm(b[4], b[5], 0x6420u), __byte_perm(b[6], b[7], 0x6420u));
  }
}

template <bool Sep, int ROWS, int BX, int BY>
ab_variant row16_variant(const hs::image_view<const std::uint8_t>& src, hs::device_image<std::uint8_t>& out,
                         const hd::packed_plan& pl) {
  const int w = src.width, h = src.height;
  const auto taps = hd::packed_taps_of<Sep ? 6 : 9>(pl);
  const dim3 block(BX, BY), grid(unsigned((w + 16 * BX - 1) / (16 * BX)), unsigned((h + BY * ROWS - 1) / (BY * ROWS)));
  return {"r16x" + std::to_string(ROWS) + "/" + std::to_string(BX) + "x" + std::to_string(BY),
          [=, &out] {
            row16_kernel<Sep, ROWS>
                <<<grid, block>>>(src.data, src.pitch_bytes, out.data(), out.pitch_bytes(), w, h, taps);
          }};
}

template <bool Sep>
void run_case(int w, int h, hs::image_view<const std::uint8_t> src, hs::device_image<std::uint8_t>& out) {
  const auto g = hs::filters::gaussian_taps(1.0, 1);
  const hs::separable_filter sep(g, g);
  const hs::filter2d dense = ab_dense_filter(1);
  const hd::packed_plan pl =
      Sep ? hd::plan_packed_separable(sep.row(), sep.column()) : hd::plan_packed_dense(dense.coefficients());
  if (!pl.ok) {
    std::printf("u8 %dx%d: the plan refused the filter (%s)\n", w, h, pl.why);
    return;
  }
  std::vector<ab_variant> v;
  if constexpr (Sep) v.push_back(ab_library_variant("lib", src, out, sep, hs::algo::packed<>{}));
  else v.push_back(ab_library_variant("lib", src, out, dense, hs::algo::packed<>{}));
  v.push_back(row16_variant<Sep, 1, 32, 4>(src, out, pl));
  v.push_back(row16_variant<Sep, 2, 32, 4>(src, out, pl));
  v.push_back(row16_variant<Sep, 4, 32, 4>(src, out, pl));
  v.push_back(row16_variant<Sep, 2, 32, 2>(src, out, pl));
  v.push_back(row16_variant<Sep, 1, 8, 16>(src, out, pl));
  v.push_back(row16_variant<Sep, 2, 8, 16>(src, out, pl));
  v.push_back(row16_variant<Sep, 1, 8, 8>(src, out, pl));
  v.push_back(row16_variant<Sep, 2, 8, 8>(src, out, pl));
  v.push_back(row16_variant<Sep, 4, 8, 16>(src, out, pl));
  std::vector<double> best(v.size(), 1e30);
  std::vector<unsigned long long> hash(v.size(), 0);
  for (int rep = 0; rep < 2; ++rep)
    for (std::size_t i = 0; i < v.size(); ++i)
      best[i] = std::min(best[i], hashed_time_us(out, v[i].second, hash[i], 40, true));
  std::printf("u8 %5dx%-5d %-5s 3x3", w, h, Sep ? "sep" : "dense");
  for (std::size_t i = 0; i < v.size(); ++i) std::printf("  %s %6.2f", v[i].first.c_str(), best[i]);
  bool same = true;
  for (std::size_t i = 1; i < v.size(); ++i) same = same && hash[i] == hash[0];
  std::printf("  %s\n", same ? "identical" : "DIFFERENT from lib");
  std::fflush(stdout);
}

int main(int argc, char** argv) {
  ab_for_each_u8_size16("packed_row16_ab", argc, argv, {{1920, 1080}, {1280, 720}, {2560, 1440}, {3840, 2160}},
                        [&](int w, int h, hs::image_view<const std::uint8_t> src, hs::device_image<std::uint8_t>& out) {
    run_case<false>(w, h, src, out);
    run_case<true>(w, h, src, out);
  });
  return 0;
}
