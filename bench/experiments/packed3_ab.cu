// Standalone A/B driver (not built by CMake): 8-bit three- and four-channel dense 3x3 and
// 5x5 under replicate in the packed family's half-precision lanes, staged in shared memory
// (uchar3: packed_three_kernel, kernels/packed_three.hpp; uchar4: packed_four_kernel,
// kernels/packed_four.hpp) against tiled's replicate kernels (algo::tiled) and direct (and
// for uchar4 the packed family's strip kernel), launched in several shapes.
// Question it answered for uchar3 (bench/results/2026-12-05-h100-packed3/p3.txt, when this
// file held its own copy of the kernel, also with 4 outputs a thread across, which lost):
// is uchar3 bound by its arithmetic? tiled_dense_clamp_kernel converts each channel to
// float and sums it with one FMA a tap: at 1920x1080 dense 3x3 it took 13.95 us on an H100
// where uchar4, a third more channels, took 10.91 in the packed family (bench/results/
// 2026-12-05-h100-staged/wide.csv). For uchar4 (mode four): does the same staging beat
// tiled_dense_clamp_kernel's float4 (16 bytes a pixel in shared memory) on small images?
// It did (bench/results/2026-12-06-h100-four/four.txt, an H100): packed_policy's comment
// has the figures and the shapes taken.
// Variants, held, median of 40, better of two taken in turn (ab_time_kernel_case):
//   auto, direct, [packed,] tiled   the library;
//   pBYx2xOY              packed_three_kernel, 32 x BY threads of 2 x OY outputs;
//   qBYx1xOY              packed_four_kernel, 32 x BY threads of 1 x OY outputs.
// Its outputs are within 1 of tiled's (what the packed family promises for a filter its
// plan accepts): the line ends with the largest difference and how many channels differ.
// Mode dense: ab_dense_filter; mode sep: a Gaussian, tiled on its separable form and the
// kernel on its outer product. Modes four, four-dense and four-sep: the same for uchar4.
//   nvcc -std=c++17 -O3 -arch=sm_90 --expt-relaxed-constexpr -I<tree>/include \
//        -I/usr/include/eigen3 packed3_ab.cu -lcufft -o packed3_ab
//   ./packed3_ab [dense|sep|all|four|four-dense|four-sep] [WxH,WxH,...]
#include "ab_common.hpp"
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>
namespace hs = hipstencil;
namespace hd = hipstencil::detail;

template <class T, bool Dense>
void probe(const ab_sizes& sizes) {
  constexpr bool four = std::is_same<T, uchar4>::value;
  ab_for_each_problem<T, Dense>(sizes, [&](int w, int h, int r, hs::image_view<const T> src,
                                           hs::device_image<T>& out, const auto& f, const auto& p,
                                           const hd::geometry& gr) {
    std::vector<float> k;
    if constexpr (Dense) {
      k = f.coefficients();
    } else {
      const int n = 2 * r + 1;
      k.resize(std::size_t(n) * n);
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) k[std::size_t(j) * n + i] = f.column()[j] * f.row()[i];
    }
    const hd::packed_plan pl = hd::plan_packed_dense(k);
    char label[96];
    std::snprintf(label, sizeof label, "%s %5dx%-5d %s %dx%d", four ? "uchar4" : "uchar3", w, h,
                  Dense ? "dense" : "sep  ", 2 * r + 1, 2 * r + 1);
    if (!pl.ok) {
      std::printf("%s  packed plan refuses: %s\n", label, pl.why);
      return;
    }
    std::vector<ab_variant> v;
    ab_add_library_firsts(v, src, out, f);
    // automatic, direct (and for uchar4 the family's strip kernel; for uchar3
    // ab_add_library_firsts' packed is the kernel below), then tiled.
    if (!four) v.resize(2);
    const int tiled = int(v.size());
    v.push_back(ab_library_variant("tiled", src, out, f, hs::algo::tiled<>{}));
    const int first = int(v.size());
    auto add = [&](const char* name, auto launch) {
      v.push_back({name, [&p, &gr, &pl, launch] { launch(p, gr, pl); }});
    };
    hd::with_static_radius(r, [&](auto R) {
      if constexpr (four) {
        add("q8x1x1", hd::launch_packed_four<R, 32, 8, 1>);
        add("q8x1x2", hd::launch_packed_four<R, 32, 8, 2>);
        add("q4x1x2", hd::launch_packed_four<R, 32, 4, 2>);
        add("q4x1x4", hd::launch_packed_four<R, 32, 4, 4>);
        add("q8x1x4", hd::launch_packed_four<R, 32, 8, 4>);
        add("q16x1x1", hd::launch_packed_four<R, 32, 16, 1>);
      } else {
        add("p8x2x2", hd::launch_packed_three<R, 32, 8, 2>);
        add("p8x2x1", hd::launch_packed_three<R, 32, 8, 1>);
        add("p4x2x4", hd::launch_packed_three<R, 32, 4, 4>);
        add("p8x2x4", hd::launch_packed_three<R, 32, 8, 4>);
      }
    }, std::integer_sequence<int, 1, 2>{});
    ab_time_kernel_case(label, out, v, first);
    ab_print_within_one("tiled", out, v, tiled, first);
  });
}

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "all";
  const ab_sizes sizes =
      ab_parse_sizes("packed3_ab", argc > 2 ? argv[2] : nullptr,
                     {{512, 512}, {1280, 720}, {1920, 1080}, {2560, 1440}, {3840, 2160}, {8192, 8192}});
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  std::printf("packed3_ab: %s\n", prop.name);
  if (mode == "dense" || mode == "all") probe<uchar3, true>(sizes);
  if (mode == "sep" || mode == "all") probe<uchar3, false>(sizes);
  if (mode == "four" || mode == "four-dense") probe<uchar4, true>(sizes);
  if (mode == "four" || mode == "four-sep") probe<uchar4, false>(sizes);
  const cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) std::printf("CUDA error: %s\n", cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}
