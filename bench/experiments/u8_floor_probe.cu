// Standalone probe (not built by CMake): the floor under a one-channel 8-bit 3x3 call at
// 1920x1080, where issue 12 asks for at most 6 us and the packed family's strip kernel
// takes 6.2 to 6.7 on the H200 (5.7 to 6.1 on the forty-ninth run's H100, in
// bench/RESULTS.md). The strip kernel runs 544 blocks of 32 x 4 threads, each thread 8
// outputs of a row in strips of 4 rows: 6 input rows of 16 bytes (its 8 and 4 either side),
// 4 output rows of 8 bytes. This times, held (events around each call, the calls queued
// behind a spinning kernel, as hipstencil-bench --hold), kernels that move those bytes and
// add nothing, so that the time of the filter's arithmetic and its chain of loads is the
// library's time less theirs:
//   empty            an empty kernel of a grid of 4-row strips' blocks (the strip
//                    kernel's at 1920x1080: 544 blocks of 128 threads)
//   copy16           one 16-byte word a thread, a row of threads a block row
//   copy16x4         16 bytes a thread, 4 rows (a quarter of copy16's threads)
//   skelOxS[/32xBY]  the strip kernel's memory: O bytes of outputs a thread (4, 8 or 16)
//                    in 32 x 4 blocks (or 32 x BY), strips of S rows; each thread loads
//                    its S + 2 input rows (O bytes and the 4-byte words either side)
//                    upfront and stores each output row as the XOR of the three rows
//                    around it
//   auto, packed     the library (replicate), dense 3x3 and separable 3x3
// Each variant timed (hashed_time_us, 40 runs) once, then each once more; the better of
// its two. Sizes: 1920x1080 and 1280x720, 2560x1440, 3840x2160 for the trend, or a list
// as in the other probes.
// Its first run (an H100, bench/results/2026-12-06-h100-main/u8-floor.txt): at 1920x1080
// the empty grid took 4.16 us, copy16 4.90, the skeletons 5.15 (skel16x1) to 5.44
// (skel8x8; the walk's own shape, skel8x4, 5.31), the library 6.75 and 6.82 dense, 6.53
// separable. So of the library's time about 4.2 us is the launch of such a grid, about 1.1
// the walk's bytes and 1.2 to 1.5 its arithmetic; the 6 us target leaves the arithmetic
// 0.55 to 0.85 us above the skeletons there. The strip kernel's loop (dense 3x3, SASS of
// this build: strip-loop-sass.txt there) is 84 instructions a row: 38 HFMA2, 8 HADD2
// (9 taps of 4 lanes, the offsets, bytes to lanes), 15 PRMT, 8 HMNMX2 (the clamp), 3
// loads and a store; little of it is not the filter's own arithmetic. A second H100
// (u8-floor-2.txt there, 1920x1080): empty 4.19, skel8x4 5.47, the library 6.88 and 6.66.
//   nvcc -std=c++17 -O3 -arch=sm_90 --expt-relaxed-constexpr -I<tree>/include \
//        -I/usr/include/eigen3 u8_floor_probe.cu -lcufft -o u8_floor_probe
#include "ab_common.hpp"
#include <cstdint>
#include <cstdio>
#include <string>
namespace hs = hipstencil;

__global__ void empty_kernel() {}

__global__ void copy16(const std::uint8_t* __restrict__ src, std::size_t sp, std::uint8_t* __restrict__ dst,
                       std::size_t dp, int words, int rows, int rows_a_thread) {
  const int x = int(blockIdx.x * blockDim.x + threadIdx.x);
  const int y0 = int(blockIdx.y) * rows_a_thread;
  if (x >= words) return;
  uint4 v[4];
#pragma unroll
  for (int j = 0; j < 4; ++j)
    if (j < rows_a_thread && y0 + j < rows) v[j] = reinterpret_cast<const uint4*>(src + (y0 + j) * sp)[x];
#pragma unroll
  for (int j = 0; j < 4; ++j)
    if (j < rows_a_thread && y0 + j < rows) reinterpret_cast<uint4*>(dst + (y0 + j) * dp)[x] = v[j];
}

// O bytes (4, 8 or 16) of outputs a thread, strips of S rows; rows clamped into the image,
// the words either side read where inside (else the thread's own edge word).
template <int O, int S>
__global__ void skeleton(const std::uint8_t* __restrict__ src, std::size_t sp, std::uint8_t* __restrict__ dst,
                         std::size_t dp, int width, int height) {
  constexpr int W = O / 4;  // words of outputs
  const int x0 = int(blockIdx.x * blockDim.x + threadIdx.x) * O;
  const int y0 = int(blockIdx.y * blockDim.y + threadIdx.y) * S;
  if (x0 >= width || y0 >= height) return;
  unsigned in[S + 2][W + 2];
#pragma unroll
  for (int t = 0; t < S + 2; ++t) {
    int y = y0 + t - 1;
    y = y < 0 ? 0 : (y >= height ? height - 1 : y);
    const unsigned* row = reinterpret_cast<const unsigned*>(src + y * sp + x0);
    if constexpr (O == 16) {
      const uint4 c = *reinterpret_cast<const uint4*>(row);
      in[t][1] = c.x, in[t][2] = c.y, in[t][3] = c.z, in[t][4] = c.w;
    } else if constexpr (O == 4) {
      in[t][1] = row[0];
    } else {
      const uint2 c = *reinterpret_cast<const uint2*>(row);
      in[t][1] = c.x, in[t][2] = c.y;
    }
    in[t][0] = x0 > 0 ? row[-1] : in[t][1];
    in[t][W + 1] = x0 + O < width ? row[W] : in[t][W];
  }
#pragma unroll
  for (int s = 0; s < S; ++s) {
    if (y0 + s >= height) break;
    unsigned o[W];
#pragma unroll
    for (int u = 0; u < W; ++u)
      o[u] = in[s][u + 1] ^ in[s + 1][u + 1] ^ in[s + 2][u + 1] ^ __byte_perm(in[s + 1][u], in[s + 1][u + 2], 0x7430);
    unsigned* out = reinterpret_cast<unsigned*>(dst + (y0 + s) * dp + x0);
    if constexpr (O == 16) *reinterpret_cast<uint4*>(out) = make_uint4(o[0], o[1], o[2], o[3]);
    else if constexpr (O == 4) *out = o[0];
    else *reinterpret_cast<uint2*>(out) = make_uint2(o[0], o[1]);
  }
}

template <int O, int S, int BY = 4>
ab_variant skeleton_variant(const hs::image_view<const std::uint8_t>& src, hs::device_image<std::uint8_t>& out) {
  const int w = src.width, h = src.height;
  const dim3 block(32, BY), grid(unsigned((w + 32 * O - 1) / (32 * O)), unsigned((h + BY * S - 1) / (BY * S)));
  const std::string shape = BY == 4 ? "" : "/32x" + std::to_string(BY);
  return {"skel" + std::to_string(O) + "x" + std::to_string(S) + shape, [=, &out] {
            skeleton<O, S><<<grid, block>>>(src.data, src.pitch_bytes, out.data(), out.pitch_bytes(), w, h);
          }};
}

int main(int argc, char** argv) {
  ab_for_each_u8_size16("u8_floor_probe", argc, argv, {{1920, 1080}, {1280, 720}, {2560, 1440}, {3840, 2160}},
                        [&](int w, int h, hs::image_view<const std::uint8_t> src, hs::device_image<std::uint8_t>& out) {
    const auto g = hs::filters::gaussian_taps(1.0, 1);
    const hs::separable_filter sep(g, g);
    const hs::filter2d dense = ab_dense_filter(1);
    const int words = w / 16;
    const unsigned grid_strip_x = unsigned((w + 255) / 256), grid_strip_y = unsigned((h + 15) / 16);
    std::vector<ab_variant> v;
    v.push_back({"empty", [=] { empty_kernel<<<dim3(grid_strip_x, grid_strip_y), 128>>>(); }});
    v.push_back({"copy16", [=, &out] {
                   copy16<<<dim3(unsigned((words + 127) / 128), unsigned(h)), 128>>>(
                       src.data, src.pitch_bytes, out.data(), out.pitch_bytes(), words, h, 1);
                 }});
    v.push_back({"copy16x4", [=, &out] {
                   copy16<<<dim3(unsigned((words + 127) / 128), unsigned((h + 3) / 4)), 128>>>(
                       src.data, src.pitch_bytes, out.data(), out.pitch_bytes(), words, h, 4);
                 }});
    v.push_back(skeleton_variant<8, 4>(src, out));
    v.push_back(skeleton_variant<8, 2>(src, out));
    v.push_back(skeleton_variant<8, 8>(src, out));
    v.push_back(skeleton_variant<8, 4, 8>(src, out));
    v.push_back(skeleton_variant<4, 4>(src, out));
    v.push_back(skeleton_variant<16, 4>(src, out));
    v.push_back(skeleton_variant<16, 2>(src, out));
    v.push_back(skeleton_variant<16, 1>(src, out));
    v.push_back(skeleton_variant<16, 2, 8>(src, out));
    v.push_back(ab_library_variant("auto-dense", src, out, dense, hs::algo::automatic{}));
    v.push_back(ab_library_variant("packed-dense", src, out, dense, hs::algo::packed<>{}));
    v.push_back(ab_library_variant("auto-sep", src, out, sep, hs::algo::automatic{}));
    v.push_back(ab_library_variant("packed-sep", src, out, sep, hs::algo::packed<>{}));
    double t[2] = {0, 0};
    std::vector<double> best(v.size(), 1e30);
    for (int rep = 0; rep < 2; ++rep)
      for (std::size_t k = 0; k < v.size(); ++k) {
        unsigned long long hash = 0;
        t[rep] = hashed_time_us(out, v[k].second, hash, 40, true);
        best[k] = std::min(best[k], t[rep]);
      }
    std::printf("u8 %5dx%-5d", w, h);
    for (std::size_t k = 0; k < v.size(); ++k) std::printf("  %s %6.2f", v[k].first.c_str(), best[k]);
    std::printf("\n");
    std::fflush(stdout);
  });
  return 0;
}
