// hipstencil/detail/kernels/streaming.hpp
// The register-streaming kernel (algo::streaming): each thread owns V adjacent output
// columns and walks down a strip of output rows, reading every input row of the strip
// exactly once with one vector load (16 bytes where its accumulators fit) and keeping
// the partial sums of the 2R + 1 output rows that row touches in registers (a sliding
// window down the column, as in 2.5D blocking for stencils). The R columns of halo on
// either side come from the neighbouring lanes through warp shuffles of 32-bit words;
// only the lanes at a warp's edges load them from memory. No barriers. Loads run
// stream_rows_in_flight rows ahead of the arithmetic (a ring of registers, unrolled so
// that no register with a load in flight is ever moved), and an L2 prefetch runs
// stream_prefetch_rows further ahead; where it measured faster (stream_shape::async_rows)
// the interior block columns instead copy stream_async_rows rows ahead into a ring in
// shared memory (cp.async), each lane into its own slots.
//
// Border handling: tile-class dispatch by block column ("Tiled Convolution"): the
// launcher runs the block columns whose lanes all read whole vectors inside the domain
// and write whole vectors inside the ROI with the Interior instantiation, which has no
// border code at all; the few at the edges run the general one, as a second grid that
// overlaps the first where the GPU allows (platform/overlap.hpp). In it, border handling
// is per lane (the tile-class idea at the finest grain): a lane whose
// vectors all lie inside the border domain uses them as they are; a lane near an edge
// replaces just the window pixels whose vector lies outside by mapped loads (a branch a
// warp enters only when one of its lanes needs it: the warps at the left and right
// edges). Rows are mapped
// once per row (uniform across the block), and only in strips that reach the top or
// bottom of the domain. strategy::per_access maps every pixel.
//
// Dense filters: input row t adds filter row (2R - k) times its window to the partial
// sum of output row t - 2R + k, k = 0..2R. Separable filters: the row taps first give V
// horizontal results, then the column taps add them into the same 2R + 1 partial sums.
// Preconditions (checked by the launcher, see streaming_fits): square centred filter of
// compile-time radius R, and the own vectors aligned: the source ROI's first column and
// the target ROI's first column at multiples of the vector size in bytes, pitches too.
#pragma once

#include "../../platform/config.hpp"
#if HIPSTENCIL_HAS_GPU
#include <cstddef>
#include <type_traits>

#include "../../platform/async_copy.hpp"
#include "../../platform/overlap.hpp"
#include "../../platform/warp.hpp"
#include "../geometry.hpp"
#include "shared_mem.hpp"
#include "staging.hpp"
#include "taps.hpp"

namespace hipstencil {
namespace detail {

// Tuning knobs, measured on the H200 (bench/RESULTS.md, "streaming"): each may be set
// before including hipstencil to override the per-type defaults below for every type.
//   HIPSTENCIL_STREAM_ROWS_IN_FLIGHT  input rows loaded ahead into registers
//   HIPSTENCIL_STREAM_ACCUM_BUDGET    floats of partial sums per thread (bounds V)
//   HIPSTENCIL_STREAM_PREFETCH_ROWS   rows ahead of the loads to prefetch into L2 (0: none)
//   HIPSTENCIL_STREAM_MIN_BLOCKS      blocks per SM asked of the register allocator

/// Threads per block of the streaming kernel: one row of lanes, a multiple of every warp size.
constexpr int stream_block = 128;
/// How many rows ahead of its loads a lane asks for its vector to be brought into L2
/// (NVIDIA's prefetch.global.L2): bytes in flight that hold no registers. 4 rows was the
/// best of 0, 4, 8, 12 and 16 for float and 8-bit pixels (3x3 and 15x15).
#ifdef HIPSTENCIL_STREAM_PREFETCH_ROWS
constexpr int stream_prefetch_rows = HIPSTENCIL_STREAM_PREFETCH_ROWS;
#else
constexpr int stream_prefetch_rows = 4;
#endif
/// Blocks per multiprocessor the register allocation must allow (__launch_bounds__).
/// Forcing 6 or 8 (80 or 64 registers) spilled and lost everywhere but float 3x3.
#ifdef HIPSTENCIL_STREAM_MIN_BLOCKS
constexpr int stream_min_blocks = HIPSTENCIL_STREAM_MIN_BLOCKS;
#else
constexpr int stream_min_blocks = 1;
#endif

/// Most input rows whose copies into shared memory are in flight while one is consumed, in
/// the interior block columns (async_copy: cp.async on NVIDIA, which holds no registers
/// while in flight); 0 keeps those block columns on the register ring below. On the H200
/// 16 rows took float separable 3x3 from 79.6% to 81.5% of the copy rate (4 and 8 rows
/// gained less); stream_shape::async_rows says where it is used. HIP has no such copy on
/// gfx90a/gfx1030: the register ring stays there.
#ifdef HIPSTENCIL_STREAM_ASYNC_ROWS
constexpr int stream_async_rows = HIPSTENCIL_STREAM_ASYNC_ROWS;
#elif defined(HIPSTENCIL_BACKEND_CUDA)
constexpr int stream_async_rows = 16;
#else
constexpr int stream_async_rows = 0;
#endif
/// Static shared memory one block's ring may take (the limit without opting in).
constexpr int stream_async_bytes = 48 * 1024;

/// Whether the interior grid is launched as a dependent of the edge grid, so that the two
/// overlap where the GPU allows it (platform/overlap.hpp).
#ifdef HIPSTENCIL_STREAM_OVERLAP
constexpr bool stream_overlap = HIPSTENCIL_STREAM_OVERLAP;
#else
constexpr bool stream_overlap = true;
#endif

/// Input rows whose loads are in flight in registers while one is consumed: 2 for one
/// channel, 1 for four (their register ring costs four times as much); 3 to 6 were slower.
#ifdef HIPSTENCIL_STREAM_ROWS_IN_FLIGHT
template <int Channels>
constexpr int stream_rows_in_flight = HIPSTENCIL_STREAM_ROWS_IN_FLIGHT;
#else
template <int Channels>
constexpr int stream_rows_in_flight = Channels == 4 ? 1 : 2;
#endif
/// Floats of partial sums a thread may hold ((2R + 1) x V x channels): 32 for 8-bit
/// pixels (V = 8 at radius 1: a shorter body and more warps beat 16-byte loads), 64 for
/// wider ones.
#ifdef HIPSTENCIL_STREAM_ACCUM_BUDGET
template <class In>
constexpr int stream_accum_budget = HIPSTENCIL_STREAM_ACCUM_BUDGET;
#else
template <class In>
constexpr int stream_accum_budget = sizeof(In) == 1 ? 32 : 64;
#endif

/// The deepest ring of at most `rows` rows of `row_bytes` that fits stream_async_bytes,
/// halving; 0 (no ring) below 2 rows.
constexpr int stream_async_depth(int rows, int row_bytes) {
  while (rows > 1 && rows * row_bytes > stream_async_bytes) rows /= 2;
  return rows >= 2 ? rows : 0;
}

constexpr int pow2_floor(int n) { return n < 2 ? 1 : 2 * pow2_floor(n / 2); }
constexpr int clamp_int(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }
constexpr int max_int(int a, int b) { return a > b ? a : b; }

/// Shape of one lane's work for pixel types In -> Out and radius R: V output columns (a
/// power of two), as many as fit stream_accum_budget, between one 32-bit word of input
/// and output (min) and 16 bytes of input (max).
template <class In, class Out, int R>
struct stream_shape {
  static constexpr int channels = pixel_traits<In>::channels;
  static constexpr int taps = 2 * R + 1;
  static constexpr int min_v = max_int(1, max_int(int(4 / sizeof(In)), int(4 / sizeof(Out))));
  static constexpr int max_v = max_int(min_v, int(16 / sizeof(In)));
  static constexpr int v = clamp_int(pow2_floor(stream_accum_budget<In> / (taps * channels)), min_v, max_v);
  static constexpr int load_bytes = v * int(sizeof(In));    ///< own vector, bytes (4..16)
  static constexpr int words = load_bytes / 4;              ///< own vector, 32-bit words
  static constexpr int halo_words = (R * int(sizeof(In)) + 3) / 4;  ///< words of halo per side
  static constexpr int store_bytes = v * int(sizeof(Out));  ///< own outputs, bytes (>= 4)
  static constexpr int window = v + 2 * R;                  ///< window pixels per row
  static_assert(load_bytes % 4 == 0 && store_bytes % 4 == 0, "lanes move whole 32-bit words");
  static constexpr int halo_lanes = (halo_words - 1) / words + 1;  ///< lanes per warp edge that load halo
  static constexpr unsigned all_columns = v == 32 ? ~0u : (1u << v) - 1u;  ///< write mask, every output
  /// Bytes of one input row in the interior kernel's shared-memory ring: every lane's own
  /// vector, and the halo words of the lanes at each warp's edges.
  static constexpr int async_row_bytes = stream_block * words * 4 + (stream_block / 32) * 2 * halo_lanes * halo_words * 4;
  /// Depth of that ring (0: the register ring): stream_async_rows for one-channel 4-byte
  /// pixels at radius 1, halved until the ring fits stream_async_bytes. Elsewhere the
  /// ring measured no faster on the H200: float radius 2 even, radius 4 5% slower, float4
  /// 16% slower (its 34 KiB per block cut the blocks per SM), 8-bit pixels even to 6% slower.
  static constexpr int async_rows =
      stream_async_depth(channels == 1 && sizeof(In) == 4 && R == 1 ? stream_async_rows : 0, async_row_bytes);
  static_assert(R >= 1 && window <= 32, "radius >= 1 (halo words exist); the per-lane mapping mask is 32 bits");
};

/// Asks for the cache line holding `p` to be brought into L2 (no-op where the target has
/// no such hint).
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE void prefetch_l2(const void* p) {
#if defined(HIPSTENCIL_BACKEND_CUDA) && defined(__CUDA_ARCH__)
  asm volatile("prefetch.global.L2 [%0];" ::"l"(p));
#else
  (void)p;
#endif
}

/// Loads N (1, 2 or 4) aligned 32-bit words.
template <int N>
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE void load_words(const void* p, unsigned (&w)[N]) {
  if constexpr (N == 4) {
    const uint4 q = *static_cast<const uint4*>(p);
    w[0] = q.x, w[1] = q.y, w[2] = q.z, w[3] = q.w;
  } else if constexpr (N == 2) {
    const uint2 q = *static_cast<const uint2*>(p);
    w[0] = q.x, w[1] = q.y;
  } else {
    static_assert(N == 1, "vectors of 1, 2 or 4 words");
    w[0] = *static_cast<const unsigned*>(p);
  }
}

/// Stores N aligned 32-bit words (N a power of two), 16 bytes at a time where it can.
template <int N>
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE void store_words(void* p, const unsigned (&w)[N]) {
  if constexpr (N >= 4) {
    HIPSTENCIL_UNROLL
    for (int i = 0; i < N; i += 4) static_cast<uint4*>(p)[i / 4] = make_uint4(w[i], w[i + 1], w[i + 2], w[i + 3]);
  } else if constexpr (N == 2) {
    *static_cast<uint2*>(p) = make_uint2(w[0], w[1]);
  } else {
    *static_cast<unsigned*>(p) = w[0];
  }
}

/// The pixel of type In that starts `b` bytes into the words `w`, as float channels. `b`
/// is a constant once the caller's loops are unrolled, so this is register selection.
template <class In>
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE accum<float, pixel_traits<In>::channels> unpack_pixel(const unsigned* w,
                                                                                             int b) {
  accum<float, pixel_traits<In>::channels> a;
  if constexpr (std::is_same<In, float4>::value) {
    HIPSTENCIL_UNROLL
    for (int c = 0; c < 4; ++c) a.v[c] = __uint_as_float(w[b / 4 + c]);
  } else if constexpr (std::is_same<In, uchar4>::value) {
    HIPSTENCIL_UNROLL
    for (int c = 0; c < 4; ++c) a.v[c] = float((w[b / 4] >> (8 * c)) & 0xffu);
  } else if constexpr (std::is_same<In, float>::value) {
    a.v[0] = __uint_as_float(w[b / 4]);
  } else if constexpr (sizeof(In) == 1) {
    a.v[0] = float(In((w[b / 4] >> (8 * (b % 4))) & 0xffu));
  } else {
    static_assert(sizeof(In) == 2, "unsupported pixel type");
    a.v[0] = float(In((w[b / 4] >> (16 * ((b / 2) % 2))) & 0xffffu));
  }
  return a;
}

/// Writes pixel p of type Out `b` bytes into the words `w` (sub-word pixels are OR-ed in:
/// the words start at zero).
template <class Out>
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE void pack_pixel(unsigned* w, int b, const Out& p) {
  if constexpr (std::is_same<Out, float4>::value) {
    w[b / 4] = __float_as_uint(p.x), w[b / 4 + 1] = __float_as_uint(p.y);
    w[b / 4 + 2] = __float_as_uint(p.z), w[b / 4 + 3] = __float_as_uint(p.w);
  } else if constexpr (std::is_same<Out, uchar4>::value) {
    w[b / 4] = unsigned(p.x) | (unsigned(p.y) << 8) | (unsigned(p.z) << 16) | (unsigned(p.w) << 24);
  } else if constexpr (std::is_same<Out, float>::value) {
    w[b / 4] = __float_as_uint(p);
  } else if constexpr (sizeof(Out) == 1) {
    w[b / 4] |= unsigned(static_cast<unsigned char>(p)) << (8 * (b % 4));
  } else {
    static_assert(sizeof(Out) == 2, "unsupported pixel type");
    w[b / 4] |= unsigned(static_cast<unsigned short>(p)) << (16 * ((b / 2) % 2));
  }
}

/// Parent columns [lo, hi) a whole-vector load may touch: the border domain, or under
/// padded the columns the ROI's windows cover (the caller's halo; beyond it memory may not
/// exist). The kernel's per-lane test and the launcher's interior block columns use it.
struct column_range {
  int lo, hi;
};
HIPSTENCIL_HOST_DEVICE inline column_range stream_load_columns(const geometry& g, int radius) {
  if (g.border.rule == border::kind::padded) return {g.src_x0, g.src_x0 + g.width + 2 * radius};
  return {g.domain.x, g.domain.x + g.domain.width};
}

/// One input row of one lane as loaded: its own vector and, for lanes at a warp's edges,
/// the halo words its neighbours cannot pass; `row` is the mapped source row, or null
/// for a row outside the domain under the constant rule.
template <int Words, int HaloWords>
struct stream_slot {
  unsigned own[Words];
  unsigned left[HaloWords];
  unsigned right[HaloWords];
  const void* row;
};

/// Dense (`Separable` false: Taps = inline_taps<(2R+1)^2>) or separable (Taps =
/// separable_taps<2R+1>) filter of radius R. Grid: x covers block columns of
/// stream_block lanes of V output columns, block column = blockIdx.x, plus `block_skip`
/// from blockIdx.x = `block_split` on; y strides over strips of `strip_rows` output rows.
/// `Interior`: the launcher guarantees that every lane of these block columns reads only
/// whole vectors inside the domain and writes V outputs inside the ROI, so the kernel
/// carries no mapping and no partial stores (fewer registers: 66 instead of the general
/// kernel's 80 for float separable 3x3, nvcc -Xptxas -v for sm_90); the block columns at
/// the left and right edges run the general kernel.
template <class In, class Out, int R, bool Separable, bool Interior, class Taps>
__global__ void __launch_bounds__(stream_block, stream_min_blocks)
    streaming_kernel(image_view<const In> src, image_view<Out> dst, geometry g, Taps taps, int strip_rows,
                     bool tile_class, int block_split, int block_skip) {
  using S = stream_shape<In, Out, R>;
  constexpr int C = S::channels, D = S::taps, V = S::v, W = S::words, HW = S::halo_words, E = S::window;
  constexpr int U = stream_rows_in_flight<C>;
  using A = accum<float, C>;
  using slot = stream_slot<W, HW>;

  if constexpr (!Interior) gpu::allow_dependents();  // the interior grid may start beside this one
  const geometry gr = read_geometry(g);
  const bool skip = g.border.rule == border::kind::skip;
  const bool padded = g.border.rule == border::kind::padded;
  const int lane = warp::lane(), lanes = warp::size();
  const int bx = int(blockIdx.x) + (int(blockIdx.x) >= block_split ? block_skip : 0);
  const int x0 = (bx * stream_block + int(threadIdx.x)) * V;  // first output column (ROI)
  const int cx = g.src_x0 + R + x0;  // parent column of the first pixel of the own vector
  const column_range cols = stream_load_columns(g, R);
  const int lo = cols.lo, hi = cols.hi;
  auto vector_ok = [&](int k) {  // the vector k places to the right of the own one is loaded
    const int c = cx + k * V;
    return Interior || (tile_class && c >= lo && c + V <= hi);
  };
  // Window pixels whose vector is not loaded take a mapped load (bit m: window pixel m).
  unsigned need_map = 0;
  // Outputs this lane writes (bit v: column x0 + v): inside the ROI, and under skip with
  // the window inside the domain in x.
  unsigned write_mask = S::all_columns;
  if constexpr (!Interior) {
    HIPSTENCIL_UNROLL
    for (int m = 0; m < E; ++m) {
      const int b = (m - R) * int(sizeof(In));
      const int k = b >= 0 ? b / S::load_bytes : -((S::load_bytes - 1 - b) / S::load_bytes);
      if (!vector_ok(k)) need_map |= 1u << m;
    }
    write_mask = 0;
    HIPSTENCIL_UNROLL
    for (int v = 0; v < V; ++v) {
      const int px = g.src_x0 + x0 + v;
      if (x0 + v < g.width && (!skip || (px >= g.domain.x && px + D <= g.domain.x + g.domain.width)))
        write_mask |= 1u << v;
    }
  }
  const bool own_ok = vector_ok(0);
  const bool write_all = Interior || write_mask == S::all_columns;
  const A cval = constant_accum<C>(g);

  const int strips = (g.height + strip_rows - 1) / strip_rows;
  for (int strip = int(blockIdx.y); strip < strips; strip += int(gridDim.y)) {
    const int y0 = strip * strip_rows;
    const int ny = min(strip_rows, g.height - y0);  // output rows of this strip
    const int rows_in = ny + 2 * R;                 // input rows it reads
    const int row0 = g.src_y0 + y0;                 // parent row of input row 0
    const bool rows_free =
        tile_class && (padded || (row0 >= g.domain.y && row0 + rows_in <= g.domain.y + g.domain.height));

    // Input row t of the strip, mapped; null for a row outside the domain (constant rule).
    auto source_row = [&](int t) -> const In* {
      const int py = row0 + t;
      const int sy = rows_free ? py : gr.map_y(py);
      return sy == outside ? nullptr : src.row(sy);
    };

    auto fetch = [&](slot& s, int t) {
      const int py = row0 + t;
      s.row = source_row(t);
      HIPSTENCIL_UNROLL
      for (int i = 0; i < W; ++i) s.own[i] = 0u;
      HIPSTENCIL_UNROLL
      for (int q = 0; q < HW; ++q) s.left[q] = s.right[q] = 0u;
      if (s.row) {
        const unsigned* p = reinterpret_cast<const unsigned*>(static_cast<const In*>(s.row) + cx);
        if (own_ok) {
          load_words<W>(p, s.own);
          if (stream_prefetch_rows > 0 && rows_free && t + stream_prefetch_rows < rows_in)
            prefetch_l2(src.row(py + stream_prefetch_rows) + cx);
        }
        HIPSTENCIL_UNROLL
        for (int q = 1; q <= HW; ++q) {
          const int k = (q - 1) / W + 1;  // the halo word q places out comes from the vector k lanes away
          if (lane < k && vector_ok(-k)) s.left[q - 1] = p[-q];
          if (lane >= lanes - k && vector_ok(k)) s.right[q - 1] = p[W + q - 1];
        }
      }
    };

    // The window of E pixels of one row, as float channels.
    auto window = [&](const slot& s, A (&win)[E]) {
      if (!s.row) {  // a row outside the domain under the constant rule (uniform)
        HIPSTENCIL_UNROLL
        for (int m = 0; m < E; ++m) win[m] = cval;
        return;
      }
      unsigned w[W + 2 * HW];
      HIPSTENCIL_UNROLL
      for (int i = 0; i < W; ++i) w[HW + i] = s.own[i];
      HIPSTENCIL_UNROLL
      for (int q = 1; q <= HW; ++q) {
        const int k = (q - 1) / W + 1;
        const unsigned up = warp::shfl_up(s.own[W - 1 - (q - 1) % W], k);
        const unsigned down = warp::shfl_down(s.own[(q - 1) % W], k);
        w[HW - q] = lane >= k ? up : s.left[q - 1];
        w[HW + W - 1 + q] = lane + k < lanes ? down : s.right[q - 1];
      }
      HIPSTENCIL_UNROLL
      for (int m = 0; m < E; ++m) win[m] = unpack_pixel<In>(w, HW * 4 + (m - R) * int(sizeof(In)));
      if (need_map) {  // lanes near the left or right edge of the domain, or per_access
        const In* row = static_cast<const In*>(s.row);
        HIPSTENCIL_UNROLL
        for (int m = 0; m < E; ++m)
          if ((need_map >> m) & 1u) {
            int c = cx - R + m;
            if (padded) c = min(max(c, lo), hi - 1);  // columns of outputs past the ROI: unused
            const int sx = gr.map_x(c);
            win[m] = sx == outside ? cval : to_accum<float>(row[sx]);
          }
      }
    };

    A acc[D][V];  // acc[k][v]: partial sum of output row (t - 2R + k), column x0 + v
    HIPSTENCIL_UNROLL
    for (int k = 0; k < D; ++k)
      HIPSTENCIL_UNROLL
      for (int v = 0; v < V; ++v) zero(acc[k][v]);

    // Input row t adds into the partial sums of the outputs o = t - 2R + k in [0, ny).
    auto consume = [&](const A (&win)[E], int t) {
      if constexpr (Separable) {
        A h[V];
        HIPSTENCIL_UNROLL
        for (int v = 0; v < V; ++v) {
          zero(h[v]);
          HIPSTENCIL_UNROLL
          for (int i = 0; i < D; ++i) fma_acc(h[v], taps.row[i], win[v + i]);
        }
        HIPSTENCIL_UNROLL
        for (int k = 0; k < D; ++k) {
          const int o = t - 2 * R + k;
          if (o >= 0 && o < ny)
            HIPSTENCIL_UNROLL
            for (int v = 0; v < V; ++v) fma_acc(acc[k][v], taps.col[2 * R - k], h[v]);
        }
      } else {
        HIPSTENCIL_UNROLL
        for (int k = 0; k < D; ++k) {
          const int o = t - 2 * R + k;
          if (o >= 0 && o < ny)
            HIPSTENCIL_UNROLL
            for (int i = 0; i < D; ++i)
              HIPSTENCIL_UNROLL
              for (int v = 0; v < V; ++v) fma_acc(acc[k][v], taps[(2 * R - k) * D + i], win[v + i]);
        }
      }
    };

    // Output row o of the strip is complete in acc[0].
    auto store = [&](int o) {
      const int y = y0 + o;
      const int py = g.src_y0 + y;
      if (skip && !(py >= g.domain.y && py + D <= g.domain.y + g.domain.height)) return;
      Out* out = dst.row(g.dst_y0 + y) + g.dst_x0 + x0;
      if (write_all) {
        unsigned w[S::store_bytes / 4];
        HIPSTENCIL_UNROLL
        for (int i = 0; i < S::store_bytes / 4; ++i) w[i] = 0u;
        HIPSTENCIL_UNROLL
        for (int v = 0; v < V; ++v) pack_pixel<Out>(w, v * int(sizeof(Out)), from_accum<Out>(acc[0][v]));
        store_words<S::store_bytes / 4>(out, w);
      } else {
        HIPSTENCIL_UNROLL
        for (int v = 0; v < V; ++v)
          if ((write_mask >> v) & 1u) out[v] = from_accum<Out>(acc[0][v]);
      }
    };

    // Row t done: its output row (if any) is complete, the partial sums move up one row.
    auto advance = [&](int t) {
      if (t >= 2 * R) store(t - 2 * R);
      HIPSTENCIL_UNROLL
      for (int k = 0; k + 1 < D; ++k)
        HIPSTENCIL_UNROLL
        for (int v = 0; v < V; ++v) acc[k][v] = acc[k + 1][v];
      HIPSTENCIL_UNROLL
      for (int v = 0; v < V; ++v) zero(acc[D - 1][v]);
    };

    if constexpr (Interior && S::async_rows > 0) {
      // Interior block columns: a ring of Q rows in shared memory, each thread's own slots
      // (and the halo words of the lanes at warp edges) filled by its own asynchronous
      // copies, so a thread reads only what it copied and needs no barrier.
      constexpr int Q = S::async_rows, K = S::halo_lanes;
      __shared__ __align__(16) unsigned own_ring[Q][stream_block * W];
      __shared__ unsigned halo_ring[Q][stream_block / 32][2 * K][HW];
      const int wid = int(threadIdx.x) / lanes;
      auto issue = [&](int t) {  // copies of input row t into slot t % Q, one group per row
        const In* r = t < rows_in ? source_row(t) : nullptr;
        if (r) {
          const unsigned* p = reinterpret_cast<const unsigned*>(r + cx);
          const int q0 = t % Q;
          async_copy::copy<S::load_bytes>(&own_ring[q0][threadIdx.x * W], p);
          HIPSTENCIL_UNROLL
          for (int q = 1; q <= HW; ++q) {
            const int k = (q - 1) / W + 1;
            if (lane < k) async_copy::copy<4>(&halo_ring[q0][wid][lane][q - 1], p - q);
            if (lane >= lanes - k) async_copy::copy<4>(&halo_ring[q0][wid][K + lane - (lanes - K)][q - 1], p + W + q - 1);
          }
          if (stream_prefetch_rows > 0 && rows_free && t + stream_prefetch_rows < rows_in)
            prefetch_l2(src.row(row0 + t + stream_prefetch_rows) + cx);
        }
        async_copy::commit();
      };
      for (int u = 0; u + 1 < Q; ++u) issue(u);
      for (int t = 0; t < rows_in; ++t) {
        issue(t + Q - 1);  // into the slot row t - 1 was read from
        async_copy::wait<Q - 1>();  // row t has landed
        slot s;
        s.row = source_row(t);
        const int q0 = t % Q;
        HIPSTENCIL_UNROLL
        for (int q = 1; q <= HW; ++q) {
          const int k = (q - 1) / W + 1;
          s.left[q - 1] = lane < k ? halo_ring[q0][wid][lane][q - 1] : 0u;
          s.right[q - 1] = lane >= lanes - k ? halo_ring[q0][wid][K + lane - (lanes - K)][q - 1] : 0u;
        }
        load_words<W>(&own_ring[q0][threadIdx.x * W], s.own);
        A win[E];
        window(s, win);
        consume(win, t);
        advance(t);
      }
    } else {
      slot ring[U];
      HIPSTENCIL_UNROLL
      for (int u = 0; u < U; ++u)
        if (u < rows_in) fetch(ring[u], u);
      for (int t = 0; t < rows_in; t += U) {
        HIPSTENCIL_UNROLL
        for (int u = 0; u < U; ++u) {
          const int tt = t + u;
          if (tt < rows_in) {
            A win[E];
            window(ring[u], win);
            if (tt + U < rows_in) fetch(ring[u], tt + U);  // the slot is free again: refill it
            consume(win, tt);
            advance(tt);
          }
        }
      }
    }
  }
  if constexpr (Interior) gpu::wait_for_primary();  // end after the edge grid (overlap.hpp)
}

}  // namespace detail
}  // namespace hipstencil
#endif
