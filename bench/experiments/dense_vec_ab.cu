// Standalone A/B driver (not built by CMake): tiled's replicate kernels (kernels/
// tiled_dense_clamp.hpp, tiled_sep_clamp.hpp) against the same kernels with the tile's
// window staged by whole aligned loads of VB bytes (16, 8 or 4) instead of one pixel a
// thread a load (the first runs also stored the outputs as one aligned span a thread row,
// span_io.hpp's store_span; see below). Question: is the one-pixel load what keeps the replicate
// kernels behind tiled's interior instance beyond 2^20 pixels (float 1920x1080 dense 3x3:
// 1.05 to 1.11 times its time) and 8-bit 1920x1080 3x3 above 6 us? A held copy of a float
// image took 6.14 us at 1920x1080 in 16-byte words a thread and 8.99 one pixel a thread
// (launch_floor.cu). And the narrow image 128x65536: automatic ran float dense 3x3 there in
// 28.2 us (NPP's FilterBorder 30.3), and on 3840x2160, 1% fewer pixels, in 22.3
// (bench/results/2026-12-04-h200.csv).
// Mode dense: dense 3x3 and 5x5 (ab_dense_filter); mode sep: a Gaussian; both under
// replicate, 128x128 to 8192x8192 and 128x65536. One pixel type a build: -DTYPE=0 u8,
// 1 float, 2 uchar4, 4 uchar3, 5 ushort3, 6 float3 (ab_type.hpp), so that the binaries
// build in parallel and each stays small. Three-channel pixels are loaded in groups of 48
// bytes (group_loads.hpp): the library's kernels read a uchar3 as three byte loads and a
// ushort3 as three 2-byte ones (PTX, nvcc 13: 27 and 30 loads in tiled_dense_clamp_kernel's
// 3x3 instances), where one 16-byte load holds five and a third of the one and two and two
// thirds of the other.
// Held, median of 40, better of two runs taken in turn (ab_time_kernel_case). Variants:
//   auto, direct, packed (8-bit), tiled   the library's algorithms;
//   lBYxOXxOY       tiled_dense_clamp_kernel, 32 x BY threads of OX x OY outputs;
//   lsepBYxOXxOY    tiled_sep_clamp_kernel in that shape;
//   vVBxBYxOXxOY    tiled_dense_staged_kernel (kernels/tiled_staged.hpp; a separable
//                   filter as its outer product);
//   wVBxBYxOXxOY    tiled_sep_staged_kernel (kernels/tiled_staged.hpp).
// (The float runs of 2026-12-05 timed v and w with their outputs stored as spans too, in
// this file's own copies of the kernels: v 0.966 to 1.00 times the time without, and the
// staged shapes stayed behind tiled's own; so neither keeps spans, and the library's
// kernels run here.)
// l and v sum in add_window_row's order, as direct2d_kernel does (a separable filter as
// its outer product, window_taps), so their outputs are checked byte-identical to
// direct's; w sums in tiled_sep_clamp_kernel's order and is checked against lsep.
//   nvcc -std=c++17 -O3 -arch=sm_90 --expt-relaxed-constexpr -DTYPE=1 -I<tree>/include \
//        -I/usr/include/eigen3 dense_vec_ab.cu -lcufft -o dense_vec_ab_float
//   ./dense_vec_ab_float [dense|sep|all] [WxH,WxH,...]   (sizes: the ones above by default)
#include "ab_common.hpp"
#include "ab_type.hpp"
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
namespace hs = hipstencil;
namespace hd = hipstencil::detail;

namespace hipstencil {
namespace detail {

/// Whether the staged kernels' preconditions hold on p.
template <int VB, int TH, class In, class Out>
bool vec_fits(const problem<In, Out>& p) {
  return group_loads_aligned<VB>(p.src) && tiled_sep_clamp_fits(p.g.height, TH);
}

/// Launches the library's tiled_dense_staged_kernel on p's filter (a separable one as its
/// outer product; one image; gr: p.g.for_reads(), replicate). Returns false, launching
/// nothing, where vec_fits does not hold.
template <int R, int BX, int BY, int OX, int OY, int VB, class In, class Out>
bool launch_dense_vec(const problem<In, Out>& p, const geometry& gr) {
  if (!vec_fits<VB, BY * OY>(p)) return false;
  launch_tiled_dense_staged<R, BX, BY, OX, OY, VB>(p, gr);
  return true;
}

/// Launches the library's tiled_sep_staged_kernel on p's separable filter, as
/// launch_dense_vec.
template <int R, int BX, int BY, int OX, int OY, int VB, class In, class Out>
bool launch_sep_vec(const problem<In, Out>& p, const geometry& gr) {
  if (!vec_fits<VB, BY * OY>(p)) return false;
  launch_tiled_sep_staged<R, BX, BY, OX, OY, VB>(p, gr);
  return true;
}

}  // namespace detail
}  // namespace hipstencil

template <int I>
using ic = std::integral_constant<int, I>;

template <bool Dense>
void probe(const ab_sizes& sizes) {
  ab_for_each_problem<T, Dense>(sizes, [&](int w, int h, int r, hs::image_view<const T> src, hs::device_image<T>& out,
                                           const auto& f, const auto& p, const hd::geometry& gr) {
    std::vector<ab_variant> v;
    ab_add_library_firsts(v, src, out, f);
    v.push_back(ab_library_variant("tiled", src, out, f, hs::algo::tiled<>{}));
    const int first = int(v.size());
    bool launched = true;
    std::vector<int> like_direct, like_sep;  // the variants checked against direct, against lsep
    auto name = [](const char* k, std::initializer_list<int> n) {
      std::string s = k;
      bool first_number = true;
      for (int x : n) s += (first_number ? "" : "x") + std::to_string(x), first_number = false;
      return s;
    };
    // The library's kernels, 32 x BY threads of OX x OY outputs: tiled_dense_clamp_kernel
    // (dense mode) and tiled_sep_clamp_kernel, its rows loaded upfront (U).
    auto ld = [&](auto BY, auto OX, auto OY) {
      constexpr int by = BY(), ox = OX(), oy = OY();
      like_direct.push_back(int(v.size()));
      v.push_back({name("l", {by, ox, oy}), [&] {
                     if (r == 1) hd::launch_tiled_dense_clamp<1, 32, by, ox, oy>(p, gr);
                     else hd::launch_tiled_dense_clamp<2, 32, by, ox, oy>(p, gr);
                   }});
    };
    int lsep = -1;
    auto ls = [&](auto BY, auto OX, auto OY, auto U) {
      constexpr int by = BY(), ox = OX(), oy = OY();
      constexpr bool u = U() != 0;
      if (lsep < 0) lsep = int(v.size());
      else like_sep.push_back(int(v.size()));
      v.push_back({name("lsep", {by, ox, oy}), [&] {
                     if (r == 1) hd::launch_tiled_sep_clamp<1, 32, by, ox, oy, u>(p, gr);
                     else hd::launch_tiled_sep_clamp<2, 32, by, ox, oy, u>(p, gr);
                   }});
    };
    // The staged kernels: tiled_dense_staged_kernel ("v", a separable filter's outer
    // product) and tiled_sep_staged_kernel ("w"), loads of VB bytes.
    auto vk = [&](auto VB, auto BY, auto OX, auto OY) {
      constexpr int vb = VB(), by = BY(), ox = OX(), oy = OY();
      like_direct.push_back(int(v.size()));
      v.push_back({name("v", {vb, by, ox, oy}), [&] {
                     const bool ok = r == 1 ? hd::launch_dense_vec<1, 32, by, ox, oy, vb>(p, gr)
                                            : hd::launch_dense_vec<2, 32, by, ox, oy, vb>(p, gr);
                     launched = launched && ok;
                   }});
    };
    auto wk = [&](auto VB, auto BY, auto OX, auto OY) {
      constexpr int vb = VB(), by = BY(), ox = OX(), oy = OY();
      like_sep.push_back(int(v.size()));
      v.push_back({name("w", {vb, by, ox, oy}), [&] {
                     const bool ok = r == 1 ? hd::launch_sep_vec<1, 32, by, ox, oy, vb>(p, gr)
                                            : hd::launch_sep_vec<2, 32, by, ox, oy, vb>(p, gr);
                     launched = launched && ok;
                   }});
    };
    using i0 = ic<0>;
    using i1 = ic<1>;
    using i2 = ic<2>;
    using i4 = ic<4>;
    using i8 = ic<8>;
    using i16 = ic<16>;
#if TYPE == 1
    // float: the library's shape above 2^16 pixels (2 x 2 outputs in 32 x 8, both kernels),
    // groups of 4 pixels in a 16-byte load or 2 in an 8-byte one, other shapes.
    if constexpr (Dense) {
      ld(i8{}, i2{}, i2{});
      vk(i16{}, i8{}, i2{}, i2{});
      vk(i8{}, i8{}, i2{}, i2{});
      vk(i16{}, i8{}, i4{}, i2{});
      vk(i16{}, i8{}, i2{}, i4{});
      vk(i16{}, i4{}, i4{}, i4{});
    } else {
      ls(i8{}, i2{}, i2{}, i1{});
      wk(i16{}, i8{}, i2{}, i2{});
      vk(i16{}, i8{}, i2{}, i2{});
    }
#elif TYPE == 0
    // u8: the library's shape above 2^16 pixels (4 x 2 outputs in 32 x 8, both kernels),
    // groups of 16 pixels in a 16-byte load or 4 in a word, other shapes.
    if constexpr (Dense) {
      ld(i8{}, i4{}, i2{});
      vk(i16{}, i8{}, i4{}, i2{});
      vk(i4{}, i8{}, i4{}, i2{});
      vk(i16{}, i8{}, i8{}, i2{});
      vk(i16{}, i8{}, i4{}, i4{});
      vk(i16{}, i4{}, i8{}, i4{});
    } else {
      ls(i8{}, i4{}, i2{}, i1{});
      wk(i16{}, i8{}, i4{}, i2{});
      vk(i16{}, i8{}, i4{}, i2{});
    }
#elif TYPE == 2
    // uchar4: the library's shapes above 2^16 pixels (dense 1 x 2 outputs at 3x3 and 1 x 4 at
    // 5x5; separable 1 x 2, rows one after another), groups of 4 pixels in a 16-byte load or
    // 2 in an 8-byte one, other shapes.
    if constexpr (Dense) {
      ld(i8{}, i1{}, i2{});
      ld(i8{}, i1{}, i4{});
      vk(i16{}, i8{}, i1{}, i2{});
      vk(i8{}, i8{}, i1{}, i2{});
      vk(i16{}, i8{}, i2{}, i2{});
      vk(i16{}, i8{}, i1{}, i4{});
      vk(i16{}, i4{}, i2{}, i4{});
    } else {
      ls(i8{}, i1{}, i2{}, i0{});
      wk(i16{}, i8{}, i1{}, i2{});
      wk(i16{}, i8{}, i1{}, i4{});
      wk(i8{}, i8{}, i1{}, i2{});
    }
#elif TYPE == 4
    // uchar3: the library's shapes above 2^16 pixels (dense 2 x 2 outputs; separable 1 x 2,
    // rows one after another), 1 x 4 in 32 x 4 (the separable third shape that sep3-1.txt
    // measured), and groups of 16 pixels in three 16-byte loads or of 4 in three of 4 bytes.
    if constexpr (Dense) {
      ld(i8{}, i2{}, i2{});
      vk(i16{}, i8{}, i2{}, i2{});
      vk(i4{}, i8{}, i2{}, i2{});
      vk(i16{}, i8{}, i4{}, i2{});
      vk(i16{}, i4{}, i2{}, i4{});
    } else {
      ls(i8{}, i1{}, i2{}, i0{});
      ls(i4{}, i1{}, i4{}, i0{});
      wk(i16{}, i8{}, i1{}, i2{});
      wk(i4{}, i8{}, i1{}, i2{});
      wk(i16{}, i4{}, i1{}, i4{});
      wk(i16{}, i8{}, i2{}, i2{});
    }
#elif TYPE == 5 || TYPE == 6
    // ushort3 and float3: the library's shapes above 2^16 pixels (dense 1 x 4 outputs in
    // 32 x 4; separable 1 x 2 rows upfront at 3x3, 1 x 4 rows one after another at 5x5),
    // 1 x 4 in 32 x 4 (the third shape), and groups of 8 (ushort3) or 4 (float3) pixels in
    // three 16-byte loads, or of 4 and 2 in three 8-byte loads.
    if constexpr (Dense) {
      ld(i4{}, i1{}, i4{});
      vk(i16{}, i4{}, i1{}, i4{});
      vk(i8{}, i4{}, i1{}, i4{});
      vk(i16{}, i8{}, i1{}, i2{});
      vk(i16{}, i8{}, i2{}, i2{});
    } else {
      ls(i8{}, i1{}, i2{}, i1{});
      ls(i8{}, i1{}, i4{}, i0{});
      ls(i4{}, i1{}, i4{}, i0{});
      wk(i16{}, i8{}, i1{}, i2{});
      wk(i8{}, i8{}, i1{}, i2{});
      wk(i16{}, i4{}, i1{}, i4{});
      wk(i16{}, i8{}, i1{}, i4{});
    }
#else
#error "dense_vec_ab: TYPE 0, 1, 2, 4, 5 or 6"
#endif
    char label[64];
    std::snprintf(label, sizeof label, "%-6s %4dx%-4d %s %dx%d", tname, w, h, Dense ? "dense" : "sep  ", 2 * r + 1,
                  2 * r + 1);
    const auto hash = ab_time_kernel_case(label, out, v, first);
    bool same = true;
    for (int k : like_direct) same = same && hash[k] == hash[1];
    for (int k : like_sep) same = same && hash[k] == hash[lsep];
    std::printf("%s%s\n", same ? "checked" : "OUTPUTS DIFFER", launched ? "" : " NOT LAUNCHED");
    std::fflush(stdout);
  });
}

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "all";
  const ab_sizes sizes = ab_parse_sizes("dense_vec_ab", argc > 2 ? argv[2] : nullptr,
                                        {{128, 128},
                                         {256, 256},
                                         {512, 512},
                                         {724, 724},
                                         {1280, 720},
                                         {1920, 1080},
                                         {2560, 1440},
                                         {3840, 2160},
                                         {8192, 8192},
                                         {128, 65536}});
  if (mode == "all" || mode == "dense") probe<true>(sizes);
  if (mode == "all" || mode == "sep") probe<false>(sizes);
  std::printf("last error: %s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
