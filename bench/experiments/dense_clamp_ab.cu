// Standalone A/B driver (not built by CMake): tiled_dense_clamp_kernel (kernels/
// tiled_dense_clamp.hpp) in several shapes against the library's families, dense 3x3 and
// 5x5 (ab_dense_filter) under replicate, float, uchar4 and u8 (and in the modes below
// 16-bit and four-channel pixels), 128x128 to 1920x1080.
// Held, median of 40, best of two alternating runs. Variants:
//   auto, direct, packed (8-bit), smem, tiled   the library's algorithms;
//   BYxOXxOY     the kernel, 32 x BY threads of OX x OY outputs, launched directly
//                (launch_tiled_dense_clamp).
// Every shape sums in add_window_row's order, as direct2d_kernel does, so the outputs are
// checked byte-identical to direct's. dense-clamp-1.txt and -2.txt (bench/results/
// 2026-11-28-dense-clamp/) were taken with this driver's first and second versions (commit
// 9e41a96 has the second), which timed two more stagings of the kernel beside this one:
// g (each thread's window read from global memory) and r (the window rows' horizontal sums
// staged); the kernel keeps the pixels' staging, their p (s in the first version).
// dense-clamp-3.txt: this version less the shapes past the first two (float), three
// (uchar4) and two (u8), and less its medium and later modes; dense-clamp-4.txt: its
// medium mode. Modes narrow (u16, s16, half, bfloat16), wide16 (ushort4, half4,
// bfloat16x4, float4) and wide16big (ushort4 and half4 to 8192x8192): bench/results/
// 2026-11-28-dense16/dense16-*.txt (dense16-wide-1.txt: wide16 with ushort4 only). Mode
// three (uchar3, ushort3, float3 in four channels' shapes, 128x128 to 8192x8192):
// bench/results/2026-12-04-three/dense3-*.txt. -DAB_THREE_ONLY leaves out the modes before
// it (nvcc 13: an 11 MB binary against 32, small enough to carry to the device machine).
//   nvcc -std=c++17 -O3 -arch=sm_90 --expt-relaxed-constexpr -I<tree>/include \
//        -I/usr/include/eigen3 dense_clamp_ab.cu -lcufft -o dense_clamp_ab
#include "ab_common.hpp"
#include <cstdio>
#include <functional>
#include <string>
namespace hs = hipstencil;
namespace hd = hipstencil::detail;

template <class T>
void probe(const char* type, std::initializer_list<std::pair<int, int>> sizes) {
  ab_for_each_problem<T, true>(sizes, [&](int w, int h, int r, hs::image_view<const T> src, hs::device_image<T>& out,
                                          const hs::filter2d& f, const auto& p, const hd::geometry& gr) {
    std::vector<ab_variant> v;
    ab_add_library_firsts(v, src, out, f);
    v.push_back(ab_library_variant("smem", src, out, f, hs::algo::shared_mem<>{}));
    v.push_back(ab_library_variant("tiled", src, out, f, hs::algo::tiled<>{}));
    const int first_clamp = int(v.size());
    // One shape: 32 x BY threads of OX x OY outputs, named "BYxOXxOY".
    auto add = [&](auto BY, auto OX, auto OY) {
      constexpr int by = BY(), ox = OX(), oy = OY();
      v.push_back({std::to_string(by) + "x" + std::to_string(ox) + "x" + std::to_string(oy), [&] {
                     if (r == 1) hd::launch_tiled_dense_clamp<1, 32, by, ox, oy>(p, gr);
                     else hd::launch_tiled_dense_clamp<2, 32, by, ox, oy>(p, gr);
                   }});
    };
    using i1 = std::integral_constant<int, 1>;
    using i2 = std::integral_constant<int, 2>;
    using i4 = std::integral_constant<int, 4>;
    using i8 = std::integral_constant<int, 8>;
    using i16 = std::integral_constant<int, 16>;
    [[maybe_unused]] constexpr int C = hs::pixel_traits<T>::channels;
    if constexpr (std::is_same<T, float>::value) {
      add(i8{}, i2{}, i2{});
      add(i8{}, i1{}, i2{});
      add(i8{}, i2{}, i4{});
      add(i8{}, i4{}, i2{});
      add(i16{}, i2{}, i2{});
      add(i4{}, i4{}, i4{});
    } else if constexpr (C >= 3) {  // three and four channels
      add(i8{}, i1{}, i1{});
      add(i4{}, i1{}, i1{});
      add(i8{}, i1{}, i2{});
      add(i8{}, i1{}, i4{});
      add(i4{}, i1{}, i4{});
      add(i16{}, i1{}, i2{});
      add(i8{}, i2{}, i2{});
    } else if constexpr (sizeof(T) == 2) {
      add(i8{}, i2{}, i2{});
      add(i8{}, i4{}, i2{});
      add(i8{}, i2{}, i4{});
      add(i8{}, i1{}, i2{});
    } else {
      add(i8{}, i2{}, i2{});
      add(i8{}, i4{}, i2{});
    }
    char label[64];
    std::snprintf(label, sizeof label, "%-6s %4dx%-4d dense %dx%d", type, w, h, 2 * r + 1, 2 * r + 1);
    const auto hash = ab_time_kernel_case(label, out, v, first_clamp);
    bool same = true;
    for (int k = first_clamp; k < int(v.size()); ++k) same = same && hash[k] == hash[1];
    std::printf("%s\n", same ? "identical to direct" : "OUTPUTS DIFFER");
    std::fflush(stdout);
  });
}

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "all";
#ifndef AB_THREE_ONLY
  auto sizes = {std::pair<int, int>{128, 128}, {181, 181}, {256, 256}, {362, 362}, {512, 512}, {724, 724},
                {960, 540},                    {1024, 768}, {1280, 720}, {1920, 1080}};
  if (mode == "all" || mode == "float") probe<float>("float", sizes);
  if (mode == "all" || mode == "uchar4") probe<uchar4>("uchar4", sizes);
  if (mode == "all" || mode == "u8") probe<unsigned char>("u8", sizes);
  if (mode == "narrow") {  // one channel of 2 bytes
    probe<unsigned short>("u16", sizes);
    probe<short>("s16", sizes);
    probe<hs::half>("half", sizes);
    probe<hs::bfloat16>("bf16", sizes);
  }
  if (mode == "wide16") {  // four channels of 2 bytes, and of 4
    probe<ushort4>("ushort4", sizes);
    probe<hs::half4>("half4", sizes);
    probe<hs::bfloat16x4>("bf16x4", sizes);
    probe<float4>("float4", sizes);
  }
  if (mode == "wide16big") {
    auto big = {std::pair<int, int>{1920, 1080}, {2560, 1440}, {3840, 2160}, {8192, 8192}};
    probe<ushort4>("ushort4", big);
    probe<hs::half4>("half4", big);
  }
#endif
  if (mode == "three") {
    ab_three_mode([](auto tag, const char* name, auto sizes) {
      probe<std::remove_pointer_t<decltype(tag)>>(name, sizes);
    });
  }
  if (mode == "medium") {
    auto medium = {std::pair<int, int>{256, 256}, {362, 362}, {512, 512}, {724, 724}, {960, 540}};
    probe<float>("float", medium);
    probe<uchar4>("uchar4", medium);
  }
  std::printf("last error: %s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
