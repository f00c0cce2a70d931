// Standalone A/B driver (not built by CMake): tiled_sep_clamp_kernel with every window row
// of pass 1 loaded before the first is filtered (UpfrontRows) against its rows loaded and
// filtered one after another ("walk"), each in the library's shape for the case
// (tiled_policy's clamp_separable_*), beside automatic. Nsight Compute had given the walk
// at 128x128 float separable 3x3 (32 x 8 threads, rows 8 and 9 of the tile for the first
// two warps) 3,057 active cycles against NPP's Gaussian's 1,749, with fewer warp
// instructions (99 against 108) and stalls on memory and at the barrier. Separable 3x3 and
// 5x5 under replicate, u8, uchar4, float and u16, 128x128 to 1280x720; held, median of 40,
// best of two alternating runs; "identical": the three outputs hashed alike, "walk =
// upfront": the two kernels' did (automatic runs packed for uchar4 beyond 2^19 pixels).
// sep-upfront-1.txt was taken with this driver's first version, whose walk was a copy of
// the kernel as committed in a47362e (the same code as UpfrontRows false), against the
// library's kernel with its rows upfront in every shape, and which printed "OUTPUTS
// DIFFER" where automatic's output differed from the two kernels' (the four uchar4 lines
// beyond 2^19 pixels) without telling the kernels' own apart.
//   nvcc -std=c++17 -O3 -arch=sm_90 --expt-relaxed-constexpr -I<tree>/include \
//        -I/usr/include/eigen3 sep_upfront_ab.cu -lcufft -o sep_upfront_ab
#include "ab_common.hpp"
#include <cstdio>
#include <string>
namespace hs = hipstencil;
namespace hd = hipstencil::detail;

template <class T>
void probe(const char* type, std::initializer_list<std::pair<int, int>> sizes) {
  using lib = hs::tuning::tiled_policy<>;
  constexpr int C = hs::pixel_traits<T>::channels, CB = int(sizeof(typename hs::pixel_traits<T>::channel_type));
  ab_for_each_separable_problem<T>(sizes, [&](int w, int h, int r, hs::image_view<const T> src,
                                               hs::device_image<T>& out, const hs::separable_filter& f,
                                               const auto& p, const hd::geometry& gr) {
    const bool small = lib::clamp_separable_small((long long)w * h);
    auto with = [&](auto R, bool walk) {
      constexpr int r_ = decltype(R)::value, SB = lib::clamp_separable_small_rows<C, r_>;
      constexpr int SX = lib::clamp_separable_out_x<C, CB>, SY = lib::clamp_separable_out_y<C, CB, r_>;
      if (small) walk ? hd::launch_tiled_sep_clamp<r_, 32, SB, 1, 1, false>(p, gr)
                      : hd::launch_tiled_sep_clamp<r_, 32, SB, 1, 1, true>(p, gr);
      else walk ? hd::launch_tiled_sep_clamp<r_, 32, 8, SX, SY, false>(p, gr)
                : hd::launch_tiled_sep_clamp<r_, 32, 8, SX, SY, true>(p, gr);
    };
    auto run = [&](bool walk) {
      return [&, walk] {
        if (r == 1) with(std::integral_constant<int, 1>{}, walk);
        else with(std::integral_constant<int, 2>{}, walk);
      };
    };
    double t[3][2];
    unsigned long long hash[3];
    ab_time_alternating(out, t, hash, [&] { hs::convolve(src, out.view(), f, hs::border::replicate{}); }, run(true),
                        run(false));
    const double ta = std::min(t[0][0], t[0][1]), tw = std::min(t[1][0], t[1][1]), tu = std::min(t[2][0], t[2][1]);
    const char* same = hash[1] != hash[2] ? "WALK AND UPFRONT DIFFER" : hash[0] == hash[2] ? "identical" : "walk = upfront";
    std::printf("%-6s %4dx%-4d sep %dx%d auto %5.2f walk %5.2f upfront %5.2f  upfront/walk %.3f  %s\n", type, w, h,
                2 * r + 1, 2 * r + 1, ta, tw, tu, tu / tw, same);
    std::fflush(stdout);
  });
}

int main() {
  auto sizes = {std::pair<int, int>{128, 128}, {181, 181}, {256, 256}, {362, 362}, {512, 512}, {724, 724},
                {1024, 768},                   {1280, 720}};
  probe<unsigned char>("u8", sizes);
  probe<uchar4>("uchar4", sizes);
  probe<float>("float", sizes);
  probe<unsigned short>("u16", sizes);
  std::printf("last error: %s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
