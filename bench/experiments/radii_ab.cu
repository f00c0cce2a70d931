// Standalone A/B driver (not built by CMake): what each compiled radius buys. Times, in one
// binary and on one pixel type (TYPE=0 u8, 1 float, 2 uchar4, 3 u16, chosen at compile time
// so that the builds run in parallel), under replicate:
//   shared_mem, dense and separable, radius 5 to 16: the compiled-radius kernel (the
//     library's policy) against the run-time-size kernel (a policy with no compiled radii);
//   two_pass, separable, radius 3 to 16: the same pair (workspace given, so no allocation);
//   tiled, dense, radius 3 and 4: window rows unrolled (unrolled_rows_max_radius 4, the
//     library's policy when this ran) against a rolled loop over them (2, its policy since).
// A radius whose compiled kernel buys little costs its share of every build for nothing:
// these figures decide the policies' compiled radii. Each line: type size family form
// radius, the time of each variant (us, median of 40 calls, device events; "compiled" is
// the compiled radius, or for tiled the unrolled rows; "other" the run-time size, or the
// rolled rows), their ratio, and whether the two outputs are byte-identical. Run on the
// H200: bench/results/2026-11-26-ci/radii-ab.txt. Build and run on an NVIDIA GPU:
//   nvcc -std=c++17 -O3 -arch=sm_90 --expt-relaxed-constexpr -DTYPE=1 -I<tree>/include \
//        -I/usr/include/eigen3 radii_ab.cu -lcufft -o radii_ab && ./radii_ab
#include "ab_common.hpp"
#include "ab_type.hpp"
#include <cstdio>
#include <cstring>
#include <vector>
namespace hs = hipstencil;
namespace tu = hipstencil::tuning;

using smem_runtime = hs::algo::shared_mem<hs::strategy::tile_class, tu::shared_mem_policy<tu::radii<>, tu::radii<>>>;
using two_pass_runtime = hs::algo::two_pass<hs::strategy::tile_class, tu::two_pass_policy<tu::radii<>>>;
struct tiled_unrolled : tu::tiled_policy<> {
  static constexpr int unrolled_rows_max_radius = 4;
};
struct tiled_rolled : tu::tiled_policy<> {
  static constexpr int unrolled_rows_max_radius = 2;
};
using tiled_unrolled_tag = hs::algo::tiled<hs::strategy::tile_class, tiled_unrolled>;
using tiled_rolled_tag = hs::algo::tiled<hs::strategy::tile_class, tiled_rolled>;

struct images {
  hs::device_image<T> src, a, b;
  int w, h;
};

template <class Filter, class TagA, class TagB>
void compare(const char* fam, const char* form, int r, images& im, const Filter& f, TagA ta, TagB tb,
             const hs::workspace* ws = nullptr) {
  auto run = [&](auto tag, hs::device_image<T>& out) {
    return [&, tag] {
      if constexpr (std::is_same<Filter, hs::separable_filter>::value) {
        if (ws) {
          hs::convolve(im.src.view(), im.src.view().bounds(), out.view(), out.view().bounds(), f, hs::border::replicate{},
                       tag, nullptr, hs::halo::isolated, *ws);
          return;
        }
      }
      hs::convolve(im.src.view(), out.view(), f, hs::border::replicate{}, tag);
    };
  };
  im.a.fill_bytes(0xA5);
  im.b.fill_bytes(0x5A);
  const double ta_us = time_us(run(ta, im.a)), tb_us = time_us(run(tb, im.b));
  cudaDeviceSynchronize();
  const auto ha = hash_rows(im.a.data(), im.a.pitch_bytes(), im.w, im.h, 1, 0, sizeof(T));
  const auto hb = hash_rows(im.b.data(), im.b.pitch_bytes(), im.w, im.h, 1, 0, sizeof(T));
  std::printf("%s %dx%d %s %s r%d compiled %.2f other %.2f ratio %.3f %s\n", tname, im.w, im.h, fam, form, r, ta_us,
              tb_us, tb_us / ta_us, ha == hb ? "same" : "DIFFER");
  std::fflush(stdout);
}

int main() {
  unsigned s = 4242;
  struct sz { int w, h; };
  for (auto z : std::vector<sz>{{512, 512}, {1920, 1080}, {3840, 2160}}) {
    images im{hs::device_image<T>(z.w, z.h), hs::device_image<T>(z.w, z.h), hs::device_image<T>(z.w, z.h), z.w, z.h};
    fill_random_pixels(im.src, s);
    for (int r : {3, 4}) compare("tiled", "dense", r, im, ab_dense_filter(r), tiled_unrolled_tag{}, tiled_rolled_tag{});
    for (int r : {5, 6, 8, 9, 12, 16}) {
      compare("shared_mem", "dense", r, im, ab_dense_filter(r), hs::algo::shared_mem<>{}, smem_runtime{});
      const auto g = hs::filters::gaussian_taps(0.4 + 0.6 * r, r);
      const hs::separable_filter sep(g, g);
      compare("shared_mem", "separable", r, im, sep, hs::algo::shared_mem<>{}, smem_runtime{});
    }
    for (int r : {3, 4, 6, 8, 9, 12, 16}) {
      const auto g = hs::filters::gaussian_taps(0.4 + 0.6 * r, r);
      const hs::separable_filter sep(g, g);
      void* mem = nullptr;
      const std::size_t bytes = hs::two_pass_workspace_bytes<T>(z.w, z.h, sep);
      cudaMalloc(&mem, bytes);
      const hs::workspace ws{mem, bytes};
      compare("two_pass", "separable", r, im, sep, hs::algo::two_pass<>{}, two_pass_runtime{}, &ws);
      cudaFree(mem);
    }
  }
  std::printf("last error: %s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
