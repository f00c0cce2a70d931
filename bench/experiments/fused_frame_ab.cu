// Standalone A/B driver (not built by CMake): tiled's interior instance and its frame
// (kernels/tiled_interior.hpp) as one grid instead of two. Question: is the second grid
// what keeps float dense 3x3 at 1.10 to 1.24 times NPP's time from 1280x720 to 8192x8192
// (issue 12's target: 1.25)? Under Nsight Compute on the H200 the interior grid of
// 1920x1080 float dense 3x3 took 6.24 to 6.40 us and the frame's 4.00 to 4.10, NPP's
// fastest 8.99 to 9.12; held, the call took 7.55 us where a held copy of the image took
// 6.14 (bench/results/2026-12-05/ncu/, 2026-11-28-dense16/launch-floor-1.txt). The two
// grids overlap through programmatic dependent launch, but the frame's blocks are a chain
// of dependent loads each, and the second grid's ramp and tail stay on the call's path.
// Here one grid of 64-thread blocks (the interior's 32 x 2, the frame's frame_threads)
// runs both (tiled2d_fused_kernel, which a policy's FusedFrameCellRows turns on): its first
// blocks the frame's cells, the others the interior rectangle's tiles, or the frame last.
// Variants, each held, median of 40, better of two runs taken in turn (ab_time_kernel_case):
//   auto, direct, tiled   the library (tiled: algo::tiled<>, which runs the interior
//                         instance and its frame as two grids where plan_interior applies
//                         and its replicate kernels do not);
//   fF1, fF4, fL1, fL4    one grid, the frame's blocks first (F) or last (L), in cells of
//                         1 or 4 output rows;
// then the interior grid alone (its frame not written: a floor, timed apart, better of two).
// The fused outputs are checked byte-identical to direct's, which sums in the same order
// (a separable filter as its outer product, window_taps).
// Dense mode: ab_dense_filter; sep mode: a Gaussian run as its outer product (as the
// interior instance runs separable 3x3 and 5x5). Replicate, radius 1 and 2, float
// (TYPE=1) or u16 (TYPE=3), 512x512 up to 8192x8192 by default, or a size list.
//   nvcc -std=c++17 -O3 -arch=sm_90 --expt-relaxed-constexpr -DTYPE=1 -I<tree>/include \
//        -I/usr/include/eigen3 fused_frame_ab.cu -lcufft -o fused_frame_ab_float
//   ./fused_frame_ab_float [dense|sep|all] [WxH,WxH,...]
#include "ab_common.hpp"
#include "ab_type.hpp"
#include <cstdio>
#include <string>
namespace hs = hipstencil;
namespace hd = hipstencil::detail;

namespace hipstencil {
namespace detail {

/// Launches the library's tiled2d_fused_kernel (launch_tiled_fused) on p (`gr`:
/// p.g.for_reads()) over the rectangle that tiled_family::plan_interior plans for policy
/// P, the frame in cells of M rows, its blocks first or last. Returns false, launching
/// nothing, where the plan does not apply. Interior: the interior grid alone instead.
template <class P, int R, int M, bool FrameFirst, bool Interior = false, class In, class Out>
bool launch_fused(const problem<In, Out>& p, const geometry& gr) {
  constexpr int OX = P::out_x, IX = P::interior_block_x, IY = P::interior_block_y;
  constexpr int IOY = P::template interior_out_y<R>;
  interior_plan plan;
  if (!tiled_family::plan_interior<P, R>(p, gr, plan)) return false;
  const auto taps = window_taps<(2 * R + 1) * (2 * R + 1)>(p);
  if constexpr (Interior) {
    tiled2d_interior_kernel<In, Out, R, IX, IY, OX, IOY><<<plan.grid, dim3(IX, IY), 0, p.stream>>>(
        p.src, p.dst, p.g, taps, plan.in.x0, plan.in.y0, plan.cols, plan.rows, plan.lead, false);
  } else {
    set_frame(plan, p.g, M);  // the frame in this variant's cells, whatever the plan chose
    if (plan.clamp) launch_tiled_fused<R, IX, IY, OX, IOY, true, M, FrameFirst>(p, gr, taps, plan);
    else launch_tiled_fused<R, IX, IY, OX, IOY, false, M, FrameFirst>(p, gr, taps, plan);
  }
  return true;
}

}  // namespace detail
}  // namespace hipstencil

template <bool Dense>
void probe(const ab_sizes& sizes) {
  using P = hd::tiled_family::default_policy;
  ab_for_each_problem<T, Dense>(sizes, [&](int w, int h, int r, hs::image_view<const T> src, hs::device_image<T>& out,
                                           const auto& f, const auto& p, const hd::geometry& gr) {
    std::vector<ab_variant> v;
    v.push_back(ab_library_variant("auto", src, out, f, hs::algo::automatic{}));
    v.push_back(ab_library_variant("direct", src, out, f, hs::algo::direct<>{}));
    v.push_back(ab_library_variant("tiled", src, out, f, hs::algo::tiled<>{}));
    const int first = int(v.size());
    bool launched = true;
    auto add = [&](const char* name, auto M, auto F, auto I) {
      constexpr int m = decltype(M)::value;
      constexpr bool ff = decltype(F)::value != 0, in = decltype(I)::value != 0;
      v.push_back({name, [&] {
                     const bool ok = r == 1 ? hd::launch_fused<P, 1, m, ff, in>(p, gr)
                                            : hd::launch_fused<P, 2, m, ff, in>(p, gr);
                     launched = launched && ok;
                   }});
    };
    using i0 = std::integral_constant<int, 0>;
    using i1 = std::integral_constant<int, 1>;
    using i4 = std::integral_constant<int, 4>;
    add("fF1", i1{}, i1{}, i0{});
    add("fF4", i4{}, i1{}, i0{});
    add("fL1", i1{}, i0{}, i0{});
    add("fL4", i4{}, i0{}, i0{});
    add("interior", i1{}, i0{}, i1{});  // the floor: timed apart below, not checked
    const ab_variant interior = v.back();
    v.pop_back();
    char label[64];
    std::snprintf(label, sizeof label, "%-6s %4dx%-4d %s %dx%d", tname, w, h, Dense ? "dense" : "sep  ", 2 * r + 1,
                  2 * r + 1);
    const auto hash = ab_time_kernel_case(label, out, v, first);
    unsigned long long unused;
    const double alone = std::min(hashed_time_us(out, interior.second, unused, 40, true),
                                  hashed_time_us(out, interior.second, unused, 40, true));
    bool same = true;
    for (int k = first; k < int(v.size()); ++k) same = same && hash[k] == hash[1];
    std::printf("interior alone %.2f  %s%s\n", alone, same ? "checked" : "OUTPUTS DIFFER",
                launched ? "" : " NOT LAUNCHED");
    std::fflush(stdout);
  });
}

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "all";
  const ab_sizes sizes = ab_parse_sizes("fused_frame_ab", argc > 2 ? argv[2] : nullptr,
                                        {{512, 512},
                                         {724, 724},
                                         {1024, 1024},
                                         {1280, 720},
                                         {1920, 1080},
                                         {2560, 1440},
                                         {3840, 2160},
                                         {8192, 8192},
                                         {256, 32768}});
  if (mode == "all" || mode == "dense") probe<true>(sizes);
  if (mode == "all" || mode == "sep") probe<false>(sizes);
  std::printf("last error: %s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
