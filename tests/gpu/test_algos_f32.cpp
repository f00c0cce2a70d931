// [gpu] optimised families against the reference: float -> float (see algo_matrix.hpp).
#include <climits>
#include <cmath>
#include <cstdint>

#include "algo_matrix.hpp"

TEST_CASE("every family matches the reference: float -> float", "[gpu][algos]") {
  gpu_test::family_matrix<float, float>(true);
}

TEST_CASE("tiled with a non-default block shape (16 x 4 threads, 2 x 8 outputs each)", "[gpu][algos]") {
  using namespace gpu_test;
  // Only the radii this case runs are compiled (each compiled radius is a kernel to build).
  using shape = algo::tiled<strategy::tile_class, tuning::tiled_policy<16, 4, 2, 8, tuning::radii<1, 3>>>;
  for (const border::any& b : matrix_borders())
    for (int r : {1, 3}) {
      const filter2d f = random_filter(2 * r + 1, 2 * r + 1);
      const separable_filter sf = random_separable(2 * r + 1, 2 * r + 1);
      for (int placement : {0, 5, 8}) {
        const problem p = place(45, 37, placement, halo::from_parent, r, r, r, r, b.rule);
        const auto src = random_image<float>(p.src_w, p.src_h);
        check_against_reference<float, float>(p, f, b, src, [&](image_view<const float> s, image_view<float> d) {
          convolve(s, p.src_roi, d, p.dst_roi, f, b, shape{}, nullptr, p.halo_mode);
        });
        check_against_reference<float, float>(p, sf.to_2d(), b, src, [&](image_view<const float> s, image_view<float> d) {
          convolve(s, p.src_roi, d, p.dst_roi, sf, b, shape{}, nullptr, p.halo_mode);
        });
      }
    }
}

TEST_CASE("streaming with other strip heights (1, 5 and 64 output rows per strip)", "[gpu][algos]") {
  using namespace gpu_test;
  for (int rows : {1, 5, 64})
    for (const border::any& b : {border::any(border::reflect101{}), border::any(border::constant{0.5f}),
                                 border::any(border::skip{})})
      for (int r : {1, 4}) {
        INFO("strip_rows " << rows << ", radius " << r);
        const filter2d f = random_filter(2 * r + 1, 2 * r + 1);
        const separable_filter sf = random_separable(2 * r + 1, 2 * r + 1);
        algo::streaming<> tag;
        tag.strip_rows = rows;
        for (int placement : {0, 4, 7}) {
          const problem p = place(301, 139, placement, halo::from_parent, r, r, r, r, b.rule, true);
          const auto src = random_image<float>(p.src_w, p.src_h);
          check_against_reference<float, float>(p, f, b, src, [&](image_view<const float> s, image_view<float> d) {
            convolve(s, p.src_roi, d, p.dst_roi, f, b, tag, nullptr, p.halo_mode);
          });
          check_against_reference<float, float>(p, sf.to_2d(), b, src, [&](image_view<const float> s, image_view<float> d) {
            convolve(s, p.src_roi, d, p.dst_roi, sf, b, tag, nullptr, p.halo_mode);
          });
        }
      }
}

TEST_CASE("streaming falls back to shared_mem for an unaligned ROI, with the same results", "[gpu][algos]") {
  using namespace gpu_test;
  const filter2d f = random_filter(5, 5);
  const problem p = place(67, 45, 3, halo::from_parent, 2, 2, 2, 2, border::kind::reflect101);  // ROI at column 2
  const auto src = random_image<float>(p.src_w, p.src_h);
  check_against_reference<float, float>(p, f, border::reflect101{}, src, [&](image_view<const float> s, image_view<float> d) {
    const resolution res = resolved_algorithm(s, p.src_roi, d, p.dst_roi, f, border::reflect101{}, algo::streaming<>{},
                                              p.halo_mode);
    CHECK(std::string(res.family) == "shared_mem");
    CHECK(res.radius == 2);
    convolve(s, p.src_roi, d, p.dst_roi, f, border::reflect101{}, algo::streaming<>{}, nullptr, p.halo_mode);
  });
}

namespace {
// Ten rounds of: the output poisoned (NaN), the call queued on a stream of its own, a copy
// of the output queued after it on that stream, then a synchronisation. The copy must be
// byte for byte the finished output, and no output may be left unwritten.
template <class Filter, class Border, class Tag>
void check_queued_copy_sees_every_output(int w, int h, const Filter& f, Border b, Tag tag) {
  using namespace gpu_test;
  const auto host_src = random_image<float>(w, h);
  device_image<float> src(w, h), dst(w, h), copy(w, h);
  src.upload(host_src.view());
  const gpu::stream s;
  host_image<float> after(w, h), queued(w, h);
  for (int round = 0; round < 10; ++round) {
    INFO("round " << round);
    gpu::memset_2d(dst.view().data, dst.view().pitch_bytes, 0xff, w * sizeof(float), h, s);  // NaN everywhere
    convolve(src.view(), src.view().bounds(), dst.view(), dst.view().bounds(), f, b, tag, s);
    gpu::memcpy_2d(copy.view().data, copy.view().pitch_bytes, dst.view().data, dst.view().pitch_bytes,
                   w * sizeof(float), h, gpu::copy_kind::device_to_device, s);
    gpu::stream_synchronize(s);
    dst.download(after.view());
    copy.download(queued.view());
    int differ = 0, unwritten = 0;  // pixels the queued copy saw other than the finished output; NaN outputs
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        differ += same_bytes(after(x, y), queued(x, y)) ? 0 : 1;
        unwritten += std::isnan(after(x, y)) ? 1 : 0;
      }
    CHECK(differ == 0);
    CHECK(unwritten == 0);
  }
}
}  // namespace

// The edge block columns run as a second grid that may overlap the interior one
// (platform/overlap.hpp); work queued after the call on the same stream must still see
// every output, the edge columns (two of the three block columns at 1536 wide) included.
// On the H200 this also passed with the interior grid's final wait removed (the runtime
// or the timing ordered the copy after both grids there), so it guards the guarantee,
// not that one line.
TEST_CASE("streaming: work queued after the call on its stream sees the edge columns too", "[gpu][algos]") {
  using namespace gpu_test;
  check_queued_copy_sees_every_output(1536, 4096, random_separable(3, 3), border::reflect101{}, algo::streaming<>{});
}

// Base (a tiled_policy whose interior instance has no size limit) without the replicate
// kernels (tiled_dense_clamp_kernel, tiled_sep_clamp_kernel), which would otherwise take
// every ROI here at radius 1 and 2 whose reads are replicate (replicate, skip, padded;
// up to 2^20 pixels), so that those run the interior instance and its frame's replicate
// instance too; and with the instance and its frame in one grid, its cells M rows, where
// M > 0 (tiled2d_fused_kernel; tiled_policy's FusedFrameCellRows), under the other rules
// from RuleMin pixels.
template <class Base, int M = 0, long long RuleMin = 0>
struct interior_policy : Base {
  static constexpr int fused_frame_rows = M;
  static constexpr long long fused_frame_rule_min_pixels = RuleMin;
  static constexpr bool clamp_separable_size(int, int, int, long long) { return false; }
  static constexpr bool clamp_dense_size(int, int, int, int, long long) { return false; }
};

// tiled's interior instance and its frame at every ROI size: Policy is the library's but
// with no size limit and no replicate kernels (interior_policy), so every ROI with an
// interior rectangle runs the instance and the frame around it; the others, and ROIs whose
// spans are not aligned, run tiled2d_kernel alone. Separable 3x3 and 5x5 run there as
// their outer product (the policy's limit is 0). At radius 1 and 2 the frame runs its
// replicate instance (clamped reads) under replicate, skip and padded, and the run-time
// rule's under the others.
template <class T, class Base, int M = 0, long long RuleMin = 0>
void tiled_interior_case(std::initializer_list<int> radii) {
  using namespace gpu_test;
  using Policy = interior_policy<Base, M, RuleMin>;
  static_assert(!Policy::clamp_dense_size(1, int(sizeof(T)), 1, 1, 1) && Policy::fused_frame_rows == M,
                "no replicate kernels");
  using tag = algo::tiled<strategy::tile_class, Policy>;
  struct size { int w, h; };
  for (const border::any& b : matrix_borders())
    for (int r : radii) {
      const filter2d f = random_filter(2 * r + 1, 2 * r + 1);
      const separable_filter sf = random_separable(2 * r + 1, 2 * r + 1);
      for (size s : {size{1, 1}, size{143, 29}, size{300, 70}, size{389, 211}})
        for (int placement : {0, 1, 2, 5, 8})
          for (bool aligned : {true, false})
            for (halo hm : {halo::from_parent, halo::isolated}) {
              const problem p = place(s.w, s.h, placement, hm, r, r, r, r, b.rule, aligned);
              const auto src = random_image<T>(p.src_w, p.src_h);
              if (r != 2)
                check_against_reference<T, T>(p, f, b, src, [&](image_view<const T> in, image_view<T> out) {
                  convolve(in, p.src_roi, out, p.dst_roi, f, b, tag{}, nullptr, p.halo_mode);
                });
              if (r <= 2)
                check_against_reference<T, T>(p, sf.to_2d(), b, src, [&](image_view<const T> in, image_view<T> out) {
                  convolve(in, p.src_roi, out, p.dst_roi, sf, b, tag{}, nullptr, p.halo_mode);
                });
            }
    }
}

TEST_CASE("tiled's interior instance and its frame (float dense, every ROI size)", "[gpu][algos][tiled]") {
  using namespace gpu_test;
  // Compiled at the radii this case runs only.
  using every_size = tuning::tiled_policy<8, 8, 4, 4, tuning::radii<1, 2, 4, 5, 7, 8>, tuning::shared_memory_budget,
                                          12, 32, 2, 2, 0>;
  using tag = algo::tiled<strategy::tile_class, every_size>;
  tiled_interior_case<float, every_size>({1, 2, 4, 5, 7, 8});
  // The run-time rule's frame under replicate, skip and padded at radius 1 and 2 too.
  using no_clamp = tuning::tiled_policy<8, 8, 4, 4, tuning::radii<1, 2>, tuning::shared_memory_budget, 12, 32, 2, 2, 0,
                                        1LL << 21, 1LL << 17, 1LL << 20, 2, 0, 0>;
  static_assert(every_size::frame_clamp<2> && !every_size::frame_clamp<4> && !no_clamp::frame_clamp<1>,
                "the frame's replicate instance at radius 1 and 2 only, and none in no_clamp");
  tiled_interior_case<float, no_clamp>({1, 2});
  // Below 2^21 pixels (every ROI here) the frame's cells are one row at radius 1 and 2
  // (small_frame); a policy without them runs the 4-row cells there too.
  using large_cells = tuning::tiled_policy<8, 8, 4, 4, tuning::radii<1, 2>, tuning::shared_memory_budget, 12, 32, 2,
                                           2, 0, 1LL << 21, 1LL << 17, 1LL << 20, 2, 0, 2, 1LL << 18, 4, 1, 0>;
  static_assert(every_size::small_frame(1LL << 20, 2, false) && !every_size::small_frame(1LL << 20, 4, false) &&
                    !large_cells::small_frame(1, 1, false),
                "one-row cells at radius 1 and 2 below 2^21 pixels, and none in large_cells");
  tiled_interior_case<float, large_cells>({1, 2});
  // More tiles in y than a grid's y dimension holds (65535 blocks): the interior grid
  // counts its rows in blockIdx.z too. Radius 7: 4 output rows a block, so 262140 rows
  // in blockIdx.y.
  for (const border::any& b : {border::any(border::replicate{}), border::any(border::constant{0.25f})}) {
    const int r = 7;
    const filter2d f = random_filter(2 * r + 1, 2 * r + 1);
    const problem p = place(40, 262200, 0, halo::from_parent, r, r, r, r, b.rule, true);
    const auto src = random_image<float>(p.src_w, p.src_h);
    check_against_reference<float, float>(p, f, b, src, [&](image_view<const float> in, image_view<float> out) {
      convolve(in, p.src_roi, out, p.dst_roi, f, b, tag{}, nullptr, p.halo_mode);
    });
  }
}

// The interior instance and its frame as one grid (tiled2d_fused_kernel, a policy's
// FusedFrameCellRows; the library's policy runs one at radius 1 and 2, its cells 4 rows,
// and the cases above run two through interior_policy): the same walk at radius 1 and 2
// (the frame's replicate instance under replicate, skip and padded, the run-time rule's
// under the others), float and u16 with the frame's cells one row and four; and float with
// the run-time rule's ROIs in one grid from 300x70 pixels (fused_frame_rule_min_pixels), so
// that 1x1 and 143x29 run two grids there and the larger ones one. Radius 1 and 2 only:
// each policy compiles the whole family at its radii.
TEST_CASE("tiled's interior instance and its frame in one grid (float and u16, radius 1 and 2, every ROI size)",
          "[gpu][algos][tiled]") {
  using namespace gpu_test;
  using every_size = tuning::tiled_policy<8, 8, 4, 4, tuning::radii<1, 2>, tuning::shared_memory_budget, 12, 32, 2,
                                          2, 0>;
  static_assert(interior_policy<every_size>::fused_frame_rows == 0 && tuning::tiled_policy<>::fused_frame_rows == 4 &&
                    tuning::tiled_policy<>::fused_frame_rule_min_pixels == 1LL << 21,
                "two grids in the cases above; the library's policy runs one, its cells 4 rows, under the "
                "run-time rule from 2^21 pixels");
  tiled_interior_case<float, every_size, 1>({1, 2});
  tiled_interior_case<float, every_size, 4>({1, 2});
  tiled_interior_case<float, every_size, 4, 300LL * 70>({1, 2});
  using every_size16 = tuning::tiled_policy<8, 8, 4, 4, tuning::radii<1, 2>, tuning::shared_memory_budget, 12, 32, 2,
                                            2, 0, 1LL << 21, 1LL << 17, 1LL << 20, 2, 0, 2, 1LL << 18, 4, 1, 1LL << 21,
                                            2>;
  tiled_interior_case<std::uint16_t, every_size16, 1>({1, 2});
  tiled_interior_case<std::uint16_t, every_size16, 4>({1, 2});
}

// The same for one-channel 2-byte pixels, which take the instance at radius 1 and 2
// (tiled_policy's InteriorNarrowMaxRadius): rows read as 8-byte pieces, outputs converted
// (integers rounded and saturated) and stored as whole words.
TEST_CASE("tiled's interior instance and its frame (u16, s16, half, bfloat16, radius 1 and 2, every ROI size)",
          "[gpu][algos][tiled]") {
  using namespace gpu_test;
  using every_size = tuning::tiled_policy<8, 8, 4, 4, tuning::radii<1, 2>, tuning::shared_memory_budget, 12, 32, 2, 2,
                                          0, 1LL << 21, 1LL << 17, 1LL << 20, 2, 0, 2, 1LL << 18, 4, 1, 1LL << 21, 2>;
  static_assert(every_size::dense_interior<1, 2, 2> && !every_size::dense_interior<1, 1, 1> &&
                    every_size::separable_interior_min_pixels(1, 2, 2) == 0,
                "the policy runs 16-bit pixels in the interior instance");
  tiled_interior_case<std::uint16_t, every_size>({1, 2});
  tiled_interior_case<std::int16_t, every_size>({1, 2});
  tiled_interior_case<half, every_size>({1, 2});
  tiled_interior_case<bfloat16, every_size>({1, 2});
  // There their frame grid goes first at every size and radius (NarrowFrameFirstMinPixels 0
  // up to NarrowFrameFirstMaxRadius 2; the library's policy does so at radius 1, and at
  // radius 2 from 2^21 pixels); the other order once more, at both radii, as the library's
  // runs radius 2 below 2^21 pixels (the frame's cells one row there).
  using interior_first = tuning::tiled_policy<8, 8, 4, 4, tuning::radii<1, 2>, tuning::shared_memory_budget, 12, 32,
                                              2, 2, 0, 1LL << 21, 1LL << 17, 1LL << 20, 2, LLONG_MAX>;
  static_assert(every_size::frame_first(1, 2, 2) && !interior_first::frame_first(1LL << 40, 2, 1) &&
                    !tuning::tiled_policy<>::frame_first((1LL << 21) - 1, 2, 2) &&
                    interior_first::small_frame(1LL << 20, 2, false),
                "the two orders");
  tiled_interior_case<std::uint16_t, interior_first>({1, 2});
}

// tiled's interior grid is launched as the frame grid's dependent and only its last block
// waits for the frame (kernels/tiled_interior.hpp): work queued after the call on the same
// stream must still see every output, the frame's (the first and last rows, the first 4
// and last columns) included. 2048x1024 is past the policy's 2^20 pixels, so the call
// runs the interior instance and its frame (the frame's grid first); 1024x1024 5x5 under
// replicate runs them the other way round, the frame's cells one row.
TEST_CASE("tiled: work queued after the call on its stream sees the frame too", "[gpu][algos][tiled]") {
  using namespace gpu_test;
  check_queued_copy_sees_every_output(2048, 1024, random_filter(3, 3), border::replicate{}, algo::tiled<>{});
  using lib = tuning::tiled_policy<>;
  static_assert(!lib::frame_first(1LL << 20, 4, 2) && lib::small_frame(1LL << 20, 2, false),
                "1024x1024 float runs the interior's grid first and the frame's one-row cells");
  check_queued_copy_sees_every_output(1024, 1024, random_filter(5, 5), border::replicate{}, algo::tiled<>{});
}

// The library's own tiled policy below 2^20 pixels under the rules without a replicate
// frame: at radius 1 and 2 it runs the interior instance and its frame from 3 * 2^17
// pixels (SmallRadiusInteriorMinPixels), separable filters as their outer product, the
// frame's cells one row (float's interior grid first at both radii, u16's at radius 2); at
// 512x512 tiled's own kernels. Whole images, so that the interior is not empty; 724x724 at
// column 0 and 960x540 at aligned ROIs of a larger parent (the corners: placements 5 and
// 8); float and u16, against the reference, outputs poisoned.
template <class T>
void tiled_library_interior_case() {
  using namespace gpu_test;
  using lib = tuning::tiled_policy<>;
  static_assert(lib::interior_from(false, 1) <= 724LL * 724 && lib::interior_from(false, 2) <= 960LL * 540 &&
                    lib::interior_from(false, 1) > 512LL * 512 && !lib::frame_first(960LL * 540, int(sizeof(T)), 2) &&
                    lib::small_frame(960LL * 540, 2, false),
                "724x724 and 960x540 run the interior instance under every rule, 512x512 does not");
  struct size { int w, h, placement; };
  const border::any rules[] = {border::constant{0.25f}, border::reflect101{}, border::wrap{}};
  int i = 0;
  for (size s : {size{724, 724, 0}, size{960, 540, 5}, size{960, 540, 8}, size{512, 512, 0}})
    for (int r : {1, 2})
      for (int dense = 0; dense < 2; ++dense, ++i) {
        const border::any b = rules[i % 3];
        const filter2d f = random_filter(2 * r + 1, 2 * r + 1);
        const separable_filter sf = random_separable(2 * r + 1, 2 * r + 1);
        const problem p = place(s.w, s.h, s.placement, halo::from_parent, r, r, r, r, b.rule, true);
        const auto src = random_image<T>(p.src_w, p.src_h);
        INFO(s.w << "x" << s.h << " placement " << s.placement << " radius " << r << (dense ? " dense " : " separable ")
                 << border::name(b.rule));
        if (dense)
          check_against_reference<T, T>(p, f, b, src, [&](image_view<const T> in, image_view<T> out) {
            convolve(in, p.src_roi, out, p.dst_roi, f, b, algo::tiled<>{}, nullptr, p.halo_mode);
          });
        else
          check_against_reference<T, T>(p, sf.to_2d(), b, src, [&](image_view<const T> in, image_view<T> out) {
            convolve(in, p.src_roi, out, p.dst_roi, sf, b, algo::tiled<>{}, nullptr, p.halo_mode);
          });
      }
}

TEST_CASE("tiled: the library's policy from 3 * 2^17 pixels under the other rules", "[gpu][algos][tiled]") {
  tiled_library_interior_case<float>();
  tiled_library_interior_case<std::uint16_t>();
}

// tiled's small-image shapes for separable 3x3 and 5x5 on one-channel 2- and 4-byte pixels
// (tiled_policy::small_shape): 32 x 8 threads of one output, 16 x 8 of 2 x 2, and the
// policy's 8 x 8 of 4 x 4 above. A policy with the limits at 600 and 6000 pixels puts
// awkward small ROIs in each: 1x1 and 17x13 in the first, 23x41 and 97x61 in the second,
// 131x67 in the policy's own; every rule, every placement, both halo modes; float and u16.
template <class T>
void tiled_small_shapes_case() {
  using namespace gpu_test;
  using limits = tuning::tiled_policy<8, 8, 4, 4, tuning::radii<1, 2>, tuning::shared_memory_budget, 12, 32, 2, 2,
                                      1LL << 20, 1LL << 21, 600, 6000>;
  using tag = algo::tiled<strategy::tile_class, limits>;
  static_assert(limits::small_shape(221) == 1 && limits::small_shape(943) == 2 && limits::small_shape(8777) == 0,
                "the sizes below fall in the shapes named above");
  struct size { int w, h; };
  for (const border::any& b : matrix_borders())
    for (int r : {1, 2}) {
      const separable_filter sf = random_separable(2 * r + 1, 2 * r + 1);
      for (size s : {size{1, 1}, size{17, 13}, size{23, 41}, size{97, 61}, size{131, 67}})
        for (int placement : {0, 1, 2, 5, 8})
          for (halo hm : {halo::from_parent, halo::isolated}) {
            const problem p = place(s.w, s.h, placement, hm, r, r, r, r, b.rule);
            const auto src = random_image<T>(p.src_w, p.src_h);
            check_against_reference<T, T>(p, sf.to_2d(), b, src, [&](image_view<const T> in, image_view<T> out) {
              convolve(in, p.src_roi, out, p.dst_roi, sf, b, tag{}, nullptr, p.halo_mode);
            });
          }
    }
}

TEST_CASE("tiled's small-image shapes (separable 3x3 and 5x5, float and u16)", "[gpu][algos][tiled]") {
  tiled_small_shapes_case<float>();
  tiled_small_shapes_case<std::uint16_t>();
}
