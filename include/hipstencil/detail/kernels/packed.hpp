// hipstencil/detail/kernels/packed.hpp
// The packed family: 8-bit images of one channel (u8) or four (uchar4, RGBA), in and out,
// filtered in packed half-precision lanes, two outputs per instruction. Each thread owns a
// few adjacent output pixels of a column strip (packed_layout: 8 of one channel, 4 of four)
// and walks down it (register streaming, as 2.5D blocking does for stencils): it loads each
// input row once as words (the pixels under its outputs and `halo` pixels either side, so
// radius up to 4 and 2), turns byte pairs into half2 lanes centred at 128 (a byte permute
// builds 1024 + b, one subtraction leaves b - 128), and adds each row into the partial
// sums of the 2R + 1 output rows it touches, kept in registers. One channel's lanes hold
// two neighbouring pixels (odd tap offsets take a pair straddling two lanes); four
// channels' hold two channels of one pixel. A separable filter runs as a row pass into
// half2 row sums and a column pass from them. The result leaves as 1024 + the rounded
// value, whose low byte is the output: one addition, a clamp on the packed halves, one
// byte permute per four outputs.
// Three channels (uchar3) run a kernel of their own in the same lanes: packed_three.hpp;
// four channels (uchar4) on small and medium images whose reads are replicate another:
// packed_four.hpp.
//
// Why: an 8-bit filter in float is bound by instruction issue, not by bytes: per output a
// conversion in, one FMA per tap and a conversion out. In half2 lanes the taps cost half the
// instructions and the conversions a quarter. On the H200 a prototype of this kernel
// (bench/experiments/packed_prototype.cu) took 53 us for 8192x8192 u8 dense 3x3 where the
// same walk in float took 63 and the library's fastest family 104 (dense 5x5: 82, 107 and
// 201).
//
// Accuracy: half has 11 significant bits, so this family runs a filter only where the
// bound of detail/packed_plan.hpp keeps the library's promise for 8-bit outputs; any other
// filter (and any other pixel type, radius or constant border value) goes to the fallback,
// which computes in float.
//
// Tile classes: a block whose loads lie inside the read rectangle in x reads words with no
// border arithmetic (rows are mapped once each where the block reaches past the top or
// bottom), and when all its outputs are written stores whole words; blocks at the left and
// right edges read pixel by pixel through a column map built once per block (one channel
// where the read rectangle's edges fall on the threads' words: whole words, the outside
// ones by byte permute, packed_edge_words), and check each store. A tile inside in both
// directions, at layout-aligned addresses, with every output written, walks its strips
// with none of those tests (packed_interior_strip, packed_rows.hpp; an instance of its
// own, for single images where most block columns are such): on the H200 that took
// 8192x8192 u8 3x3 from 67.6 to 58.6 us (separable) and from 71.2 to 58.4 (dense), with
// the same output bytes. One channel where every thread's words can be loaded or built
// without a branch (the read rectangle's edges on the words), batches and images up to
// 2^24 pixels run every thread as such a strip instead: packed_strips.hpp. One channel at
// radius 1 on one image at least 512 pixels wide, where the same holds, runs 16 outputs a
// thread in short strips loaded upfront instead of the walk: packed_wide.hpp.
#pragma once

#include "../../platform/config.hpp"
#if HIPSTENCIL_HAS_GPU
#include <cstdint>
#include <type_traits>
#include <vector>

#include "../../algorithm.hpp"
#include "../family.hpp"
#include "../packed_plan.hpp"
#include "../tuning/arch.hpp"
#include "batch_image.hpp"
#include "direct.hpp"
#include "packed_lanes.hpp"
#include "packed_rows.hpp"
#include "packed_strips.hpp"
#include "packed_four.hpp"
#include "packed_three.hpp"
#include "packed_wide.hpp"
#include "staging.hpp"

namespace hipstencil {
namespace detail {

/// The parent columns a packed block's loads reach: `n` of them from `first`, for the block
/// whose outputs start at ROI column tx0 and span tw (its threads' words, with the slack
/// of the unaligned loads either side). packed_kernel reads them with no border map when
/// they lie inside the read rectangle, and the launch counts such blocks the same way.
template <class In>
struct packed_block_columns {
  int first, n;
  HIPSTENCIL_HOST_DEVICE packed_block_columns(const geometry& g, int tx0, int tw, int radius)
      : first(g.src_x0 + tx0 + radius - packed_layout<In>::reach_before),
        n(tw + packed_layout<In>::reach_before + packed_layout<In>::reach_after) {}
  HIPSTENCIL_HOST_DEVICE bool inside(const rect& rr) const { return first >= rr.x && first + n <= rr.x + rr.width; }
};

/// Dense (Sep false, (2R + 1)^2 taps) or separable (2 (2R + 1) taps: row, then column) filter
/// of radius R over 8-bit pixels In (u8 or uchar4). Threads of a BX x BY block each own
/// packed_layout<In>::outputs columns and `strip` rows. The block has BX * BY threads, as
/// BX x BY or (Narrow) on an image narrower than BX threads' outputs, fewer across and more
/// down (packed_block), which blockDim gives. A shape known at compile time keeps the wide
/// kernels' registers: reading it from blockDim took the u8 separable 3x3 kernel from 48
/// to 56 registers (nvcc 13, sm_90). Interior: the instance has the interior strips' walk
/// (packed_interior_strip), which raises the registers of the whole kernel (uchar4 3x3
/// from 61 to 74), so it is launched only where most block columns can take it
/// (packed_interior_columns). Edges: the edge blocks' fast paths (one channel's words by
/// byte permute, packed_edge_words, and rows inside the read rectangle read with no map),
/// which the other instances always have and the interior one where the policy's
/// interior_edges_always and interior_edges_max_pixels say (they raise its registers).
/// l2_prefetch: the interior strips first ask L2 for their rows (packed_prefetch_rows).
template <class In, int R, bool Sep, bool Aligned, int BX, int BY, bool Batch, bool Narrow, bool Prefetch,
          bool Interior, bool InteriorPrefetch, bool Edges>
__global__ void __launch_bounds__(BX* BY)
    packed_kernel(image_view<const In> src, image_view<In> dst, geometry g, geometry gr,
                  packed_taps<Sep ? 2 * (2 * R + 1) : (2 * R + 1) * (2 * R + 1)> taps, int strip, bool tile_class,
                  image_strides strides, bool l2_prefetch) {
  using L = packed_layout<In>;
  static_assert(R >= 1 && R <= L::halo, "the words reach `halo` pixels past a thread's outputs");
  if constexpr (Batch) select_image(src, dst, strides);
  constexpr int K = 2 * R + 1, OX = L::outputs, PAIRS = L::pairs;
  constexpr int MAP = OX * BX + L::reach_before + L::reach_after;  // columns a block's loads reach, at most
  const int TW = OX * (Narrow ? int(blockDim.x) : BX), TH = (Narrow ? int(blockDim.y) : BY) * strip;
  const int x_end = g.src_x0 + g.width + K - 1, y_end = g.src_y0 + g.height + K - 1;  // window extent
  const int tx0 = blockIdx.x * TW;
  const __half2 init = word_as_half2(taps.init), add = word_as_half2(taps.add);
  const packed_block_columns<In> reach(g, tx0, TW, R);
  const int bx_first = reach.first, map_n = reach.n;
  const rect rr = g.read_rect();
  // reach.inside(rr), written out: through the call nvcc 13 ordered the tests otherwise and
  // gave the u8 separable 5x5 interior instance one more register.
  const bool x_inside = tile_class && bx_first >= rr.x && bx_first + map_n <= rr.x + rr.width;
  const unsigned constant_word =
      gr.border.rule == border::kind::constant ? unsigned(gr.border.value) * 0x01010101u : 0u;
  // One channel at aligned words, where the read rectangle's edges are word boundaries:
  // outside words by byte permute (packed_edge_words), no column map.
  constexpr bool WordEdges = Edges && Aligned && sizeof(In) == 1 && R <= 2;
  const bool x_words = WordEdges && tile_class && !x_inside &&
                       packed_edge_words::fit(gr.border.rule, rr, g.src_x0 + R, g.width);
  // A block that reaches past the left or right edge maps each of its columns once (they
  // are the same in every row): mapping 16 bytes a row in each thread took about 2 us a
  // row on the H200, and the edge threads' strips then set the kernel's time.
  __shared__ int column_map[MAP];
  if (!x_inside && !x_words) {  // uniform in the block, before any thread leaves: the barrier is safe
    for (int i = threadIdx.y * (Narrow ? int(blockDim.x) : BX) + threadIdx.x; i < map_n; i += BX * BY) {
      const int px = bx_first + i;
      column_map[i] = gr.map_x(px < x_end - 1 ? px : x_end - 1);
    }
    __syncthreads();
  }
  for (int ty0 = blockIdx.y * TH; ty0 < g.height; ty0 += gridDim.y * TH) {
    const tile_class_info tc = classify_tile(g, tx0, ty0, TW, TH, K, K, tile_class);
    const int by_first = g.src_y0 + ty0;  // the block's window rows: [by_first, by_first + oh + 2R)
    const bool y_inside = tile_class && by_first >= rr.y && by_first + tc.oh + 2 * R <= rr.y + rr.height;
    const int x0 = tx0 + threadIdx.x * OX, ys = ty0 + threadIdx.y * strip;  // ROI-relative outputs
    if (x0 >= g.width || ys >= g.height) continue;  // no barrier past this point
    const int rows = (g.height - ys < strip ? g.height - ys : strip) + 2 * R;
    const int cx = g.src_x0 + x0 + R;  // parent column of the first output's centre
    const packed_edge_words edge(gr.border.rule, rr, cx);  // used where x_words
    if constexpr (Interior && Aligned && !Narrow) {
      if (x_inside && y_inside && tc.free_write) {  // no check on any read or write of the strip
        if (l2_prefetch) {
          const auto* first = reinterpret_cast<const unsigned char*>(src.row(g.src_y0 + ys) + cx);
          packed_prefetch_rows<int(sizeof(In)) * OX>(first, src.pitch_bytes, rows);
        }
        packed_interior_strip<In, R, Sep, InteriorPrefetch>(
            reinterpret_cast<const unsigned char*>(src.row(g.src_y0 + ys) + cx - L::halo), src.pitch_bytes,
            reinterpret_cast<unsigned char*>(dst.row(g.dst_y0 + ys) + g.dst_x0 + x0), dst.pitch_bytes, rows, taps);
        continue;
      }
    }
    __half2 acc[K][PAIRS];
    HIPSTENCIL_UNROLL
    for (int s = 0; s < K; ++s)
      HIPSTENCIL_UNROLL
      for (int q = 0; q < PAIRS; ++q) acc[s][q] = init;
    // Row t's words through the border rule (the row mapped once; null: the constant's
    // row), from pixel cx - halo. With Edges, a row inside the read rectangle is not mapped
    // even where its block reaches past the top or bottom: a 128-row image is two such
    // blocks, and with the columns read by permute (x_words) the rows' maps were about 15 M
    // of the 59.3 M instructions of 4096 128x128 u8 images, separable 3x3 (ncu, H200; 81.4
    // us, then 74.4 with this test).
    auto load_row = [&](int t, unsigned (&w)[L::words]) {
      const int py = g.src_y0 + ys + t;
      const In* row;
      if (y_inside || (Edges && tile_class && py >= rr.y && py < rr.y + rr.height)) {
        row = src.row(py);
      } else {
        const int sy = gr.map_y(py < y_end - 1 ? py : y_end - 1);
        row = sy == outside ? nullptr : src.row(sy);
      }
      if (row == nullptr) {
        HIPSTENCIL_UNROLL
        for (int u = 0; u < L::words; ++u) w[u] = constant_word;
      } else if (x_inside) {
        if constexpr (Aligned) load_words_aligned(row + cx - L::halo, w);
        else load_words_any(row + cx - L::halo, w);
      } else if (WordEdges && x_words) {
        if constexpr (WordEdges) edge.load(reinterpret_cast<const unsigned char*>(row + cx), constant_word, w);
      } else {
        const int* cols = column_map + threadIdx.x * OX + (L::reach_before - L::halo);
        if constexpr (sizeof(In) == 1) {
          HIPSTENCIL_UNROLL
          for (int u = 0; u < 4; ++u) {
            unsigned v = 0;
            HIPSTENCIL_UNROLL
            for (int b = 0; b < 4; ++b) {
              const int sx = cols[4 * u + b];
              v |= (sx == outside ? constant_word & 0xFFu : unsigned(row[sx])) << (8 * b);
            }
            w[u] = v;
          }
        } else {
          HIPSTENCIL_UNROLL
          for (int u = 0; u < L::words; ++u) {
            const int sx = cols[u];
            w[u] = sx == outside ? constant_word : *reinterpret_cast<const unsigned*>(row + sx);
          }
        }
      }
    };
    // Prefetch: row t + 1's loads are issued before row t's arithmetic, so that their
    // latency overlaps it (tuning::packed_policy::prefetch says where that pays).
    unsigned w[L::words], next[L::words];
    if constexpr (Prefetch) load_row(0, next);
    HIPSTENCIL_NO_UNROLL
    for (int t = 0; t < rows; ++t) {
      if constexpr (Prefetch) {
        HIPSTENCIL_UNROLL
        for (int u = 0; u < L::words; ++u) w[u] = next[u];
        if (t + 1 < rows) load_row(t + 1, next);
      } else {
        load_row(t, w);
      }
      packed_add_row<In, R, Sep, 0>(w, acc, taps);
      if (t >= 2 * R) {  // slot 0 is complete: output row ys + t - 2R
        const int y = ys + t - 2 * R;
        unsigned o[PAIRS / 2];
        packed_output_words<In>(acc[0], add, o);
        In* out = dst.row(g.dst_y0 + y) + g.dst_x0 + x0;
        if (tc.free_write && Aligned) {
          if constexpr (sizeof(In) == 1) *reinterpret_cast<uint2*>(out) = make_uint2(o[0], o[1]);
          else *reinterpret_cast<uint4*>(out) = make_uint4(o[0], o[1], o[2], o[3]);
        } else {
          HIPSTENCIL_UNROLL
          for (int u = 0; u < OX; ++u)
            if (tc.free_write || (x0 + u < g.width && g.writes_window(g.src_x0 + x0 + u, g.src_y0 + y))) {
              if constexpr (sizeof(In) == 1) out[u] = std::uint8_t((o[u >> 2] >> (8 * (u & 3))) & 0xFFu);
              else *reinterpret_cast<unsigned*>(out + u) = o[u];
            }
        }
      }
      HIPSTENCIL_UNROLL
      for (int s = 0; s + 1 < K; ++s)
        HIPSTENCIL_UNROLL
        for (int q = 0; q < PAIRS; ++q) acc[s][q] = acc[s + 1][q];
      HIPSTENCIL_UNROLL
      for (int q = 0; q < PAIRS; ++q) acc[K - 1][q] = init;
    }
  }
}

/// Output rows per thread: the policy's longest strip, halved while the grid would have
/// fewer threads than the policy's target (a small image needs short strips to fill the
/// GPU), but not from a grid of at most `wave_blocks` blocks of block_x x block_y threads
/// (one wave of resident blocks; 0: no limit) into one of more: its last few blocks would
/// run a whole strip's walk after the rest. u8 dense 5x5 at 1920x1080 (the strip kernel,
/// four blocks of 128 threads a multiprocessor, 528 on the H200) halved to 4-row strips
/// in 544 blocks and took 10.5 us held, with 8-row strips in 272 blocks 9.2 (best of two
/// runs; 1600x900, 352 blocks, 8.0 with 4 rows and 8.5 with 8; bench/results/
/// 2026-11-28-frame/strips2-*.csv). Then the policy's walk_rows: `separable_walk` (a
/// separable filter in packed_kernel's walk on one image) takes its own rows where the
/// longest strip was kept.
template <class P, int Outputs>
int packed_strip_rows(int width, long long height, int radius, bool separable_walk, long long wave_blocks = 0,
                      int block_x = 1, int block_y = 1) {
  const long long columns = (width + Outputs - 1) / Outputs;
  const auto blocks = [&](int s) {
    return (columns + block_x - 1) / block_x * ((height + (long long)block_y * s - 1) / ((long long)block_y * s));
  };
  int s = P::strip_rows(radius);
  while (s > P::min_strip_rows && columns * ((height + s - 1) / s) < P::target_threads) {
    if (wave_blocks > 0 && blocks(s) <= wave_blocks && blocks(s / 2) > wave_blocks) break;
    s /= 2;
  }
  return P::walk_rows(s, radius, separable_walk);
}

/// How many of the `columns` block columns (tw outputs wide each) at radius `radius` are
/// interior in x as packed_kernel tests it: the block's loads inside the read rectangle
/// (packed_block_columns), and all tw of its outputs inside the ROI.
template <class In>
int packed_interior_columns(const geometry& g, int tw, int radius, int columns) {
  const rect rr = g.read_rect();
  int n = 0;
  for (int bx = 0; bx < columns; ++bx)
    n += packed_block_columns<In>(g, bx * tw, tw, radius).inside(rr) && (bx + 1) * tw <= g.width;
  return n;
}

/// The block's shape for a ROI `width` pixels wide: BX x BY, or on a ROI narrower than BX
/// threads' outputs, the fewest power-of-two threads across that cover it and the rest of
/// the BX * BY threads down. With 32 x 4 a 128-pixel-wide u8 image (16 threads of 8
/// outputs) left half of each warp idle: ncu on the H200 counted 17.1 active threads a
/// warp and 82% of the issue rate busy for 4096 such images.
template <int BX, int BY, int Outputs>
dim3 packed_block(int width) {
  static_assert((BX & (BX - 1)) == 0, "BX a power of two: it halves to the narrow shapes");
  int x = BX;
  while (x > 1 && Outputs * (x / 2) >= width) x /= 2;
  return dim3(unsigned(x), unsigned(BX * BY / x));
}

struct packed_family {
  static constexpr const char* name = "packed";
  static constexpr bool dense = true, separable = true;
  static constexpr tuning::choice automatic_id = tuning::choice::packed;
  using default_policy = tuning::packed_policy<>;
  using fallback = direct_family;

  /// The plan for the problem's filter (host code; valid for a compiled radius only): of
  /// the dense filter, of a separable one's row and column passes, or where a kernel sums
  /// it in one pass (`one_pass`: packed_three_kernel, packed_four_kernel) of its outer
  /// product. The last one is kept per thread and reused for the same coefficients: fits()
  /// and launch() of one call, and a loop of calls, plan once (a 5x5 plan took 1.8 us on
  /// one core of a 2-core x86 CI machine; a small image's whole kernel takes a few us).
  template <class In, class Out>
  static packed_plan plan(const problem<In, Out>& p, bool one_pass) {
    struct last_plan {
      bool dense = false, outer = false;
      std::vector<float> a, b;  // the coefficients, or the row and the column
      packed_plan plan;
    };
    thread_local last_plan last;
    const bool outer = !p.dense && one_pass;
    const std::vector<float>& a = p.dense ? p.dense->coefficients() : p.separable->row();
    const std::vector<float>* b = p.dense ? nullptr : &p.separable->column();
    if (!last.a.empty() && last.dense == bool(p.dense) && last.outer == outer && last.a == a &&
        (b == nullptr || last.b == *b))
      return last.plan;
    last.dense = bool(p.dense);
    last.outer = outer;
    last.a = a;
    last.b = b ? *b : std::vector<float>{};
    last.plan = p.dense ? plan_packed_dense(a)
                : outer ? plan_packed_dense(p.separable->to_2d().coefficients())
                        : plan_packed_separable(a, *b);
    return last.plan;
  }

  /// Whether the family has kernels for pixels In -> Out: 8-bit channels, one, three or
  /// four, out as in.
  template <class In, class Out>
  static constexpr bool takes_pixels =
      std::is_same<In, Out>::value && (std::is_same<In, std::uint8_t>::value || std::is_same<In, uchar3>::value ||
                                       std::is_same<In, uchar4>::value);

  /// Whether border rule `rule` reads the image as replicate does (replicate, skip,
  /// padded): the only reads packed_three_kernel and packed_four_kernel have, so the rules
  /// that three-channel pixels (uchar3), and four-channel ones there, run under.
  static constexpr bool reads_replicate(border::kind rule) {
    return rule == border::kind::replicate || rule == border::kind::skip || rule == border::kind::padded;
  }

  /// packed_four_kernel's outputs a thread in y for p (the policy's four_out_y), or 0
  /// where the strip walk runs it: uchar4 on one image (no batches) whose reads are
  /// replicate (reads_replicate), of at most as many pixels as the policy gives the
  /// kernel, and no more rows than its grid holds.
  template <class P, class In, class Out>
  static int four_out_y(const problem<In, Out>& p) {
    if constexpr (!std::is_same<In, uchar4>::value || tuning::is_batched<P>::value) {
      return (void)p, 0;
    } else {
      if (p.images != 1 || !reads_replicate(p.g.border.rule)) return 0;
      const int oy = P::four_out_y((long long)p.g.width * p.g.height, p.radius, !p.dense);
      return (long long)p.g.height > 65535LL * P::four_block_y * oy ? 0 : oy;
    }
  }

  /// Whether p's kernel sums a separable filter in one pass, as its outer product
  /// (packed_three_kernel, packed_four_kernel), which plan() then plans.
  template <class P, class In, class Out>
  static bool one_pass(const problem<In, Out>& p) {
    return pixel_traits<In>::channels == 3 || four_out_y<P>(p) > 0;
  }

  /// 8-bit pixels of one, three or four channels (u8, uchar3, uchar4) in and out, square
  /// centred filters of a compiled radius that the half-precision plan holds
  /// (packed_plan.hpp); under the constant rule, an integer byte value. Three channels:
  /// one image (no batches), reads that are replicate (reads_replicate), and no more
  /// rows than packed_three_kernel's grid holds.
  template <class P, class In, class Out>
  static fit fits(const problem<In, Out>& p) {
    if constexpr (!takes_pixels<In, Out>) {
      return (void)p, no_fit;
    } else {
      if (!compiled(p.radius, typename P::radii{})) return no_fit;
      if constexpr (pixel_traits<In>::channels == 3) {
        if (tuning::is_batched<P>::value || p.images != 1 || !reads_replicate(p.g.border.rule) ||
            (long long)p.g.height > 65535LL * P::three_block_y * P::three_out_y)
          return no_fit;
      }
      if (p.g.border.rule == border::kind::constant && !packed_constant(p.g.border.value)) return no_fit;
      return plan(p, one_pass<P>(p)).ok ? fit{true, p.radius} : no_fit;
    }
  }

  template <class P, class In, class Out>
  static void launch(const problem<In, Out>& p) {
    if constexpr (std::is_same<In, uchar3>::value && std::is_same<Out, uchar3>::value) {
      const packed_plan pl = plan(p, true);
      const geometry gr = p.g.for_reads();
      with_static_radius(p.radius, [&](auto R) {
        launch_packed_three<R, P::block_x, P::three_block_y, P::three_out_y>(p, gr, pl);
      }, typename P::radii{});
    } else if constexpr (takes_pixels<In, Out>) {
      if constexpr (std::is_same<In, uchar4>::value) {
        if (const int oy = four_out_y<P>(p)) {
          const packed_plan pl = plan(p, true);
          const geometry gr = p.g.for_reads();
          with_static_radius(p.radius, [&](auto R) {
            constexpr int BX = P::block_x, BY = P::four_block_y;
            if (oy == P::four_out_y_small) launch_packed_four<R, BX, BY, P::four_out_y_small>(p, gr, pl);
            else launch_packed_four<R, BX, BY, P::four_out_y_large>(p, gr, pl);
          }, typename P::radii{});
          return;
        }
      }
      using L = packed_layout<In>;
      constexpr int BX = P::block_x, BY = P::block_y;
      constexpr bool B = tuning::is_batched<P>::value;
      const geometry& g = p.g;
      const dim3 block = packed_block<BX, BY, L::outputs>(g.width);
      const packed_plan pl = plan(p, false);
      // Whole-word loads and stores: every thread's first centre and first output on an
      // L::align-byte boundary, in every row and image.
      const bool aligned = rows_aligned(p, L::align) && p.strides.src_bytes % L::align == 0 &&
                           p.strides.dst_bytes % L::align == 0;
      const geometry gr = g.for_reads();
      // u8 3x3 on one image in 16-output rows (kernels/packed_wide.hpp) where it fits, its
      // centre and output columns 16-byte aligned, and no strip height was asked for.
      if constexpr (std::is_same<In, std::uint8_t>::value && !B) {
        const int wide = P::wide_rows((long long)g.width * g.height);
        if (p.radius == 1 && p.images == 1 && p.tile_class && p.strip_rows == 0 && rows_aligned(p, 16) &&
            (long long)g.height <= 65535LL * packed_wide_block_y * wide &&
            packed_wide_fit(g, gr, P::wide_min_width)) {
          launch_packed_wide(p, gr, pl, wide);
          return;
        }
      }
      // The strip kernel where every thread can walk its strip (packed_strips_fit) and the
      // policy takes it; the interior instance is then not asked for.
      const bool strips = std::is_same<In, std::uint8_t>::value && aligned && p.tile_class &&
                          P::strip_kernel((long long)g.width * g.height, B) && packed_strips_fit(g, gr, p.radius);
      // Strip height (packed_strip_rows): the strip kernel on one image keeps its grid within
      // a wave where the halving would spill one. Its blocks a multiprocessor are taken as
      // its register request's (strip_min_blocks); a kernel given fewer registers holds more,
      // which makes the wave larger than this, never smaller: at dense 5x5, the one row
      // where the limit changes a choice, the request takes all 128 registers.
      const long long rows = (long long)g.height * p.images;
      const long long wave_blocks =
          strips && !B ? (long long)tuning::multiprocessors() * P::strip_min_blocks(p.radius, !p.dense, B) : 0;
      const int strip = p.strip_rows > 0 ? p.strip_rows
                                         : packed_strip_rows<P, L::outputs>(g.width, rows, p.radius,
                                                                            !p.dense && !strips && !B, wave_blocks,
                                                                            int(block.x), int(block.y));
      const dim3 grid = tile_grid(g.width, g.height, L::outputs * int(block.x), int(block.y) * strip, p.images);
      // The interior strips' instance where they run in more than half the block columns:
      // where the edge blocks are as many, they set the time and pay its registers (A/B on
      // the H200, bench/results/2026-11-25-packed/: uchar4 512x512, 2 of 4 columns, 1.03x).
      // Single images only: the batched instance has not run on a GPU yet (no [gpu] test
      // has a batch of images wide enough), so batches keep the general walk where the
      // strip kernel does not fit.
      const bool interior = !B && !strips && aligned && p.tile_class && block.x == unsigned(BX) &&
                            2 * packed_interior_columns<In>(g, L::outputs * BX, p.radius, int(grid.x)) > int(grid.x);
      // Threads ask L2 for their strips' rows where the call's bytes cannot stay there
      // (strip kernel on batches, interior instance's strips).
      const long long bytes = 2LL * (long long)sizeof(In) * g.width * g.height * p.images;
      const bool l2 = P::l2_prefetch(bytes, tuning::l2_bytes());
      with_static_radius(p.radius, [&](auto R) {
        constexpr int K = 2 * R + 1;
        auto run = [&](auto sep) {
          constexpr bool S = decltype(sep)::value;
          const packed_taps<S ? 2 * K : K * K> t = packed_taps_of<S ? 2 * K : K * K>(pl);
          using yes = std::true_type;
          using no = std::false_type;
          if constexpr (sizeof(In) == 1) {
            if (strips) {
              packed_strip_kernel<R, S, B, BX * BY, P::strip_min_blocks(R, S, B), P::strip_prefetch(R, S, B)>
                  <<<grid, block, 0, p.stream>>>(p.src, p.dst, g, gr, t, strip, p.strides, l2);
              return;
            }
          }
          auto go = [&](auto al, auto narrow, auto inner, auto edges) {
            packed_kernel<In, R, S, decltype(al)::value, BX, BY, B, decltype(narrow)::value,
                          P::prefetch(pixel_traits<In>::channels, R), decltype(inner)::value,
                          P::interior_prefetch(pixel_traits<In>::channels, R), decltype(edges)::value>
                <<<grid, block, 0, p.stream>>>(p.src, p.dst, g, gr, t, strip, p.tile_class, p.strides, l2);
          };
          if constexpr (!B) {
            // The interior instance with the edge paths on images whose grid is about one
            // wave (edge blocks set the time), without them beyond (registers set it).
            constexpr int C = pixel_traits<In>::channels;
            if (interior) {
              if constexpr (P::interior_edges_always(C)) {
                return go(yes{}, no{}, yes{}, yes{});
              } else {
                const long long pixels = (long long)g.width * g.height;
                if (pixels <= P::interior_edges_max_pixels) return go(yes{}, no{}, yes{}, yes{});
                return go(yes{}, no{}, yes{}, no{});
              }
            }
          }
          if (block.x == unsigned(BX)) aligned ? go(yes{}, no{}, no{}, yes{}) : go(no{}, no{}, no{}, yes{});
          else aligned ? go(yes{}, yes{}, no{}, yes{}) : go(no{}, yes{}, no{}, yes{});
        };
        if (p.dense) run(std::false_type{});
        else run(std::true_type{});
      }, typename P::radii{});
      gpu::check_launch("packed_kernel");
    } else {
      (void)p;
    }
  }
};

}  // namespace detail
}  // namespace hipstencil
#endif
