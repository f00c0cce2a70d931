// Standalone timing probe (not built by CMake) behind the fixes of 3297a4e: tag_probe.cu
// with a border rule per case, and under `padded` the bench's layout (the source is the
// interior of a larger image whose left halo is 128 bytes, as bench/suite.hpp pads it).
// Times explicit-tag calls at 8192x8192 (device events, median of 31) against whichever
// hipstencil include/ it is compiled with, so that two trees can be timed in one call.
// Build and run on an NVIDIA GPU, once per tree:
//   nvcc -std=c++17 -O3 -arch=sm_90 -I TREE/include -I/usr/include/eigen3 -x cu border_probe.cu -o probe
//   ./probe LABEL [CASE]    (prints LABEL,type,algorithm,form border,size,microseconds)
// Its figures: bench/RESULTS.md, the fifteenth run.
#include <hipstencil/hipstencil.hpp>
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdio>
#include <cstdint>
#include <vector>
#include <random>
#include <cstdlib>
namespace hs = hipstencil;

#include "probe_case.hpp"
template <class T, class Algo>
void run(const char* tname, const char* aname, bool sep, int r, hs::border::kind bk, const char* bname, const char* tag) {
  const int k = 2 * r + 1;
  const double us = time_case<T, Algo>(sep, r, bk, 8192, 8192);
  printf("%s,%s,%s,%s %s,%dx%d,%.1f\n", tag, tname, aname, sep ? "sep" : "dense", bname, k, k, us);
}
static int only = -1, idx = 0;
#define CASE(...) do { if (only < 0 || only == idx) __VA_ARGS__; ++idx; } while (0)
int main(int argc, char** argv) {
  const char* tag = argc > 1 ? argv[1] : "?";
  if (argc > 2) only = atoi(argv[2]);
  using SM = hs::algo::shared_mem<>; using TL = hs::algo::tiled<>;
  using K = hs::border::kind;
  const K ks[] = {K::replicate, K::constant, K::padded}; const char* kn[] = {"replicate", "constant", "padded"};
  CASE(run<std::uint8_t, SM>("u8", "shared_mem", true, 4, K::constant, "constant", tag));
  CASE(run<std::uint8_t, SM>("u8", "shared_mem", true, 4, K::padded, "padded", tag));
  CASE(run<std::uint8_t, SM>("u8", "shared_mem", true, 15, K::padded, "padded", tag));
  CASE(run<float, SM>("float", "shared_mem", true, 15, K::replicate, "replicate", tag));
  CASE(run<float, SM>("float", "shared_mem", true, 15, K::padded, "padded", tag));
  CASE(run<float, SM>("float", "shared_mem", true, 7, K::padded, "padded", tag));
  CASE(run<float, SM>("float", "shared_mem", true, 4, K::padded, "padded", tag));
  CASE(run<hs::uchar4, SM>("uchar4", "shared_mem", true, 7, K::replicate, "replicate", tag));
  CASE(run<std::uint8_t, TL>("u8", "tiled", false, 2, K::padded, "padded", tag));
  return 0;
}
