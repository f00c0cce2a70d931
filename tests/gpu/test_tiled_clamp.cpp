// tiled's kernels for images whose reads are replicate (replicate, skip and padded):
// tiled_sep_clamp_kernel (kernels/tiled_sep_clamp.hpp), separable 3x3 and 5x5 on ROIs up
// to tiled_policy's clamp_separable_max_pixels, and tiled_dense_clamp_kernel
// (kernels/tiled_dense_clamp.hpp), dense 3x3 and 5x5 up to clamp_dense_max_pixels. Each in
// its small shape up to clamp_separable_small's size and the pixel's own shape above. The
// library's own policy, so the sizes below fall in each: 1x1 and 3x2 (radius larger than
// the image), 17x13 and 131x67 in the small shape, 263x257 (prime height, more than 2^16
// pixels) in the other; every ROI placement (whole image, each edge, each corner), both
// halo modes, fresh random sources and filters, outputs poisoned, against the host
// reference. The pixels each runs and was measured on, and u8 to float. Separable: u8,
// uchar4, float, u16, s16, half, bfloat16, uchar3, ushort3, float3, ushort4, half4,
// bfloat16x4 and float4; pass 1's rows loaded upfront (one channel; three and four in the
// small shape, and three and four of 16 and 32 bits at radius 1) and row after row (the
// rest; tiled_policy's clamp_separable_upfront). Three channels also on 1031x769 (primes,
// over 3 * 2^18 pixels), in the separable kernel's large shape (clamp_separable_large).
// ushort3 dense above the small shape runs tiled_dense_staged_kernel (kernels/
// tiled_staged.hpp): in the walk, whose placements start the window at several offsets
// within a group of four pixels and put groups across the domain's edges, and in a case
// of its own on an image 7 pixels wide, whose groups reach past its edge in every row, and
// on a source not aligned to the loads (a view one pixel into its image), where the
// launcher runs tiled_dense_clamp_kernel instead. float3 separable from 1920x1080 runs
// tiled_sep_staged_kernel: a case of its own on 1931x1087 ROIs, the same narrow image and
// the same unaligned view.
// Dense: u8, uchar4, float, u16, s16, half, bfloat16, uchar3, ushort3, float3, ushort4,
// half4, bfloat16x4 and float4 (three and four channels at radius 2 in 32 x 4 threads in
// the small shape; in the other uchar3 2 x 2 outputs, the others 1 x 4, in 32 x 4 threads
// for three 16- and 32-bit channels and for four at radius 1, and uchar4 at radius 1
// 1 x 2). Narrow float ROIs run both beyond those pixel limits (tiled_policy's
// clamp_narrow): a case of its own on ROIs of over 2^20 pixels up to 256 wide.
#include "algo_matrix.hpp"

namespace {

using lib = hipstencil::tuning::tiled_policy<>;
static_assert(lib::clamp_separable_small(131LL * 67) && !lib::clamp_separable_small(263LL * 257),
              "the sizes below fall in both shapes");

struct roi_size {
  int w, h;
};
/// The walk's ROI sizes unless a case names its own.
const std::vector<roi_size> clamp_sizes = {{1, 1}, {3, 2}, {17, 13}, {131, 67}, {263, 257}};

/// Every case of the kernels' walk for a filter of radius r from make_filter(r) (a
/// separable_filter or a filter2d): the three rules that read as replicate, radius 1 and
/// 2, the ROI sizes, the placements and both halo modes, through algo::tiled.
template <class In, class Out, class MakeFilter>
void tiled_clamp_walk(MakeFilter make_filter, const std::vector<roi_size>& sizes = clamp_sizes) {
  using namespace gpu_test;
  const border::any rules[] = {border::replicate{}, border::skip{}, border::padded{}};
  for (const border::any& b : rules)
    for (int r : {1, 2}) {
      const auto f = make_filter(r);
      for (roi_size s : sizes)
        for (int placement = 0; placement < 9; ++placement)
          for (halo hm : {halo::from_parent, halo::isolated}) {
            const problem p = place(s.w, s.h, placement, hm, r, r, r, r, b.rule);
            const auto src = random_image<In>(p.src_w, p.src_h);
            INFO(s.w << "x" << s.h << " placement " << placement << " radius " << r << " " << border::name(b.rule));
            check_against_reference<In, Out>(p, dense_form(f), b, src, [&](image_view<const In> in, image_view<Out> out) {
              convolve(in, p.src_roi, out, p.dst_roi, f, b, algo::tiled<>{}, nullptr, p.halo_mode);
            });
          }
    }
}

template <class In, class Out>
void tiled_sep_clamp_case(const std::vector<roi_size>& sizes = clamp_sizes) {
  using namespace gpu_test;
  constexpr int C = pixel_traits<In>::channels, CB = int(sizeof(typename pixel_traits<In>::channel_type));
  static_assert(lib::clamp_separable<C, CB, 1> && lib::clamp_separable<C, CB, 2> && !lib::clamp_separable<C, CB, 3>,
                "the kernel runs these pixels at radius 1 and 2");
  static_assert(263LL * 257 <= lib::clamp_separable_max_pixels(C, CB), "the sizes below run the kernel");
  for (roi_size sz : sizes) REQUIRE((long long)sz.w * sz.h <= lib::clamp_separable_max_pixels(C, CB));
  tiled_clamp_walk<In, Out>([](int r) { return random_separable(2 * r + 1, 2 * r + 1); }, sizes);
}

template <class In, class Out>
void tiled_dense_clamp_case() {
  using namespace gpu_test;
  constexpr int C = pixel_traits<In>::channels, CB = int(sizeof(typename pixel_traits<In>::channel_type));
  static_assert(lib::clamp_dense<C, CB, 1> && lib::clamp_dense<C, CB, 2> && !lib::clamp_dense<C, CB, 3>,
                "the kernel runs these pixels at radius 1 and 2");
  static_assert(263LL * 257 <= lib::clamp_dense_max_pixels(C, CB, 1) &&
                    263LL * 257 <= lib::clamp_dense_max_pixels(C, CB, 2),
                "the sizes below run the kernel");
  tiled_clamp_walk<In, Out>([](int r) { return random_filter(2 * r + 1, 2 * r + 1); });
}

/// The staged kernels' edge cases: a w x h source view one pixel into its image (isolated
/// halo; the view's data not aligned to the loads) into a whole target, and a whole
/// `narrow_w` x `narrow_h` image.
std::vector<gpu_test::problem> staged_edge_problems(int w, int h, int narrow_w, int narrow_h) {
  using namespace gpu_test;
  problem unaligned;
  unaligned.halo_mode = halo::isolated;
  unaligned.src_w = w + 1, unaligned.src_h = h, unaligned.src_roi = rect{1, 0, w, h};
  unaligned.dst_w = w, unaligned.dst_h = h, unaligned.dst_roi = rect{0, 0, w, h};
  problem narrow;
  narrow.src_w = narrow.dst_w = narrow_w, narrow.src_h = narrow.dst_h = narrow_h;
  narrow.src_roi = narrow.dst_roi = rect{0, 0, narrow_w, narrow_h};
  return {unaligned, narrow};
}

/// ushort3 dense filters where tiled_dense_staged_kernel's groups meet their limits, above
/// the small shape, radius 1 and 2, replicate, fresh random sources and filters, outputs
/// poisoned, against the host reference: a source view one pixel into its image (263x257
/// ROI; its data not aligned to the loads, so the launcher runs tiled_dense_clamp_kernel;
/// isolated halo, so the reference on the parent's ROI reads the same pixels), and a
/// 7x10007 image (the staged kernel), narrower than two groups and not a whole number of
/// them, so that a group reaches past the domain's edge in every row.
void tiled_dense_staged_edges_case() {
  using namespace gpu_test;
  using T = hipstencil::ushort3;
  constexpr int VB = lib::clamp_dense_staged<3, 2, 1, false>;
  static_assert(VB > 0 && lib::clamp_dense_staged<3, 2, 2, false> == VB,
                "the staged kernel runs ushort3 above the small shape");
  static_assert(sizeof(T) % VB != 0, "one pixel in, the view is not aligned to the loads");
  static_assert(!lib::clamp_separable_small(7LL * 10007), "7x10007 is above the small shape");
  for (const problem& p : staged_edge_problems(263, 257, 7, 10007))
    for (int r : {1, 2}) {
      const auto src = random_image<T>(p.src_w, p.src_h);
      const auto f = random_filter(2 * r + 1, 2 * r + 1);
      INFO(p.src_w << "x" << p.src_h << " radius " << r);
      check_against_reference<T, T>(p, dense_form(f), border::replicate{}, src,
                                    [&](image_view<const T> in, image_view<T> out) {
                                      convolve(in.sub(p.src_roi), out, f, border::replicate{}, algo::tiled<>{});
                                    });
    }
}

/// float3 separable filters in tiled_sep_staged_kernel (from clamp_separable_staged_size),
/// radius 1 and 2, under the three rules whose reads are replicate, fresh random sources
/// and filters, outputs poisoned, against the host reference: a 1931x1087 ROI at a corner
/// of its parent (halo from the parent) and inside it (isolated), its window's first
/// column at another offset within a group; and under replicate and skip a source view one
/// pixel into its image (its data not aligned to the loads: tiled_sep_clamp_kernel runs)
/// and a 7x300007 image, narrower than two groups, so that a group reaches past the
/// domain's edge in every row.
void tiled_sep_staged_case() {
  using namespace gpu_test;
  using T = hipstencil::float3;
  static_assert(lib::clamp_separable_staged<3, 4, 1> == 8 && lib::clamp_separable_staged<3, 4, 2> == 16 &&
                    lib::clamp_separable_staged<3, 2, 1> == 0,
                "the staged separable kernel runs float3 only");
  static_assert(lib::clamp_separable_staged_size(1931LL * 1087) && lib::clamp_separable_staged_size(7LL * 300007) &&
                    !lib::clamp_separable_staged_size(1280LL * 720) && lib::clamp_separable_large(3, 7LL * 300007),
                "the sizes below run the staged kernel, 1280x720 does not");
  static_assert(sizeof(T) % 8 != 0, "one pixel in, the view is not aligned to the loads");
  const border::any rules[] = {border::replicate{}, border::skip{}, border::padded{}};
  for (const border::any& b : rules)
    for (int r : {1, 2}) {
      std::vector<problem> problems = {place(1931, 1087, 0, halo::from_parent, r, r, r, r, b.rule),
                                       place(1931, 1087, 4, halo::isolated, r, r, r, r, b.rule)};
      // padded: the caller's halo is around the ROI, which place() leaves; the other two
      // have none.
      if (b.rule != border::kind::padded) {
        const std::vector<problem> edges = staged_edge_problems(1931, 1087, 7, 300007);
        problems.insert(problems.end(), edges.begin(), edges.end());
      }
      for (const problem& p : problems) {
        const auto src = random_image<T>(p.src_w, p.src_h);
        const auto f = random_separable(2 * r + 1, 2 * r + 1);
        INFO(p.describe(f.to_2d(), b));
        check_against_reference<T, T>(p, f.to_2d(), b, src, [&](image_view<const T> in, image_view<T> out) {
          convolve(in, p.src_roi, out, p.dst_roi, f, b, algo::tiled<>{}, nullptr, p.halo_mode);
        });
      }
    }
}

}  // namespace

TEST_CASE("tiled's replicate separable kernel (3x3 and 5x5, every ROI placement; u8, uchar4, float, u16, u8 to float)",
          "[gpu][algos][tiled]") {
  tiled_sep_clamp_case<std::uint8_t, std::uint8_t>();
  tiled_sep_clamp_case<hipstencil::uchar4, hipstencil::uchar4>();
  tiled_sep_clamp_case<float, float>();
  tiled_sep_clamp_case<std::uint16_t, std::uint16_t>();
  tiled_sep_clamp_case<std::uint8_t, float>();
}

TEST_CASE("tiled's replicate separable kernel on 16- and 32-bit channels (3x3 and 5x5, every ROI placement; s16, "
          "half, bfloat16, ushort4, half4, bfloat16x4, float4)",
          "[gpu][algos][tiled]") {
  tiled_sep_clamp_case<std::int16_t, std::int16_t>();
  tiled_sep_clamp_case<hipstencil::half, hipstencil::half>();
  tiled_sep_clamp_case<hipstencil::bfloat16, hipstencil::bfloat16>();
  tiled_sep_clamp_case<hipstencil::ushort4, hipstencil::ushort4>();
  tiled_sep_clamp_case<hipstencil::half4, hipstencil::half4>();
  tiled_sep_clamp_case<hipstencil::bfloat16x4, hipstencil::bfloat16x4>();
  tiled_sep_clamp_case<hipstencil::float4, hipstencil::float4>();
}

TEST_CASE("tiled's replicate dense kernel (3x3 and 5x5, every ROI placement; u8, uchar4, float, u8 to float)",
          "[gpu][algos][tiled]") {
  tiled_dense_clamp_case<std::uint8_t, std::uint8_t>();
  tiled_dense_clamp_case<hipstencil::uchar4, hipstencil::uchar4>();
  tiled_dense_clamp_case<float, float>();
  tiled_dense_clamp_case<std::uint8_t, float>();
}

TEST_CASE("tiled's replicate dense kernel on 16- and 32-bit channels (3x3 and 5x5, every ROI placement; u16, s16, "
          "half, bfloat16, ushort4, half4, bfloat16x4, float4)",
          "[gpu][algos][tiled]") {
  tiled_dense_clamp_case<std::uint16_t, std::uint16_t>();
  tiled_dense_clamp_case<std::int16_t, std::int16_t>();
  tiled_dense_clamp_case<hipstencil::half, hipstencil::half>();
  tiled_dense_clamp_case<hipstencil::bfloat16, hipstencil::bfloat16>();
  tiled_dense_clamp_case<hipstencil::ushort4, hipstencil::ushort4>();
  tiled_dense_clamp_case<hipstencil::half4, hipstencil::half4>();
  tiled_dense_clamp_case<hipstencil::bfloat16x4, hipstencil::bfloat16x4>();
  tiled_dense_clamp_case<hipstencil::float4, hipstencil::float4>();
}

TEST_CASE("tiled's replicate kernels on three-channel pixels (separable and dense, 3x3 and 5x5, every ROI placement; "
          "uchar3, ushort3, float3)",
          "[gpu][algos][tiled]") {
  // 263x257 in the medium shape, 1031x769 in the large one.
  static_assert(!lib::clamp_separable_large(3, 263LL * 257) && lib::clamp_separable_large(3, 1031LL * 769),
                "the sizes fall in both shapes above the small one");
  std::vector<roi_size> three_sizes = clamp_sizes;
  three_sizes.push_back({1031, 769});
  tiled_sep_clamp_case<hipstencil::uchar3, hipstencil::uchar3>(three_sizes);
  tiled_sep_clamp_case<hipstencil::ushort3, hipstencil::ushort3>(three_sizes);
  tiled_sep_clamp_case<hipstencil::float3, hipstencil::float3>(three_sizes);
  tiled_dense_clamp_case<hipstencil::uchar3, hipstencil::uchar3>();
  tiled_dense_clamp_case<hipstencil::ushort3, hipstencil::ushort3>();
  tiled_dense_clamp_case<hipstencil::float3, hipstencil::float3>();
}

TEST_CASE("tiled's staged dense kernel where its groups meet their limits (ushort3: a view not aligned to the "
          "loads, an image 7 pixels wide)",
          "[gpu][algos][tiled]") {
  tiled_dense_staged_edges_case();
}

TEST_CASE("tiled's staged separable kernel (float3 from 1920x1080 pixels: ROIs at a corner and inside, a view "
          "not aligned to the loads, an image 7 pixels wide)",
          "[gpu][algos][tiled]") {
  tiled_sep_staged_case();
}

TEST_CASE("tiled's replicate kernels on narrow float ROIs beyond their pixel limits (separable and dense, 3x3 and "
          "5x5, every ROI placement)",
          "[gpu][algos][tiled]") {
  using namespace gpu_test;
  // 97x10831 (primes), 128x8193 and 256x4099 (the widest) run both kernels past
  // clamp_separable_max_pixels and clamp_dense_max_pixels (clamp_narrow); 1x1048577 is
  // taller than their grids hold and runs tiled's other kernels.
  static_assert(lib::clamp_narrow(1, 4, 97) && lib::clamp_narrow(1, 4, 256) && !lib::clamp_narrow(1, 4, 257) &&
                    97LL * 10831 > lib::clamp_separable_max_pixels(1, 4) &&
                    128LL * 8193 > lib::clamp_dense_max_pixels(1, 4, 1) &&
                    128LL * 8193 > lib::clamp_dense_max_pixels(1, 4, 2) &&
                    256LL * 4099 > lib::clamp_separable_max_pixels(1, 4),
                "the sizes below run the kernels only as narrow ROIs");
  const std::vector<roi_size> sizes = {{97, 10831}, {128, 8193}, {256, 4099}, {1, 1048577}};
  tiled_clamp_walk<float, float>([](int r) { return random_separable(2 * r + 1, 2 * r + 1); }, sizes);
  tiled_clamp_walk<float, float>([](int r) { return random_filter(2 * r + 1, 2 * r + 1); }, sizes);
}
