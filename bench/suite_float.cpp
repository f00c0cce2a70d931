// bench/suite_float.cpp
// The float -> float cases (one pixel type per translation unit, compiled in parallel).
#include "suite.hpp"

namespace bench {
std::unique_ptr<suite> make_suite_f32(int width, int height, int images, int max_radius, run_timer& timer) {
  return std::make_unique<pixel_suite<float>>(width, height, images, max_radius, timer);
}
}  // namespace bench
