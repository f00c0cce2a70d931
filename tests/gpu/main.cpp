// Runner of the [gpu] tests. Without a usable device it prints why and exits 77, which
// CTest reports as "Skipped": the GPU tests never pass silently on a machine without one.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstdio>

#include <hipstencil/hipstencil.hpp>

int main(int argc, char* argv[]) {
  const int n = hipstencil::gpu::device_count();
  if (n == 0) {
    std::printf("[gpu] tests SKIPPED: no %s device is visible to this process\n", hipstencil::backend_name());
    return 77;
  }
  std::printf("[gpu] running on %s (%s backend, %d device(s) visible)\n",
              hipstencil::gpu::device_name(hipstencil::gpu::current_device()).c_str(), hipstencil::backend_name(), n);
  return Catch::Session().run(argc, argv);
}
