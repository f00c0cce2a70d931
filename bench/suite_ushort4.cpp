// bench/suite_ushort4.cpp
// The ushort4 -> ushort4 cases, 16-bit RGBA (one pixel type per translation unit).
#include "suite.hpp"

namespace bench {
std::unique_ptr<suite> make_suite_rgba16(int width, int height, int images, int max_radius, run_timer& timer) {
  return std::make_unique<pixel_suite<hs::ushort4>>(width, height, images, max_radius, timer);
}
}  // namespace bench
