// hipstencil/detail/tuning/shape.hpp
// What algo::automatic's tables are keyed by (problem_shape) and what they answer (a
// preference among the families), apart from the tables themselves so that the factoring
// tables (factor_tables.hpp) and the family table (tables.hpp) share them.
#pragma once

#include <cstdint>

namespace hipstencil {
namespace tuning {

/// The families algo::automatic chooses between.
enum class choice : std::uint8_t { none, streaming, tiled, shared_mem, two_pass, direct, packed, fft, tensor_core, sliding };

/// algo::automatic's preference for one problem, best first; the first family that can run
/// the problem runs it (streaming needs aligned ROIs, two_pass a caller's workspace), and
/// naive takes whatever none of them can (an empty list: naive at once).
struct preference {
  choice order[4] = {choice::none, choice::none, choice::none, choice::none};
};

/// `first`, then p's choices (its last one dropped).
constexpr preference ahead(choice first, const preference& p) {
  return {{first, p.order[0], p.order[1], p.order[2]}};
}

/// `first`, then p's other choices in their order (p's last one dropped where p did not
/// name `first`): moves a family p may already name to the front without naming it twice.
constexpr preference promote(choice first, const preference& p) {
  preference q{{first, choice::none, choice::none, choice::none}};
  int k = 1;
  for (int i = 0; i < 4 && k < 4; ++i)
    if (p.order[i] != first) q.order[k++] = p.order[i];
  return q;
}

/// The border rules as the tables tell them apart, by what a mapped read costs.
enum class border_cost : std::uint8_t {
  clamp,     ///< replicate (a min and a max); padded and skip map nothing
  constant,  ///< a compare, and the constant where it fails
  fold       ///< reflect, reflect101, wrap: a division
};

/// What automatic's choice depends on.
struct problem_shape {
  bool separable = false;  ///< row and column taps
  int radius = -1;         ///< of a square centred filter, else -1
  /// 1, 3 or 4; three have rows of their own at radius 1 and 2 and else take the
  /// four-channel rows, without streaming
  int channels = 1;
  int channel_bytes = 1;   ///< 1 (8-bit), 2 (16-bit), 4 (float)
  int width = 0, height = 0;  ///< of the ROI, pixels
  int images = 1;             ///< of a batch (convolve_batch): one grid of them all
  /// What the border rule costs a read beyond the image. A family's perimeter tiles pay
  /// it by how often they map: tiled maps a thread's window columns again every row.
  border_cost border = border_cost::clamp;
  /// Whether the call's rows start on 16-byte boundaries: its source at the first output's
  /// centre and its target at the ROI's first column, both pitches multiples of 16 bytes
  /// (detail::rows_aligned). packed's wide kernel needs them; false where unknown.
  bool rows_aligned_16 = false;
  /// Pixels of the whole call: a batch's grid is as large as one image of all its pixels.
  constexpr long long pixels() const { return (long long)width * height * images; }
};

}  // namespace tuning
}  // namespace hipstencil
