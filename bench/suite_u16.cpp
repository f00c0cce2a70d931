// bench/suite_u16.cpp
// The u16 -> u16 cases, std::uint16_t (one pixel type per translation unit, compiled in
// parallel).
#include "suite.hpp"

namespace bench {
std::unique_ptr<suite> make_suite_u16(int width, int height, int images, int max_radius, run_timer& timer) {
  return std::make_unique<pixel_suite<std::uint16_t>>(width, height, images, max_radius, timer);
}
}  // namespace bench
