// Standalone probe (not built by CMake): where the time of algo::tiled's split dense launch
// (tiled_interior.hpp: the interior instance and the frame around it) goes, on float
// 8192x8192 at radius 4 and 7. Times the whole call under replicate and reflect101 on the
// full image, and under padded on a caller-padded source (no frame), so that the
// difference is the frame's share; `./probe 1 replicate` under Nsight Compute
// (ncu -k regex:tiled2d) gives each grid's own time. Build and run on an NVIDIA GPU:
//   nvcc -std=c++17 -O3 -arch=sm_90 --expt-relaxed-constexpr -Iinclude \
//        -I/usr/include/eigen3 tiled_frame_probe.cu -lcufft -o probe && ./probe [runs [rule|shapes]]
// Output lines: size radius rule, time (us), multiple of the FP32 FMA floor at 31.82
// TFMA/s (the bench's measured ceiling on the H200), hash of the output.
#include "ab_common.hpp"
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
namespace hs = hipstencil;

int main(int argc, char** argv) {
  const int w = 8192, h = 8192, P = 8;
  const int runs = argc > 1 ? std::atoi(argv[1]) : 25;
  hs::device_image<float> src(w, h), padded(w + 2 * P, h + 2 * P), out(w, h);
  unsigned s = 4242;
  for (auto* im : {&src, &padded}) fill_random_pixels(*im, s);
  for (int r : {4, 7}) {
    const hs::filter2d f = ab_dense_filter(r);
    const double floor_us = double(w) * h * (2 * r + 1) * (2 * r + 1) / 31.82e12 * 1e6;
    auto report = [&](const char* rule, auto go) {
      if (argc > 2 && std::string(argv[2]) != rule) return;  // a rule named: that rule only
      out.fill_bytes(0xA5);
      go();
      cudaDeviceSynchronize();
      const unsigned long long hash = hash_rows(out.data(), out.pitch_bytes(), w, h, 1, 0, 4);
      const double us = time_us(go, runs);
      std::printf("%dx%d r%d %s %.1f us %.2fx floor %016llx\n", w, h, r, rule, us, us / floor_us, hash);
    };
    report("replicate", [&] { hs::convolve(src.view(), out.view(), f, hs::border::replicate{}, hs::algo::tiled<>{}); });
    report("reflect101", [&] { hs::convolve(src.view(), out.view(), f, hs::border::reflect101{}, hs::algo::tiled<>{}); });
    report("padded", [&] {
      hs::convolve(padded.view(), hs::rect{P, P, w, h}, out.view(), hs::rect{0, 0, w, h}, f, hs::border::padded{},
                   hs::algo::tiled<>{});
    });
  }
  // The interior instance's block shape (InteriorBlockX x InteriorBlockY threads) on the
  // caller-padded source, where the interior is the whole ROI: "shape IXxIY". Only when
  // asked (./probe runs shapes).
  if (argc > 2 && std::string(argv[2]) == "shapes") {
    auto shape = [&](int r, auto policy, const char* name) {
      using Policy = decltype(policy);
      const hs::filter2d f = ab_dense_filter(r);
      const double floor_us = double(w) * h * (2 * r + 1) * (2 * r + 1) / 31.82e12 * 1e6;
      auto go = [&] {
        hs::convolve(padded.view(), hs::rect{P, P, w, h}, out.view(), hs::rect{0, 0, w, h}, f, hs::border::padded{},
                     hs::algo::tiled<hs::strategy::tile_class, Policy>{});
      };
      const double us = time_us(go, runs);
      std::printf("%dx%d r%d shape %s %.1f us %.2fx floor\n", w, h, r, name, us, us / floor_us);
    };
    using R8 = hs::tuning::radii_range<1, 8>;
    constexpr std::size_t S = hs::tuning::shared_memory_budget;
    for (int r : {4, 7}) {
      shape(r, hs::tuning::tiled_policy<8, 8, 4, 4, R8, S, 12, 32, 2>{}, "32x2");
      shape(r, hs::tuning::tiled_policy<8, 8, 4, 4, R8, S, 12, 128, 1>{}, "128x1");
      shape(r, hs::tuning::tiled_policy<8, 8, 4, 4, R8, S, 12, 64, 1>{}, "64x1");
      shape(r, hs::tuning::tiled_policy<8, 8, 4, 4, R8, S, 12, 64, 2>{}, "64x2");
      shape(r, hs::tuning::tiled_policy<8, 8, 4, 4, R8, S, 12, 32, 4>{}, "32x4");
      shape(r, hs::tuning::tiled_policy<8, 8, 4, 4, R8, S, 12, 32, 1>{}, "32x1");
    }
  }
  std::printf("last error: %s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
