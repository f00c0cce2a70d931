// Runner of the [gpu] tests. Without a usable device it prints why and exits 77, which
// CTest reports as "Skipped": the GPU tests never pass silently on a machine without one.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstdio>
#include <exception>

#include <hipstencil/hipstencil.hpp>

#include "gpu_harness.hpp"

int main(int argc, char* argv[]) {
  // The run's random seed first, whatever runs after (all tests, some, or none).
  try {
    gpu_test::print_seed();
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
  return Catch::Session().run(argc, argv);
}
