// bench/suite_s16.cpp
// The s16 -> s16 cases, std::int16_t (one pixel type per translation unit, compiled in
// parallel).
#include "suite.hpp"

namespace bench {
std::unique_ptr<suite> make_suite_s16(int width, int height, int images, int max_radius, run_timer& timer) {
  return std::make_unique<pixel_suite<std::int16_t>>(width, height, images, max_radius, timer);
}
}  // namespace bench
