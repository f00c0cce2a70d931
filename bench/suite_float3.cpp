// bench/suite_float3.cpp
// The float3 -> float3 cases, interleaved float RGB (one pixel type per translation unit).
#include "suite.hpp"

namespace bench {
std::unique_ptr<suite> make_suite_rgb32f(int width, int height, int images, int max_radius, run_timer& timer) {
  return std::make_unique<pixel_suite<hs::float3>>(width, height, images, max_radius, timer);
}
}  // namespace bench
