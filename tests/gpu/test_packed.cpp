// [gpu] algo::packed, 8-bit pixels in half-precision lanes: it runs the filters its plan
// accepts (resolved_algorithm), and keeps the accuracy the library promises for 8-bit
// outputs: integer filters exact, other filters within 1 of the correctly rounded value.
// The family matrix (test_algos_u8.cpp) runs it at every border rule, size and ROI too.
// automatic runs it for uchar3 under replicate from the tuning table's size thresholds, and
// for uchar4 under replicate up to them.
#include "algo_matrix.hpp"

#include <initializer_list>
#include <set>
#include <utility>

using namespace gpu_test;

namespace {

/// Runs algo::packed on a random image of w x h pixels T (u8, uchar3 or uchar4) for
/// `filter` under `b` with the ROI at `placement` (place()), output poisoned; requires that
/// packed runs it itself, and returns the channels that differ from the reference by 1
/// (none may differ by more) or, with `exact`, fails on any difference. `strip`: the tag's
/// strip rows (0: the family's own).
template <class T, class Filter>
long long run_packed(const Filter& filter, const filter2d& f, int w, int h, border::any b, int placement, halo hm,
                     bool tile_class, bool exact, bool aligned = false, int strip = 0) {
  const problem p =
      place(w, h, placement, hm, f.reach_left(), f.reach_top(), f.reach_right(), f.reach_bottom(), b.rule, aligned);
  INFO(p.describe(f, b) << (tile_class ? " tile_class" : " per_access"));
  const auto src = random_image<T>(p.src_w, p.src_h);
  host_image<T> ref(p.dst_w, p.dst_h, poison_pixel<T>(0x5A));
  reference::convolve(src.view(), p.src_roi, ref.view(), p.dst_roi, f, b, p.halo_mode, reference::all_threads());
  device_image<T> d_src(p.src_w, p.src_h), d_dst(p.dst_w, p.dst_h);
  d_src.upload(src.view());
  d_dst.fill_bytes(0x5A);  // poison: the reference's outside pixels keep it too
  const image_view<const T> s(d_src.view());
  auto run = [&](auto tag) {
    const resolution res = resolved_algorithm(s, p.src_roi, d_dst.view(), p.dst_roi, filter, b, tag, p.halo_mode);
    INFO("runs " << res.str());
    REQUIRE(std::string(res.family) == "packed");
    convolve(s, p.src_roi, d_dst.view(), p.dst_roi, filter, b, tag, nullptr, p.halo_mode);
  };
  if (tile_class) {
    algo::packed<> tag;
    tag.strip_rows = strip;
    run(tag);
  } else {
    algo::packed<strategy::per_access> tag;
    tag.strip_rows = strip;
    run(tag);
  }
  host_image<T> out(p.dst_w, p.dst_h);
  d_dst.download(out.view());
  gpu::stream_synchronize(nullptr);
  long long off_by_one = 0, wrong = 0;
  for (int y = 0; y < p.dst_h; ++y)
    for (int x = 0; x < p.dst_w; ++x)
      for (int c = 0; c < pixel_traits<T>::channels; ++c) {
        const int d = int(std::fabs(to_accum<double>(out(x, y)).v[c] - to_accum<double>(ref(x, y)).v[c]));
        off_by_one += d == 1;
        wrong += d > (exact ? 0 : 1);
      }
  CHECK(wrong == 0);
  return off_by_one;
}

const border::any rules[] = {border::replicate{}, border::reflect{}, border::reflect101{}, border::wrap{},
                             border::constant{0},  border::constant{200}, border::skip{},  border::padded{}};
const int sizes[][2] = {{1, 1}, {7, 3}, {97, 41}, {257, 129}, {1031, 77}, {1920, 1080}};

template <class T>
void integer_filters_exact() {
  // Every partial sum of these is an integer below 2048: exact in half (the host plan
  // proves it: error bound 0), so the outputs must equal the reference's.
  const std::vector<separable_filter> seps = {filters::sobel_x(), filters::sobel_y()};
  const std::vector<filter2d> denses = {filters::laplacian(), filters::sharpen(1.0f), filters::sobel_x().to_2d()};
  int n = 0;
  for (const auto& sf : seps) {
    REQUIRE(detail::plan_packed_separable(sf.row(), sf.column()).error_bound == 0);
    for (const auto& s : sizes) {
      const int i = n++;
      run_packed<T>(sf, sf.to_2d(), s[0], s[1], rules[i % 8], i % 9, i % 2 ? halo::from_parent : halo::isolated,
                    i % 3 != 0, true);
    }
  }
  for (const auto& f : denses) {
    REQUIRE(detail::plan_packed_dense(f.coefficients()).error_bound == 0);
    for (const auto& s : sizes) {
      const int i = n++;
      run_packed<T>(f, f, s[0], s[1], rules[i % 8], i % 9, i % 2 ? halo::from_parent : halo::isolated, i % 3 != 0,
                    true);
    }
  }
}

/// `count` random filters on T, cycling through rules rs[0 .. nr) and sizes sz[0 .. ns).
template <class T>
void random_filters_within_one(const border::any* rs, int nr, const int (*sz)[2], int ns, int count) {
  // Smoothing filters (positive, sum 1: Gaussians of random sigma) and signed ones (taps in
  // [-0.5, 1], sum |k| = 1), dense and separable, radius 1 and 2. The plan must take nearly
  // all of them (else the family would rarely run), and none may be off by more than 1.
  // Three channels, and four where packed_four_kernel runs them, sum a separable filter's
  // dense form (its outer product) in one pass (packed_plan_for).
  std::uniform_real_distribution<double> sigma(0.3, 3.0);
  long long off_by_one = 0, outputs = 0;
  int taken = 0, tried = 0;
  for (int i = 0; i < count; ++i) {
    const int r = 1 + i % 2;
    const bool dense = (i / 2) % 2 == 0, smooth = (i / 4) % 2 == 0;
    const separable_filter sf = smooth ? filters::gaussian(sigma(rng()), r) : random_separable(2 * r + 1, 2 * r + 1);
    const filter2d f = dense ? (smooth ? sf.to_2d() : random_filter(2 * r + 1, 2 * r + 1)) : sf.to_2d();
    const int* s = sz[i % ns];
    const border::any b = rs[(i / 3) % nr];
    const bool ok = packed_plan_for<T>(dense, f, sf, (long long)s[0] * s[1], b.rule, r).ok;
    ++tried;
    if (!ok) continue;
    ++taken;
    const halo hm = (i / 5) % 2 ? halo::from_parent : halo::isolated;
    off_by_one += dense ? run_packed<T>(f, f, s[0], s[1], b, i % 9, hm, i % 4 != 1, false)
                        : run_packed<T>(sf, f, s[0], s[1], b, i % 9, hm, i % 4 != 1, false);
    outputs += (long long)s[0] * s[1] * pixel_traits<T>::channels;
  }
  INFO(taken << " of " << tried << " filters taken; " << off_by_one << " of " << outputs
             << " outputs one off the correctly rounded value");
  CHECK(taken >= tried * 9 / 10);
  // Off by one only within the rounding error of a tie: a share of the outputs near
  // 2 E|error| (a few percent), far from the half that a misplaced rounding offset gives.
  CHECK(off_by_one * 4 < outputs);
}

/// Edge blocks at aligned addresses, where each thread's words come through the block's
/// column map: images as narrow as one thread's outputs (the narrow block shapes), widths
/// that leave threads of a block's row past the ROI, a block's full width, and wider ones
/// with whole-word blocks beside edge ones; ROIs at every edge and corner of a parent at
/// 16-pixel-aligned columns (so the aligned instances run), both halo modes, every border
/// rule, radius 1 and 2, dense and separable, output poisoned, each channel within 1 of the
/// reference.
template <class T>
void aligned_edge_blocks(std::initializer_list<int> widths) {
  const int heights[] = {1, 5, 67};
  int i = 0;
  for (int w : widths)
    for (int r = 1; r <= 2; ++r)
      for (int dense = 0; dense < 2; ++dense, ++i) {
        const separable_filter sf = filters::gaussian(0.6 + 0.3 * r + 0.01 * i, r);
        const filter2d f = dense ? random_packed_dense(r) : sf.to_2d();
        const int h = heights[i % 3];
        const border::any b = rules[i % 8];
        REQUIRE(packed_plan_for<T>(false, sf.to_2d(), sf, (long long)w * h, b.rule, r).ok);
        const halo hm = (i / 3) % 2 ? halo::from_parent : halo::isolated;
        if (dense) run_packed<T>(f, f, w, h, b, i % 9, hm, i % 5 != 4, false, true);
        else run_packed<T>(sf, f, w, h, b, i % 9, hm, i % 5 != 4, false, true);
      }
}

/// One-channel edge blocks whose read rectangle's edges fall on the threads' 4-byte words
/// (widths a multiple of 4, ROIs at 16-pixel-aligned columns): there the outside words are
/// byte permutes of the inside word at the edge (packed_edge_words) for replicate, reflect,
/// reflect101 and constant, and the column map for wrap. A width of 4 puts both edges in one
/// thread's words; 124 and 260 end a block row part-way through a thread's outputs. Every
/// placement, both halo modes, radius 1 and 2, dense and separable, tile_class (the
/// permutes) and, one case in seven, per_access (the map); output poisoned, within 1.
void word_edge_blocks() {
  const border::any word_rules[] = {border::replicate{}, border::reflect{}, border::reflect101{},
                                    border::constant{0},  border::constant{201}, border::wrap{}};
  int i = 0;
  for (int w : {4, 8, 12, 20, 36, 124, 128, 260, 516})
    for (int r = 1; r <= 2; ++r)
      for (int dense = 0; dense < 2; ++dense)
        for (const border::any& b : word_rules) {
          const separable_filter sf = filters::gaussian(0.6 + 0.3 * r + 0.01 * i, r);
          REQUIRE(detail::plan_packed_separable(sf.row(), sf.column()).ok);
          const filter2d f = dense ? random_packed_dense(r) : sf.to_2d();
          const int h = 1 + (i * 7) % 23;
          const halo hm = (i / 2) % 2 ? halo::from_parent : halo::isolated;
          const bool tile_class = i % 7 != 6;
          if (dense) run_packed<std::uint8_t>(f, f, w, h, b, i % 9, hm, tile_class, false, true);
          else run_packed<std::uint8_t>(sf, f, w, h, b, i % 9, hm, tile_class, false, true);
          ++i;
        }
}

/// The strip kernel (kernels/packed_strips.hpp): u8 images whose widths are multiples of 8
/// (8: both edges in one thread's words), at 16-pixel-aligned ROIs at every edge and
/// corner, both halo modes, under the rules whose outside words are byte permutes, strips
/// of 1 to 16 rows (every remainder of the ring of 2R + 1 sums; heights that end strips
/// part-way), radius 1 and 2, dense and separable; output poisoned, within 1. The host test
/// (packed_strips_fit) and the policy must take every case, so that the kernel is what ran.
void strip_kernel_images() {
  const border::any word_rules[] = {border::replicate{}, border::reflect{}, border::reflect101{},
                                    border::constant{0}, border::constant{201}};
  int i = 0;
  for (int w : {8, 16, 24, 136, 264, 1024})
    for (int r = 1; r <= 2; ++r)
      for (int dense = 0; dense < 2; ++dense)
        for (int strip : {1, 2, 3, 4, 5, 8, 16}) {
          const separable_filter sf = filters::gaussian(0.6 + 0.3 * r + 0.01 * i, r);
          REQUIRE(detail::plan_packed_separable(sf.row(), sf.column()).ok);
          const filter2d f = dense ? random_packed_dense(r) : sf.to_2d();
          const int h = 1 + (i * 13) % 71;
          const border::any b = word_rules[i % 5];
          const halo hm = (i / 2) % 2 ? halo::from_parent : halo::isolated;
          const int placement = i % 9;
          const problem p = place(w, h, placement, hm, r, r, r, r, b.rule, true);
          const detail::geometry g = detail::make_geometry(rect{0, 0, p.src_w, p.src_h}, p.src_roi, p.dst_roi,
                                                           2 * r + 1, 2 * r + 1, r, r, b, hm);
          INFO(p.describe(f, b) << " strip " << strip);
          CHECK(detail::packed_strips_fit(g, g.for_reads(), r));
          CHECK(tuning::packed_policy<>::strip_kernel((long long)w * h, false));
          if (dense) run_packed<std::uint8_t>(f, f, w, h, b, placement, hm, true, false, true, strip);
          else run_packed<std::uint8_t>(sf, f, w, h, b, placement, hm, true, false, true, strip);
          ++i;
        }
}

/// The wide kernel (kernels/packed_wide.hpp: u8 3x3 on one image, 16 outputs a thread):
/// ROIs 512 pixels wide (the narrowest it takes) to 2064, at 16-pixel-aligned columns at
/// every edge and corner, both halo modes, the rules whose outside words are byte permutes,
/// dense and separable, in both block shapes (packed_wide_block: 32 x 4 at 512 and 1024 and
/// at 1936, where its last block ends part-way; 8 x 16 at 528, 1040 and 2064, each ending
/// part-way) at each of its strip heights (1 row to 2^20 pixels, 2 to 2^22, 4 beyond),
/// with heights that end a strip part-way; output poisoned, within 1 of the reference.
/// packed_wide_fit must take every case, so that the kernel is what ran. Then each whole
/// image once more against the strip walk (strip_rows set, which the wide kernel leaves to
/// the walk): the same bytes, since both add the products in the same order.
void wide_kernel_images() {
  const border::any word_rules[] = {border::replicate{}, border::reflect{}, border::reflect101{},
                                    border::constant{0}, border::constant{201}};
  const int wide_sizes[][2] = {{512, 1},     {512, 7},     {528, 33},    {1936, 67},
                               {1040, 1009}, {1024, 1030}, {2064, 2033}, {1936, 2200}};
  std::set<std::pair<unsigned, int>> shapes;  // (block width, strip rows) that ran
  int i = 0;
  for (const auto& sz : wide_sizes)
    for (int dense = 0; dense < 2; ++dense)
      for (const border::any& b : word_rules) {
        const int w = sz[0], h = sz[1];
        const separable_filter sf = filters::gaussian(0.8 + 0.01 * i, 1);
        REQUIRE(detail::plan_packed_separable(sf.row(), sf.column()).ok);
        const filter2d f = dense ? random_packed_dense(1) : sf.to_2d();
        const halo hm = (i / 2) % 2 ? halo::from_parent : halo::isolated;
        const int placement = i % 9;
        const problem p = place(w, h, placement, hm, 1, 1, 1, 1, b.rule, true);
        const detail::geometry g =
            detail::make_geometry(rect{0, 0, p.src_w, p.src_h}, p.src_roi, p.dst_roi, 3, 3, 1, 1, b, hm);
        INFO(p.describe(f, b));
        CHECK(detail::packed_wide_fit(g, g.for_reads(), tuning::packed_policy<>::wide_min_width));
        shapes.insert({detail::packed_wide_block(g.width).x, tuning::packed_policy<>::wide_rows((long long)w * h)});
        if (dense) run_packed<std::uint8_t>(f, f, w, h, b, placement, hm, true, false, true);
        else run_packed<std::uint8_t>(sf, f, w, h, b, placement, hm, true, false, true);
        if (i % 3 == 0) {
          const auto src = random_image<std::uint8_t>(w, h);
          device_image<std::uint8_t> d_src(w, h), wide(w, h), walk(w, h);
          d_src.upload(src.view());
          wide.fill_bytes(0x5A);
          walk.fill_bytes(0xA5);
          const image_view<const std::uint8_t> sv(d_src.view());
          algo::packed<> by_walk;
          by_walk.strip_rows = 4;
          if (dense) {
            convolve(sv, wide.view(), f, b, algo::packed<>{});
            convolve(sv, walk.view(), f, b, by_walk);
          } else {
            convolve(sv, wide.view(), sf, b, algo::packed<>{});
            convolve(sv, walk.view(), sf, b, by_walk);
          }
          host_image<std::uint8_t> a(w, h), c(w, h);
          wide.download(a.view());
          walk.download(c.view());
          gpu::stream_synchronize(nullptr);
          long long differ = 0;
          for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) differ += a(x, y) != c(x, y);
          CHECK(differ == 0);
        }
        ++i;
      }
  CHECK(shapes.size() == 6);  // both block shapes at 1, 2 and 4 rows
}

/// Whole images of w x h pixels T whose blocks have interior strips (packed_interior_strip:
/// every read inside, layout-aligned, all outputs written) beside edge ones, at strip
/// length `strip`, so that the strips' output rows leave every remainder modulo 2R + 1;
/// output poisoned, each channel within 1 of the reference (the general walk's rounding).
template <class T>
void interior_strips(int w, int h) {
  const border::any rule_set[] = {border::replicate{}, border::reflect101{}, border::constant{9}};
  for (int r = 1; r <= 2; ++r)
    for (int strip : {1, 2, 3, 4, 5, 7, 8, 16})
      for (int dense = 0; dense < 2; ++dense) {
        const separable_filter sf = filters::gaussian(0.5 + 0.4 * r + 0.05 * strip, r);
        REQUIRE(detail::plan_packed_separable(sf.row(), sf.column()).ok);
        const filter2d f = dense ? random_packed_dense(r) : sf.to_2d();
        const border::any b = rule_set[(strip + dense) % 3];
        INFO(w << "x" << h << " radius " << r << (dense ? " dense" : " separable") << " strip " << strip << " "
               << border::name(b.rule));
        const auto src = random_image<T>(w, h);
        host_image<T> ref(w, h);
        reference::convolve(src.view(), ref.view(), f, b, reference::all_threads());
        device_image<T> d_src(w, h), d_dst(w, h);
        d_src.upload(src.view());
        d_dst.fill_bytes(0x5A);
        algo::packed<> tag;
        tag.strip_rows = strip;
        const image_view<const T> sv(d_src.view());
        if (dense) convolve(sv, d_dst.view(), f, b, tag);
        else convolve(sv, d_dst.view(), sf, b, tag);
        host_image<T> out(w, h);
        d_dst.download(out.view());
        gpu::stream_synchronize(nullptr);
        long long wrong = 0;
        for (int y = 0; y < h; ++y)
          for (int x = 0; x < w; ++x)
            for (int c = 0; c < pixel_traits<T>::channels; ++c)
              wrong += std::fabs(to_accum<double>(out(x, y)).v[c] - to_accum<double>(ref(x, y)).v[c]) > 1;
        CHECK(wrong == 0);
      }
}

/// The rules whose reads are replicate, the only ones packed_three_kernel and
/// packed_four_kernel have.
const border::any replicate_reads[] = {border::replicate{}, border::skip{}, border::padded{}};

/// T under the rules whose reads are replicate, over `ns` sizes sz (uchar3:
/// packed_three_kernel; uchar4: packed_four_kernel where its policy takes the size, one
/// pass over the dense form either way): integer filters (Sobel as its outer product, the
/// Laplacian, sharpen) exact; random smoothing and signed filters, dense and separable,
/// radius 1 and 2, within 1, nearly all taken. Every ROI placement, both halo modes, both
/// strategies, output poisoned.
template <class T>
void replicate_read_cases(const int (*sz)[2], int ns) {
  int i = 0;
  auto exact = [&](const auto& filter, const filter2d& f) {
    REQUIRE(detail::plan_packed_dense(f.coefficients()).error_bound == 0);
    for (int k = 0; k < ns; ++k) {
      run_packed<T>(filter, f, sz[k][0], sz[k][1], replicate_reads[i % 3], i % 9,
                    i % 2 ? halo::from_parent : halo::isolated, i % 4 != 3, true);
      ++i;
    }
  };
  for (const separable_filter& sf : {filters::sobel_x(), filters::sobel_y()}) exact(sf, sf.to_2d());
  for (const filter2d& f : {filters::laplacian(), filters::sharpen(1.0f)}) exact(f, f);
  random_filters_within_one<T>(replicate_reads, 3, sz, ns, 48);
}

}  // namespace

TEST_CASE("packed: uchar3 under replicate, skip and padded (integer filters exact, random ones within 1)",
          "[gpu][packed]") {
  // From 1x1 and 2x3 (the radius past the image) through primes to 1931x1087 (many tiles
  // of 64 x 16).
  const int three_sizes[][2] = {{1, 1}, {2, 3}, {7, 3}, {97, 41}, {131, 67}, {257, 129}, {1031, 77}, {1931, 1087}};
  replicate_read_cases<uchar3>(three_sizes, 8);
}

TEST_CASE("packed: uchar4 tile kernel under replicate, skip and padded (integer filters exact, random ones within 1)",
          "[gpu][packed]") {
  // packed_four_kernel's sizes (packed_policy::four_out_y): 1x1 and 2x3 (the radius past
  // the image), primes, either side of its two shapes' limit (2^18: 1 x 2 outputs a
  // thread, then 1 x 4) and at its largest sizes (1279x719 for every filter, 1913x1083
  // for dense 5x5, where the others walk strips).
  const int four_sizes[][2] = {{1, 1},    {2, 3},    {7, 3},      {97, 41},   {131, 67},
                               {257, 129}, {512, 512}, {513, 512}, {1279, 719}, {1913, 1083}};
  using P = tuning::packed_policy<>;
  REQUIRE(P::four_out_y(512LL * 512, 1, false) == P::four_out_y_small);
  REQUIRE(P::four_out_y(513LL * 512, 1, false) == P::four_out_y_large);
  REQUIRE(P::four_out_y(1279LL * 719, 1, true) > 0);
  REQUIRE(P::four_out_y(1913LL * 1083, 2, false) > 0);
  replicate_read_cases<uchar4>(four_sizes, 10);
}

TEST_CASE("packed: integer filters are exact (Sobel, Laplacian, sharpen), u8 and uchar4", "[gpu][packed]") {
  integer_filters_exact<std::uint8_t>();
  integer_filters_exact<uchar4>();
}

TEST_CASE("packed: random filters within 1 of the correctly rounded value, u8 and uchar4", "[gpu][packed]") {
  random_filters_within_one<std::uint8_t>(rules, 8, sizes, 6, 96);
  random_filters_within_one<uchar4>(rules, 8, sizes, 6, 96);
}

TEST_CASE("packed: interior strips of every length, beside edge ones, u8 and uchar4", "[gpu][packed]") {
  // u8 blocks span 256 pixels and uchar4 ones 128: 2053 and 1031 columns give 9 block
  // columns, 6 and 7 of them interior (more than half: the interior instance runs), and the
  // last one a partial tile. uchar4 in 2017 rows: past the pixels where packed_four_kernel
  // runs replicate (packed_policy::four_out_y), so that every rule here walks strips.
  interior_strips<std::uint8_t>(2053, 197);
  REQUIRE(tuning::packed_policy<>::four_out_y(1031LL * 2017, 2, false) == 0);
  interior_strips<uchar4>(1031, 2017);
}

TEST_CASE("packed: narrow images and ROIs at aligned edges, u8 and uchar4", "[gpu][packed]") {
  // u8: a thread owns 8 pixels and a block row 32 threads (256 pixels); uchar4: 4 and 128.
  aligned_edge_blocks<std::uint8_t>({1, 8, 9, 16, 24, 61, 100, 128, 200, 255, 256, 300, 777});
  aligned_edge_blocks<uchar4>({1, 3, 4, 5, 12, 31, 50, 64, 100, 127, 128, 150, 389});
}

TEST_CASE("packed: u8 edge blocks at word-aligned edges (outside words by byte permute)", "[gpu][packed]") {
  word_edge_blocks();
}

TEST_CASE("packed: u8 strip kernel at word-aligned edges, strips of every length", "[gpu][packed]") {
  strip_kernel_images();
}

TEST_CASE("packed: u8 3x3 in 16-output rows (the wide kernel) at word-aligned edges, every strip height",
          "[gpu][packed]") {
  wide_kernel_images();
}

TEST_CASE("packed: u8 images either side of the interior instance's edge-path limit", "[gpu][packed]") {
  // The interior instance takes the edge blocks' fast paths on u8 images of at most
  // interior_edges_max_pixels (2^24: 4096 x 4096) and not beyond: one image of each, whole
  // (placement 0, aligned, so that more than half the block columns are interior), under
  // four rules, radius 1 and 2, dense and separable; output poisoned, within 1. Radius 1
  // sets the walk's own longest strip, so that the wide kernel leaves it to the walk.
  constexpr long long limit = tuning::packed_policy<>::interior_edges_max_pixels;
  const int w = 4096, h_at = int(limit / w);
  REQUIRE((long long)w * h_at == limit);
  const border::any rule_set[] = {border::replicate{}, border::reflect101{}, border::constant{9}, border::reflect{}};
  int i = 0;
  for (int h : {h_at, h_at + 1})
    for (int r = 1; r <= 2; ++r)
      for (int dense = 0; dense < 2; ++dense, ++i) {
        const separable_filter sf = filters::gaussian(0.5 + 0.4 * r, r);
        const filter2d f = dense ? random_packed_dense(r) : sf.to_2d();
        const border::any b = rule_set[i % 4];
        const int strip = r == 1 ? tuning::packed_policy<>::strip_rows(1) : 0;
        if (dense) run_packed<std::uint8_t>(f, f, w, h, b, 0, halo::isolated, true, false, true, strip);
        else run_packed<std::uint8_t>(sf, f, w, h, b, 0, halo::isolated, true, false, true, strip);
      }
}

TEST_CASE("packed: images larger than L2, whose interior strips ask L2 for their rows, u8 and uchar4", "[gpu][packed]") {
  // tuning::packed_policy::l2_prefetch: one image whose input and output bytes exceed one
  // and a half times this device's L2 and whose pixels exceed the strip kernel's limit, so
  // that the interior instance runs with the hints (whole image, aligned); output poisoned,
  // within 1 of the reference. u8 separable 3x3 under replicate (in the walk's own 8-row
  // strips, set so that the wide kernel leaves it to the walk), uchar4 dense 5x5 under
  // reflect101.
  using P = tuning::packed_policy<>;
  const long long l2 = tuning::l2_bytes();
  auto rows_for = [&](int w, int pixel_bytes) {
    return int(std::max<long long>(3 * l2 / (4LL * pixel_bytes * w) + 64, P::strip_kernel_max_pixels / w + 1));
  };
  const int w8 = 8192, h8 = rows_for(w8, 1);
  CHECK(P::l2_prefetch(2LL * w8 * h8, l2));
  const separable_filter sf = filters::gaussian(0.9, 1);
  run_packed<std::uint8_t>(sf, sf.to_2d(), w8, h8, border::replicate{}, 0, halo::isolated, true, false, true,
                           P::strip_rows(1));
  const int w4 = 4096, h4 = rows_for(w4, 4);
  CHECK(P::l2_prefetch(8LL * w4 * h4, l2));
  const filter2d f = random_packed_dense(2);
  run_packed<uchar4>(f, f, w4, h4, border::reflect101{}, 0, halo::isolated, true, false, true);
}

TEST_CASE("packed: what the plan refuses runs the fallback, in float", "[gpu][packed]") {
  // A box's taps of 1/9 are an integer kernel over an odd divisor that half cannot hold
  // exactly enough, and a constant of 0.37 is no byte: both run direct.
  const int w = 97, h = 41;
  device_image<std::uint8_t> d_src(w, h), d_dst(w, h);
  const image_view<const std::uint8_t> s(d_src.view());
  const separable_filter box = filters::box(1);
  CHECK(std::string(resolved_algorithm(s, d_dst.view(), box, border::replicate{}, algo::packed<>{}).family) ==
        "direct");
  const separable_filter g = filters::gaussian(1.0, 1);
  CHECK(std::string(resolved_algorithm(s, d_dst.view(), g, border::constant{0.37f}, algo::packed<>{}).family) ==
        "direct");
  CHECK(std::string(resolved_algorithm(s, d_dst.view(), g, border::constant{37.0f}, algo::packed<>{}).family) ==
        "packed");
  // Pixels other than 8-bit one or four channels are not packed's.
  device_image<float> f_src(w, h), f_dst(w, h);
  CHECK(std::string(resolved_algorithm(image_view<const float>(f_src.view()), f_dst.view(), g, border::replicate{},
                                       algo::packed<>{})
                        .family) == "direct");
}

TEST_CASE("automatic runs packed on uchar4 replicate where its tile kernel runs, and matches the reference",
          "[gpu][packed]") {
  // The tuning table sends uchar4 3x3 and 5x5 under replicate, dense and separable, to
  // packed from 1x1 to 1280x720 pixels (packed_four_kernel; tests/host/test_tuning.cpp
  // checks the table), where tiled's replicate kernels ran to 2^18 and 2^19 pixels. Here
  // automatic itself, through convolve's dispatch, at sizes in the kernel's two shapes and
  // in the tiled range: the family it resolves to, and its output against the reference
  // (whole image, output poisoned).
  const int sizes4[][2] = {{128, 128}, {509, 257}, {724, 724}};
  int i = 0;
  for (const auto& s : sizes4)
    for (int r = 1; r <= 2; ++r)
      for (int dense = 0; dense < 2; ++dense, ++i) {
        INFO(s[0] << "x" << s[1] << (dense ? " dense " : " separable ") << 2 * r + 1 << "x" << 2 * r + 1);
        auto expect = [&](const resolution& res) { CHECK(std::string(res.family) == "packed"); };
        const halo hm = i % 2 ? halo::from_parent : halo::isolated;
        if (dense) {
          run_placed<uchar4, uchar4>(random_packed_dense(r), border::replicate{}, s[0], s[1], 0, hm,
                                     algo::automatic{}, expect);
        } else {
          const separable_filter sf = filters::gaussian(0.5 + 0.4 * r, r);
          REQUIRE(detail::plan_packed_dense(sf.to_2d().coefficients()).ok);  // else tiled runs it
          run_placed<uchar4, uchar4>(sf, border::replicate{}, s[0], s[1], 0, hm, algo::automatic{}, expect);
        }
      }
}

TEST_CASE("automatic runs packed's wide kernel on u8 3x3 replicate beyond 2^18 pixels on aligned rows, and matches "
          "the reference",
          "[gpu][packed]") {
  // The tuning table sends u8 3x3 under replicate, dense and separable, to packed beyond
  // 2^18 pixels where its wide kernel runs (rows on 16 bytes, a width that is a multiple of
  // 16 and at least 512; tests/host/test_tuning.cpp checks the table), where tiled's
  // replicate kernels ran to 2^20. Here automatic itself, through convolve's dispatch: a
  // whole image (its rows on 16 bytes) either side of the size threshold and of the width
  // rules, and ROIs whose source or target column is off 16 bytes (placements 1 and 2: the
  // target at column 3, the source at column 5), which keep tiled; the family it resolves
  // to, and its output against the reference (output poisoned).
  struct side {
    int w, h, placement;
    bool packed;
  };
  const side sides[] = {{512, 512, 0, false}, {640, 480, 0, true},   {1280, 720, 0, true}, {1024, 1024, 0, true},
                        {1000, 720, 0, false}, {496, 1024, 0, false}, {1280, 720, 1, false}, {1280, 720, 2, false}};
  int i = 0;
  for (const side& s : sides)
    for (int dense = 0; dense < 2; ++dense, ++i) {
      INFO(s.w << "x" << s.h << " placement " << s.placement << (dense ? " dense" : " separable"));
      auto expect = [&](const resolution& res) {
        CHECK(std::string(res.family) == (s.packed ? "packed" : "tiled"));
      };
      const halo hm = i % 2 ? halo::from_parent : halo::isolated;
      if (dense) {
        run_placed<std::uint8_t, std::uint8_t>(random_packed_dense(1), border::replicate{}, s.w, s.h, s.placement, hm,
                                               algo::automatic{}, expect);
      } else {
        const separable_filter sf = filters::gaussian(0.8, 1);
        REQUIRE(detail::plan_packed_dense(sf.to_2d().coefficients()).ok);  // else tiled runs it at any size
        run_placed<std::uint8_t, std::uint8_t>(sf, border::replicate{}, s.w, s.h, s.placement, hm, algo::automatic{},
                                               expect);
      }
    }
}

TEST_CASE("automatic runs packed on uchar3 replicate from its size thresholds, and matches the reference",
          "[gpu][packed]") {
  // The tuning table sends uchar3 3x3 and 5x5 under replicate, dense and separable, to
  // packed_three_kernel from 1280x720 pixels (3x3) and from 512x512 (5x5), and to tiled
  // below (tests/host/test_tuning.cpp checks the table). Here automatic itself, through
  // convolve's dispatch, on one image either side of each threshold: the family it
  // resolves to, and its output against the reference (whole image, output poisoned).
  struct side {
    int r, w, h;
    bool packed;
  };
  const side sides[] = {{2, 511, 512, false}, {2, 512, 512, true}, {1, 1280, 719, false}, {1, 1280, 720, true}};
  int i = 0;
  for (const side& s : sides)
    for (int dense = 0; dense < 2; ++dense, ++i) {
      INFO(s.w << "x" << s.h << (dense ? " dense " : " separable ") << 2 * s.r + 1 << "x" << 2 * s.r + 1);
      auto expect = [&](const resolution& res) { CHECK((std::string(res.family) == "packed") == s.packed); };
      const halo hm = i % 2 ? halo::from_parent : halo::isolated;
      if (dense) {
        run_placed<uchar3, uchar3>(random_packed_dense(s.r), border::replicate{}, s.w, s.h, 0, hm, algo::automatic{},
                                   expect);
      } else {
        const separable_filter sf = filters::gaussian(0.5 + 0.4 * s.r, s.r);
        REQUIRE(detail::plan_packed_dense(sf.to_2d().coefficients()).ok);  // else tiled runs it at any size
        run_placed<uchar3, uchar3>(sf, border::replicate{}, s.w, s.h, 0, hm, algo::automatic{}, expect);
      }
    }
}
