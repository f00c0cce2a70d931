// Standalone A/B driver (not built by CMake): times algo::packed on u8 and uchar4 (3x3 and
// 5x5, dense and separable, replicate, constant and reflect101) on single images from
// 128x128 to 8192x8192, narrow and tall ones and odd sizes, and on uniform batches
// (convolve_batch) of small images, and prints a hash of each output, so that two builds
// of it against two trees of include/ compare both time and bytes. Environment: ONLY=batch
// or ONLY=single runs one half; STRIP=n asks packed for strips of n output rows; SIZES=WxH,...
// replaces the single images' sizes. Build and run on an NVIDIA GPU, once per tree:
//   nvcc -std=c++17 -O3 -arch=sm_90 --expt-relaxed-constexpr -I<tree>/include \
//        -I/usr/include/eigen3 packed_segment_ab.cu -lcufft -o ab && ./ab
// It measured packed_segment.patch (edge blocks' halo words by warp shuffle), the general
// walk's prefetch for every pixel type and a per-strip border test in y against main, on
// the H200: bench/results/2026-11-25-segment/ (none of them made the library); then the
// one-channel edge blocks' words by byte permute and the per-row border test in y that
// did: bench/results/2026-11-25-words/; then the strip kernel (kernels/packed_strips.hpp)
// and its register limits: bench/results/2026-11-25-strips/.
#include "ab_common.hpp"
#include <hipstencil/hipstencil.hpp>
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>
namespace hs = hipstencil;
// The tag every call takes: algo::packed, with STRIP's strip length where it is set.
static hs::algo::packed<> packed_tag() {
  hs::algo::packed<> tag;
  if (const char* s = getenv("STRIP")) tag.strip_rows = std::atoi(s);
  return tag;
}
// Every filter case on one input/output pair; `go(filter, border)` runs one call.
template <class Go>
void cases(const char* what, Go go, std::size_t bytes_moved, const std::function<unsigned long long()>& hash,
           const std::function<void()>& poison) {
  ab_for_each_case([&](int r, const char* rule, bool dn, auto& run) {
    auto call = [&] { run(go); };
    poison();
    call();
    cudaDeviceSynchronize();
    const unsigned long long h = hash();
    const double us = time_us(call);
    std::printf("%s %s r%d %s %.2f %.0f %016llx\n", what, dn ? "dense" : "sep", r, rule, us, bytes_moved / us * 1e-3, h);
  });
}
template <class T>
void single(const char* tn, int w, int h, unsigned& s) {
  hs::device_image<T> a(w, h), b(w, h);
  fill_random(a.data(), a.pitch_bytes(), std::size_t(w) * sizeof(T), h, s);
  char what[64];
  std::snprintf(what, sizeof what, "%s %dx%d x1", tn, w, h);
  cases(what, [&](const auto& f, auto border) { hs::convolve(a.view(), b.view(), f, border, packed_tag()); },
        2 * std::size_t(w) * h * sizeof(T),
        [&] { return hash_rows(b.data(), b.pitch_bytes(), w, h, 1, 0, sizeof(T)); }, [&] { b.fill_bytes(0xA5); });
}
template <class T>
void batch(const char* tn, int w, int h, int n, unsigned& s) {
  hs::device_batch<T> a(w, h, n), b(w, h, n);
  fill_random(a.view().first.data, a.pitch_bytes(), std::size_t(w) * sizeof(T), std::size_t(h) * n, s);
  char what[64];
  std::snprintf(what, sizeof what, "%s %dx%d x%d", tn, w, h, n);
  cases(what,
        [&](const auto& f, auto border) {
          hs::convolve_batch(hs::batch_view<const T>(a.view()), b.view(), f, border, packed_tag());
        },
        2 * std::size_t(w) * h * n * sizeof(T),
        [&] { return hash_rows(b.view().first.data, b.pitch_bytes(), w, h, n, b.image_stride_bytes(), sizeof(T)); },
        [&] { b.fill_bytes(0xA5); });
}
int main() {
  const char* only = getenv("ONLY");
  unsigned s = 12345;
  struct sz { int w, h; };
  if (!only || !std::strcmp(only, "batch")) {
    for (auto z : std::vector<sz>{{128, 128}, {200, 120}, {64, 64}}) batch<uint8_t>("u8", z.w, z.h, z.w == 128 ? 4096 : 2048, s);
    for (auto z : std::vector<sz>{{128, 128}, {100, 90}}) batch<uchar4>("uchar4", z.w, z.h, 1024, s);
    batch<uchar4>("uchar4", 1920, 1080, 16, s);
  }
  if (!only || !std::strcmp(only, "single")) {
    std::vector<sz> sizes{{128, 128}, {200, 150}, {256, 256}, {512, 512}, {1280, 720}, {1920, 1080},
                          {3840, 2160}, {8192, 8192}, {128, 65536}, {1001, 997}};
    if (const char* list = getenv("SIZES")) {  // WxH,WxH,...
      sizes.clear();
      for (const char* q = list; *q;) {
        int w = 0, h = 0, n = 0;
        if (std::sscanf(q, "%dx%d%n", &w, &h, &n) != 2) break;
        sizes.push_back({w, h});
        q += n;
        if (*q == ',') ++q;
      }
    }
    for (auto z : sizes) {
      single<uint8_t>("u8", z.w, z.h, s);
      single<uchar4>("uchar4", z.w, z.h, s);
    }
  }
  cudaError_t e = cudaGetLastError();
  std::printf("last error: %s\n", cudaGetErrorString(e));
  return 0;
}
