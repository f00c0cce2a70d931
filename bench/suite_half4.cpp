// bench/suite_half4.cpp
// The half4 -> half4 and bfloat16x4 -> bfloat16x4 cases: four 16-bit float channels.
#include "suite.hpp"

namespace bench {
std::unique_ptr<suite> make_suite_rgba16f(int width, int height, int images, int max_radius, run_timer& timer) {
  return std::make_unique<pixel_suite<hs::half4>>(width, height, images, max_radius, timer);
}
std::unique_ptr<suite> make_suite_rgba16bf(int width, int height, int images, int max_radius, run_timer& timer) {
  return std::make_unique<pixel_suite<hs::bfloat16x4>>(width, height, images, max_radius, timer);
}
}  // namespace bench
