// Runner of the [gpu] tests. Without a usable device it prints why and exits 77, which
// CTest reports as "Skipped": the GPU tests never pass silently on a machine without one.
// Plain C++, built by the host compiler on both backends: Catch2's runner is most of this
// file, and through nvcc it took 17 s where g++ took 9 (hipcc for two targets 13, as C++
// 6). The device checks are gpu_test::session_start (session.cpp), a GPU source.
// Listing the cases (or the help) runs none, so the device checks are left out then: a
// machine without a device can still list the cases (scripts/gpu-suite.sh splits by them).
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstring>

namespace gpu_test {
/// Prints the run's random seed, then the device the tests run on, or that there is none.
/// Returns the exit status to stop with (77: no device, 2: a bad seed), or -1 to run.
int session_start();
}  // namespace gpu_test

namespace {
/// Whether the command line only lists (Catch2 2.x's listing and help options).
bool lists_only(int argc, char* argv[]) {
  for (int i = 1; i < argc; ++i)
    for (const char* o : {"-l", "--list-tests", "--list-test-names-only", "-t", "--list-tags", "--list-reporters",
                          "-h", "-?", "--help"})
      if (std::strcmp(argv[i], o) == 0) return true;
  return false;
}
}  // namespace

int main(int argc, char* argv[]) {
  if (!lists_only(argc, argv)) {
    const int stop = gpu_test::session_start();
    if (stop >= 0) return stop;
  }
  return Catch::Session().run(argc, argv);
}
