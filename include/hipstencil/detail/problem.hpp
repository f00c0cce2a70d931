// hipstencil/detail/problem.hpp
// One filtering problem as every kernel family sees it: the views, the geometry (anchors
// folded in), the taps, the stream and the workspace; and the helpers each family's
// fits()/launch() share: compiled-radius dispatch and tap packing.
#pragma once

#include "../platform/config.hpp"
#if HIPSTENCIL_HAS_GPU
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>
#include <vector>

#include "../filter.hpp"
#include "../image.hpp"
#include "../platform/runtime.hpp"
#include "geometry.hpp"
#include "kernels/taps.hpp"
#include "tuning/arch.hpp"
#include "tuning/policies.hpp"

namespace hipstencil {

/// Caller-provided device memory for algorithms that need an intermediate image.
struct workspace {
  void* data = nullptr;
  std::size_t bytes = 0;
};

namespace detail {

/// Radius of a square filter with centred anchor, or -1 (such filters take run-time paths).
inline int centred_radius(int kw, int kh, int ax, int ay) {
  return (kw == kh && ax == kw / 2 && ay == kh / 2) ? kw / 2 : -1;
}

/// A validated problem. Exactly one of `dense` and `separable` is set; `low_rank`, set
/// only by algo::automatic and only for the shared_mem family, says to run the dense filter
/// as the sum of those separable terms.
template <class In, class Out>
struct problem {
  image_view<const In> src;
  image_view<Out> dst;
  geometry g;
  int anchor_x = 0, anchor_y = 0;
  int radius = -1;  ///< centred_radius of the filter: square and centred, else -1
  const filter2d* dense = nullptr;
  const separable_filter* separable = nullptr;
  const std::vector<separable_filter>* low_rank = nullptr;  ///< 2 to low_rank_max_terms terms
  bool tile_class = true;      ///< the border strategy: tile-class dispatch, else per access
  bool may_allocate = false;   ///< an explicit two_pass without a workspace allocates one
  int strip_rows = 0;          ///< algo::streaming's strip_rows (0: the policy's)
  const workspace* ws = nullptr;
  /// Images of a uniform batch (convolve_batch), one grid.z index each, `strides` apart;
  /// at most max_grid_images (the caller splits larger ones).
  int images = 1;
  image_strides strides;
  tuning::arch arch = tuning::arch::generic;
  gpu::stream_t stream = nullptr;
};

/// Whether p's rows start on `align`-byte boundaries where a kernel that moves whole words
/// reads and writes them: the source at the first output's centre (ROI column + radius),
/// the target at its ROI's first column, and both pitches multiples of `align` bytes. A
/// batch's image strides are the caller's to check.
template <class In, class Out>
bool rows_aligned(const problem<In, Out>& p, std::size_t align) {
  const auto at = [align](const void* q, long long pixels, std::size_t pixel_bytes) {
    return (reinterpret_cast<std::uintptr_t>(q) + std::uintptr_t(pixels * (long long)pixel_bytes)) % align == 0;
  };
  return at(p.src.data, p.g.src_x0 + p.radius, sizeof(In)) && p.src.pitch_bytes % align == 0 &&
         at(p.dst.data, p.g.dst_x0, sizeof(Out)) && p.dst.pitch_bytes % align == 0;
}

/// What a family does with a problem: whether it runs it, and with which instantiation.
struct fit {
  bool ok = false;
  int radius = -1;  ///< the compiled radius it runs, -1 for a run-time filter size
};
inline constexpr fit no_fit{};

/// Calls fn(std::integral_constant<int, R>) for the R of `Radii` equal to r; false if none.
template <class Fn, int... Rs>
bool with_static_radius(int r, Fn&& fn, std::integer_sequence<int, Rs...>) {
  bool found = false;
  ((r == Rs ? (fn(std::integral_constant<int, Rs>{}), found = true) : false), ...);
  return found;
}

using tuning::compiled;  // whether r is one of a policy's compiled radii (policies.hpp)

/// Up to N coefficients by value (the rest zero).
template <int N>
inline_taps<N> pack_taps(const std::vector<float>& t) {
  inline_taps<N> p{};
  std::memcpy(p.v, t.data(), t.size() * sizeof(float));
  return p;
}

/// Taps of the problem's filter as a dense window, row-major kw x kh: the dense filter's
/// own coefficients, or a separable filter's outer product (column times row, in float, as
/// separable_filter::to_2d builds it). Precondition: window_size(p) <= N. Built straight
/// into the by-value block, so that a launch allocates nothing on the host. For the
/// families that run separable filters dense (naive, direct).
template <int N, class In, class Out>
inline_taps<N> window_taps(const problem<In, Out>& p) {
  inline_taps<N> t{};
  if (p.dense) {
    std::memcpy(t.v, p.dense->coefficients().data(), p.dense->coefficients().size() * sizeof(float));
    return t;
  }
  const std::vector<float>& row = p.separable->row();
  const std::vector<float>& col = p.separable->column();
  for (std::size_t j = 0; j < col.size(); ++j)
    for (std::size_t i = 0; i < row.size(); ++i) t.v[j * row.size() + i] = col[j] * row[i];
  return t;
}

/// Number of taps of the problem's filter as a dense window (kw x kh).
template <class In, class Out>
std::size_t window_size(const problem<In, Out>& p) {
  return p.dense ? p.dense->coefficients().size() : p.separable->row().size() * p.separable->column().size();
}

/// Row and column taps of a separable filter, up to N each, by value (the rest zero).
template <int N>
separable_taps<N> pack_separable(const separable_filter& f) {
  separable_taps<N> t{};
  std::memcpy(t.row, f.row().data(), f.row().size() * sizeof(float));
  std::memcpy(t.col, f.column().data(), f.column().size() * sizeof(float));
  return t;
}

/// The most images one launch takes (grid.z's limit on both platforms).
constexpr int max_grid_images = 65535;

/// Grid of `width` x `height` outputs in tiles of tw x th for each of `images` images of a
/// batch; y capped at 65535 (the kernels stride over the rest).
inline dim3 tile_grid(int width, int height, int tw, int th, int images) {
  const int gy = (height + th - 1) / th;
  return dim3(unsigned((width + tw - 1) / tw), unsigned(gy < 65535 ? gy : 65535), unsigned(images));
}

}  // namespace detail
}  // namespace hipstencil
#endif
