// bench/suite_ushort3.cpp
// The ushort3 -> ushort3 cases, interleaved 16-bit RGB (one pixel type per translation unit).
#include "suite.hpp"

namespace bench {
std::unique_ptr<suite> make_suite_rgb16(int width, int height, int images, int max_radius, run_timer& timer) {
  return std::make_unique<pixel_suite<hs::ushort3>>(width, height, images, max_radius, timer);
}
}  // namespace bench
