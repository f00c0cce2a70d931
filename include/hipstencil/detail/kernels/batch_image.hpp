// hipstencil/detail/kernels/batch_image.hpp
// The image of a batch that a block works on (convolve_batch): grid.z indexes the images,
// which lie image_strides apart (geometry.hpp). Every kernel's batched
// instantiation (tuning::batched policies) calls select_image once on entry, so the rest of
// it sees one image, exactly as without a batch; single-image instantiations do not call it.
#pragma once

#include "../../platform/config.hpp"
#if HIPSTENCIL_HAS_GPU
#include "../geometry.hpp"

namespace hipstencil {
namespace detail {

/// Moves `src` and `dst` to image blockIdx.z of the batch (64-bit byte offsets; z = 0 and
/// a single image leave them as they are).
template <class In, class Out>
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE void select_image(image_view<const In>& src, image_view<Out>& dst,
                                                           const image_strides& s) {
  const long long z = (long long)blockIdx.z;
  src.data = reinterpret_cast<const In*>(reinterpret_cast<const char*>(src.data) + z * s.src_bytes);
  dst.data = reinterpret_cast<Out*>(reinterpret_cast<char*>(dst.data) + z * s.dst_bytes);
}

}  // namespace detail
}  // namespace hipstencil
#endif
