// hipstencil/detail/kernels/packed_rows.hpp
// The packed family's per-row arithmetic (kernels/packed.hpp): one input row's words added
// into the partial sums of the output rows it touches, an output row's sums turned into
// bytes, and the strip walk of a thread whose reads and writes need no checks at all.
#pragma once

#include "../../platform/config.hpp"
#if HIPSTENCIL_HAS_GPU
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "../../platform/prefetch.hpp"
#include "../geometry.hpp"
#include "packed_lanes.hpp"

namespace hipstencil {
namespace detail {

/// Calls f(std::integral_constant<int, i>{}) for i = First, ..., Last - 1 in order: a loop
/// whose index the body needs at compile time (a register array's index).
template <int First, int Last, class F, int... I>
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE void unroll_phases(F&& f, std::integer_sequence<int, I...>) {
  (f(std::integral_constant<int, First + I>{}), ...);
}
template <int First, int Last, class F>
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE void unroll_phases(F&& f) {
  unroll_phases<First, Last>(f, std::make_integer_sequence<int, (Last > First ? Last - First : 0)>{});
}

/// Adds input row t (its words `w`, loaded from `halo` pixels before the thread's first
/// centre) into the partial sums of the 2R + 1 output rows it touches. The sums form a ring:
/// output row t - 2R + s is in acc[(Phase + s) % K]; slots below FirstSlot (output rows
/// above the strip, at its first 2R rows) are left alone. Dense: K x K taps, row-major;
/// separable: K row taps, then K column taps (a row pass into half2 row sums, then the
/// column pass).
template <class In, int R, bool Sep, int Phase, int NT, int FirstSlot = 0>
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE void packed_add_row(
    const unsigned (&w)[packed_layout<In>::words], __half2 (&acc)[2 * R + 1][packed_layout<In>::pairs],
    const packed_taps<NT>& taps) {
  using L = packed_layout<In>;
  constexpr int K = 2 * R + 1, PAIRS = L::pairs;
  // The lanes of the loaded pixels, centred; lane(q, i): lane q of the outputs, tap column
  // i (offset d = i - R).
  using lanes_t = std::conditional_t<sizeof(In) == 1, packed_byte_lanes<L::words>,
                                     packed_quad_lanes<L::words, L::halo>>;
  const lanes_t lanes(w);
  auto lane = [&](int q, int i) { return lanes.lane(q, i, R); };
  if constexpr (Sep) {
    __half2 h[PAIRS];
    packed_row_pass<K>(taps, lane, h);
    HIPSTENCIL_UNROLL
    for (int s = FirstSlot; s < K; ++s)  // slot s: output row t - 2R + s, column tap 2R - s
      HIPSTENCIL_UNROLL
      for (int q = 0; q < PAIRS; ++q)
        acc[(Phase + s) % K][q] = __hfma2(word_as_half2(taps.k[K + 2 * R - s]), h[q], acc[(Phase + s) % K][q]);
  } else {
    HIPSTENCIL_UNROLL
    for (int s = FirstSlot; s < K; ++s)
      HIPSTENCIL_UNROLL
      for (int i = 0; i < K; ++i)
        HIPSTENCIL_UNROLL
        for (int q = 0; q < PAIRS; ++q)
          acc[(Phase + s) % K][q] =
              __hfma2(word_as_half2(taps.k[(2 * R - s) * K + i]), lane(q, i), acc[(Phase + s) % K][q]);
  }
}

/// A finished output row's sums as bytes: each lane plus `add` (1024 + the plan's offset),
/// clamped, and the low bytes of the lanes in order, one word per 4 outputs (one channel)
/// or per pixel (four).
template <class In>
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE void packed_output_words(const __half2 (&a)[packed_layout<In>::pairs],
                                                                  __half2 add,
                                                                  unsigned (&o)[packed_layout<In>::pairs / 2]) {
  constexpr int PAIRS = packed_layout<In>::pairs;
  unsigned b[PAIRS];
  HIPSTENCIL_UNROLL
  for (int q = 0; q < PAIRS; ++q) b[q] = clamp_pair(__hadd2(a[q], add));
  HIPSTENCIL_UNROLL
  for (int u = 0; u < PAIRS / 2; ++u) o[u] = __byte_perm(b[2 * u], b[2 * u + 1], 0x6420u);
}

/// A thread's strip walk: `rows` input rows from `src` (a row source, below), each added
/// into the sums of the 2R + 1 output rows it touches, and `rows` - 2R output rows written
/// as whole words from `out` down (pitch in bytes).
///
/// Why a walk of its own: in the general one (packed_kernel) each row recomputes its row
/// and output addresses, tests the tile class, the border row and the output slot, and
/// moves the ring of sums down a slot. Nsight Compute's source counters (8192x8192 u8
/// separable 3x3, on an H100) counted 104 instructions a row in that loop for 8 outputs, 26
/// of them the products. Here the pointers step by a pitch, the first 2R rows (no output
/// yet) are steps of their own that skip the slots above the strip, and the ring is
/// unrolled by K rows so that no sum is moved: about 65 instructions a row in the PTX. The
/// sums are added in the general walk's order, so the output bytes are the same.
///
/// The row source: `src.load(w)` loads the next row's words with no check, `src.load_at(w,
/// t)` row t's where it may lie outside the read rectangle (both step to the row after).
/// The first 2R rows (the top border's) and the rows of the end, where `tail` (at most
/// TailMax) rows lie past the bottom, go through load_at; the rest through load.
/// Prefetch: row t + 1's loads go out before row t's arithmetic, as packed_kernel's
/// general walk does (tuning::packed_policy::interior_prefetch, strip_prefetch); a row
/// that may be checked is then fetched through load_at too.
template <class In, int R, bool Sep, bool Prefetch, int TailMax, int NT, class Rows>
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE void packed_strip_walk(Rows& src, unsigned char* out, std::size_t out_pitch,
                                                                int rows, int tail, const packed_taps<NT>& taps) {
  using L = packed_layout<In>;
  constexpr int K = 2 * R + 1, PAIRS = L::pairs;
  const __half2 init = word_as_half2(taps.init), add = word_as_half2(taps.add);
  __half2 acc[K][PAIRS];
  HIPSTENCIL_UNROLL
  for (int s = 0; s < K; ++s)
    HIPSTENCIL_UNROLL
    for (int q = 0; q < PAIRS; ++q) acc[s][q] = init;
  // Input row t feeds output rows t - 2R to t; output row o lives in acc[o % K], so input
  // row t's slot s is acc[(t + s + K - 2R) % K] = acc[(t + s + 1) % K] (K = 2R + 1).
  // `t`: the row; `checked`, `next_checked`: whether row t and row t + 1 may need
  // load_at; `more`: there is a row t + 1 (for the prefetch).
  auto fetch = [&](unsigned(&v)[L::words], auto checked, int t) {
    if constexpr (decltype(checked)::value) src.load_at(v, t);
    else src.load(v), (void)t;
  };
  using yes = std::true_type;
  using no = std::false_type;
  unsigned next[L::words];
  if constexpr (Prefetch) fetch(next, yes{}, 0);
  auto step = [&](auto phase, auto emitting, auto checked, auto next_checked, int t, bool more) {
    constexpr int p = decltype(phase)::value;  // (t + 1) % K
    constexpr bool emit = decltype(emitting)::value;
    unsigned w[L::words];
    if constexpr (Prefetch) {
      HIPSTENCIL_UNROLL
      for (int u = 0; u < L::words; ++u) w[u] = next[u];
      if (more) fetch(next, next_checked, t + 1);
    } else {
      fetch(w, checked, t);
    }
    (void)more;
    // Rows 0 to 2R - 1 (p = t + 1 = 1 .. 2R) start the sums of output rows 0 to t only:
    // slots from 2R - t = K - p; their other slots would be rows above the strip.
    packed_add_row<In, R, Sep, p, NT, (emit ? 0 : K - p)>(w, acc, taps);
    if constexpr (emit) {  // output row t - 2R, in acc[(t + 1) % K]
      unsigned o[PAIRS / 2];
      packed_output_words<In>(acc[p], add, o);
      if constexpr (sizeof(In) == 1) *reinterpret_cast<uint2*>(out) = make_uint2(o[0], o[1]);
      else *reinterpret_cast<uint4*>(out) = make_uint4(o[0], o[1], o[2], o[3]);
      out += out_pitch;
      HIPSTENCIL_UNROLL
      for (int q = 0; q < PAIRS; ++q) acc[p][q] = init;  // now output row t + 1's
    }
  };
  // Rows 0 to 2R - 1 only start sums: t + 1 = 1 .. 2R.
  // (rows >= 2R + 1: a strip has at least one output row.)
  unroll_phases<1, K>([&](auto phase) { step(phase, no{}, yes{}, yes{}, decltype(phase)::value - 1, true); });
  // Rows 2R on, K at a time from phase (2R + 1) % K = 0, then the rest through load_at;
  // n: rows left. Where `tail` rows lie past the bottom (TailMax > 0), the K-row steps
  // run while more than K + tail rows are left, so that no row they load, the one ahead
  // included, needs load_at, and the rest (at most K + TailMax rows) are unrolled: with
  // the row ahead through load_at, the rule's row map sat in the loop and nvcc 13 rebuilt
  // the taps from the constant bank at every row (ULDC, ULDC, UPRMT and a move a tap);
  // without it, and with packed_edge_words' loads, the strip kernel's batch instance at
  // separable 3x3 went from 111 to 80 SASS instructions a row in that loop (dense 3x3 93).
  // Where TailMax is 0 (the interior strips) the bound is K and the row ahead of each K
  // goes through load_at, as before that change: with `tail` in the bound, though the
  // caller passes 0, nvcc 13 gave uchar4's interior instance at radius 2 122 and 154
  // registers instead of 96 and 128 (separable, dense), and that call 1.05x the time at
  // 8192x8192 (dense 5x5); the tails' form instead gave it 80, 80, 122 and 154 instead of
  // 75, 72, 96 and 128 (radius 1 and 2).
  constexpr bool Tails = TailMax > 0;
  int n = rows - 2 * R;
  HIPSTENCIL_NO_UNROLL
  for (; n >= K + (Tails ? tail + 1 : 0); n -= K)
    unroll_phases<0, K>([&](auto phase) {
      constexpr int p = decltype(phase)::value;
      step(phase, yes{}, no{}, std::integral_constant<bool, !Tails && p == K - 1>{}, rows - n + p, Tails || p + 1 < n);
    });
  unroll_phases<0, K - 1 + TailMax + (Tails ? 1 : 0)>([&](auto phase) {
    constexpr int p = decltype(phase)::value;
    if (p < n) step(std::integral_constant<int, p % K>{}, yes{}, yes{}, yes{}, rows - n + p, p + 1 < n);
  });
}

/// The rows of a strip where nothing needs a check: every row lies inside the read
/// rectangle at a layout-aligned address, `in` at the first row's first loaded pixel
/// (`halo` before the first centre), `pitch` bytes apart.
template <class In>
struct packed_aligned_rows {
  const unsigned char* in;
  std::size_t pitch;
  HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE void load(unsigned (&w)[packed_layout<In>::words]) {
    load_words_aligned(reinterpret_cast<const In*>(in), w);
    in += pitch;
  }
  HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE void load_at(unsigned (&w)[packed_layout<In>::words], int) { load(w); }
};

/// The rows of a one-channel strip of the strip kernel (packed_strips.hpp), where the read
/// rectangle's left and right edges fall on the threads' words (packed_edge_words: each
/// word loaded, or built by one byte permute, with no branch). `c` at input row 0's byte
/// at the first centre, `pitch` bytes apart; row 0 is parent row `py0`, rows [top,
/// bottom) of the strip lie inside the read rectangle.
/// Rows outside it (the strip's first R at the top, last R at the bottom) go through the
/// border rule's map, which the walk asks for there only.
struct packed_edge_rows {
  const unsigned char* c;
  std::size_t pitch;
  packed_edge_words edge;
  unsigned constant_word;
  const geometry& gr;  ///< the reads' geometry (geometry::for_reads)
  image_view<const std::uint8_t> src;
  int py0, cx, top, bottom;

  HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE void load(unsigned (&w)[4]) {
    edge.load<true>(c, constant_word, w);
    c += pitch;
  }
  HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE void load_at(unsigned (&w)[4], int t) {
    if (t >= top && t < bottom) {
      edge.load<true>(c, constant_word, w);
    } else {
      // The window's last row bounds the map, as the general walk's (rows past it are read
      // by no written output).
      const int py = py0 + t;
      const int y_end = gr.src_y0 + gr.height + gr.kh - 1;
      const int sy = gr.map_y(py < y_end - 1 ? py : y_end - 1);
      if (sy == outside) {
        HIPSTENCIL_UNROLL
        for (int u = 0; u < 4; ++u) w[u] = constant_word;
      } else {
        edge.load<true>(reinterpret_cast<const unsigned char*>(src.row(sy) + cx), constant_word, w);
      }
    }
    c += pitch;
  }
};

/// Asks L2 for `n` rows from `q`, `pitch` bytes apart, before a strip walks them
/// (tuning::packed_policy::l2_prefetch), where `q` is the first of the thread's own `Bytes`
/// centre bytes in its first row. The threads whose centres share a 32-byte sector share
/// its rows: the one at slot k of the sector asks for rows k, k + 32 / Bytes, ..., so each
/// sector of each row is asked for once where its neighbours walk the same rows (a block
/// row's threads; a sector at a row's end with fewer threads has some rows left to the
/// loads). Every thread asking for every row took 7 instructions a row, about 70 of the
/// 1300 of a thread of 4096 128x128 u8 images (separable 3x3). The first and last thread
/// of each row asking for every row (so that no row of an end sector is left) makes every
/// warp run the loop for every row: against main, those images then took 0.93x and 1.04x
/// the time (separable, dense 3x3) where the split alone took 0.85x and 0.97x (two runs on
/// the H200).
template <int Bytes>
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE void packed_prefetch_rows(const unsigned char* q, std::size_t pitch, int n) {
  constexpr int Slots = 32 / Bytes;
  static_assert(Slots >= 1 && 32 % Bytes == 0, "a thread's centres within one sector");
  // Each row's address from q (not a pointer stepped by Slots rows: with that, nvcc 13 gave
  // the u8 dense 3x3 interior instance with the edge paths 111 registers instead of 56).
  const int k = int((reinterpret_cast<std::uintptr_t>(q) / Bytes) % Slots);
  HIPSTENCIL_NO_UNROLL
  for (int t = k; t < n; t += Slots) gpu::prefetch_l2(q + std::size_t(t) * pitch);
}

/// A thread's strip where nothing needs a check: packed_aligned_rows, and all its outputs
/// written as whole words.
template <class In, int R, bool Sep, bool Prefetch, int NT>
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE void packed_interior_strip(const unsigned char* in, std::size_t in_pitch,
                                                                    unsigned char* out, std::size_t out_pitch,
                                                                    int rows, const packed_taps<NT>& taps) {
  packed_aligned_rows<In> src{in, in_pitch};
  packed_strip_walk<In, R, Sep, Prefetch, 0>(src, out, out_pitch, rows, 0, taps);
}

}  // namespace detail
}  // namespace hipstencil
#endif
