// Standalone timing probe (not built by CMake) behind the sixteenth run (2026-11-24):
// shared_mem calls named on the command line, each "type:form:radius:border:strategy:WxH"
// (type u8 or float; form sep or dense; border replicate, constant, reflect101 or padded,
// padded in the bench's layout, probe_case.hpp; strategy tc for tile_class,
// pa for per_access). Times each call (device events, median of 31) against whichever
// hipstencil include/ it is compiled with, so that several trees can be timed in one call.
// Build and run on an NVIDIA GPU, once per tree:
//   nvcc -std=c++17 -O3 -arch=sm_90 -I TREE/include -I/usr/include/eigen3 -x cu case_probe.cu -o probe
//   ./probe LABEL u8:sep:4:constant:tc:3840x2160 ...   (prints LABEL,type,case,size,microseconds)
// Its output: bench/results/2026-11-24-gridconst/probe-run*.csv.
#include <hipstencil/hipstencil.hpp>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <string>
namespace hs = hipstencil;
#include "probe_case.hpp"
template <class T, class Algo>
void run(const char* tag, const char* tname, bool sep, int r, hs::border::kind bk, const char* bname, const char* sname, int W, int H) {
  const double us = time_case<T, Algo>(sep, r, bk, W, H);
  const std::string k = std::to_string(2 * r + 1);
  printf("%s,%s,%s %s %s %sx%s,%dx%d,%.2f\n", tag, tname, sep ? "sep" : "dense", bname, sname, k.c_str(), k.c_str(), W, H, us);
}
template <class T, class S>
void by_form(const char* tag, const char* tn, bool sep, int r, hs::border::kind bk, const char* bn, const char* sn, int W, int H) {
  run<T, hs::algo::shared_mem<S>>(tag, tn, sep, r, bk, bn, sn, W, H);
}
int main(int argc, char** argv) {
  const char* tag = argv[1];
  for (int a = 2; a < argc; ++a) {
    char t[16], f[16], bn[16], sn[16]; int r, W, H;
    if (sscanf(argv[a], "%15[^:]:%15[^:]:%d:%15[^:]:%15[^:]:%dx%d", t, f, &r, bn, sn, &W, &H) != 7) { printf("bad %s\n", argv[a]); return 1; }
    using K = hs::border::kind;
    K bk = !strcmp(bn, "replicate") ? K::replicate : !strcmp(bn, "constant") ? K::constant : !strcmp(bn, "reflect101") ? K::reflect101 : K::padded;
    bool sep = !strcmp(f, "sep"), pa = !strcmp(sn, "pa");
    if (!strcmp(t, "u8")) { if (pa) by_form<std::uint8_t, hs::strategy::per_access>(tag, t, sep, r, bk, bn, sn, W, H); else by_form<std::uint8_t, hs::strategy::tile_class>(tag, t, sep, r, bk, bn, sn, W, H); }
    else { if (pa) by_form<float, hs::strategy::per_access>(tag, t, sep, r, bk, bn, sn, W, H); else by_form<float, hs::strategy::tile_class>(tag, t, sep, r, bk, bn, sn, W, H); }
  }
}
