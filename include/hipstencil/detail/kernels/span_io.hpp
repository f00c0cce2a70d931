// hipstencil/detail/kernels/span_io.hpp
// A thread's span of consecutive pixels of one row, loaded and stored in the widest
// aligned pieces (4, 8 or 16 bytes) instead of pixel by pixel. A thread of tiled's
// interior instance (tiled_interior.hpp) reads OX + 2R pixels of a row and writes OX:
// pixel by pixel, a float 9x9 thread issued 12 loads a row where three 16-byte loads do.
// Where whole 16-byte pieces from the aligned point before the span take fewer loads
// (span_reads), they are read and the pixels beyond the span dropped.
// One-channel float pixels take that instance, and 2-byte ones (u16, s16, half, bfloat16)
// at radius 1 and 2: the integer and sub-word branches below serve those and the other
// pixel types the helpers accept.
// Which piece goes where is decided at compile time from the span's alignment, which the
// launcher checks (span_aligned).
#pragma once

#include "../../platform/config.hpp"
#if HIPSTENCIL_HAS_GPU
#include <cstdint>
#include <type_traits>

#include "../../image.hpp"
#include "../../pixel.hpp"
#include "../geometry.hpp"
#include "streaming_io.hpp"

namespace hipstencil {
namespace detail {

/// The alignment in bytes that every thread's span start has when the first thread's
/// has it, for threads OX pixels of T apart: the largest power of two dividing
/// OX * sizeof(T), at most 16. 0 where sizeof(T) is not a power of two (three-channel
/// pixels straddle pieces) or the alignment is below 4 bytes: those move pixel by pixel.
template <class T, int OX>
HIPSTENCIL_HOST_DEVICE constexpr int span_alignment() {
  constexpr int size = int(sizeof(T)), bytes = OX * size;
  if ((size & (size - 1)) != 0) return 0;
  int a = 16;
  while (a > 1 && bytes % a != 0) a /= 2;
  return a >= 4 ? a : 0;
}

/// Bytes of the piece that starts `offset` bytes from an Align-aligned point with `left`
/// bytes of the span still to load: the widest power of two, at most `align`, that the
/// offset is a multiple of and the span holds; at least one pixel.
HIPSTENCIL_HOST_DEVICE constexpr int span_piece(int offset, int left, int align, int pixel) {
  int c = align;
  while (c > pixel && (offset % c != 0 || c > left)) c /= 2;
  return c;
}

/// The pixel of type In `b` bytes into the words `w`, as float channels: integer channels
/// through the conversion instructions (as to_accum_cvt: one instruction a channel),
/// floating-point ones as unpack_pixel moves their bits. Values equal to_accum's.
template <class In>
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE accum<float, pixel_traits<In>::channels> span_pixel(const unsigned* w,
                                                                                           int b) {
  using T = typename pixel_traits<In>::channel_type;
  if constexpr (std::is_integral<T>::value) {
    constexpr int C = pixel_traits<In>::channels, CB = int(sizeof(T));
    static_assert(CB == 1 || CB == 2, "8- and 16-bit integer channels");
    accum<float, C> a;
    HIPSTENCIL_UNROLL
    for (int c = 0; c < C; ++c) {
      const int at = b + c * CB;
      const unsigned bits = (w[at / 4] >> (8 * (at % 4))) & (CB == 1 ? 0xffu : 0xffffu);
      a.v[c] = static_cast<float>(static_cast<T>(bits));
    }
    return a;
  } else {
    return unpack_pixel<In>(w, b);
  }
}

/// Loads the N pixels s[0, N) of one row as float channels, where s + Lead is aligned to
/// Align bytes (span_alignment): each piece the widest span_piece allows. J: the first
/// pixel not yet loaded (recursion).
template <int Align, int Lead, int J = 0, int N, class In, int C>
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE void load_span_exact(accum<float, C> (&v)[N], const In* s) {
  if constexpr (J < N) {
    constexpr int P = int(sizeof(In));
    constexpr int c = span_piece((J - Lead) * P, (N - J) * P, Align, P);
    if constexpr (c >= 4) {
      unsigned w[c / 4];
      load_words<c / 4>(s + J, w);
      HIPSTENCIL_UNROLL
      for (int k = 0; k < c / P; ++k) v[J + k] = span_pixel<In>(w, k * P);
    } else {
      HIPSTENCIL_UNROLL
      for (int k = 0; k < c / P; ++k) v[J + k] = to_accum_cvt<float>(s[J + k]);
    }
    load_span_exact<Align, Lead, J + c / P>(v, s);
  }
}

/// How load_span reads a span of N pixels of P bytes whose pixel Lead is Align-aligned:
/// in whole Align-byte pieces from the aligned point at or before its first pixel, where
/// that takes fewer load instructions than load_span_exact's pieces (a 15x15 float span,
/// N = 18 and Lead = 7, takes five 16-byte loads instead of seven of 4, 8 and 16 bytes;
/// on the H200 the interior instance ran 8192x8192 15x15 in 585 us instead of 598); then
/// `left` pixels before the span and `right` after it are read and dropped.
template <int Align, int Lead, int N, int P>
struct span_reads {
  static constexpr int exact_pieces() {
    int n = 0;
    for (int j = 0; j < N; j += span_piece((j - Lead) * P, (N - j) * P, Align, P) / P) ++n;
    return n;
  }
  static constexpr int Q = Align >= P && Align % P == 0 ? Align / P : 1;  // pixels a piece
  static constexpr int lead = (Q - Lead % Q) % Q;                          // pixels before s
  static constexpr int whole_pieces = (N + lead + Q - 1) / Q;
  static constexpr bool whole = Align >= 4 && Q > 1 && whole_pieces < exact_pieces();
  static constexpr int left = whole ? lead : 0;
  static constexpr int right = whole ? whole_pieces * Q - lead - N : 0;
};

/// Loads the N pixels s[0, N) of one row as float channels, where s + Lead is aligned to
/// Align bytes, in the fewest load instructions (span_reads). Reads span_reads' `left`
/// pixels before s and `right` after s[N - 1]: the caller makes them readable (they lie
/// in the source view: tiled_interior keeps them there).
template <int Align, int Lead, int N, class In, int C>
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE void load_span(accum<float, C> (&v)[N], const In* s) {
  constexpr int P = int(sizeof(In));
  using S = span_reads<Align, Lead, N, P>;
  if constexpr (!S::whole) {
    load_span_exact<Align, Lead>(v, s);
  } else {
    constexpr int Q = S::Q;
    HIPSTENCIL_UNROLL
    for (int q = 0; q < S::whole_pieces; ++q) {
      unsigned w[Align / 4];
      load_words<Align / 4>(s - S::left + q * Q, w);
      HIPSTENCIL_UNROLL
      for (int k = 0; k < Q; ++k) {
        const int j = q * Q + k - S::left;
        if (j >= 0 && j < N) v[j] = span_pixel<In>(w, k * P);
      }
    }
  }
}

/// Stores N outputs at d, which is aligned to Align bytes (span_alignment<Out, N>, at
/// least 4), as whole words: N * sizeof(Out) is a multiple of Align.
template <int Align, class Out, int N, int C>
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE void store_span(Out* d, const accum<float, C> (&a)[N]) {
  constexpr int bytes = N * int(sizeof(Out));
  static_assert(Align >= 4 && bytes % Align == 0, "whole aligned words");
  unsigned w[bytes / 4];
  HIPSTENCIL_UNROLL
  for (int i = 0; i < bytes / 4; ++i) w[i] = 0u;
  HIPSTENCIL_UNROLL
  for (int n = 0; n < N; ++n) pack_pixel<Out>(w, n * int(sizeof(Out)), from_accum<Out>(a[n]));
  if constexpr (Align >= 16) {
    store_words<bytes / 4>(d, w);
  } else {
    HIPSTENCIL_UNROLL
    for (int i = 0; i < bytes / 4; i += Align / 4) {
      unsigned piece[Align / 4];
      HIPSTENCIL_UNROLL
      for (int k = 0; k < Align / 4; ++k) piece[k] = w[i + k];
      store_words<Align / 4>(reinterpret_cast<unsigned char*>(d) + 4 * i, piece);
    }
  }
}

/// True when the spans of a problem's threads, OX pixels apart, start as aligned as
/// span_alignment says for both images of one call: the source at the first window centre
/// (the parent column src_x0 + R), the target at its ROI's first column, with pitches
/// multiples of that alignment. False where either type moves pixel by pixel.
template <int OX, class In, class Out>
bool span_aligned(const image_view<const In>& src, const image_view<Out>& dst, const geometry& g, int radius) {
  constexpr int ai = span_alignment<In, OX>(), ao = span_alignment<Out, OX>();
  if constexpr (ai == 0 || ao == 0) {
    (void)src, (void)dst, (void)g, (void)radius;
    return false;
  } else {
    const auto s = reinterpret_cast<std::uintptr_t>(src.data + (g.src_x0 + radius));
    const auto d = reinterpret_cast<std::uintptr_t>(dst.data + g.dst_x0);
    return s % ai == 0 && src.pitch_bytes % ai == 0 && d % ao == 0 && dst.pitch_bytes % ao == 0;
  }
}

}  // namespace detail
}  // namespace hipstencil
#endif
