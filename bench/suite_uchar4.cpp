// bench/suite_uchar4.cpp
// The uchar4 -> uchar4 cases (one pixel type per translation unit, compiled in parallel).
#include "suite.hpp"

namespace bench {
std::unique_ptr<suite> make_suite_rgba8(int width, int height, int images, int max_radius, run_timer& timer) {
  return std::make_unique<pixel_suite<hs::uchar4>>(width, height, images, max_radius, timer);
}
}  // namespace bench
