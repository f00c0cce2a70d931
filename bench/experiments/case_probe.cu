// Standalone timing probe (not built by CMake) behind the sixteenth run (2026-11-24):
// shared_mem calls named on the command line, each "type:form:radius:border:strategy:WxH"
// (type u8 or float; form sep or dense; border replicate, constant, reflect101 or padded,
// padded in the bench's layout as border_probe.cu lays it out; strategy tc for tile_class,
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
#include <vector>
#include <random>
namespace hs = hipstencil;
#include "probe_timing.hpp"
template <class T, class Algo>
void run(const char* tag, const char* tname, bool sep, int r, hs::border::kind bk, const char* bname, const char* sname, int W, int H) {
  const int k = 2 * r + 1, M = 15, HX = 128 / int(sizeof(T)) > M ? 128 / int(sizeof(T)) : M;
  auto s = alloc<T>(W, H), d = alloc<T>(W, H), p = alloc<T>(HX + W + M, H + 2 * M);
  hs::image_view<const T> src0(s.p, W, H, s.pitch); hs::image_view<T> dst(d.p, W, H, d.pitch);
  hs::image_view<const T> pad(p.p, HX + W + M, H + 2 * M, p.pitch);
  const bool padded = bk == hs::border::kind::padded;
  hs::image_view<const T> src = padded ? pad.sub(hs::rect{HX, M, W, H}) : src0;
  std::mt19937 g(5); std::uniform_real_distribution<float> u(-1, 1);
  std::vector<float> dense(k * k), row(k), col(k);
  for (auto& x : dense) x = u(g); for (auto& x : row) x = u(g); for (auto& x : col) x = u(g);
  hs::border::any b(bk, 0.0f);
  double us;
  if (sep) { hs::separable_filter f(row, col); us = time_it([&] { hs::convolve(src, src.bounds(), dst, dst.bounds(), f, b, Algo{}, nullptr); }); }
  else { hs::filter2d f(k, k, dense); us = time_it([&] { hs::convolve(src, src.bounds(), dst, dst.bounds(), f, b, Algo{}, nullptr); }); }
  printf("%s,%s,%s %s %s %s,%dx%d,%.2f\n", tag, tname, sep ? "sep" : "dense", bname, sname, (std::to_string(k)+"x"+std::to_string(k)).c_str(), W, H, us);
  cudaFree(s.p); cudaFree(d.p); cudaFree(p.p);
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
