// bench/suite_u8.cpp
// The u8 -> u8 cases (one pixel type per translation unit, compiled in parallel).
#include "suite.hpp"

namespace bench {
std::unique_ptr<suite> make_suite_u8(int width, int height, int images, int max_radius, run_timer& timer) {
  return std::make_unique<pixel_suite<std::uint8_t>>(width, height, images, max_radius, timer);
}
}  // namespace bench
