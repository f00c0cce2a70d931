// hipstencil/detail/automatic.hpp
// algo::automatic's tuning table: which family runs a filter, from its separability, its
// radius and the pixel's channel count. Measured, not guessed: every entry is the fastest family (or
// within 5% of it under every border rule) of the H200 runs in bench/RESULTS.md
// (8192x8192, radii 1, 2, 4, 7, 15; u8, float, uchar4; radii 1, 2, 4 re-measured after
// streaming's interior/edge split); radii between the measured ones take the nearer
// measured choice. As rocPRIM keeps one table per architecture, a new
// target gets its own table when it has been measured.
#pragma once

namespace hipstencil {
namespace detail {

/// The families automatic chooses between.
enum class auto_family { streaming, tiled, shared_mem, two_pass };

/// Choice for a filter over pixels of `channels` channels, `r` its radius when it is
/// square and centred, else -1 (such filters run shared_mem). The channel type does not
/// enter: no entry depends on it on the H200.
///   separable: streaming up to radius 4 for one channel (float radius 4 reflect101:
///              shared_mem 2.7% ahead) and up to 2 for four (shared_mem 1.2x faster at
///              4); shared_mem up to 10; two_pass beyond (only with a caller workspace:
///              automatic never allocates; shared_mem without one)
///   dense:     streaming up to radius 5 (compiled to 5; fastest at 1, 2 and 4 for every
///              type and rule); tiled 6 to 8 (streaming took 1.29x tiled's time at 7);
///              shared_mem beyond (tiled is compiled up to 8, and at 15 every family
///              measured within 0.1% of the others)
constexpr auto_family automatic_choice(bool separable, int r, int channels) {
  if (r < 1) return auto_family::shared_mem;
  if (separable) {
    if (r <= (channels == 1 ? 4 : 2)) return auto_family::streaming;
    return r <= 10 ? auto_family::shared_mem : auto_family::two_pass;
  }
  if (r <= 5) return auto_family::streaming;
  if (r <= 8) return auto_family::tiled;
  return auto_family::shared_mem;
}

}  // namespace detail
}  // namespace hipstencil
