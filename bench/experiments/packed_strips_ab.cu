// Standalone probe (not built by CMake): the packed family's strip height and block shape
// at the sizes around 1920x1080, where a u8 3x3 call misses issue 12's 6 us. There the
// library's rule (packed_strip_rows) gives u8 3x3 strips of 4 rows: 544 blocks of 128
// threads, about four a multiprocessor, a quarter of the warp slots, each thread waiting
// on L2 once for each of its 6 input rows. Strips of 2 rows took 7.07 us against 6.69 in
// the thirty-ninth run (1080 blocks: past the 1056 that one wave holds at 64 registers).
// Variants, u8 (the strip kernel where it fits), replicate, radius 1 and 2, dense and
// separable, held, better of two alternating runs:
//   auto       automatic
//   lib        packed, the library's policy and strip
//   s1 s2 s3 s4 s6 packed, strips of that many rows
//   m10/s2 m10/s3  single images' strip kernel asked for 10 blocks of 128 a multiprocessor
//                  at radius 1 (library: 8), 8 at separable 5x5 (6), 5 at dense 5x5 (4):
//                  fewer registers, a wave of more blocks, so that 2-row strips fit in one
//   b256 b256/s2 b256/s3  blocks of 32 x 8 threads (library: 32 x 4), the same threads a
//                  multiprocessor asked (half the blocks)
//   pf pf/s2 pf/s3  the library's numbers with the walk's prefetch on single images
//                  (each row's loads before the row above is added; library: batches only)
// `packed_strips_ab uchar4`: uchar4 (packed_kernel) with auto, lib, s1, s2, s3, s4, s6, s8.
// `packed_strips_ab u8|uchar4 WxH,WxH,...`: those sizes instead of the defaults.
// `packed_strips_ab long-u8|long-uchar4 [WxH,...]`: strips of 8 to 32 rows on large images
// (run_long). Its runs (H100: bench/results/2026-12-06-h100-long/; H200:
// 2026-12-06-h200-strips/long*.txt) gave separable 5x5 in packed_kernel's walk 12-row
// strips where 16 were kept (packed_policy::walk_rows has the figures): 8 rows gained on
// the H100 at every size above u8's strip kernel but lost on the H200 at 8192x8192.
// Checks that every packed variant's output is byte-identical to lib's (the strip height
// and block shape do not change the order of the additions).
// Its first run (H200, bench/results/2026-12-06-h200/packed-strips-*.txt; every variant's
// outputs identical) changed nothing: at 1920x1080 u8 3x3 no variant beat the library's
// 6.37 us (separable) and 6.59 (dense) by more than 0.03 (s3 6.43 and 6.59, b256/s3 6.40
// and 6.56; s2 7.07 and 7.36, m10/s2 7.14 and 8.22, pf 6.59 and 6.82). m10 spilled at
// radius 1 (48 registers, 24 and 72 bytes of stack). The gains were at a size off issue
// 12's list: u8 3x3 at 2560x1440 in 4-row strips took 0.94 times the library's 8-row time
// (7.10 us against 7.55, 7.36 against 7.87), and uchar4 5x5 there 0.94 to 0.95 (s4 dense,
// s8 separable); at 1024x768 and 1280x720 the library's strip was within 2% of the best.
// The line printing moved into ab_common.hpp's ab_print_variants after that run (times
// then printed with two decimals in five places, not six). Its second run, the sweep
// around 2560x1440 (2048x1152 to 3440x1440, an H100; bench/results/2026-12-06-h100-four/
// packed-strips-*.txt), found no variant that leads at every size: geometric means of the
// variant's time over lib's, u8, the best two, pf 0.94 to 0.98 by filter (0.89 to 1.02 a
// case) and s6 0.95 to 1.04; uchar4 s8 0.97 to 1.00 and s4 0.98 to 1.04. pf lost at
// 1920x1080 on the H200 (first run). The strip rule was left as it is.
//   nvcc -std=c++17 -O3 -arch=sm_90 --expt-relaxed-constexpr -I<tree>/include \
//        -I/usr/include/eigen3 packed_strips_ab.cu -lcufft -o packed_strips_ab
#include "ab_common.hpp"
#include <cstdint>
#include <cstdio>
#include <string>
namespace hs = hipstencil;

template <int BY>
using ab_shape_base = hs::tuning::packed_policy<32, BY>;

// Blocks a multiprocessor asked of the register allocator by the single-image strip kernel
// at radius 1, separable 5x5 and dense 5x5 (batches as the library).
template <int BY, int R1, int S2, int D2>
struct ab_strip_policy : ab_shape_base<BY> {
  static constexpr int strip_min_blocks(int radius, bool separable, bool batched) {
    return batched ? ab_shape_base<BY>::strip_min_blocks(radius, separable, batched)
                   : radius == 1 ? R1 : separable ? S2 : D2;
  }
};
template <int BY, int R1, int S2, int D2>
using ab_packed = hs::algo::packed<hs::strategy::tile_class, ab_strip_policy<BY, R1, S2, D2>>;
// The library's numbers with each row's loads issued before the row above is added
// (packed_strip_walk's Prefetch) on single images too: the library has it on batches only.
struct ab_prefetch_policy : ab_strip_policy<4, 8, 6, 4> {
  static constexpr bool strip_prefetch(int, bool, bool) { return true; }
};
using ab_lib = ab_packed<4, 8, 6, 4>;    // the library's numbers
using ab_m10 = ab_packed<4, 10, 8, 5>;   // more blocks of 128
using ab_b256 = ab_packed<8, 4, 3, 2>;   // the library's threads in blocks of 256
using ab_pf = hs::algo::packed<hs::strategy::tile_class, ab_prefetch_policy>;

template <class Tag>
Tag with_strip(int rows) {
  Tag t;
  t.strip_rows = rows;
  return t;
}

void run_u8(const char* sizes) {
  ab_for_each_shape_case<std::uint8_t>(
      ab_parse_sizes("packed_strips_ab", sizes,
                     {{256, 256}, {512, 512}, {1024, 768}, {1280, 720}, {1600, 900}, {1920, 1080}, {2560, 1440},
                      {3840, 2160}}),
      [&](int w, int h, int r, bool dense, hs::device_image<std::uint8_t>& out, auto call) {
        constexpr int V = 15;
        const char* names[V] = {"auto",   "lib",  "s1",      "s2",      "s3", "s4",    "s6",   "m10/s2",
                                "m10/s3", "b256", "b256/s2", "b256/s3", "pf", "pf/s2", "pf/s3"};
        double t[V][2];
        unsigned long long hash[V];
        ab_time_alternating(out, t, hash,
                            [&] { call(hs::algo::automatic{}); },
                            [&] { call(ab_lib{}); },
                            [&] { call(with_strip<ab_lib>(1)); },
                            [&] { call(with_strip<ab_lib>(2)); },
                            [&] { call(with_strip<ab_lib>(3)); },
                            [&] { call(with_strip<ab_lib>(4)); },
                            [&] { call(with_strip<ab_lib>(6)); },
                            [&] { call(with_strip<ab_m10>(2)); },
                            [&] { call(with_strip<ab_m10>(3)); },
                            [&] { call(ab_b256{}); },
                            [&] { call(with_strip<ab_b256>(2)); },
                            [&] { call(with_strip<ab_b256>(3)); },
                            [&] { call(ab_pf{}); },
                            [&] { call(with_strip<ab_pf>(2)); },
                            [&] { call(with_strip<ab_pf>(3)); });
        ab_print_variants("u8", w, h, r, dense, V, names, t, hash, 1, V, "identical", "OUTPUTS DIFFER");
      });
}

void run_uchar4(const char* sizes) {
  ab_for_each_shape_case<uchar4>(
      ab_parse_sizes("packed_strips_ab", sizes,
                     {{256, 256}, {512, 512}, {724, 724}, {1280, 720}, {1920, 1080}, {2560, 1440}}),
      [&](int w, int h, int r, bool dense, hs::device_image<uchar4>& out, auto call) {
        constexpr int V = 8;
        const char* names[V] = {"auto", "lib", "s1", "s2", "s3", "s4", "s6", "s8"};
        double t[V][2];
        unsigned long long hash[V];
        ab_time_alternating(out, t, hash,
                            [&] { call(hs::algo::automatic{}); },
                            [&] { call(ab_lib{}); },
                            [&] { call(with_strip<ab_lib>(1)); },
                            [&] { call(with_strip<ab_lib>(2)); },
                            [&] { call(with_strip<ab_lib>(3)); },
                            [&] { call(with_strip<ab_lib>(4)); },
                            [&] { call(with_strip<ab_lib>(6)); },
                            [&] { call(with_strip<ab_lib>(8)); });
        ab_print_variants("uchar4", w, h, r, dense, V, names, t, hash, 1, V, "identical", "OUTPUTS DIFFER");
      });
}

// `packed_strips_ab long-u8|long-uchar4 [sizes]`: strips longer than the library's on large
// images (default 3840x2160, 5760x3240, 8192x8192), where the interior instance's strips
// reload 2R rows for every strip: auto, lib, s8, s12, s16, s24, s32, b256/s16.
template <class T>
void run_long(const char* type, const char* sizes) {
  ab_for_each_shape_case<T>(
      ab_parse_sizes("packed_strips_ab", sizes, {{3840, 2160}, {5760, 3240}, {8192, 8192}}),
      [&](int w, int h, int r, bool dense, hs::device_image<T>& out, auto call) {
        constexpr int V = 8;
        const char* names[V] = {"auto", "lib", "s8", "s12", "s16", "s24", "s32", "b256/s16"};
        double t[V][2];
        unsigned long long hash[V];
        ab_time_alternating(out, t, hash,
                            [&] { call(hs::algo::automatic{}); },
                            [&] { call(ab_lib{}); },
                            [&] { call(with_strip<ab_lib>(8)); },
                            [&] { call(with_strip<ab_lib>(12)); },
                            [&] { call(with_strip<ab_lib>(16)); },
                            [&] { call(with_strip<ab_lib>(24)); },
                            [&] { call(with_strip<ab_lib>(32)); },
                            [&] { call(with_strip<ab_b256>(16)); });
        ab_print_variants(type, w, h, r, dense, V, names, t, hash, 1, V, "identical", "OUTPUTS DIFFER");
      });
}

int main(int argc, char** argv) {
  cudaFree(nullptr);
  const std::string type = argc > 1 ? argv[1] : "u8";
  const char* sizes = argc > 2 ? argv[2] : nullptr;
  if (type == "uchar4") run_uchar4(sizes);
  else if (type == "u8") run_u8(sizes);
  else if (type == "long-u8") run_long<std::uint8_t>("u8", sizes);
  else if (type == "long-uchar4") run_long<uchar4>("uchar4", sizes);
  else return std::fprintf(stderr, "packed_strips_ab: type '%s' (expected u8 or uchar4)\n", type.c_str()), 2;
  return 0;
}
