// Standalone A/B driver (not built by CMake): times the two families that run
// tiled2d_kernel, algo::tiled on dense filters (radius 1 to 8) and algo::direct (radius 1
// and 2), on one pixel type (TYPE=0 u8, 1 float, 2 uchar4: ab_type.hpp, chosen at compile time so that
// three builds run in parallel), from 512x512 to 8192x8192 and an odd 1001x997, under
// replicate (and reflect101 at radius 1, 4 and 7), a separable Gaussian at radius 1 and 2
// in tiled (replicate, reflect101) and streaming (replicate), and prints a hash of each output, so
// that two builds against two trees of include/ compare both time and bytes. Build and
// run on an NVIDIA GPU, once per tree:
//   nvcc -std=c++17 -O3 -arch=sm_90 --expt-relaxed-constexpr -DTYPE=1 -I<tree>/include \
//        -I/usr/include/eigen3 tiled_dense_ab.cu -lcufft -o ab && ./ab
// Output lines: type size family radius rule form, time (us), GB/s (input + output bytes
// once), hash. It measured a first design of the dense kernel (per-thread classes,
// row-major warps, aligned pieces) and the interior instance with its frame that was
// taken: bench/results/2026-11-25-tiled-dense/.
#include "ab_common.hpp"
#include "ab_type.hpp"
#include <cstdio>
#include <cstring>
#include <vector>
namespace hs = hipstencil;

template <class Tag>
void run(const char* fam, Tag tag, int w, int h, int r, bool reflect, hs::device_image<T>& a, hs::device_image<T>& b,
         bool separable = false) {
  const hs::filter2d f = ab_dense_filter(r);
  const auto gt = hs::filters::gaussian_taps(0.4 + 0.6 * r, r);
  const hs::separable_filter sf(gt, gt);
  auto go = [&] {
    auto with = [&](const auto& filter) {
      if (reflect) hs::convolve(a.view(), b.view(), filter, hs::border::reflect101{}, tag);
      else hs::convolve(a.view(), b.view(), filter, hs::border::replicate{}, tag);
    };
    if (separable) with(sf);
    else with(f);
  };
  b.fill_bytes(0xA5);
  go();
  cudaDeviceSynchronize();
  const unsigned long long hash = hash_rows(b.data(), b.pitch_bytes(), w, h, 1, 0, sizeof(T));
  const double us = time_us(go, w * h >= (1 << 24) ? 20 : 40);
  std::printf("%s %dx%d %s r%d %s %s %.2f %.0f %016llx\n", tname, w, h, fam, r, reflect ? "reflect101" : "replicate",
              separable ? "separable" : "dense", us, 2.0 * w * h * sizeof(T) / us * 1e-3, hash);
}

int main() {
  unsigned s = 4242;
  struct sz { int w, h; };
  for (auto z : std::vector<sz>{{512, 512}, {1001, 997}, {1920, 1080}, {3840, 2160}, {8192, 8192}}) {
    hs::device_image<T> a(z.w, z.h), b(z.w, z.h);
    fill_random_pixels(a, s);
    for (int r = 1; r <= 8; ++r) {
      run("tiled", hs::algo::tiled<>{}, z.w, z.h, r, false, a, b);
      if (r == 1 || r == 4 || r == 7) run("tiled", hs::algo::tiled<>{}, z.w, z.h, r, true, a, b);
      if (r <= 2) run("direct", hs::algo::direct<>{}, z.w, z.h, r, false, a, b);
      if (r <= 2) run("tiled", hs::algo::tiled<>{}, z.w, z.h, r, false, a, b, true);
      if (r <= 2) run("tiled", hs::algo::tiled<>{}, z.w, z.h, r, true, a, b, true);
      if (r <= 2) run("streaming", hs::algo::streaming<>{}, z.w, z.h, r, false, a, b, true);
    }
  }
  std::printf("last error: %s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
