// hipstencil/detail/validate.hpp
// Argument checks shared by the host reference and every GPU entry point, so that both
// reject exactly the same calls with the same messages, before any work is queued.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "../border.hpp"
#include "../error.hpp"
#include "../image.hpp"
#include "../roi.hpp"

namespace hipstencil {
namespace detail {

template <class T>
void validate_view(const char* fn, const char* name, const image_view<T>& v) {
  using P = std::remove_const_t<T>;
  if (v.data == nullptr) throw_invalid(fn, ": ", name, ".data is null");
  if (v.width < 1 || v.height < 1)
    throw_invalid(fn, ": ", name, " is empty (width=", v.width, ", height=", v.height, ")");
  if (v.pitch_bytes < std::size_t(v.width) * sizeof(P))
    throw_invalid(fn, ": ", name, ".pitch_bytes=", v.pitch_bytes, " is smaller than a row of ", v.width,
                  " pixels (", std::size_t(v.width) * sizeof(P), " bytes)");
  if (reinterpret_cast<std::uintptr_t>(v.data) % alignof(P) != 0)
    throw_invalid(fn, ": ", name, ".data is not aligned to ", alignof(P), " bytes");
  if (v.pitch_bytes % alignof(P) != 0)
    throw_invalid(fn, ": ", name, ".pitch_bytes=", v.pitch_bytes, " is not a multiple of ", alignof(P),
                  " (the pixel alignment)");
}

inline void validate_roi(const char* fn, const char* name, const rect& r, int w, int h) {
  if (r.empty() || !rect{0, 0, w, h}.contains(r))
    throw_invalid(fn, ": ", name, " {x=", r.x, ", y=", r.y, ", width=", r.width, ", height=", r.height,
                  "} is empty or not inside its ", w, "x", h, " image");
}

inline long long floor_div(long long a, long long b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

/// True when the pixels read (`read`, in src) may share memory with the pixels written
/// (`write`, in dst). Exact when both views have the same pitch (sub-views of one image):
/// every row of either rectangle is a byte interval on the same lattice of stride p, so
/// write row r meets read row r' iff -wb < D + (r - r') p < rb, with D the distance between
/// the two first pixels and wb, rb the row lengths in bytes. Conservative (whole byte
/// spans) when the pitches differ. `dst_shift`: dst's pixels lie that many bytes further
/// (another image of a batch).
template <class In, class Out>
bool may_overlap(const image_view<In>& src, const rect& read, const image_view<Out>& dst, const rect& write,
                 long long dst_shift = 0) {
  using I = std::remove_const_t<In>;
  const long long s0 = (long long)reinterpret_cast<std::uintptr_t>(src.data) + (long long)read.y * (long long)src.pitch_bytes +
                       (long long)read.x * (long long)sizeof(I);
  const long long d0 = (long long)reinterpret_cast<std::uintptr_t>(dst.data) + dst_shift +
                       (long long)write.y * (long long)dst.pitch_bytes + (long long)write.x * (long long)sizeof(Out);
  const long long rb = (long long)read.width * (long long)sizeof(I), wb = (long long)write.width * (long long)sizeof(Out);
  if (src.pitch_bytes == dst.pitch_bytes && src.pitch_bytes > 0) {
    const long long p = (long long)src.pitch_bytes, D = d0 - s0;
    // k = r - r' must satisfy (-wb - D) / p < k < (rb - D) / p and lie in the row ranges.
    const long long klo = std::max(floor_div(-wb - D, p) + 1, -(long long)(read.height - 1));
    const long long khi = std::min(-floor_div(-(rb - D), p) - 1, (long long)(write.height - 1));
    return klo <= khi;
  }
  const long long s1 = s0 + (long long)(read.height - 1) * (long long)src.pitch_bytes + rb;
  const long long d1 = d0 + (long long)(write.height - 1) * (long long)dst.pitch_bytes + wb;
  return s0 < d1 && d0 < s1;
}

/// The source pixels a call may read: the ROI's windows under padded (the caller's halo),
/// else the domain (the ROI under halo::isolated, the whole image under from_parent).
inline rect read_region(const rect& src_bounds, const rect& src_roi, int kw, int kh, int anchor_x, int anchor_y,
                        border::any b, halo h) {
  if (b.rule == border::kind::padded)
    return rect{src_roi.x - anchor_x, src_roi.y - anchor_y, src_roi.width + kw - 1, src_roi.height + kh - 1};
  return h == halo::isolated ? src_roi : src_bounds;
}

/// Validates one filtering call. Throws invalid_argument naming the parameter and value.
template <class In, class Out>
void validate_convolve(const char* fn, const image_view<In>& src, const rect& src_roi, const image_view<Out>& dst,
                       const rect& dst_roi, int kw, int kh, int anchor_x, int anchor_y, border::any b, halo h) {
  // A non-finite constant would make every output whose window reaches it NaN (0 x inf).
  if (b.rule == border::kind::constant && !std::isfinite(b.value))
    throw_invalid(fn, ": border::constant value ", b.value, " is not finite");
  validate_view(fn, "src", src);
  validate_view(fn, "dst", dst);
  validate_roi(fn, "src_roi", src_roi, src.width, src.height);
  validate_roi(fn, "dst_roi", dst_roi, dst.width, dst.height);
  if (src_roi.width != dst_roi.width || src_roi.height != dst_roi.height)
    throw_invalid(fn, ": src_roi is ", src_roi.width, "x", src_roi.height, " but dst_roi is ", dst_roi.width, "x",
                  dst_roi.height, " (they must have the same size)");
  // Every kernel and the reference index taps in int: the parent coordinates of every window
  // (one past the last tap included, which the skip test forms) must stay below 2^31.
  const long long x_lo = (long long)src_roi.x - anchor_x, y_lo = (long long)src_roi.y - anchor_y;
  const long long x_end = x_lo + src_roi.width + kw - 1, y_end = y_lo + src_roi.height + kh - 1;
  if (x_end > 2147483647LL || y_end > 2147483647LL || x_lo < -2147483647LL || y_lo < -2147483647LL)
    throw_invalid(fn, ": the filter's windows span parent columns [", x_lo, ", ", x_end, ") and rows [", y_lo, ", ",
                  y_end, "), past the 32-bit coordinates the kernels use (|coordinate| < 2^31 - 1)");
  const rect read = read_region(src.bounds(), src_roi, kw, kh, anchor_x, anchor_y, b, h);
  if (may_overlap(src, read, dst, dst_roi))
    throw_invalid(fn, ": dst_roi overlaps the source pixels the filter reads (in-place filtering is not supported): ",
                  "dst_roi {x=", dst_roi.x, ", y=", dst_roi.y, ", width=", dst_roi.width, ", height=", dst_roi.height,
                  "}, read {x=", read.x, ", y=", read.y, ", width=", read.width, ", height=", read.height, "}");
}

}  // namespace detail
}  // namespace hipstencil

namespace hipstencil {
namespace detail {
/// Whole-image calls: src and dst must have the same size. Each view is checked first, so
/// that a null or empty view is reported as such rather than as a size mismatch.
template <class In, class Out>
void validate_same_size(const char* fn, const image_view<In>& src, const image_view<Out>& dst) {
  validate_view(fn, "src", src);
  validate_view(fn, "dst", dst);
  if (src.width != dst.width || src.height != dst.height)
    throw_invalid(fn, ": src is ", src.width, "x", src.height, " but dst is ", dst.width, "x", dst.height,
                  " (whole-image filtering needs equal sizes; pass ROIs to filter part of an image)");
}
}  // namespace detail
}  // namespace hipstencil
