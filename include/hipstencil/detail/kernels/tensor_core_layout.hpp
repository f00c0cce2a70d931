// hipstencil/detail/kernels/tensor_core_layout.hpp
// The shapes of the tensor_core family (tensor_core.hpp), host and device: its tile and
// warps, which operands a pixel type takes, the 8-column units of a filter's band, and
// the shared-memory layout of one block (staged region, coefficient table, output tile),
// which the launch sizes and the kernel addresses alike; and the fp16 test of a constant
// border value that fits() applies.
#pragma once

#include "../../platform/config.hpp"
#if HIPSTENCIL_HAS_GPU
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "../../pixel.hpp"

namespace hipstencil {
namespace detail {

/// The output tile of one block and its warps: 2 x 4 warps of 16 rows x 32 columns.
constexpr int tc_tile_w = 64, tc_tile_h = 64, tc_threads = 256;
constexpr int tc_warp_w = 32, tc_warp_h = 16, tc_blocks_per_warp = tc_warp_w / 8;
/// Most taps a side: 25 keeps the staged region and the coefficient table within the
/// 48 KiB every target grants without opting in (float: 92 x 88 x 4 + 25 x 56 x 8 bytes).
constexpr int tc_max_taps = 25;

/// Whether In takes the fp16 operands (values fp16 holds exactly), else TF32.
template <class In>
constexpr bool tc_fp16_operands = std::is_same<In, std::uint8_t>::value || std::is_same<In, half>::value;

/// The instruction depth K of In's operands: 16 (fp16), 8 (TF32).
template <class In>
constexpr int tc_depth = tc_fp16_operands<In> ? 16 : 8;

/// Units of 8 columns that cover the band of a block of 8 outputs, 8 + kw - 1 columns: U.
/// TF32 runs U steps of depth 8; fp16 U / 2 of depth 16 and, for odd U, a last of depth 8
/// (m16n8k8), which at 11 to 17 taps does 3/4 of the work of a second depth-16 step.
HIPSTENCIL_HOST_DEVICE constexpr int tc_units(int kw) { return (kw + 14) / 8; }

/// Columns of 8 that In's slices span for U units: fp16 loads depth-16 slices (a depth-8
/// last step takes the first half of one).
template <class In>
HIPSTENCIL_HOST_DEVICE constexpr int tc_span(int U) {
  return tc_fp16_operands<In> ? (U + 1) / 2 * 2 : U;
}

/// Row pitch, in pixels, of the output tile staged in shared memory before it is stored.
constexpr int tc_out_pitch = tc_tile_w + 8;

/// The staged region's shape in operand elements, and the coefficient table's, for a
/// kw x kh filter of U units: columns [0, width) of which the band reads all, a pitch
/// whose byte length is an odd multiple of 16 (ldmatrix's 8 row addresses then fall in
/// distinct 16-byte bank groups), and per filter row `table` entries of 8 bytes after
/// the region (which the output tile of Out pixels reuses once the sums are done).
struct tc_layout {
  int width, pitch, height, table;
  std::size_t region_bytes, bytes;
};
template <class In, class Out>
HIPSTENCIL_HOST_DEVICE inline tc_layout tc_layout_for(int U, int kh) {
  constexpr int e = tc_fp16_operands<In> ? 2 : 4;  // bytes per element
  tc_layout l;
  // The last warp column's last block reads its last slice up to (w_warp - 8) + 8 span.
  l.width = tc_tile_w - 8 + 8 * tc_span<In>(U);
  const int per16 = 16 / e;
  l.pitch = ((l.width + 2 * per16 - 1) / (2 * per16)) * (2 * per16) + per16;
  l.height = tc_tile_h + kh - 1;
  l.table = 8 * U + 24;  // a lane reads entries 1 to 8 U + 14
  l.region_bytes = std::size_t(l.pitch) * std::size_t(l.height) * e;
  const std::size_t out_bytes = std::size_t(tc_out_pitch) * tc_tile_h * sizeof(Out);
  if (l.region_bytes < out_bytes) l.region_bytes = out_bytes;
  l.region_bytes = (l.region_bytes + 15) / 16 * 16;
  l.bytes = l.region_bytes + std::size_t(kh) * std::size_t(l.table) * 8;
  return l;
}

/// Whether v is a value of fp16 (IEEE binary16: 11 significant bits, subnormals down to
/// 2^-24, at most 65504).
inline bool fp16_exact(float v) {
  const float a = std::fabs(v);
  if (a == 0) return true;
  if (!(a <= 65504.0f)) return false;
  int e = 0;
  std::frexp(a, &e);  // a in [2^(e-1), 2^e): its fp16 unit in the last place is 2^(e-11)
  const float q = std::ldexp(a, -std::max(e - 11, -24));
  return q == std::floor(q);
}

}  // namespace detail
}  // namespace hipstencil
#endif
