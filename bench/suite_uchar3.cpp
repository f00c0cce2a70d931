// bench/suite_uchar3.cpp
// The uchar3 -> uchar3 cases, interleaved 8-bit RGB (one pixel type per translation unit).
#include "suite.hpp"

namespace bench {
std::unique_ptr<suite> make_suite_rgb8(int width, int height, int images, int max_radius, run_timer& timer) {
  return std::make_unique<pixel_suite<hs::uchar3>>(width, height, images, max_radius, timer);
}
}  // namespace bench
