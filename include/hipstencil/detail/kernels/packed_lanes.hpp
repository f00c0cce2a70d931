// hipstencil/detail/kernels/packed_lanes.hpp
// The packed family's lanes (kernels/packed.hpp): its constants, the bits of a half2 as a
// word, bytes to half2 lanes centred at 128 and back, what a thread holds for one pixel type
// (packed_layout), and its row loads as 32-bit words.
#pragma once

#include "../../platform/config.hpp"
#if HIPSTENCIL_HAS_GPU
#include <cstdint>
#include <cstring>

#include "../../border.hpp"
#include "../../pixel.hpp"
#include "../packed_plan.hpp"
#include "../../platform/word_loads.hpp"
#include "../../roi.hpp"

namespace hipstencil {
namespace detail {

/// The packed kernel's constants (packed_plan): N taps as half2 words (the tap in both
/// lanes), the starting fraction and the final offset likewise.
template <int N>
struct packed_taps {
  unsigned k[N];
  unsigned init, add;
};

/// The plan pl's first N taps, its starting fraction and its final offset as packed_taps
/// (host code): each half in both lanes of its word.
template <int N>
inline packed_taps<N> packed_taps_of(const packed_plan& pl) {
  packed_taps<N> t{};
  for (int i = 0; i < N; ++i) t.k[i] = pl.k[i] * 0x10001u;
  t.init = pl.init * 0x10001u;
  t.add = pl.add * 0x10001u;
  return t;
}

/// `t` with its taps as values held in registers: each XORed with `zero`, which must be 0
/// at run time but not a constant the compiler sees (a kernel's parameter that is never
/// negative, shifted right by 31). Why: ptxas (CUDA 13, sm_90) keeps no register for a tap
/// it can read again from the kernel's parameters; it reads it where it is used, as its two
/// 16-bit halves and a byte permute (LDC.U16, LDC.U16, PRMT), inside the row loop. In the
/// strip kernel's dense 3x3 batch instance that was about 25 of the loop's 278 instructions
/// (3 rows); with the taps held, and eight blocks a multiprocessor (tuning::packed_policy::
/// strip_min_blocks), 254. On the H200 the strip kernel on 4096 u8 images of 128x128 then
/// took 0.87x the time at dense 3x3, 0.95x at separable and dense 5x5, 0.99x at separable
/// 3x3 (bench/results/2026-11-26-taps/). NVIDIA only, where it was measured; elsewhere the
/// taps pass unchanged.
template <int N>
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE packed_taps<N> taps_in_registers(const packed_taps<N>& t, unsigned zero) {
  packed_taps<N> r = t;
#if defined(__CUDA_ARCH__)
  HIPSTENCIL_UNROLL
  for (int i = 0; i < N; ++i) r.k[i] ^= zero;
#else
  (void)zero;
#endif
  return r;
}

// The bits of a half2 as a word and back (a copy the compilers drop: nvcc takes memcpy in
// device code, hip-clang its builtin).
#if defined(__CUDACC__)
#define HIPSTENCIL_BIT_COPY memcpy
#else
#define HIPSTENCIL_BIT_COPY __builtin_memcpy
#endif
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE __half2 word_as_half2(unsigned w) {
  __half2 h;
  HIPSTENCIL_BIT_COPY(&h, &w, sizeof w);
  return h;
}
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE unsigned half2_as_word(__half2 h) {
  unsigned w;
  HIPSTENCIL_BIT_COPY(&w, &h, sizeof w);
  return w;
}
#undef HIPSTENCIL_BIT_COPY

/// Bytes 0 and 1 (sel 0x4140) or 2 and 3 (sel 0x4342) of w, less 128, as half2: the permute
/// writes 0x64 above each byte (the half 1024 + b), the subtraction takes 1152.
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE __half2 centred_pair(unsigned w, unsigned sel) {
  return __hsub2(word_as_half2(__byte_perm(w, 0x64646464u, sel)), word_as_half2(0x64806480u));
}

/// The pair straddling two adjacent pairs: (a's high lane, b's low lane).
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE __half2 straddle(__half2 a, __half2 b) {
  return word_as_half2(__byte_perm(half2_as_word(a), half2_as_word(b), 0x5432));
}

/// P[2u] and P[2u + 1]: bytes 0-1 and 2-3 of word u of w, centred (centred_pair).
template <int W>
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE void centred_pairs(const unsigned (&w)[W], __half2 (&P)[2 * W]) {
  HIPSTENCIL_UNROLL
  for (int u = 0; u < W; ++u) {
    P[2 * u] = centred_pair(w[u], 0x4140u);
    P[2 * u + 1] = centred_pair(w[u], 0x4342u);
  }
}

/// One channel of 8 bits, a row's W words from 4 bytes before the thread's first centre
/// cx: their lanes P (centred_pairs; P[m] bytes cx - 4 + 2m and the next) and the pairs
/// straddling them (S[m] across P[m] and P[m + 1]), so that every pair of adjacent bytes is
/// a lane without a permute a tap. lane(q, i, R): outputs 2q and 2q + 1 from cx, tap column
/// i of a radius-R filter (bytes cx + 2q + i - R and the next).
template <int W>
struct packed_byte_lanes {
  __half2 P[2 * W], S[2 * W - 1];
  HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE explicit packed_byte_lanes(const unsigned (&w)[W]) {
    centred_pairs(w, P);
    HIPSTENCIL_UNROLL
    for (int m = 0; m < 2 * W - 1; ++m) S[m] = straddle(P[m], P[m + 1]);
  }
  HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE __half2 lane(int q, int i, int R) const {
    const int e = 2 * q + i - R;  // first of the two bytes, from cx
    return (e & 1) == 0 ? P[(e >> 1) + 2] : S[((e - 1) >> 1) + 2];
  }
};

/// Four channels of 8 bits, a row's W pixels (one a word) from Halo before the thread's
/// first centre cx: P[2u] channels 0-1 and P[2u + 1] channels 2-3 of pixel cx - Halo + u.
/// lane(q, i, R): lane q of the outputs (channels 0-1 or 2-3 of output q / 2 from cx), tap
/// column i of a radius-R filter.
template <int W, int Halo>
struct packed_quad_lanes {
  __half2 P[2 * W];
  HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE explicit packed_quad_lanes(const unsigned (&w)[W]) { centred_pairs(w, P); }
  HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE __half2 lane(int q, int i, int R) const {
    return P[2 * ((q >> 1) + i - R + Halo) + (q & 1)];
  }
};

/// A separable filter's row pass over one input row: h[q], for each of PAIRS lanes, the K
/// row taps (taps.k[0] to k[K - 1]) times lane(q, 0) to lane(q, K - 1) (a packed_byte_lanes
/// or packed_quad_lanes lookup), added left to right: the order every packed kernel keeps,
/// so that their outputs are the same bytes.
template <int K, int NT, int PAIRS, class Lane>
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE void packed_row_pass(const packed_taps<NT>& taps, const Lane& lane,
                                                            __half2 (&h)[PAIRS]) {
  HIPSTENCIL_UNROLL
  for (int q = 0; q < PAIRS; ++q) h[q] = __hmul2(word_as_half2(taps.k[0]), lane(q, 0));
  HIPSTENCIL_UNROLL
  for (int i = 1; i < K; ++i)
    HIPSTENCIL_UNROLL
    for (int q = 0; q < PAIRS; ++q) h[q] = __hfma2(word_as_half2(taps.k[i]), lane(q, i), h[q]);
}

/// Two sums plus 1024 + their integer offset, clamped to [1024, 1279] (bytes 0 to 255 in
/// the low bits of each half).
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE unsigned clamp_pair(__half2 v) {
#if defined(__CUDA_ARCH__)
  return half2_as_word(__hmin2(__hmax2(v, word_as_half2(0x64006400u)), word_as_half2(0x64FF64FFu)));
#else
  // On the patterns as signed 16-bit integers: negative halves sort below 0x6400, and
  // positive ones in the order of their values.
  const unsigned w = half2_as_word(v);
  int lo = short(w & 0xFFFFu), hi = short(w >> 16);
  lo = lo < 0x6400 ? 0x6400 : (lo > 0x64FF ? 0x64FF : lo);
  hi = hi < 0x6400 ? 0x6400 : (hi > 0x64FF ? 0x64FF : hi);
  return unsigned(lo) | (unsigned(hi) << 16);
#endif
}

/// What a thread holds for one pixel type: `outputs` adjacent output pixels, `pairs`
/// half2 lanes of them, and per input row `words` 32-bit words starting `halo` pixels
/// before its first output's centre. The block's loads reach `reach_before` pixels before
/// its first thread's centre and `reach_after` past its last thread's last output.
template <class In>
struct packed_layout;
/// One channel of 8 bits: 8 outputs in 4 lanes of two neighbours; bytes cx - 4 to cx + 11
/// (so radius up to 4). The unaligned loads reach up to 3 bytes further either side.
template <>
struct packed_layout<std::uint8_t> {
  static constexpr int outputs = 8, pairs = 4, words = 4, halo = 4, reach_before = 8, reach_after = 8;
  static constexpr int align = 8;  ///< bytes of the whole-word loads and stores
};
/// Four channels of 8 bits (uchar4, RGBA): 4 outputs, each in 2 lanes (channels 0-1 and
/// 2-3); pixels cx - 2 to cx + 5 (radius up to 2), one word each.
template <>
struct packed_layout<uchar4> {
  static constexpr int outputs = 4, pairs = 8, words = 8, halo = 2, reach_before = 2, reach_after = 2;
  static constexpr int align = 16;
};

/// A row's words from its first loaded pixel p, when p is layout-aligned: one-channel
/// bytes cx - 4 to cx + 11 in three loads; four channels, pixels cx - 2 to cx + 5 in three.
template <class In>
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE void load_words_aligned(const In* p, unsigned (&w)[packed_layout<In>::words]) {
  const unsigned char* b = reinterpret_cast<const unsigned char*>(p);
  if constexpr (sizeof(In) == 1) {
    w[0] = *reinterpret_cast<const unsigned*>(b);
    const uint2 c = *reinterpret_cast<const uint2*>(b + 4);
    w[1] = c.x, w[2] = c.y;
    w[3] = *reinterpret_cast<const unsigned*>(b + 12);
  } else {
    const uint2 l = *reinterpret_cast<const uint2*>(b);
    const uint4 c = *reinterpret_cast<const uint4*>(b + 8);
    const uint2 r = *reinterpret_cast<const uint2*>(b + 24);
    w[0] = l.x, w[1] = l.y, w[2] = c.x, w[3] = c.y, w[4] = c.z, w[5] = c.w, w[6] = r.x, w[7] = r.y;
  }
}

/// The same from any address: bytes through five aligned words, funnel-shifted; four
/// channels (always 4-byte aligned) word by word.
template <class In>
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE void load_words_any(const In* p, unsigned (&w)[packed_layout<In>::words]) {
  if constexpr (sizeof(In) == 1) {
    const std::uintptr_t a = reinterpret_cast<std::uintptr_t>(p);
    const unsigned* base = reinterpret_cast<const unsigned*>(a & ~std::uintptr_t(3));
    const unsigned shift = unsigned(a & 3u) * 8u;
    unsigned v[5];
    HIPSTENCIL_UNROLL
    for (int u = 0; u < 5; ++u) v[u] = base[u];
    HIPSTENCIL_UNROLL
    for (int u = 0; u < 4; ++u) w[u] = __funnelshift_r(v[u], v[u + 1], shift);
  } else {
    const unsigned* q = reinterpret_cast<const unsigned*>(p);
    HIPSTENCIL_UNROLL
    for (int u = 0; u < 8; ++u) w[u] = q[u];
  }
}

/// A one-channel row's words at a block that reaches past the read rectangle's left or
/// right edge, where those edges fall on the threads' word boundaries: each word lies
/// wholly inside or wholly outside, and an outside word is built from the inside word next
/// to the edge by one byte permute (the border rule's mirror, or the constant word). This
/// replaces the column map's 16 byte loads a row at such blocks: on the H200 that map was
/// about 130 of the 216 instructions of a row of 4096 128x128 u8 images (separable 3x3),
/// and the call went from 108.6 to 81.4 us with this, with the same output bytes.
/// Holds for radius up to 2: a written output reads at most 2 bytes past an edge, and the
/// rule maps them into the 4 bytes next to it (reflect101 reaches 2 in).
struct packed_edge_words {
  unsigned s0, s2, s3;             ///< w[0], w[2], w[3]'s selectors over (own load, inside word)
  bool left_in, mid_in, right_in;  ///< whether the words at c - 4, c + 4 and c + 8 lie inside

  /// Whether a launch's rows take this form (one-channel pixels at radius <= 2: the
  /// kernel's instance decides that): the rule one of replicate, reflect, reflect101 and
  /// constant (wrap reads the row's other end), the rectangle's edges on word boundaries
  /// (its x and width multiples of 4 from the first centre c0, so every thread's words
  /// start there too) and every output's centre inside it.
  HIPSTENCIL_HOST_DEVICE static bool fit(border::kind rule, const rect& rr, int c0, int width) {
    const bool rule_ok = rule == border::kind::replicate || rule == border::kind::reflect ||
                         rule == border::kind::reflect101 || rule == border::kind::constant;
    return rule_ok && ((c0 - rr.x) & 3) == 0 && (rr.width & 3) == 0 && c0 >= rr.x &&
           c0 + width <= rr.x + rr.width;
  }
  /// The thread whose first centre is parent column cx (its words start at cx - 4).
  HIPSTENCIL_DEVICE packed_edge_words(border::kind rule, const rect& rr, int cx) {
    // __byte_perm(a, b, s): result byte n is byte nibble n of s of (b:a). Each word is a
    // permute of (its own load, the inside word next to it): left of the edge, columns -4
    // to -1 from bytes 4-7, the word right of the edge (columns 0-3); right of it, the
    // outside word from the inside word that ends at the edge E. Under the constant rule
    // the outside word is the constant word itself (left in place of the load), and every
    // selector takes bytes 0-3.
    unsigned left = 0x3210u, right = 0x3210u;
    if (rule == border::kind::replicate) left = 0x4444u, right = 0x7777u;
    if (rule == border::kind::reflect) left = 0x4567u, right = 0x4567u;        // -1 -> 0, E -> E - 1
    if (rule == border::kind::reflect101) left = 0x5677u, right = 0x4456u;     // -1 -> 1, E -> E - 2
    const int to_end = rr.x + rr.width - cx;  // a multiple of 4, at least 4: the word at c is inside
    left_in = cx != rr.x, s0 = left_in ? 0x3210u : left;
    mid_in = to_end > 4, s2 = mid_in ? 0x3210u : right;
    right_in = to_end > 8, s3 = right_in ? 0x3210u : right;
  }
  /// Row words from c, the row's byte at column cx (8-byte aligned where CentresInside).
  /// The inside words are loaded at fixed offsets from c under their predicates
  /// (gpu::load_word_if), so that a row costs no address arithmetic (the offsets as
  /// members took two instructions a word) and no load waits for another; an outside word
  /// is the permute of the inside word next to the edge (for w[2] and w[3] where mid_in is
  /// false, of the word at c; w[3] is then read by no written output).
  /// CentresInside: the caller knows every thread's 8 centres lie inside (mid_in true), and
  /// the two centre words are one 8-byte load.
  template <bool CentresInside = false>
  HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE void load(const unsigned char* c, unsigned constant_word,
                                                     unsigned (&w)[4]) const {
    unsigned mid, next = constant_word, before = constant_word, after = constant_word;
    if constexpr (CentresInside) {
      gpu::load_word_pair<0>(c, mid, next);
    } else {
      mid = gpu::load_word<0>(c);
      gpu::load_word_if<4>(mid_in, c, next);
    }
    gpu::load_word_if<-4>(left_in, c, before);
    gpu::load_word_if<8>(right_in, c, after);
    w[0] = __byte_perm(before, mid, s0);
    w[1] = mid;
    w[2] = CentresInside ? next : __byte_perm(next, mid, s2);
    w[3] = __byte_perm(after, next, s3);
  }
};

}  // namespace detail
}  // namespace hipstencil
#endif
