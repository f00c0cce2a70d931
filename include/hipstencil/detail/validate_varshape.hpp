// hipstencil/detail/validate_varshape.hpp
// Argument checks of a variable-shape convolve_batch: each image as one convolve call
// (messages name the image's index), its filter index, and no target overlapping another
// image's target or the pixels any image reads. Host code: the checks compare addresses.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "../filter.hpp"
#include "../varshape.hpp"
#include "validate.hpp"

namespace hipstencil {
namespace detail {

/// The border rule of image `im`: the call's, with the image's own constant when it has one.
template <class In, class Out>
border::any image_border(const varshape_image<In, Out>& im, border::any b) {
  if (b.rule == border::kind::constant && im.border_value) b.value = *im.border_value;
  return b;
}

/// "convolve_batch (image 12)": the name an image's own checks report.
inline std::string image_call(const char* fn, std::size_t k) {
  return std::string(fn) + " (image " + std::to_string(k) + ")";
}

/// Validates a variable-shape batch. Throws invalid_argument naming the image.
template <class In, class Out>
void validate_varshape(const char* fn, const std::vector<varshape_image<In, Out>>& images,
                       const std::vector<filter2d>& filters, border::any b, halo h) {
  if (images.empty()) throw_invalid(fn, ": the batch holds no images");
  if (images.size() > std::size_t(2147483647))
    throw_invalid(fn, ": ", images.size(), " images, more than 2^31 - 1");
  if (filters.empty()) throw_invalid(fn, ": the filter list is empty");
  // One byte interval per region read and per region written, for the pairs below.
  struct span {
    long long lo, hi;
    std::size_t image;
    bool write;
    rect r;
  };
  std::vector<span> spans;
  spans.reserve(2 * images.size());
  for (std::size_t k = 0; k < images.size(); ++k) {
    const auto& im = images[k];
    if (im.filter < 0 || std::size_t(im.filter) >= filters.size())
      throw_invalid(image_call(fn, k), ": filter index ", im.filter, " is outside the list of ", filters.size(),
                    " filters");
    const filter2d& f = filters[std::size_t(im.filter)];
    const border::any bk = image_border(im, b);
    try {
      validate_convolve(fn, im.src, im.src_roi, im.dst, im.dst_roi, f.width(), f.height(), f.anchor_x(),
                        f.anchor_y(), bk, h);
    } catch (const invalid_argument& e) {
      // The image's index after the function's name; built only on failure (a string per
      // image cost 4096-image batches a large part of their host time).
      const std::string m = e.what(), head = std::string("hipstencil: ") + fn + ": ";
      throw invalid_argument(m.compare(0, head.size(), head) == 0
                                 ? "hipstencil: " + image_call(fn, k) + ": " + m.substr(head.size())
                                 : m + " (image " + std::to_string(k) + ")");
    }
    const rect read = read_region(im.src.bounds(), im.src_roi, f.width(), f.height(), f.anchor_x(), f.anchor_y(), bk, h);
    const auto bytes = [](const auto& v, const rect& r) {
      using T = std::remove_const_t<typename std::decay_t<decltype(v)>::value_type>;
      const long long lo = (long long)reinterpret_cast<std::uintptr_t>(v.data) + (long long)r.y * (long long)v.pitch_bytes +
                           (long long)r.x * (long long)sizeof(T);
      return std::make_pair(lo, lo + (long long)(r.height - 1) * (long long)v.pitch_bytes +
                                    (long long)r.width * (long long)sizeof(T));
    };
    const auto rs = bytes(im.src, read), ws = bytes(im.dst, im.dst_roi);
    spans.push_back({rs.first, rs.second, k, false, read});
    spans.push_back({ws.first, ws.second, k, true, im.dst_roi});
  }
  // A sweep over the spans in address order: only pairs whose byte intervals meet get the
  // exact test (may_overlap). Images in allocations of their own cost O(N log N); ROIs of
  // one image, whose intervals interleave, up to O(N^2) exact tests.
  // Sorted as (start, index) pairs, which move faster than the spans themselves.
  std::vector<std::pair<long long, std::size_t>> order(spans.size());
  for (std::size_t i = 0; i < spans.size(); ++i) order[i] = {spans[i].lo, i};
  std::sort(order.begin(), order.end());
  std::vector<const span*> open;
  for (const auto& entry : order) {
    const span& s = spans[entry.second];
    open.erase(std::remove_if(open.begin(), open.end(), [&](const span* o) { return o->hi <= s.lo; }), open.end());
    for (const span* o : open) {
      if (!s.write && !o->write) continue;        // two reads may share pixels
      if (s.image == o->image) continue;          // an image against itself: validate_convolve
      const span& w = s.write ? s : *o;
      const span& other = s.write ? *o : s;
      const auto& wi = images[w.image];
      const auto& oi = images[other.image];
      const bool meet = other.write ? may_overlap(oi.dst, other.r, wi.dst, w.r) : may_overlap(oi.src, other.r, wi.dst, w.r);
      if (!meet) continue;
      const std::size_t a = std::min(w.image, other.image), c = std::max(w.image, other.image);
      if (other.write)
        throw_invalid(fn, ": the dst_roi of image ", a, " and that of image ", c,
                      " share memory (each image's output must lie apart from every other's)");
      throw_invalid(fn, ": the dst_roi of image ", w.image, " overlaps the source pixels that image ", other.image,
                    " reads (each output must lie apart from every image's input)");
    }
    open.push_back(&s);
  }
}

}  // namespace detail
}  // namespace hipstencil
