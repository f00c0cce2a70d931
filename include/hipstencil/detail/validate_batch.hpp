// hipstencil/detail/validate_batch.hpp
// Argument checks of convolve_batch: those of one convolve call (every image has image 0's
// size and pitch, so image 0's checks hold for all), and what a batch adds: the counts,
// the strides, and no output image overlapping the pixels any image's filter reads.
#pragma once

#include <algorithm>
#include <cstdint>

#include "../batch.hpp"
#include "validate.hpp"

namespace hipstencil {
namespace detail {

inline long long ceil_div(long long a, long long b) { return -floor_div(-a, b); }

template <class In, class Out>
void validate_batch(const char* fn, const batch_view<In>& src, const rect& src_roi, const batch_view<Out>& dst,
                    const rect& dst_roi, int kw, int kh, int anchor_x, int anchor_y, border::any b, halo h) {
  using I = std::remove_const_t<In>;
  if (src.count < 1) throw_invalid(fn, ": src.count=", src.count, " (a batch holds at least one image)");
  if (dst.count != src.count)
    throw_invalid(fn, ": src has ", src.count, " images but dst has ", dst.count, " (one output per input image)");
  validate_convolve(fn, src.first, src_roi, dst.first, dst_roi, kw, kh, anchor_x, anchor_y, b, h);
  if (src.image_stride_bytes % alignof(I) != 0)
    throw_invalid(fn, ": src.image_stride_bytes=", src.image_stride_bytes, " is not a multiple of ", alignof(I),
                  " (the pixel alignment)");
  if (dst.image_stride_bytes % alignof(Out) != 0)
    throw_invalid(fn, ": dst.image_stride_bytes=", dst.image_stride_bytes, " is not a multiple of ", alignof(Out),
                  " (the pixel alignment)");
  const int n = src.count;
  if (n == 1) return;  // image 0 is checked above
  if (dst.image_stride_bytes < dst.first.span_bytes())
    throw_invalid(fn, ": dst.image_stride_bytes=", dst.image_stride_bytes, " is smaller than one dst image (",
                  dst.first.span_bytes(), " bytes): the output images would overlap");
  // Output image j against the pixels read of input image i != j (i == j is checked above).
  const rect read = read_region(src.first.bounds(), src_roi, kw, kh, anchor_x, anchor_y, b, h);
  const long long s0 = (long long)reinterpret_cast<std::uintptr_t>(src.first.data);
  const long long d0 = (long long)reinterpret_cast<std::uintptr_t>(dst.first.data);
  const long long sspan = (long long)src.first.span_bytes(), dspan = (long long)dst.first.span_bytes();
  const long long ss = (long long)src.image_stride_bytes, ds = (long long)dst.image_stride_bytes;
  if (ss == ds) {
    // Pairs j - i = k share one offset, D + k S: only the k whose byte spans can meet.
    const long long D = d0 - s0;
    const long long lo = std::max<long long>(-(n - 1), floor_div(-dspan - D, ds));
    const long long hi = std::min<long long>(n - 1, ceil_div(sspan - D, ds));
    for (long long k = lo; k <= hi; ++k) {
      if (k == 0 || !may_overlap(src.first, read, dst.first, dst_roi, k * ds)) continue;
      const long long i = k > 0 ? 0 : -k, j = k > 0 ? k : 0;
      throw_invalid(fn, ": dst image ", j, " overlaps the pixels that the filter reads in src image ", i,
                    " (each output image must be apart from every input image)");
    }
    return;
  }
  // Different strides: whole byte ranges, conservatively.
  const long long s1 = s0 + (n - 1) * ss + sspan, d1 = d0 + (n - 1) * ds + dspan;
  if (s0 < d1 && d0 < s1)
    throw_invalid(fn, ": the dst images (", d1 - d0, " bytes from ", static_cast<const void*>(dst.first.data),
                  ") and the src images (", s1 - s0, " bytes from ", static_cast<const void*>(src.first.data),
                  ") share memory and their image strides differ (", ds, " and ", ss,
                  " bytes): a batch's output must lie apart from its input");
}

}  // namespace detail
}  // namespace hipstencil
