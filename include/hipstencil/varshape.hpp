// hipstencil/varshape.hpp
// Variable-shape batches: images of different sizes, each with its own ROIs, filter and
// constant border value, filtered in one launch (convolve_batch's overload in
// convolve_batch.hpp). After CV-CUDA's ImageBatchVarShape and AMD RPP's per-image ROIs;
// a uniform batch (batch.hpp) is the faster form when every image has one size.
#pragma once

#include <optional>

#include "image.hpp"
#include "roi.hpp"

namespace hipstencil {

/// One image of a variable-shape batch: the source ROI of `src` is filtered into the
/// target ROI of `dst` (the same size in pixels) with filter number `filter` of the
/// call's filter list, as convolve(src, src_roi, dst, dst_roi, filters[filter], border)
/// would; under border::constant, `border_value` (when set) replaces the call's constant
/// for this image (CV-CUDA's per-image border value). Views of device
/// memory; images may share a source, or be ROIs of one image, but no target may overlap
/// another image's target or the pixels any image reads.
template <class In, class Out>
struct varshape_image {
  image_view<const In> src;
  rect src_roi;              ///< pixels of src; {} (empty) is rejected
  image_view<Out> dst;
  rect dst_roi;              ///< pixels of dst, src_roi's size
  int filter = 0;            ///< index into the call's filter list
  std::optional<float> border_value;  ///< this image's constant (finite); unset: the call's

  varshape_image() = default;
  /// Whole images of equal size: both ROIs are the bounds.
  varshape_image(image_view<const In> s, image_view<Out> d, int filter_index = 0,
                 std::optional<float> value = std::nullopt)
      : src(s), src_roi(s.bounds()), dst(d), dst_roi(d.bounds()), filter(filter_index), border_value(value) {}
  /// ROIs of the given size (src_roi.width == dst_roi.width, and the same for height).
  varshape_image(image_view<const In> s, rect sr, image_view<Out> d, rect dr, int filter_index = 0,
                 std::optional<float> value = std::nullopt)
      : src(s), src_roi(sr), dst(d), dst_roi(dr), filter(filter_index), border_value(value) {}
};

}  // namespace hipstencil
