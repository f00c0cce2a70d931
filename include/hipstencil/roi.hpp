// hipstencil/roi.hpp
// Source and target regions of interest, as the "Tiled Convolution" paper (AMD) and NPP
// define them: the filter reads the source ROI and writes the target ROI, which have the
// same size. Output pixel (x, y) of the ROI, 0 <= x < width, 0 <= y < height, is
//   dst(dst_roi.x + x, dst_roi.y + y) = sum_ij k(i, j) * src(src_roi.x + x + i - ax, src_roi.y + y + j - ay)
// where a source pixel outside the border domain is given by the border rule.
#pragma once

#include "image.hpp"

namespace hipstencil {

/// Where the pixels around the source ROI come from.
enum class halo {
  /// The ROI is the image: the border rule applies at the ROI's edges and no pixel
  /// outside the source ROI is read (OpenCV's BORDER_ISOLATED; the default).
  isolated,
  /// Real pixels around the source ROI are read from its parent image; the border rule
  /// applies only at the parent's edges (OpenCV's default for sub-matrices).
  from_parent,
};

/// "isolated" or "from_parent".
inline const char* name(halo h) { return h == halo::isolated ? "isolated" : "from_parent"; }

}  // namespace hipstencil
