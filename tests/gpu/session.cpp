// gpu_test::session_start, for the runner (main.cpp, plain C++): the seed, then the device.
#include <cstdio>
#include <exception>

#include "gpu_harness.hpp"

namespace gpu_test {
int session_start() {
  // The run's random seed first, whatever runs after (all tests, some, or none).
  try {
    print_seed();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "[gpu] %s\n", e.what());
    return 2;
  }
  const int n = hipstencil::gpu::device_count();
  if (n == 0) {
    std::printf("[gpu] tests SKIPPED: no %s device is visible to this process\n", hipstencil::backend_name());
    return 77;
  }
  std::printf("[gpu] running on %s (%s backend, %d device(s) visible)\n",
              hipstencil::gpu::device_name(hipstencil::gpu::current_device()).c_str(), hipstencil::backend_name(), n);
  return -1;
}
}  // namespace gpu_test
