// bench/suite_half.cpp
// The half -> half cases, IEEE binary16 (one pixel type per translation unit).
#include "suite.hpp"

namespace bench {
std::unique_ptr<suite> make_suite_f16(int width, int height, int images, int max_radius, run_timer& timer) {
  return std::make_unique<pixel_suite<hs::half>>(width, height, images, max_radius, timer);
}
}  // namespace bench
