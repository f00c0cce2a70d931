// Standalone A/B driver (not built by CMake): tiled_sep_clamp_kernel (kernels/
// tiled_sep_clamp.hpp) in several shapes against the families automatic chose before it,
// separable 3x3 and 5x5 under replicate, u8, uchar4, float and u16, 128x128 to 1920x1080,
// and in its wide mode ushort4, half4, bfloat16x4 and float4 (to 8192x8192 for ushort4 and
// float4; bench/results/2026-11-28-dense16/sep16-wide-1.txt), in its three mode uchar3,
// ushort3 and float3 to 8192x8192 (bench/results/2026-12-04-three/sep3-*.txt; -DAB_THREE_ONLY
// compiles that mode alone: nvcc 13 made a 15 MB binary against 25).
// Held, median of 40, best of two alternating runs. Variants:
//   auto         the library's automatic (with the kernel where tiled_policy's limits say);
//   direct, packed (8-bit), shared_mem, tiled0
//                the families, tiled0 being algo::tiled with the kernel off
//                (ClampSeparableMaxPixels 0: its separable kernel or the interior instance);
//   cBYxOXxOY    tiled_sep_clamp_kernel of 32 x BY threads of OX x OY outputs, launched
//                directly (launch_tiled_sep_clamp), its rows loaded and filtered one after
//                another (UpfrontRows false: the kernel as it was when sep-clamp-1.txt was
//                taken; sep_upfront_ab.cu times the other way); uBYxOXxOY the same
//                with its rows loaded upfront (UpfrontRows true; wide mode only).
// Every shape of the kernel sums in the order tiled_sep_kernel does, so their outputs are
// checked byte-identical to each other and to tiled0's where that runs tiled_sep_kernel
// (below the interior's sizes; "tiled0 differs" beyond, where it runs the outer product).
//   nvcc -std=c++17 -O3 -arch=sm_90 --expt-relaxed-constexpr -I<tree>/include \
//        -I/usr/include/eigen3 sep_clamp_ab.cu -lcufft -o sep_clamp_ab
#include "ab_common.hpp"
#include <cstdio>
#include <functional>
#include <string>
namespace hs = hipstencil;
namespace hd = hipstencil::detail;

// The library's tiled policy but for ClampSeparableMaxPixels and ClampSeparableWideMaxPixels.
using tiled_off = hs::algo::tiled<
    hs::strategy::tile_class,
    hs::tuning::tiled_policy<8, 8, 4, 4, hs::tuning::radii_range<1, 8>, hs::tuning::shared_memory_budget, 12, 32, 2, 2,
                             1LL << 20, 1LL << 21, 1LL << 17, 1LL << 20, 2, 0, 2, 1LL << 18, 4, 1, 1LL << 21, 1,
                             3LL << 17, 0, 0>>;

template <class T>
void probe(const char* type, std::initializer_list<std::pair<int, int>> sizes) {
  ab_for_each_separable_problem<T>(sizes, [&](int w, int h, int r, hs::image_view<const T> src,
                                               hs::device_image<T>& out, const hs::separable_filter& f,
                                               const auto& p, const hd::geometry& gr) {
    std::vector<ab_variant> v;
    ab_add_library_firsts(v, src, out, f);
    v.push_back(ab_library_variant("smem", src, out, f, hs::algo::shared_mem<>{}));
    v.push_back(ab_library_variant("tiled0", src, out, f, tiled_off{}));
    const int first_clamp = int(v.size());
    auto add = [&](const char* name, auto go) {
      v.push_back({name, [&, go] {
                     if (r == 1) go(std::integral_constant<int, 1>{});
                     else go(std::integral_constant<int, 2>{});
                   }});
    };
    constexpr int C = hs::pixel_traits<T>::channels, CB = int(sizeof(typename hs::pixel_traits<T>::channel_type));
    if constexpr ((C == 4 && CB > 1) || C == 3) {
      // Four channels of 16 and 32 bits (wide mode) and three (three mode): the small shape
      // as the library takes it for uchar4 (rows upfront, "u"), then taller tiles row after
      // row ("c") and upfront.
      add("u8x1x1", [&](auto R) { hd::launch_tiled_sep_clamp<R(), 32, 8, 1, 1, true>(p, gr); });
      add("c8x1x2", [&](auto R) { hd::launch_tiled_sep_clamp<R(), 32, 8, 1, 2, false>(p, gr); });
      add("u8x1x2", [&](auto R) { hd::launch_tiled_sep_clamp<R(), 32, 8, 1, 2, true>(p, gr); });
      add("c8x1x4", [&](auto R) { hd::launch_tiled_sep_clamp<R(), 32, 8, 1, 4, false>(p, gr); });
      add("u8x1x4", [&](auto R) { hd::launch_tiled_sep_clamp<R(), 32, 8, 1, 4, true>(p, gr); });
      add("c4x1x4", [&](auto R) { hd::launch_tiled_sep_clamp<R(), 32, 4, 1, 4, false>(p, gr); });
    } else {
      add("c8x1x1", [&](auto R) { hd::launch_tiled_sep_clamp<R(), 32, 8, 1, 1, false>(p, gr); });
      add("c4x1x1", [&](auto R) { hd::launch_tiled_sep_clamp<R(), 32, 4, 1, 1, false>(p, gr); });
      add("c8x2x2", [&](auto R) { hd::launch_tiled_sep_clamp<R(), 32, 8, 2, 2, false>(p, gr); });
      add("c8x1x2", [&](auto R) { hd::launch_tiled_sep_clamp<R(), 32, 8, 1, 2, false>(p, gr); });
      if (sizeof(T) == 1) add("c8x4x1", [&](auto R) { hd::launch_tiled_sep_clamp<R(), 32, 8, 4, 1, false>(p, gr); });
      if (sizeof(T) == 1) add("c8x4x2", [&](auto R) { hd::launch_tiled_sep_clamp<R(), 32, 8, 4, 2, false>(p, gr); });
    }
    char label[64];
    std::snprintf(label, sizeof label, "%-6s %4dx%-4d sep %dx%d", type, w, h, 2 * r + 1, 2 * r + 1);
    const auto hash = ab_time_kernel_case(label, out, v, first_clamp);
    bool same = true;
    for (int k = first_clamp + 1; k < int(v.size()); ++k) same = same && hash[k] == hash[first_clamp];
    std::printf("%s%s\n", same ? "identical" : "CLAMP SHAPES DIFFER",
                hash[first_clamp] == hash[first_clamp - 1] ? "" : " (tiled0 differs)");
    std::fflush(stdout);
  });
}

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "all";
#ifndef AB_THREE_ONLY
  auto sizes = {std::pair<int, int>{128, 128}, {181, 181}, {256, 256}, {362, 362}, {512, 512}, {724, 724},
                {960, 540},                    {1024, 768}, {1024, 1024}, {1280, 720}, {1920, 1080}};
  if (mode == "all" || mode == "u8") probe<unsigned char>("u8", sizes);
  if (mode == "all" || mode == "uchar4") probe<uchar4>("uchar4", sizes);
  if (mode == "all" || mode == "float") probe<float>("float", sizes);
  if (mode == "all" || mode == "u16") probe<unsigned short>("u16", sizes);
  if (mode == "wide") {  // four channels of 16 and 32 bits, then larger images
    probe<ushort4>("ushort4", sizes);
    probe<hs::half4>("half4", sizes);
    probe<hs::bfloat16x4>("bf16x4", sizes);
    probe<float4>("float4", sizes);
    auto big = {std::pair<int, int>{2560, 1440}, {3840, 2160}, {8192, 8192}};
    probe<ushort4>("ushort4", big);
    probe<float4>("float4", big);
  }
#endif
  if (mode == "three") {
    ab_three_mode([](auto tag, const char* name, auto sizes) {
      probe<std::remove_pointer_t<decltype(tag)>>(name, sizes);
    });
  }
  std::printf("last error: %s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
