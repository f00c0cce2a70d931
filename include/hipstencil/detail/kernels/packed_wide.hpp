// hipstencil/detail/kernels/packed_wide.hpp
// The packed family's wide kernel: one-channel 8-bit 3x3 filters on one image, each thread
// 16 outputs of a row (the strip kernel's 8: kernels/packed_strips.hpp) in a strip of 1, 2
// or 4 rows, every input row of the strip loaded upfront as one 16-byte word and the 4-byte
// words either side. Where it runs (packed_wide_fit) the strip kernel's conditions hold, so
// the words outside the read rectangle are byte permutes of the word at the edge
// (packed_edge_words) and the rows outside it go through the rule's row map.
//
// Why: on a 1920x1080 u8 3x3 call the strip kernel's time was about 4.2 us of launching
// its grid, 1.1 to 1.3 of moving its bytes and 1.2 to 1.5 of its arithmetic, one after
// the other (bench/experiments/u8_floor_probe.cu), and a kernel that moved the same bytes
// in 16 bytes a thread and one row took less than one in the strip walk's shape. With the
// arithmetic added (bench/experiments/packed_row16_ab.cu, held, better of two runs, an
// H100, outputs byte-identical to the library's), the probe's kernel in the strips the
// policy takes (wide_rows) ran in 0.83 to 0.94 times the library's time from 256x256 to
// 2560x1440 (1920x1080: 6.11 us dense against 6.72, 5.95 separable against 6.53;
// 2048x1152 separable 5.95 against 7.14), and in 4-row strips 0.93 to 0.97 at 3200x1800
// and 3840x2160, 0.86 at 4096x2160, 0.67 to 0.71 at 5760x3240 and 0.86 to 0.89 at
// 8192x8192 (50.43 us separable against 58.91). Each input row is turned into lanes once
// per output row it feeds (three times in 1-row strips, against 1.5 in the walk's 4-row
// ones): the extra arithmetic costs less than the walk's chain of one row after another.
// The products are added in the walk's order (input rows top to bottom, tap columns left
// to right), so the outputs are the walk's bytes.
#pragma once

#include "../../platform/config.hpp"
#if HIPSTENCIL_HAS_GPU
#include <cstdint>
#include <type_traits>

#include "../geometry.hpp"
#include "../packed_plan.hpp"
#include "../../platform/runtime.hpp"
#include "packed_lanes.hpp"
#include "packed_strips.hpp"

namespace hipstencil {
namespace detail {

/// Outputs a thread of packed_wide_kernel: 16 bytes of a row.
constexpr int packed_wide_outputs = 16;
/// packed_wide_kernel's blocks: 32 x 4 threads (a block row spans 512 output columns), or
/// 8 x 16 (128 columns; a warp is 8 threads in each of 4 rows, each row's 128 bytes one
/// whole line) where those leave fewer columns idle (packed_wide_block).
constexpr int packed_wide_block_x = 32, packed_wide_block_y = 4;
constexpr int packed_wide_narrow_block_x = 8, packed_wide_narrow_block_y = 16;

/// The block packed_wide_kernel runs a ROI `width` pixels wide in: 8 x 16 where its block
/// rows end nearer the ROI's right edge than 32 x 4's (a width that is not a multiple of
/// 512, unless its remainder is more than 384), 32 x 4 otherwise. Held, better of two, on
/// H100s (bench/experiments/packed_row16_ab.cu built against the library with each shape;
/// bench/results/2026-12-06-h100-shapes/), u8 3x3 dense and separable: where 8 x 16 leaves
/// fewer columns idle it took 0.95 to 0.995 times 32 x 4's time (shape/), and with this
/// rule, on another machine, 0.95 to 1.006 (hybrid/): 3840x2160 dense 9.18 us against 9.66
/// and 9.31 against 9.79, separable 8.86 against 9.28 and 8.93 against 9.28; 1600x900
/// dense 5.60 against 5.82 and 5.70 against 5.86; 1920x1080 dense 5.89 against 5.98 and
/// 5.98 against 6.08; 640x480, 800x600 and 1280x720 0.97 to 1.006. On widths that are
/// multiples of 512 8 x 16 took 0.99 to 1.025 times 32 x 4's time (8192x8192 dense 51.62
/// against 50.50, separable 51.23 against 49.98; 1024x768 dense 5.12 against 5.02;
/// 512x512 0.99, 1024x1024 and 2560x1440 within 1.1%).
inline dim3 packed_wide_block(int width) {
  constexpr int narrow = packed_wide_narrow_block_x * packed_wide_outputs;  // columns a block row
  constexpr int wide = packed_wide_block_x * packed_wide_outputs;
  const bool fewer_idle = (width + narrow - 1) / narrow * narrow < (width + wide - 1) / wide * wide;
  return fewer_idle ? dim3(packed_wide_narrow_block_x, packed_wide_narrow_block_y)
                    : dim3(packed_wide_block_x, packed_wide_block_y);
}

/// Whether packed_wide_kernel can run a radius-1 launch of geometry g (gr: its reads'
/// geometry): the strip kernel's conditions (packed_strips_fit: the read rectangle's edges
/// on the threads' words under a rule whose outside words are byte permutes, every output
/// inside the ROI and written) and a ROI width that is a multiple of 16 pixels, at least
/// `min_width` (packed_policy::wide_min_width; narrower, the strip walk runs). The caller
/// also requires 16-byte-aligned centre and output columns and pitches, a grid of at most
/// 65535 block rows (a height of at most 65535 * packed_wide_block_y * rows, the shorter
/// block's) and tile_class.
inline bool packed_wide_fit(const geometry& g, const geometry& gr, int min_width) {
  return g.width % packed_wide_outputs == 0 && g.width >= min_width && packed_strips_fit(g, gr, 1);
}

/// Dense (Sep false) or separable 3x3 filter over u8 pixels where packed_wide_fit holds:
/// thread (x, y) of packed_wide_block's blocks owns outputs 16x to 16x + 15 of ROI rows
/// Rows y to Rows y + Rows - 1. taps: the plan's (packed_plan.hpp), 9 dense or 3 row and 3
/// column. Eight blocks of 128 threads a multiprocessor asked of nvcc's register
/// allocator (64 registers): the dense 4-row instance took 72 without, seven blocks, and
/// 60.38 us at 8192x8192 on an H100 where the probe's kernel (60 registers) took 52.38.
/// With it, and its taps held in registers as the other instances hold theirs
/// (taps_in_registers), that instance spilled 12 bytes and took 54.78 to 54.91 us at
/// 8192x8192 and 18.30 at 5760x3240; with its taps read from the parameters, no spill,
/// 50.75 and 17.28 to 17.31 (the probe's 4-row kernel 52.16 to 52.38 and 16.29 to 16.38 in
/// the same calls; 3840x2160 and 4096x2160 within 1%; bench/results/2026-12-06-h100-auto/
/// taps/). The separable 4-row instance keeps its taps held (64 registers, no spill; 4
/// bytes spilled without).
template <bool Sep, int Rows>
__global__ void HIPSTENCIL_LAUNCH_BOUNDS(128, 8)
    packed_wide_kernel(image_view<const std::uint8_t> src, image_view<std::uint8_t> dst, geometry g, geometry gr,
                       packed_taps<Sep ? 6 : 9> taps) {
  constexpr int K = 3, PAIRS = packed_wide_outputs / 2;
  const int x0 = int(blockIdx.x * blockDim.x + threadIdx.x) * packed_wide_outputs;
  const int y0 = int(blockIdx.y * blockDim.y + threadIdx.y) * Rows;
  if (x0 >= g.width || y0 >= g.height) return;
  const rect rr = g.read_rect();
  const int cx = g.src_x0 + x0 + 1;  // parent column of the first output's centre
  // The words either side: the one at cx - 4 as packed_edge_words' first word for cx, the
  // one at cx + 16 as its last word for cx + 8 (so its rule's permutes, unchanged).
  const packed_edge_words left(gr.border.rule, rr, cx), right(gr.border.rule, rr, cx + 8);
  const unsigned constant_word =
      gr.border.rule == border::kind::constant ? unsigned(gr.border.value) * 0x01010101u : 0u;
  // g.width >= 16: its sign bit is the zero taps_in_registers asks for. Not in the dense
  // 4-row instance, where nine taps held cost the registers it then spilled (above).
  const packed_taps<Sep ? 6 : 9> k = Sep || Rows < 4 ? taps_in_registers(taps, unsigned(g.width) >> 31) : taps;
  const __half2 init = word_as_half2(k.init), add = word_as_half2(k.add);
  const int y_end = gr.src_y0 + gr.height + gr.kh - 1;  // the window's last row bounds the map
  // Input row t (parent row g.src_y0 + y0 + t): words of bytes cx - 4 to cx + 19. First
  // every row's address (a row outside the read rectangle through the rule's map; one the
  // constant rule leaves outside reads the rectangle's first row, then takes the constant),
  // then every row's loads, then the permutes. With each row's permutes right after its
  // loads (in its branch), nvcc 13 gave two rows' side words one register, so each row
  // waited for its words before the next row's loads went out: on an H100 1920x1080 dense
  // then took 6.40 us and 3840x2160 10.98, where the probe's kernel took 6.18 and 9.66.
  const unsigned char* row[Rows + 2];
  bool constant_row[Rows + 2];
  HIPSTENCIL_UNROLL
  for (int t = 0; t < Rows + 2; ++t) {
    const int py = g.src_y0 + y0 + t;
    int sy = py;
    if (py < rr.y || py >= rr.y + rr.height) sy = gr.map_y(py < y_end - 1 ? py : y_end - 1);
    constant_row[t] = sy == outside;
    row[t] = reinterpret_cast<const unsigned char*>(src.row(constant_row[t] ? rr.y : sy) + cx);
  }
  uint4 m[Rows + 2];
  unsigned before[Rows + 2], after[Rows + 2];
  HIPSTENCIL_UNROLL
  for (int t = 0; t < Rows + 2; ++t) {
    m[t] = *reinterpret_cast<const uint4*>(row[t]);
    before[t] = constant_word, after[t] = constant_word;
    gpu::load_word_if<-4>(left.left_in, row[t], before[t]);
    gpu::load_word_if<16>(right.right_in, row[t], after[t]);
  }
  unsigned w[Rows + 2][6];
  HIPSTENCIL_UNROLL
  for (int t = 0; t < Rows + 2; ++t) {
    w[t][0] = __byte_perm(before[t], m[t].x, left.s0);
    w[t][1] = m[t].x, w[t][2] = m[t].y, w[t][3] = m[t].z, w[t][4] = m[t].w;
    w[t][5] = __byte_perm(after[t], m[t].w, right.s3);
    if (constant_row[t])
      HIPSTENCIL_UNROLL
      for (int u = 0; u < 6; ++u) w[t][u] = constant_word;
  }
  __half2 acc[Rows][PAIRS];
  HIPSTENCIL_UNROLL
  for (int o = 0; o < Rows; ++o)
    HIPSTENCIL_UNROLL
    for (int q = 0; q < PAIRS; ++q) acc[o][q] = init;
  HIPSTENCIL_UNROLL
  for (int t = 0; t < Rows + 2; ++t) {
    const packed_byte_lanes<6> lanes(w[t]);  // bytes cx - 4 to cx + 19
    auto lane = [&](int q, int i) { return lanes.lane(q, i, 1); };
    if constexpr (Sep) {
      __half2 h[PAIRS];
      packed_row_pass<K>(k, lane, h);
      HIPSTENCIL_UNROLL
      for (int o = 0; o < Rows; ++o)
        if (t - o >= 0 && t - o < K)
          HIPSTENCIL_UNROLL
          for (int q = 0; q < PAIRS; ++q) acc[o][q] = __hfma2(word_as_half2(k.k[K + t - o]), h[q], acc[o][q]);
    } else {
      HIPSTENCIL_UNROLL
      for (int o = 0; o < Rows; ++o)
        if (t - o >= 0 && t - o < K)
          HIPSTENCIL_UNROLL
          for (int i = 0; i < K; ++i)
            HIPSTENCIL_UNROLL
            for (int q = 0; q < PAIRS; ++q)
              acc[o][q] = __hfma2(word_as_half2(k.k[(t - o) * K + i]), lane(q, i), acc[o][q]);
    }
  }
  HIPSTENCIL_UNROLL
  for (int o = 0; o < Rows; ++o) {
#if defined(HIPSTENCIL_BACKEND_HIP)
    // hip-clang (Debian's HIP 5.2, clang 15, -O3) leaves a loop with a break rolled ("loop
    // not unrolled"), and acc indexed at run time went to scratch: 144 bytes a lane in the
    // 4-row instances on gfx90a, none with the continue. Rows past the ROI are the strip's
    // last, so skipping each is the same. nvcc keeps the break: with a continue ptxas
    // (CUDA 13.0, sm_90) spills the 4-row instances at their 64 registers, 20 bytes a
    // thread separable and 4 dense; with the break neither spills.
    if (y0 + o >= g.height) continue;
#else
    if (y0 + o >= g.height) break;
#endif
    unsigned b[PAIRS];
    HIPSTENCIL_UNROLL
    for (int q = 0; q < PAIRS; ++q) b[q] = clamp_pair(__hadd2(acc[o][q], add));
    *reinterpret_cast<uint4*>(dst.row(g.dst_y0 + y0 + o) + g.dst_x0 + x0) =
        make_uint4(__byte_perm(b[0], b[1], 0x6420u), __byte_perm(b[2], b[3], 0x6420u),
                   __byte_perm(b[4], b[5], 0x6420u), __byte_perm(b[6], b[7], 0x6420u));
  }
}

/// Launches packed_wide_kernel on p's 3x3 filter (plan pl) in strips of `rows` rows (1, 2
/// or 4). Preconditions: packed_wide_fit and the caller's (above).
template <class Problem>
void launch_packed_wide(const Problem& p, const geometry& gr, const packed_plan& pl, int rows) {
  const geometry& g = p.g;
  const dim3 block = packed_wide_block(g.width);
  const int columns = int(block.x) * packed_wide_outputs, block_rows = int(block.y) * rows;
  const dim3 grid(unsigned((g.width + columns - 1) / columns), unsigned((g.height + block_rows - 1) / block_rows));
  auto go = [&](auto sep, auto r) {
    constexpr bool S = decltype(sep)::value;
    constexpr int Rows = decltype(r)::value;
    packed_wide_kernel<S, Rows>
        <<<grid, block, 0, p.stream>>>(p.src, p.dst, g, gr, packed_taps_of<S ? 6 : 9>(pl));
  };
  auto by_rows = [&](auto sep) {
    if (rows == 1) go(sep, std::integral_constant<int, 1>{});
    else if (rows == 2) go(sep, std::integral_constant<int, 2>{});
    else go(sep, std::integral_constant<int, 4>{});
  };
  if (p.dense) by_rows(std::false_type{});
  else by_rows(std::true_type{});
  gpu::check_launch("packed_wide_kernel");
}

}  // namespace detail
}  // namespace hipstencil
#endif
