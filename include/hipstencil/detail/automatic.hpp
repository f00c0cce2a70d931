// hipstencil/detail/automatic.hpp
// algo::automatic's tuning table: which family runs a filter, from its separability, its
// radius and the pixel type. Measured, not guessed: every entry is the fastest family (or
// within 5% of it under every border rule) of the H200 run in bench/RESULTS.md
// (8192x8192, radii 1, 2, 4, 7, 15; u8, float, uchar4); radii between the measured ones
// take the nearer measured choice. As rocPRIM keeps one table per architecture, a new
// target gets its own table when it has been measured.
#pragma once

namespace hipstencil {
namespace detail {

/// The families automatic chooses between.
enum class auto_family { streaming, tiled, shared_mem, two_pass };

/// Choice for a square centred filter of radius `r` (>= 1) over pixels of `channels`
/// channels of `channel_bytes` bytes each. Other filters (non-square, off-centre) run
/// shared_mem, whatever this says.
///   separable: streaming up to radius 2, shared_mem up to 10, two_pass beyond (only with
///              a caller workspace: automatic never allocates; shared_mem without one)
///   dense:     streaming at radius 1, and up to 5 (float radius 2: tiled, 2% ahead);
///              tiled 6 to 8; shared_mem beyond (tiled is compiled up to 8, and at 15
///              every family measured within 0.1% of the others)
constexpr auto_family automatic_choice(bool separable, int r, int channels, int channel_bytes) {
  if (separable) return r <= 2 ? auto_family::streaming : r <= 10 ? auto_family::shared_mem : auto_family::two_pass;
  if (r == 2 && channels == 1 && channel_bytes == 4) return auto_family::tiled;
  if (r <= 5) return auto_family::streaming;
  if (r <= 8) return auto_family::tiled;
  return auto_family::shared_mem;
}

}  // namespace detail
}  // namespace hipstencil
