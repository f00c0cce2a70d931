// hipstencil/detail/kernels/streaming_shape.hpp
// The shape of the streaming family's work for one pixel-type pair and radius, computed
// at compile time from the policy (tuning::streaming_policy): how many output columns a
// lane owns (V), how many 32-bit words it moves per row, its halo, and the depth of the
// interior block columns' shared-memory ring. The kernel is instantiated on
// stream_config, the policy's numbers as they apply to that pair and radius, so that two
// tables that agree there share one kernel.
#pragma once

#include <cstddef>

#include "../../pixel.hpp"

namespace hipstencil {
namespace detail {

/// The policy's numbers for one pixel type and radius (see tuning::streaming_policy).
template <int Block, int MinBlocks, int RowsInFlight, int AccumBudget, int AsyncRows, int PrefetchRows,
          std::size_t SharedBytes>
struct stream_config {
  static constexpr int block = Block, min_blocks = MinBlocks, rows_in_flight = RowsInFlight;
  static constexpr int accum_budget = AccumBudget, async_rows = AsyncRows, prefetch_rows = PrefetchRows;
  static constexpr std::size_t shared_bytes = SharedBytes;
};

/// The config of policy P for In pixels at radius R.
template <class P, class In, int R>
using stream_config_of =
    stream_config<P::block, P::min_blocks, P::template rows_in_flight<pixel_traits<In>::channels>,
                  P::template accum_budget<In>,
                  P::template async_rows_for<pixel_traits<In>::channels, int(sizeof(In)), R>, P::prefetch_rows,
                  P::shared_bytes>;

/// The deepest ring of at most `rows` rows of `row_bytes` that fits `budget`, halving; 0
/// (no ring) below 2 rows.
constexpr int stream_async_depth(int rows, int row_bytes, std::size_t budget) {
  while (rows > 1 && std::size_t(rows) * std::size_t(row_bytes) > budget) rows /= 2;
  return rows >= 2 ? rows : 0;
}

/// Output rows per strip for an image of `height` rows split into `columns` block columns
/// (for a batch, those of all its images),
/// on a GPU that holds `resident` blocks at once: the longest strip, at most `longest`
/// rows, whose grid still has `resident` blocks; `shortest` if none has. A block walks its
/// strip's rows one after another, so a grid of fewer blocks than the GPU holds takes one
/// strip's walk however small the image: on the H200, u8 dense 3x3 with 24-row strips
/// took 56 us at 128x128 and 68 us at 1920x1080, with 4-row strips 15 and 18.5 us.
constexpr int stream_strip_rows(int height, long long columns, long long resident, int shortest, int longest) {
  if (height < 1 || columns < 1 || resident < 1) return longest;
  for (int rows = longest; rows > shortest; --rows)
    if (columns * ((height + rows - 1) / rows) >= resident) return rows;
  return shortest;
}

constexpr int pow2_floor(int n) { return n < 2 ? 1 : 2 * pow2_floor(n / 2); }
constexpr int clamp_int(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }
constexpr int max_int(int a, int b) { return a > b ? a : b; }

/// Shape of one lane's work for pixel types In -> Out, radius R and config Cfg: V output
/// columns (a power of two), as many as fit Cfg::accum_budget, between one 32-bit word of
/// input and output (min) and 16 bytes of input (max).
template <class In, class Out, int R, class Cfg>
struct stream_shape {
  static constexpr int block = Cfg::block;
  static constexpr int channels = pixel_traits<In>::channels;
  static constexpr int taps = 2 * R + 1;
  static constexpr int min_v = max_int(1, max_int(int(4 / sizeof(In)), int(4 / sizeof(Out))));
  static constexpr int max_v = max_int(min_v, int(16 / sizeof(In)));
  static constexpr int v = clamp_int(pow2_floor(Cfg::accum_budget / (taps * channels)), min_v, max_v);
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
  static constexpr int async_row_bytes = block * words * 4 + (block / 32) * 2 * halo_lanes * halo_words * 4;
  /// Depth of that ring (0: the register ring): the config's rows, halved until the ring
  /// fits its shared memory.
  static constexpr int async_rows = stream_async_depth(Cfg::async_rows, async_row_bytes, Cfg::shared_bytes);
  static_assert(R >= 1 && window <= 32, "radius >= 1 (halo words exist); the per-lane mapping mask is 32 bits");
};

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

}  // namespace detail
}  // namespace hipstencil
