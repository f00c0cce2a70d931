// hipstencil/detail/tuning/tables.hpp
// Per-architecture tuning tables (as rocPRIM keeps device/detail/config/ per target): for
// each family the policy its kernels use when the caller leaves the choice to the library
// (tuning::by_device), and algo::automatic's choice of family. Chosen at run time from
// the device a call runs on (arch.hpp).
//
// Measured: sm_90, on an NVIDIA H200 (bench/RESULTS.md has every run). gfx90a, gfx942,
// gfx1030 and every other device take the generic table until they are measured.
#pragma once

#include <cstdint>

#include "arch.hpp"
#include "policies.hpp"

namespace hipstencil {
namespace tuning {

/// The policy a family uses on architecture A, given the family's default policy. The
/// primary template is the generic table: the default itself.
template <arch A, class DefaultPolicy>
struct policy_for {
  using type = DefaultPolicy;
};

/// sm_90 (H200): the streaming knobs measured there (bench/RESULTS.md, "streaming"):
///   prefetch 4 rows ahead: best of 0, 4, 8, 12 and 16 (float and 8-bit, 3x3 and 15x15);
///   1 block per SM asked of the allocator: forcing 6 or 8 (80 or 64 registers) spilled
///     and lost everywhere but float 3x3;
///   a 16-row cp.async ring in the interior block columns for one-channel 4-byte pixels at
///     radius 1: float separable 3x3 from 79.6% to 81.5% of the copy rate (4 and 8 rows
///     gained less); elsewhere it measured no faster (float radius 2 even, radius 4 5%
///     slower, float4 16% slower, 8-bit even to 6% slower);
///   strips of 24 output rows at radius 1 (2-8% ahead of 32 for float, u8, float4), 32
///     beyond (3-12% ahead of 24 at radius 2 and 4; 64 lost everywhere);
///   2 input rows in flight for one channel, 1 for four (3 to 6 were slower); 32 floats of
///     partial sums for 8-bit pixels (V = 8 at radius 1: a shorter body and more warps beat
///     16-byte loads), 64 for wider ones.
template <>
struct policy_for<arch::sm_90, streaming_policy<>> {
  using type = streaming_policy<128, 4, 1, 16, 24, 32, true>;
};

/// The families algo::automatic chooses between.
enum class choice : std::uint8_t { none, streaming, tiled, shared_mem, two_pass };

/// algo::automatic's preference for one problem, best first; the first family that can run
/// the problem runs it (streaming needs aligned ROIs, two_pass a caller's workspace), and
/// naive takes whatever none of them can.
struct preference {
  choice order[3] = {choice::none, choice::none, choice::none};
};

/// The generic table (every architecture until measured): the sm_90 choices, the only
/// measured ones, which follow from the families' shapes more than from that chip.
///   `separable`: the filter is separable; `r`: its radius when square and centred, else
///   -1; `channels`: 1 or 4.
template <arch A>
struct automatic_table {
  /// sm_90 (H200, 8192 x 8192, radii 1, 2, 4, 7, 15; u8, float, uchar4; bench/RESULTS.md):
  ///   separable: streaming up to radius 4 for one channel (float radius 4 reflect101:
  ///     shared_mem 2.7% ahead) and up to 2 for four (shared_mem 1.2x faster at 4);
  ///     shared_mem up to 10; two_pass beyond (only into a caller's workspace: automatic
  ///     never allocates; shared_mem without one)
  ///   dense: streaming up to radius 5 (fastest at 1, 2 and 4 for every type and rule),
  ///     then tiled where streaming cannot run; tiled 6 to 8 (streaming took 1.29x tiled's
  ///     time at 7); shared_mem beyond (at 15 every family measured within 0.1%)
  static constexpr preference choose(bool separable, int r, int channels) {
    if (r < 1) return {{choice::shared_mem}};
    if (separable) {
      if (r <= (channels == 1 ? 4 : 2)) return {{choice::streaming, choice::shared_mem}};
      if (r <= 10) return {{choice::shared_mem}};
      return {{choice::two_pass, choice::shared_mem}};
    }
    if (r <= 5) return {{choice::streaming, choice::tiled, choice::shared_mem}};
    if (r <= 8) return {{choice::tiled, choice::shared_mem}};
    return {{choice::shared_mem}};
  }
};

/// The architectures whose tables a build can use: each is compiled in only where it is a
/// target of the backend (the generic table always).
#if defined(HIPSTENCIL_BACKEND_HIP)
using compiled_archs = std::integer_sequence<int, int(arch::generic), int(arch::gfx90a), int(arch::gfx942),
                                             int(arch::gfx1030)>;
#else
using compiled_archs = std::integer_sequence<int, int(arch::generic), int(arch::sm_90)>;
#endif

/// Calls fn(std::integral_constant<arch, A>{}) for the compiled architecture A == a (the
/// generic table for any other).
template <class Fn, int... A>
decltype(auto) with_arch(arch a, Fn&& fn, std::integer_sequence<int, A...>) {
  using R = decltype(fn(std::integral_constant<arch, arch::generic>{}));
  if constexpr (std::is_void<R>::value) {
    bool done = false;
    ((!done && int(a) == A ? (fn(std::integral_constant<arch, arch(A)>{}), done = true) : false), ...);
    if (!done) fn(std::integral_constant<arch, arch::generic>{});
  } else {
    R r{};
    bool done = false;
    ((!done && int(a) == A ? (r = fn(std::integral_constant<arch, arch(A)>{}), done = true) : false), ...);
    if (!done) r = fn(std::integral_constant<arch, arch::generic>{});
    return r;
  }
}
template <class Fn>
decltype(auto) with_arch(arch a, Fn&& fn) {
  return with_arch(a, static_cast<Fn&&>(fn), compiled_archs{});
}

}  // namespace tuning
}  // namespace hipstencil
