// bench/suite_bf16.cpp
// The bfloat16 -> bfloat16 cases (one pixel type per translation unit).
#include "suite.hpp"

namespace bench {
std::unique_ptr<suite> make_suite_bf16(int width, int height, int images, int max_radius, run_timer& timer) {
  return std::make_unique<pixel_suite<hs::bfloat16>>(width, height, images, max_radius, timer);
}
}  // namespace bench
