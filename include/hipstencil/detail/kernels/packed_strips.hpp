// hipstencil/detail/kernels/packed_strips.hpp
// The packed family's strip kernel: one-channel 8-bit images (u8) whose read rectangle's
// left and right edges fall on the threads' 4-byte words. There every thread, at an edge or
// not, takes its words the same way (packed_edge_words: loaded, or built from the word at
// the edge by one byte permute, with no branch), so every thread walks its strip as the
// interior strips do (packed_strip_walk: pointers stepped by the pitch, the ring of sums
// unrolled), and only its first 2R and last rows test the border in y.
//
// Why: on a narrow image every block of packed_kernel reaches both edges, so none of them
// takes the interior strips and all run the general walk, which recomputes each row's
// addresses and tests, and moves its sums. Nsight Compute on the H200, 4096 images of
// 128x128 u8, separable 3x3: 50.4 M instructions there, 31.7 M here. Held to 64
// registers (tuning::packed_policy::strip_min_blocks) the call took 0.89x packed_kernel's
// time; with the 80 the compiler chose, 1.06x (half the warps resident, and the issue
// rate 49% busy against 77%). The outputs are the same bytes: the sums are added in the
// same order. On a batch larger than L2 the threads ask L2 for their rows first
// (tuning::packed_policy::l2_prefetch): 4096 such images, separable 3x3, then took 0.86x
// the time. With each row's words loaded at fixed offsets from one pointer
// (packed_edge_words::load) and no checked row inside the walk's loop, the same call went
// from 55.1 to 47.0 us on the H200 (42.9 M to 32.8 M instructions), dense 3x3 from 60.7 to
// 59.0 (47.0 M to 37.2 M), separable 5x5 from 73.3 to 62.5; dense 5x5 stayed at 96. With
// the taps held in registers (taps_in_registers) dense 3x3 took 0.87x that time (59.5 to
// 51.8 us, 62% of the copy rate in the bench) and 5x5 0.95x.
#pragma once

#include "../../platform/config.hpp"
#if HIPSTENCIL_HAS_GPU
#include <cstdint>

#include "../geometry.hpp"
#include "batch_image.hpp"
#include "packed_lanes.hpp"
#include "packed_rows.hpp"

namespace hipstencil {
namespace detail {

/// Whether every thread of a launch at radius `radius` (1 or 2) can run
/// packed_strip_kernel: the read rectangle's edges on the threads' words under a rule that
/// packed_edge_words builds (g the call's geometry, gr its reads' geometry), every thread's
/// 8 outputs inside the ROI and written (not skip's unwritten ones), and its rows past the
/// read rectangle at most 2R above (the walk's first steps) and R below (its last).
/// The caller also requires aligned rows (whole-word loads and stores) and tile_class.
inline bool packed_strips_fit(const geometry& g, const geometry& gr, int radius) {
  const rect rr = g.read_rect();
  constexpr int OX = packed_layout<std::uint8_t>::outputs;
  return packed_edge_words::fit(gr.border.rule, rr, g.src_x0 + radius, g.width) && g.width % OX == 0 &&
         g.writes_all(g.src_x0, g.src_y0, g.width + 2 * radius, g.height + 2 * radius) &&
         rr.y - g.src_y0 <= 2 * radius && g.src_y0 + g.height + radius <= rr.y + rr.height;
}

/// Dense (Sep false) or separable filter of radius R over u8 pixels where packed_strips_fit
/// holds: thread (x, y) of the grid owns outputs 8x to 8x + 7 of strips of `strip` rows,
/// y, y + gridDim.y * blockDim.y, ... (blocks of `Block` threads, any shape, MinBlocks of
/// them a multiprocessor asked of the register allocator). Batch: the image is
/// blockIdx.z's (select_image). Prefetch: each row's loads go out before the row above
/// is added (packed_strip_walk). l2_prefetch (batches only): each thread first asks L2 for
/// its strip's rows (packed_prefetch_rows).
template <int R, bool Sep, bool Batch, int Block, int MinBlocks, bool Prefetch>
__global__ void HIPSTENCIL_LAUNCH_BOUNDS(Block, MinBlocks)
    packed_strip_kernel(image_view<const std::uint8_t> src, image_view<std::uint8_t> dst, geometry g, geometry gr,
                        packed_taps<Sep ? 2 * (2 * R + 1) : (2 * R + 1) * (2 * R + 1)> taps, int strip,
                        image_strides strides, bool l2_prefetch) {
  using L = packed_layout<std::uint8_t>;
  if constexpr (Batch) select_image(src, dst, strides);
  const int x0 = int(blockIdx.x * blockDim.x + threadIdx.x) * L::outputs;
  if (x0 >= g.width) return;
  const rect rr = g.read_rect();
  const int cx = g.src_x0 + x0 + R;  // parent column of the first output's centre
  const packed_edge_words edge(gr.border.rule, rr, cx);
  const unsigned constant_word =
      gr.border.rule == border::kind::constant ? unsigned(gr.border.value) * 0x01010101u : 0u;
  // strip >= 1: its sign bit is the zero taps_in_registers asks for.
  const auto k = taps_in_registers(taps, unsigned(strip) >> 31);
  const int step = int(gridDim.y * blockDim.y) * strip;
  for (int ys = int(blockIdx.y * blockDim.y + threadIdx.y) * strip; ys < g.height; ys += step) {
    const int rows = (g.height - ys < strip ? g.height - ys : strip) + 2 * R;
    const int py0 = g.src_y0 + ys;  // parent row of the strip's input row 0
    const int tail = py0 + rows - (rr.y + rr.height);
    if constexpr (Batch) {
      if (l2_prefetch) {  // the rows inside the read rectangle: those outside map onto them
        const int ya = py0 > rr.y ? py0 : rr.y;
        const int yb = py0 + rows < rr.y + rr.height ? py0 + rows : rr.y + rr.height;
        packed_prefetch_rows<L::outputs>(reinterpret_cast<const unsigned char*>(src.row(ya) + cx), src.pitch_bytes,
                                         yb - ya);
      }
    }
    packed_edge_rows in{reinterpret_cast<const unsigned char*>(src.row(py0) + cx), src.pitch_bytes, edge,
                        constant_word, gr, src, py0, cx, rr.y - py0, rows - tail};
    packed_strip_walk<std::uint8_t, R, Sep, Prefetch, R>(
        in, reinterpret_cast<unsigned char*>(dst.row(g.dst_y0 + ys) + g.dst_x0 + x0), dst.pitch_bytes, rows,
        tail > 0 ? tail : 0, k);
  }
}

}  // namespace detail
}  // namespace hipstencil
#endif
