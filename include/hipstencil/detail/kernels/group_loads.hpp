// hipstencil/detail/kernels/group_loads.hpp
// A tile's window staged in shared memory by whole aligned loads of 4, 8 or 16 bytes, in
// groups of pixels that fill them (16 bytes: four floats, sixteen u8, and for
// three-channel pixels three loads of 48 bytes, sixteen uchar3, eight ushort3 or four
// float3), instead of one pixel a thread a load. nvcc 13 reads a uchar3 as three byte loads
// and a ushort3 as three 2-byte ones (PTX of tiled_dense_clamp_kernel's 3x3 instances: 27
// and 30 loads a thread), so a staged group takes a sixteenth and an eighth of the load
// instructions. Reads are replicate: a group that reaches past the reads' domain is read
// pixel by pixel through the clamp (clamped<In>).
// For tiled_staged.hpp's kernels; the launcher checks the alignment (group_loads_aligned).
#pragma once

#include "../../platform/config.hpp"
#if HIPSTENCIL_HAS_GPU
#include <cstdint>
#include <type_traits>

#include "../bordered.hpp"
#include "accumulate.hpp"
#include "span_io.hpp"

namespace hipstencil {
namespace detail {

/// Bytes of a group of pixels of P bytes read in loads of VB bytes: the fewest whole
/// pixels that fill whole loads (VB itself where P divides it; 48 for three-channel
/// pixels and 16-byte loads).
HIPSTENCIL_HOST_DEVICE constexpr int group_bytes(int P, int VB) {
  int g = VB;
  while (g % P != 0) g += VB;
  return g;
}

/// Pixel b bytes into the words w as float channels: span_pixel's (integer channels and
/// one- and four-channel floating-point pixels), and float3's three words.
template <class In>
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE accum<float, pixel_traits<In>::channels> group_pixel(const unsigned* w,
                                                                                            int b) {
  if constexpr (std::is_same<In, float3>::value) {
    accum<float, 3> a;
    HIPSTENCIL_UNROLL
    for (int c = 0; c < 3; ++c) a.v[c] = __uint_as_float(w[b / 4 + c]);
    return a;
  } else {
    return span_pixel<In>(w, b);
  }
}

/// A tile's window in groups: TW x TH outputs, HW x HR window pixels, NW groups of Q
/// pixels a row (at most: from the group-aligned parent column at or before the window's
/// first), SW pixels a staged row.
template <class In, int R, int BX, int BY, int OX, int OY, int VB>
struct group_tile {
  static constexpr int TW = BX * OX, TH = BY * OY, P = int(sizeof(In)), Q = group_bytes(P, VB) / P;
  static_assert(VB == 4 || VB == 8 || VB == 16, "loads of 4, 8 or 16 bytes");
  static_assert(TW % Q == 0, "tiles of whole groups, so that every block's groups start aligned");
  static constexpr int HW = TW + 2 * R, HR = TH + 2 * R;
  static constexpr int NW = (Q - 1 + HW + Q - 1) / Q, SW = NW * Q;
  /// Window pixels before the first staged one, for window column 0 at parent column a0.
  HIPSTENCIL_DEVICE static int lead(int a0) { return ((a0 % Q) + Q) % Q; }
};

/// Stages HR rows of NW groups of Q pixels (group_tile) into s: parent rows row0 .. and
/// columns w0 .., staged column k being parent column w0 + k. The block's T threads take
/// the groups in turn (L of them at most a thread), all loaded before the first is stored,
/// so that a thread's loads are in flight together. A group inside the reads' domain is
/// G / VB loads; one that reaches past it, pixel by pixel through the clamp. Stores are
/// float4s where a group's channels fill them (Q * C a multiple of 4).
/// Preconditions: w0 a multiple of Q; group_loads_aligned on the source.
template <class In, int VB, int HR, int NW, int T, class A, int SW>
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE void stage_groups(A (&s)[HR][SW], const clamped<In>& c, int row0, int w0,
                                                           int tid) {
  constexpr int C = pixel_traits<In>::channels, P = int(sizeof(In)), G = group_bytes(P, VB), Q = G / P;
  constexpr int L = (HR * NW + T - 1) / T;
  static_assert(SW == NW * Q, "the staged width");
  A v[L][Q];
  HIPSTENCIL_UNROLL
  for (int l = 0; l < L; ++l) {
    const int i = tid + l * T;
    if ((l + 1) * T <= HR * NW || i < HR * NW) {
      const int q = i / NW, col = w0 + (i - q * NW) * Q;
      const In* p = c.row(row0 + q);
      if (col >= c.x_lo && col + Q - 1 <= c.x_hi) {
        unsigned w[G / 4];
        HIPSTENCIL_UNROLL
        for (int k = 0; k < G / VB; ++k) {
          unsigned piece[VB / 4];
          load_words<VB / 4>(reinterpret_cast<const unsigned char*>(p + col) + k * VB, piece);
          HIPSTENCIL_UNROLL
          for (int j = 0; j < VB / 4; ++j) w[k * (VB / 4) + j] = piece[j];
        }
        HIPSTENCIL_UNROLL
        for (int k = 0; k < Q; ++k) v[l][k] = group_pixel<In>(w, k * P);
      } else {
        HIPSTENCIL_UNROLL
        for (int k = 0; k < Q; ++k) v[l][k] = to_accum_cvt<float>(p[c.x(col + k)]);
      }
    }
  }
  HIPSTENCIL_UNROLL
  for (int l = 0; l < L; ++l) {
    const int i = tid + l * T;
    if ((l + 1) * T <= HR * NW || i < HR * NW) {
      const int q = i / NW, x = (i - q * NW) * Q;
      if constexpr ((Q * C) % 4 == 0) {  // 16-byte aligned: x * C and SW * C are multiples of 4
        float* d = &s[q][x].v[0];
        HIPSTENCIL_UNROLL
        for (int k = 0; k < Q * C; k += 4)
          *reinterpret_cast<float4*>(d + k) = make_float4(v[l][k / C].v[k % C], v[l][(k + 1) / C].v[(k + 1) % C],
                                                          v[l][(k + 2) / C].v[(k + 2) % C],
                                                          v[l][(k + 3) / C].v[(k + 3) % C]);
      } else {
        HIPSTENCIL_UNROLL
        for (int k = 0; k < Q; ++k) s[q][x + k] = v[l][k];
      }
    }
  }
}

/// Whether stage_groups can read `src` in loads of VB bytes: its data and pitch aligned to
/// VB (device_image's are; a view into another image, or a caller's pitch, may not be).
template <int VB, class In>
bool group_loads_aligned(const image_view<const In>& src) {
  return reinterpret_cast<std::uintptr_t>(src.data) % VB == 0 && src.pitch_bytes % VB == 0;
}

}  // namespace detail
}  // namespace hipstencil
#endif
