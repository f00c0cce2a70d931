// hipstencil/border.hpp
// Border policies: the rule for reading outside the image (or the source ROI) is a type.
// Each rule maps an index p in (-inf, inf) to an index in [0, n) for ANY distance outside
// (a radius larger than the image included), not just one reflection as OpenCV's cudev
// helpers do. The rules and their names:
//
//   type        scipy.ndimage   OpenCV               for a row  a b c d
//   replicate   nearest         BORDER_REPLICATE     a a a a | a b c d | d d d d
//   constant{v} constant        BORDER_CONSTANT      v v v v | a b c d | v v v v
//   reflect     reflect         BORDER_REFLECT       d c b a | a b c d | d c b a
//   reflect101  mirror          BORDER_REFLECT_101   c d c b | a b c d | c b a b   (n = 1: a)
//   wrap        wrap/grid-wrap  BORDER_WRAP          a b c d | a b c d | a b c d
//   skip        -               -                    outputs whose window leaves the image
//                                                    are not written at all ("valid" mode)
//   padded      -               NPP non-border       no check: the caller guarantees that the
//                                                    halo exists in memory around the image
#pragma once

#include "platform/config.hpp"

namespace hipstencil {
namespace border {

/// Run-time tag of a border rule.
enum class kind { replicate, constant, reflect, reflect101, wrap, skip, padded };

/// Human-readable name of a rule ("replicate", "reflect101", ...).
inline const char* name(kind k) {
  switch (k) {
    case kind::replicate: return "replicate";
    case kind::constant: return "constant";
    case kind::reflect: return "reflect";
    case kind::reflect101: return "reflect101";
    case kind::wrap: return "wrap";
    case kind::skip: return "skip";
    case kind::padded: return "padded";
  }
  return "?";
}

namespace detail {
/// Non-negative remainder: p mod q for q > 0 and any p.
HIPSTENCIL_HOST_DEVICE constexpr int pos_mod(int p, int q) {
  int m = p % q;
  return m < 0 ? m + q : m;
}
/// Folds p into [0, 2q) of the period 2q that a reflection of q pixels repeats with,
/// without forming 2q (which overflows int once q passes 2^30): p = k q + r with r in
/// [0, q), and the odd multiples of q run backwards. Returns r, or q - 1 - r where k is odd
/// with MirrorEdge (the edge pixel repeats: reflect), q - r when not (reflect101, whose
/// period is 2(n - 1)). One division gives both k and r, as the 32-bit remainder did.
template <bool MirrorEdge>
HIPSTENCIL_HOST_DEVICE constexpr int fold(int p, int q) {
  int k = p / q, r = p % q;
  if (r < 0) r += q, k -= 1;
  return (k & 1) ? (MirrorEdge ? q - 1 - r : q - r) : r;
}
}  // namespace detail

/// Index maps for each rule. Preconditions: n >= 1. Result in [0, n), or -1 for
/// `constant` when p is outside (the caller substitutes the constant). Every int p and
/// every n up to INT_MAX are mapped exactly.
HIPSTENCIL_HOST_DEVICE constexpr int map_replicate(int p, int n) { return p < 0 ? 0 : (p >= n ? n - 1 : p); }
HIPSTENCIL_HOST_DEVICE constexpr int map_reflect(int p, int n) {
  // Period 2n: 0..n-1 forwards, then n-1..0 backwards (the edge pixel repeats).
  return detail::fold<true>(p, n);
}
HIPSTENCIL_HOST_DEVICE constexpr int map_reflect101(int p, int n) {
  // Period 2n - 2: the edge pixel is not repeated. A single pixel reflects onto itself.
  return n == 1 ? 0 : detail::fold<false>(p, n - 1);
}
HIPSTENCIL_HOST_DEVICE constexpr int map_wrap(int p, int n) { return detail::pos_mod(p, n); }
HIPSTENCIL_HOST_DEVICE constexpr int map_constant(int p, int n) { return (p < 0 || p >= n) ? -1 : p; }

/// Maps p for a run-time rule. `skip` and `padded` return p unchanged (for skip the
/// caller never reads outside; for padded the caller guarantees the memory exists).
HIPSTENCIL_HOST_DEVICE constexpr int map_index(kind k, int p, int n) {
  switch (k) {
    case kind::replicate: return map_replicate(p, n);
    case kind::reflect: return map_reflect(p, n);
    case kind::reflect101: return map_reflect101(p, n);
    case kind::wrap: return map_wrap(p, n);
    case kind::constant: return map_constant(p, n);
    default: return p;
  }
}

/// clamp (replicate): the edge pixel extends outwards.
struct replicate {
  static constexpr kind rule = kind::replicate;
  HIPSTENCIL_HOST_DEVICE static constexpr int map(int p, int n) { return map_replicate(p, n); }
};
/// Constant pad: every pixel outside reads `value` (in every channel, in the input's units).
struct constant {
  static constexpr kind rule = kind::constant;
  float value = 0.0f;
  HIPSTENCIL_HOST_DEVICE static constexpr int map(int p, int n) { return map_constant(p, n); }
};
/// Reflect including the edge pixel (scipy 'reflect', OpenCV BORDER_REFLECT).
struct reflect {
  static constexpr kind rule = kind::reflect;
  HIPSTENCIL_HOST_DEVICE static constexpr int map(int p, int n) { return map_reflect(p, n); }
};
/// Reflect about the edge pixel (scipy 'mirror', OpenCV BORDER_REFLECT_101, OpenCV's default).
struct reflect101 {
  static constexpr kind rule = kind::reflect101;
  HIPSTENCIL_HOST_DEVICE static constexpr int map(int p, int n) { return map_reflect101(p, n); }
};
/// Periodic (scipy 'wrap'/'grid-wrap', OpenCV BORDER_WRAP).
struct wrap {
  static constexpr kind rule = kind::wrap;
  HIPSTENCIL_HOST_DEVICE static constexpr int map(int p, int n) { return map_wrap(p, n); }
};
/// Write only the outputs whose whole window lies inside; leave the others untouched.
struct skip {
  static constexpr kind rule = kind::skip;
  HIPSTENCIL_HOST_DEVICE static constexpr int map(int p, int) { return p; }
};
/// No checks: the caller guarantees that every pixel of every window exists in memory
/// (the image was allocated with a halo of at least the filter's reach on each side).
struct padded {
  static constexpr kind rule = kind::padded;
  HIPSTENCIL_HOST_DEVICE static constexpr int map(int p, int) { return p; }
};

/// Every rule's policy type, in the order of `kind`: the one list that the filter program's
/// --border (all but padded), the [gpu] test matrix and the benchmark take their rules from.
template <class... R>
struct rule_list {};
using all_rules = rule_list<replicate, constant, reflect, reflect101, wrap, skip, padded>;

/// Calls fn(R{}) for every rule R of the list (all_rules by default).
template <class Fn, class... R>
void for_each_rule(Fn&& fn, rule_list<R...>) {
  (fn(R{}), ...);
}
template <class Fn>
void for_each_rule(Fn&& fn) {
  for_each_rule(static_cast<Fn&&>(fn), all_rules{});
}

/// A border rule chosen at run time (rule plus the constant's value). Every policy type
/// converts to it; kernels whose hot loop does not depend on the rule take this.
struct any {
  kind rule = kind::reflect101;
  float value = 0.0f;
  /// Default: reflect101. Each policy type converts implicitly (constant keeps its value).
  constexpr any() = default;
  constexpr any(kind k, float v = 0.0f) : rule(k), value(v) {}
  constexpr any(replicate) : rule(kind::replicate) {}
  constexpr any(constant c) : rule(kind::constant), value(c.value) {}
  constexpr any(reflect) : rule(kind::reflect) {}
  constexpr any(reflect101) : rule(kind::reflect101) {}
  constexpr any(wrap) : rule(kind::wrap) {}
  constexpr any(skip) : rule(kind::skip) {}
  constexpr any(padded) : rule(kind::padded) {}
};

}  // namespace border
}  // namespace hipstencil
