// Standalone probe (not built by CMake): packed's strip kernel (kernels/packed_strips.hpp)
// with short strips loading all their input rows first (packed_short_strip) against the
// walk that loads each row after the row above is added. Nsight Compute on the H200 gave
// 1920x1080 u8 dense 3x3 (544 blocks of 128 threads, strips of 4 rows, 23% of the warp
// slots) 33 to 36% issue-active and DRAM at 6 to 7%: each thread waits on L2 once a row.
// Default: u8, replicate, radius 1 and 2, dense and separable, held, best of two
// alternating runs: automatic, packed without the upfront loads (UpfrontStripRows 0, the
// library before), packed with them (4 rows, the library's), with them at strips of 2 and
// 3 rows, with strips of up to 8 rows upfront (the library's strip choice, and 8),
// without them at strips of 2, and with them and fewer blocks a multiprocessor asked of
// the register allocator (ab_packed_roomy); checks that the packed variants' outputs are
// byte-identical (they add in the same order).
// `packed_upfront_ab u16`: tiled's frame for u16 under replicate, constant and reflect101,
// the library's (when it ran: the frame grid first at every size, 4-row cells at radius 2)
// against the interior grid first below 2^21 pixels (so one-row frame cells at radius 2
// too), and automatic. On a tree since, tiled<> is the second at radius 2.
// Its first run (bench/results/2026-11-28-upfront/packed-upfront-1.txt, u16-frame-1.txt)
// kept the walk (the upfront loads lost or tied but for dense 5x5 from 1280x720 up, 0.95
// to 0.98 times the walk's time; 1920x1080 dense 3x3 7.17 us against 6.69) and set the u16
// order at radius 2 (tiled_policy's NarrowFrameFirstMaxRadius).
// The upfront loads are not in the library: build against a tree with
// bench/experiments/packed_upfront.patch applied (git apply), which adds packed_policy's
// UpfrontStripRows that the u8 variants name.
//   nvcc -std=c++17 -O3 -arch=sm_90 --expt-relaxed-constexpr -I<tree>/include \
//        -I/usr/include/eigen3 packed_upfront_ab.cu -lcufft -o packed_upfront_ab
#include "ab_common.hpp"
#include <cstdint>
#include <cstdio>
#include <string>
namespace hs = hipstencil;

// The library's packed policy with strips of up to U output rows loaded upfront.
template <int U>
using ab_packed_upfront =
    hs::algo::packed<hs::strategy::tile_class,
                     hs::tuning::packed_policy<32, 4, 8, 16, 1, 32768, hs::tuning::radii_range<1, 2>, U>>;

// The same with U rows upfront and fewer blocks a multiprocessor asked of the register
// allocator for single images (radius 1: 6, separable 5x5: 5), which the upfront loads
// spill at the library's request (64 and 80 registers).
template <int U>
struct ab_packed_roomy_policy : hs::tuning::packed_policy<32, 4, 8, 16, 1, 32768, hs::tuning::radii_range<1, 2>, U> {
  static constexpr int strip_min_blocks(int radius, bool separable, bool batched) {
    return batched ? hs::tuning::packed_policy<>::strip_min_blocks(radius, separable, batched)
                   : radius == 1 ? 6 : separable ? 5 : 4;
  }
};
template <int U>
using ab_packed_roomy = hs::algo::packed<hs::strategy::tile_class, ab_packed_roomy_policy<U>>;

template <class Tag>
Tag with_strip(int rows) {
  Tag t;
  t.strip_rows = rows;
  return t;
}

void run_u8() {
  ab_for_each_shape_case<std::uint8_t>(
      {{128, 128}, {256, 256}, {512, 512}, {1024, 768}, {1280, 720}, {1600, 900}, {1920, 1080}, {2560, 1440},
       {3840, 2160}},
      [&](int w, int h, int r, bool dense, hs::device_image<std::uint8_t>& out, auto call) {
        constexpr int V = 10;
        const char* names[V] = {"auto",   "walk", "up4",     "up4/s2",   "up4/s3",
                                "up8",    "up8/s8", "walk/s2", "roomy4", "roomy4/s2"};
        double t[V][2];
        unsigned long long hash[V];
        ab_time_alternating(out, t, hash,
                            [&] { call(hs::algo::automatic{}); },
                            [&] { call(ab_packed_upfront<0>{}); },
                            [&] { call(ab_packed_upfront<4>{}); },
                            [&] { call(with_strip<ab_packed_upfront<4>>(2)); },
                            [&] { call(with_strip<ab_packed_upfront<4>>(3)); },
                            [&] { call(ab_packed_upfront<8>{}); },
                            [&] { call(with_strip<ab_packed_upfront<8>>(8)); },
                            [&] { call(with_strip<ab_packed_upfront<0>>(2)); },
                            [&] { call(ab_packed_roomy<4>{}); },
                            [&] { call(with_strip<ab_packed_roomy<4>>(2)); });
        ab_print_variants("u8", w, h, r, dense, V, names, t, hash, 1, V);
      });
}

void run_u16() {
  using u16 = std::uint16_t;
  ab_for_each_rule_case<u16>(
      {{724, 724}, {1024, 768}, {1024, 1024}, {1280, 720}, {1920, 1080}},
      [&](int w, int h, int r, const char* rule, bool dense, hs::device_image<u16>& out, auto with) {
      double t[3][2];
      unsigned long long hash[3];
      ab_time_alternating(out, t, hash,
                          with(hs::algo::automatic{}),
                          with(hs::algo::tiled<>{}),
                          with(ab_tiled_frame_first_from<(1LL << 21)>{}));
      double b[3];
      for (int k = 0; k < 3; ++k) b[k] = std::min(t[k][0], t[k][1]);
      std::printf("u16 %4dx%-4d %-10s %s %dx%d  automatic %7.2f  tiled %7.2f  interior first %7.2f us  (%.3fx)  %s\n",
                  w, h, rule, dense ? "dense" : "sep  ", 2 * r + 1, 2 * r + 1, b[0], b[1], b[2], b[2] / b[1],
                  hash[1] == hash[2] ? "identical" : "OUTPUTS DIFFER");
      std::fflush(stdout);
      });
}

int main(int argc, char** argv) {
  cudaFree(nullptr);
  if (argc > 1 && std::string(argv[1]) == "u16") {
    run_u16();
    return 0;
  }
  run_u8();
}
