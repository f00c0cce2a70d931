// Runner of the [gpu] tests. Without a usable device it prints why and exits 77, which
// CTest reports as "Skipped": the GPU tests never pass silently on a machine without one.
// Plain C++, built by the host compiler on both backends: Catch2's runner is most of this
// file, and through nvcc it took 17 s where g++ took 9 (hipcc for two targets 13, as C++
// 6). The device checks are gpu_test::session_start (session.cpp), a GPU source.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

namespace gpu_test {
/// Prints the run's random seed, then the device the tests run on, or that there is none.
/// Returns the exit status to stop with (77: no device, 2: a bad seed), or -1 to run.
int session_start();
}  // namespace gpu_test

int main(int argc, char* argv[]) {
  const int stop = gpu_test::session_start();
  if (stop >= 0) return stop;
  return Catch::Session().run(argc, argv);
}
