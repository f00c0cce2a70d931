// Standalone A/B driver (not built by CMake): one-channel 8-bit (u8) 3x3 and 5x5 under
// replicate in the packed family's half-precision lanes, staged in shared memory as
// packed_four_kernel stages uchar4 (kernels/packed_four.hpp), against the library's strip
// walk (algo::packed) and tiled.
// Question: does a tile that loads its whole window at once (one wait on L2 a thread)
// beat the strip walk (one wait a row) at 1920x1080 u8 3x3, which misses issue 12's 6 us
// (6.4 to 6.8 us held on the H200, 544 blocks of 128 threads, a quarter of the warp slots)?
// The kernel here: 32 x BY threads, each WPT words (4 * WPT outputs) across and OY rows
// down; the window staged as words (4 bytes; inside the domain one aligned load pair and a
// funnel shift, at its edges four clamped bytes), each word kept as its two centred half2
// lanes (8 bytes); each thread reads WPT + 1 words a row and forms the straddling pairs
// with one byte permute each. Dense: the plan of the dense filter (or of a separable one's
// outer product, variant names ending in o); separable (names ending in s): the row pass
// into half2 row sums, then the column pass, the strip walk's plan and order.
// It did not (bench/results/2026-12-06-h100-long/one.txt, an H100): its fastest shape took
// 1.20 to 1.28 times the strip walk's time at 1920x1080 (dense 3x3 8.48 us against 6.82)
// but dense 5x5 (0.99: 9.73 against 9.79), and 1.29 to 1.39 times tiled's replicate kernels
// at 128x128 and 512x512; its outputs were the walk's bytes (dense) and within 1
// (separable). Each thread's share of the staging, the window's edge tests and its stores
// cost more instructions an output than a row of the walk, and the larger shapes that
// spread them over more outputs were slower still. Not taken.
// Variants, held, median of 40, better of two taken in turn (ab_time_kernel_case):
//   auto, direct, packed, tiled    the library;
//   tBYxWPTxOY[o|s]                this file's kernel.
// Outputs within 1 of packed's (the family's promise); the line ends with the largest
// difference and how many channels (here pixels) differ, ab_print_within_one's check (the
// committed one.txt was printed before that helper and says "pixels").
//   nvcc -std=c++17 -O3 -arch=sm_90 --expt-relaxed-constexpr -I<tree>/include \
//        -I/usr/include/eigen3 packed_one_ab.cu -lcufft -o packed_one_ab
//   ./packed_one_ab [dense|sep|all] [WxH,WxH,...]
#include "ab_common.hpp"
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>
namespace hs = hipstencil;
namespace hd = hipstencil::detail;

template <int R, int BY, int OY, int WPT, bool Sep>
__global__ void __launch_bounds__(32 * BY)
    one_kernel(hs::image_view<const std::uint8_t> src, hs::image_view<std::uint8_t> dst, hd::geometry g,
               hd::geometry gr, hd::packed_taps<Sep ? 2 * (2 * R + 1) : (2 * R + 1) * (2 * R + 1)> taps0) {
  constexpr int K = 2 * R + 1, TW = 128 * WPT, TH = BY * OY;
  constexpr int NW = 32 * WPT + 2, HR = TH + 2 * R;  // window words a row (one spare), rows
  constexpr int COLS = (32 * WPT + 1 + 31) / 32, ROWS = (HR + BY - 1) / BY;
  static_assert(R <= 2, "a thread's WPT + 1 words hold its outputs' windows up to radius 2");
  __shared__ __align__(16) uint2 s[HR][NW];
  const int tx = int(threadIdx.x), ty = int(threadIdx.y);
  const int bx0 = int(blockIdx.x) * TW, by0 = int(blockIdx.y) * TH;
  const auto taps = hd::taps_in_registers(taps0, unsigned(g.width) >> 31);
  const hd::clamped<std::uint8_t> c(src, gr);
  const int wx0 = g.src_x0 + bx0, wy0 = g.src_y0 + by0;  // the window's first pixel: output 0's first tap
  unsigned v[ROWS][COLS];
  HIPSTENCIL_UNROLL
  for (int q = 0; q < ROWS; ++q)
    if (ty + q * BY < HR) {
      const std::uint8_t* p = c.row(wy0 + ty + q * BY);
      HIPSTENCIL_UNROLL
      for (int k = 0; k < COLS; ++k) {
        const int j = tx + 32 * k;
        if (j > 32 * WPT) continue;
        const int col = wx0 + 4 * j;
        if (col >= c.x_lo && col + 3 <= c.x_hi) {
          const std::uintptr_t a = reinterpret_cast<std::uintptr_t>(p + col);
          const unsigned* w = reinterpret_cast<const unsigned*>(a & ~std::uintptr_t(3));
          const unsigned sh = unsigned(a & 3u) * 8u;
          const unsigned lo = w[0], hi = sh ? w[1] : lo;
          v[q][k] = __funnelshift_r(lo, hi, sh);
        } else {
          v[q][k] = unsigned(p[c.x(col)]) | unsigned(p[c.x(col + 1)]) << 8 | unsigned(p[c.x(col + 2)]) << 16 |
                    unsigned(p[c.x(col + 3)]) << 24;
        }
      }
    }
  HIPSTENCIL_UNROLL
  for (int q = 0; q < ROWS; ++q)
    if (ty + q * BY < HR)
      HIPSTENCIL_UNROLL
      for (int k = 0; k < COLS; ++k) {
        const int j = tx + 32 * k;
        if (j > 32 * WPT) continue;
        s[ty + q * BY][j] = make_uint2(hd::half2_as_word(hd::centred_pair(v[q][k], 0x4140u)),
                                       hd::half2_as_word(hd::centred_pair(v[q][k], 0x4342u)));
      }
  __syncthreads();
  constexpr int PAIRS = 2 * WPT, NP = 2 * (WPT + 1);
  const __half2 init = hd::word_as_half2(taps.init), add = hd::word_as_half2(taps.add);
  __half2 acc[OY][PAIRS];
  HIPSTENCIL_UNROLL
  for (int y = 0; y < OY; ++y)
    HIPSTENCIL_UNROLL
    for (int q = 0; q < PAIRS; ++q) acc[y][q] = init;
  HIPSTENCIL_UNROLL
  for (int t = 0; t < OY + 2 * R; ++t) {
    const uint2* row = &s[ty * OY + t][tx * WPT];
    __half2 P[NP], S[NP - 1];
    if constexpr (WPT == 2) {
      const uint4 a = *reinterpret_cast<const uint4*>(row);
      const uint2 b = row[2];
      P[0] = hd::word_as_half2(a.x), P[1] = hd::word_as_half2(a.y), P[2] = hd::word_as_half2(a.z);
      P[3] = hd::word_as_half2(a.w), P[4] = hd::word_as_half2(b.x), P[5] = hd::word_as_half2(b.y);
    } else {
      HIPSTENCIL_UNROLL
      for (int u = 0; u <= WPT; ++u) {
        const uint2 a = row[u];
        P[2 * u] = hd::word_as_half2(a.x), P[2 * u + 1] = hd::word_as_half2(a.y);
      }
    }
    HIPSTENCIL_UNROLL
    for (int m = 0; m < NP - 1; ++m) S[m] = hd::straddle(P[m], P[m + 1]);
    // Pair q of outputs (2q, 2q + 1), tap column i: window bytes 2q + i and 2q + i + 1.
    auto lane = [&](int q, int i) { return ((2 * q + i) & 1) == 0 ? P[q + i / 2] : S[q + (i - 1) / 2]; };
    if constexpr (Sep) {
      __half2 h[PAIRS];
      HIPSTENCIL_UNROLL
      for (int q = 0; q < PAIRS; ++q) h[q] = __hmul2(hd::word_as_half2(taps.k[0]), lane(q, 0));
      HIPSTENCIL_UNROLL
      for (int i = 1; i < K; ++i)
        HIPSTENCIL_UNROLL
        for (int q = 0; q < PAIRS; ++q) h[q] = __hfma2(hd::word_as_half2(taps.k[i]), lane(q, i), h[q]);
      HIPSTENCIL_UNROLL
      for (int y = 0; y < OY; ++y) {
        const int fy = t - y;
        if (fy < 0 || fy >= K) continue;
        HIPSTENCIL_UNROLL
        for (int q = 0; q < PAIRS; ++q) acc[y][q] = __hfma2(hd::word_as_half2(taps.k[K + fy]), h[q], acc[y][q]);
      }
    } else {
      HIPSTENCIL_UNROLL
      for (int i = 0; i < K; ++i)
        HIPSTENCIL_UNROLL
        for (int y = 0; y < OY; ++y) {
          const int fy = t - y;
          if (fy < 0 || fy >= K) continue;
          HIPSTENCIL_UNROLL
          for (int q = 0; q < PAIRS; ++q)
            acc[y][q] = __hfma2(hd::word_as_half2(taps.k[fy * K + i]), lane(q, i), acc[y][q]);
        }
    }
  }
  const int x = bx0 + tx * 4 * WPT;
  if (x >= g.width) return;
  HIPSTENCIL_UNROLL
  for (int y = 0; y < OY; ++y) {
    const int oy = by0 + ty * OY + y;
    if (oy >= g.height) continue;
    std::uint8_t* o = dst.row(g.dst_y0 + oy) + g.dst_x0 + x;
    HIPSTENCIL_UNROLL
    for (int u = 0; u < WPT; ++u) {
      const unsigned b = __byte_perm(hd::clamp_pair(__hadd2(acc[y][2 * u], add)),
                                     hd::clamp_pair(__hadd2(acc[y][2 * u + 1], add)), 0x6420u);
      if (x + 4 * u + 4 <= g.width) {
        *reinterpret_cast<unsigned*>(o + 4 * u) = b;
      } else {
        for (int e = 0; e < 4 && x + 4 * u + e < g.width; ++e) o[4 * u + e] = std::uint8_t(b >> (8 * e));
      }
    }
  }
}

template <int R, int BY, int OY, int WPT, bool Sep>
void launch_one(const hd::problem<std::uint8_t, std::uint8_t>& p, const hd::geometry& gr, const hd::packed_plan& pl) {
  constexpr int K = 2 * R + 1;
  const dim3 grid(unsigned((p.g.width + 128 * WPT - 1) / (128 * WPT)), unsigned((p.g.height + BY * OY - 1) / (BY * OY)));
  one_kernel<R, BY, OY, WPT, Sep><<<grid, dim3(32, BY), 0, p.stream>>>(p.src, p.dst, p.g, gr,
                                                                         hd::packed_taps_of<Sep ? 2 * K : K * K>(pl));
}

template <bool Dense>
void probe(const ab_sizes& sizes) {
  using T = std::uint8_t;
  ab_for_each_problem<T, Dense>(sizes, [&](int w, int h, int r, hs::image_view<const T> src,
                                           hs::device_image<T>& out, const auto& f, const auto& p,
                                           const hd::geometry& gr) {
    hd::packed_plan pl, ps;
    if constexpr (Dense) {
      pl = hd::plan_packed_dense(f.coefficients());
    } else {
      pl = hd::plan_packed_dense(f.to_2d().coefficients());
      ps = hd::plan_packed_separable(f.row(), f.column());
    }
    char label[96];
    std::snprintf(label, sizeof label, "u8 %5dx%-5d %s %dx%d", w, h, Dense ? "dense" : "sep  ", 2 * r + 1, 2 * r + 1);
    if (!pl.ok || (!Dense && !ps.ok)) {
      std::printf("%s  packed plan refuses\n", label);
      return;
    }
    std::vector<ab_variant> v;
    ab_add_library_firsts(v, src, out, f);  // auto, direct, packed
    const int packed = 2;
    v.push_back(ab_library_variant("tiled", src, out, f, hs::algo::tiled<>{}));
    const int first = int(v.size());
    auto add = [&](const char* name, auto launch, const hd::packed_plan& plan) {
      v.push_back({name, [&p, &gr, &plan, launch] { launch(p, gr, plan); }});
    };
    hd::with_static_radius(r, [&](auto R) {
      const char* o = Dense ? "" : "o";
      static char names[8][16];
      std::snprintf(names[0], 16, "t4x1x4%s", o);
      std::snprintf(names[1], 16, "t8x1x2%s", o);
      std::snprintf(names[2], 16, "t4x1x2%s", o);
      std::snprintf(names[3], 16, "t4x2x4%s", o);
      std::snprintf(names[4], 16, "t8x1x4%s", o);
      add(names[0], launch_one<R, 4, 4, 1, false>, pl);
      add(names[1], launch_one<R, 8, 2, 1, false>, pl);
      add(names[2], launch_one<R, 4, 2, 1, false>, pl);
      add(names[3], launch_one<R, 4, 4, 2, false>, pl);
      add(names[4], launch_one<R, 8, 4, 1, false>, pl);
      if (!Dense) {
        add("t4x1x4s", launch_one<R, 4, 4, 1, true>, ps);
        add("t8x1x2s", launch_one<R, 8, 2, 1, true>, ps);
        add("t4x2x4s", launch_one<R, 4, 4, 2, true>, ps);
      }
    }, std::integer_sequence<int, 1, 2>{});
    ab_time_kernel_case(label, out, v, first);
    ab_print_within_one("packed", out, v, packed, first);
  });
}

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "all";
  const ab_sizes sizes = ab_parse_sizes("packed_one_ab", argc > 2 ? argv[2] : nullptr,
                                        {{128, 128}, {512, 512}, {1280, 720}, {1920, 1080}, {2560, 1440},
                                         {3840, 2160}, {8192, 8192}});
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  std::printf("packed_one_ab: %s\n", prop.name);
  if (mode == "dense" || mode == "all") probe<true>(sizes);
  if (mode == "sep" || mode == "all") probe<false>(sizes);
  const cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) std::printf("CUDA error: %s\n", cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}
