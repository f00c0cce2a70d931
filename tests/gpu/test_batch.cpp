// [gpu] convolve_batch: every family of the library's list in each filter form it takes,
// every border rule, both strategies, compiled and run-time radii, ROIs at every edge and
// corner, both halo modes, awkward sizes (1x1, primes, a filter larger than the image), on
// batches of 1 to 6 random images, against the host reference of each image, with the
// whole output allocation (the rows' padding and the other images included) poisoned.
// Also: strides that are not a 3D allocation's (gaps, a repeated source image), a batch
// over grid.z's 65535 images, automatic choosing by the batch's pixel count, two_pass's
// workspace per image, and the checks that are the batch's own.
#include "algo_matrix.hpp"

#include <cstring>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

using namespace gpu_test;

namespace {

/// Raw bytes of a whole device allocation of `rows` rows of `pitch` bytes.
std::vector<unsigned char> download_bytes(const void* d, std::size_t pitch, std::size_t rows) {
  std::vector<unsigned char> v(pitch * rows);
  gpu::memcpy(v.data(), d, v.size(), gpu::copy_kind::device_to_host, nullptr);
  gpu::stream_synchronize(nullptr);
  return v;
}

/// Image k of `bytes` (a batch's allocation, `stride` bytes per image) as a host image.
template <class T>
host_image<T> image_at(const std::vector<unsigned char>& bytes, std::size_t k, std::size_t stride, std::size_t pitch,
                       int w, int h) {
  host_image<T> im(w, h);
  for (int y = 0; y < h; ++y) std::memcpy(&im(0, y), bytes.data() + k * stride + std::size_t(y) * pitch, sizeof(T) * w);
  return im;
}

/// Layout of a batch in one device allocation: `count` images of w x h, `gap_rows` spare
/// rows after each (0: a 3D allocation's layout), rows of the runtime's pitch.
template <class T>
struct batch_alloc {
  device_image<T> mem;
  int w, h, count, gap_rows;
  batch_alloc(int w_, int h_, int count_, int gap) : mem(w_, (h_ + gap) * count_), w(w_), h(h_), count(count_), gap_rows(gap) {}
  std::size_t stride() const { return mem.pitch_bytes() * std::size_t(h + gap_rows); }
  batch_view<T> view() { return batch_view<T>(image_view<T>(mem.data(), w, h, mem.pitch_bytes()), count, stride()); }
};

/// One batch case: `count` random source images through `launch(src_batch, dst_batch)`,
/// each output image compared with the reference of its own source, under two poisons;
/// every byte of the output allocation outside the images' written pixels must keep the
/// poison. `repeat_source`: the source is one image with a stride of 0.
template <class In, class Out, class Launch>
long long check_batch(const problem& p, const filter2d& f, border::any b, int count, int gap_rows, bool repeat_source,
                      Launch&& launch) {
  INFO(p.describe(f, b) << ", " << count << " images, gap " << gap_rows << " rows"
                        << (repeat_source ? ", one source image repeated" : ""));
  std::vector<host_image<In>> srcs;
  for (int k = 0; k < (repeat_source ? 1 : count); ++k) srcs.push_back(random_image<In>(p.src_w, p.src_h));
  batch_alloc<In> d_src(p.src_w, p.src_h, repeat_source ? 1 : count, gap_rows);
  for (std::size_t k = 0; k < srcs.size(); ++k)
    gpu::memcpy_2d(d_src.view()[k].data, d_src.mem.pitch_bytes(), srcs[k].data(), srcs[k].pitch_bytes(),
                   sizeof(In) * p.src_w, p.src_h, gpu::copy_kind::host_to_device, nullptr);
  batch_view<const In> src_view = d_src.view();
  if (repeat_source) src_view = batch_view<const In>(src_view.first, count, 0);
  batch_alloc<Out> d_dst(p.dst_w, p.dst_h, count, gap_rows);
  std::vector<host_image<Out>> refs;
  // Threads pay off on large images only (the 65552-image case has 6 pixels each).
  const unsigned threads = (long long)p.dst_roi.width * p.dst_roi.height > 4096 ? reference::all_threads() : 1;
  for (int k = 0; k < count; ++k) {
    refs.emplace_back(p.dst_w, p.dst_h, poison_pixel<Out>(poisons[0]));
    reference::convolve(srcs[repeat_source ? 0 : k].view(), p.src_roi, refs[k].view(), p.dst_roi, f, b, p.halo_mode,
                        threads);
  }
  long long compared = 0;
  for (unsigned char poison : poisons) {
    // The whole allocation, row padding included (fill_bytes sets each row's pixels only).
    gpu::memset_2d(d_dst.mem.data(), d_dst.mem.pitch_bytes(), poison, d_dst.mem.pitch_bytes(),
                   std::size_t(d_dst.mem.height()), nullptr);
    gpu::stream_synchronize(nullptr);
    launch(src_view, d_dst.view());
    const auto bytes = download_bytes(d_dst.mem.data(), d_dst.mem.pitch_bytes(), std::size_t(d_dst.mem.height()));
    // Every byte outside the images' pixels (row padding, gap rows) keeps the poison.
    long long stray = 0;
    const std::size_t row_bytes = sizeof(Out) * std::size_t(p.dst_w);
    for (std::size_t row = 0; row < std::size_t(d_dst.mem.height()); ++row) {
      const bool gap = int(row % std::size_t(p.dst_h + gap_rows)) >= p.dst_h;
      for (std::size_t i = gap ? 0 : row_bytes; i < d_dst.mem.pitch_bytes(); ++i)
        stray += bytes[row * d_dst.mem.pitch_bytes() + i] != poison;
    }
    CHECK(stray == 0);
    for (int k = 0; k < count; ++k) {
      const auto out = image_at<Out>(bytes, k, d_dst.stride(), d_dst.mem.pitch_bytes(), p.dst_w, p.dst_h);
      std::string first_bad;
      const long long bad = count_mismatches(p, f, b.rule, refs[k], out, poison, poison == poisons[0],
                                             float_tolerance(f, b, srcs[repeat_source ? 0 : k]), first_bad);
      INFO("image " << k << ": " << first_bad);
      CHECK(bad == 0);
      compared += (long long)p.dst_w * p.dst_h;
    }
  }
  return compared;
}

/// One family case of the batch matrix (as run_family_case for one image): the family
/// runs the batch itself where it compiles the radius (resolved_algorithm of the batch).
template <class In, class Out>
long long run_batch_case(const family_case& fc, bool tile_class, int w, int h, int kw, int kh, int ax, int ay,
                         border::any b, int placement, halo hm, int count, int gap_rows, bool repeat_source) {
  INFO(fc.name << (fc.dense ? " (dense)" : " (separable)") << (tile_class ? ", tile_class" : ", per_access"));
  const separable_filter sf = random_separable(kw, kh, ax, ay);
  const filter2d f = fc.dense ? random_filter(kw, kh, ax, ay) : sf.to_2d();
  const problem p = place(w, h, placement, hm, f.reach_left(), f.reach_top(), f.reach_right(), f.reach_bottom(), b.rule,
                          fc.streaming);
  return check_batch<In, Out>(p, f, b, count, gap_rows, repeat_source, [&](batch_view<const In> s, batch_view<Out> d) {
    with_family_tag(fc, tile_class, f, sf, [&](auto tag, const auto& filter) {
      check_runs_itself(fc, f, resolved_algorithm(s, p.src_roi, d, p.dst_roi, filter, b, tag, p.halo_mode),
                        runner_for<In, Out>(fc, f, sf, b, -1));
      convolve_batch(s, p.src_roi, d, p.dst_roi, filter, b, tag, nullptr, p.halo_mode);
    });
  });
}

template <class In, class Out>
void batch_matrix() {
  const std::vector<family_case> fams = all_family_cases();
  const std::vector<border::any> borders = matrix_borders();
  long long cases = 0, pixels = 0;
  const int sizes[][2] = {{31, 33}, {1, 1}, {97, 41}, {5, 3}};
  for (const family_case& fam : fams)
    for (const border::any& b : borders)
      for (int r : {1, 2, 5, -1}) {
        // r = -1: a run-time size, off-centre (7 x 3, anchor (1, 2)).
        const int kw = r > 0 ? 2 * r + 1 : 7, kh = r > 0 ? 2 * r + 1 : 3;
        const int ax = r > 0 ? -1 : 1, ay = r > 0 ? -1 : 2;
        const int* s = sizes[cases % 4];
        const int count = 1 + int(cases % 6), gap = int(cases % 3 == 1) * 3;
        const halo hm = (cases / 9) % 2 ? halo::from_parent : halo::isolated;
        INFO("case " << cases);
        pixels += run_batch_case<In, Out>(fam, cases % 4 != 3, s[0], s[1], kw, kh, ax, ay, b, int(cases % 9), hm, count,
                                          gap, cases % 7 == 3);
        ++cases;
      }
  INFO("compared " << pixels << " pixels over " << cases << " cases");
  CHECK(cases > 0);
}

}  // namespace

TEST_CASE("convolve_batch u8: every family, border rule and form against the reference of each image", "[gpu][batch]") {
  batch_matrix<std::uint8_t, std::uint8_t>();
}
TEST_CASE("convolve_batch float: every family, border rule and form against the reference of each image",
          "[gpu][batch]") {
  batch_matrix<float, float>();
}
TEST_CASE("convolve_batch uchar4: every family, border rule and form against the reference of each image",
          "[gpu][batch]") {
  batch_matrix<uchar4, uchar4>();
}

TEST_CASE("sanitizer subset: convolve_batch, every family and border rule, 3 images of 31x33 u8",
          "[gpu][batch][sanitize]") {
  long long cases = 0;
  for (const family_case& fam : all_family_cases())
    for (const border::any& b : matrix_borders()) {
      run_batch_case<std::uint8_t, std::uint8_t>(fam, true, 31, 33, 3, 3, -1, -1, b, int(cases % 9),
                                                 cases % 2 ? halo::from_parent : halo::isolated, 3, 1, false);
      ++cases;
    }
  CHECK(cases > 0);
}

namespace {

/// algo::packed on batches of narrow images (its narrow block shapes, every block an edge
/// block), ROIs at 16-pixel-aligned columns (its aligned instances) at every edge and
/// corner, both halo modes, every border rule (integer constants: packed's), radius 1 and
/// 2, dense and separable, 2 to 5 images with and without gap rows; packed must run each
/// batch itself.
template <class T>
void packed_narrow_batches(std::initializer_list<std::pair<int, int>> sizes) {
  const border::any rules[] = {border::replicate{}, border::reflect{}, border::reflect101{}, border::wrap{},
                               border::constant{0},  border::constant{200}, border::skip{},  border::padded{}};
  int i = 0;
  for (const auto& s : sizes)
    for (int r = 1; r <= 2; ++r)
      for (int dense = 0; dense < 2; ++dense, ++i) {
        const separable_filter sf = filters::gaussian(0.7 + 0.2 * r + 0.01 * i, r);
        const filter2d f = sf.to_2d();
        const border::any b = rules[i % 8];
        const problem p = place(s.first, s.second, i % 9, (i / 3) % 2 ? halo::from_parent : halo::isolated,
                                f.reach_left(), f.reach_top(), f.reach_right(), f.reach_bottom(), b.rule, true);
        check_batch<T, T>(p, f, b, 2 + i % 4, i % 3 == 1 ? 3 : 0, false, [&](batch_view<const T> sv, batch_view<T> d) {
          auto go = [&](const auto& filter) {
            const resolution res =
                resolved_algorithm(sv, p.src_roi, d, p.dst_roi, filter, b, algo::packed<>{}, p.halo_mode);
            INFO("runs " << res.str());
            REQUIRE(std::string(res.family) == "packed");
            convolve_batch(sv, p.src_roi, d, p.dst_roi, filter, b, algo::packed<>{}, nullptr, p.halo_mode);
          };
          if (dense) go(f);
          else go(sf);
        });
      }
}

/// packed's strip kernel on batches (kernels/packed_strips.hpp): u8 images whose widths are
/// multiples of 8, at 16-pixel-aligned ROIs at every edge and corner, both halo modes,
/// under the rules whose outside words are byte permutes, strips of 1 to 16 rows (the
/// tag's), radius 1 and 2, dense and separable, 2 to 5 images with and without gap rows.
/// The host test (packed_strips_fit) must hold in every case (and the policy takes every
/// batch), so that the kernel is what ran.
void packed_strip_batches() {
  const border::any word_rules[] = {border::replicate{}, border::reflect{}, border::reflect101{},
                                    border::constant{0}, border::constant{201}};
  const int sizes[][2] = {{128, 128}, {8, 5}, {264, 33}, {128, 1}, {16, 70}, {1024, 9}};
  int i = 0;
  for (const auto& s : sizes)
    for (int r = 1; r <= 2; ++r)
      for (int dense = 0; dense < 2; ++dense)
        for (int strip : {1, 2, 3, 5, 8, 16}) {
          const separable_filter sf = filters::gaussian(0.7 + 0.2 * r + 0.01 * i, r);
          const filter2d f = sf.to_2d();
          const border::any b = word_rules[i % 5];
          const halo hm = (i / 3) % 2 ? halo::from_parent : halo::isolated;
          const problem p = place(s[0], s[1], i % 9, hm, r, r, r, r, b.rule, true);
          const detail::geometry g = detail::make_geometry(rect{0, 0, p.src_w, p.src_h}, p.src_roi, p.dst_roi,
                                                           2 * r + 1, 2 * r + 1, r, r, b, hm);
          INFO("strip " << strip);
          CHECK(detail::packed_strips_fit(g, g.for_reads(), r));
          CHECK(tuning::packed_policy<>::strip_kernel((long long)s[0] * s[1], true));
          check_batch<std::uint8_t, std::uint8_t>(
              p, f, b, 2 + i % 4, i % 3 == 1 ? 3 : 0, false,
              [&](batch_view<const std::uint8_t> sv, batch_view<std::uint8_t> d) {
                algo::packed<> tag;
                tag.strip_rows = strip;
                auto go = [&](const auto& filter) {
                  const resolution res = resolved_algorithm(sv, p.src_roi, d, p.dst_roi, filter, b, tag, p.halo_mode);
                  INFO("runs " << res.str());
                  REQUIRE(std::string(res.family) == "packed");
                  convolve_batch(sv, p.src_roi, d, p.dst_roi, filter, b, tag, nullptr, p.halo_mode);
                };
                if (dense) go(f);
                else go(sf);
              });
          ++i;
        }
}

}  // namespace

TEST_CASE("convolve_batch packed: u8 strip kernel, strips of every length", "[gpu][batch][packed]") {
  packed_strip_batches();
}

TEST_CASE("convolve_batch packed: batches of narrow images at aligned ROIs, u8 and uchar4", "[gpu][batch][packed]") {
  packed_narrow_batches<std::uint8_t>({{128, 20}, {100, 9}, {24, 7}, {8, 3}, {256, 5}, {300, 4}});
  packed_narrow_batches<uchar4>({{64, 20}, {50, 9}, {12, 7}, {4, 3}, {128, 5}, {150, 4}});
}

TEST_CASE("convolve_batch packed: u8 batches larger than L2, whose strips ask L2 for their rows", "[gpu][batch][packed]") {
  // tuning::packed_policy::l2_prefetch: 128x128 images, as many as make the call's input
  // and output bytes exceed one and a half times this device's L2, through the strip
  // kernel (packed_strips_fit); a separable 3x3 Gaussian under replicate (rows also loaded
  // one ahead into registers) and a random dense 5x5 under reflect101 (not), each image
  // against its reference, output poisoned.
  using P = tuning::packed_policy<>;
  const long long l2 = tuning::l2_bytes();
  const int w = 128, h = 128, count = int(3 * l2 / (4LL * w * h)) + 16;
  CHECK(P::l2_prefetch(2LL * w * h * count, l2));
  problem p;
  p.src_w = p.dst_w = w, p.src_h = p.dst_h = h, p.src_roi = p.dst_roi = rect{0, 0, w, h};
  for (int r = 1; r <= 2; ++r) {
    const bool dense = r == 2;
    const separable_filter sf = filters::gaussian(0.5 + 0.4 * r, r);
    const filter2d f = dense ? random_packed_dense(r) : sf.to_2d();
    const border::any b = dense ? border::any(border::reflect101{}) : border::any(border::replicate{});
    const detail::geometry g =
        detail::make_geometry(rect{0, 0, w, h}, p.src_roi, p.dst_roi, 2 * r + 1, 2 * r + 1, r, r, b, halo::isolated);
    CHECK(detail::packed_strips_fit(g, g.for_reads(), r));
    CHECK(P::strip_prefetch(r, !dense, true) == !dense);
    auto launch = [&](batch_view<const std::uint8_t> sv, batch_view<std::uint8_t> d) {
      auto go = [&](const auto& filter) {
        const resolution res = resolved_algorithm(sv, p.src_roi, d, p.dst_roi, filter, b, algo::packed<>{});
        INFO("runs " << res.str());
        REQUIRE(std::string(res.family) == "packed");
        convolve_batch(sv, d, filter, b, algo::packed<>{});
      };
      if (dense) go(f);
      else go(sf);
    };
    check_batch<std::uint8_t, std::uint8_t>(p, f, b, count, 0, false, launch);
  }
}

TEST_CASE("convolve_batch: more images than one launch takes (grid.z: 65535)", "[gpu][batch]") {
  const int count = 65535 + 17;
  const filter2d f = random_filter(3, 3);
  problem p;
  p.src_w = p.dst_w = 3, p.src_h = p.dst_h = 2, p.src_roi = p.dst_roi = rect{0, 0, 3, 2};
  for (bool dense : {true, false}) {
    INFO((dense ? "dense naive" : "separable shared_mem"));
    const separable_filter sf = random_separable(3, 3);
    const filter2d g = dense ? f : sf.to_2d();
    check_batch<std::uint8_t, std::uint8_t>(p, g, border::reflect{}, count, 0, false, [&](auto s, auto d) {
      if (dense) convolve_batch(s, d, g, border::reflect{}, algo::naive{});
      else convolve_batch(s, d, sf, border::reflect{}, algo::shared_mem<>{});
    });
  }
}

TEST_CASE("convolve_batch: automatic chooses by the batch's pixel count", "[gpu][batch]") {
  // 256 images of 128 x 128 float with a dense 3x3 under reflect101: alone each runs direct
  // (2^14 pixels), the batch's 2^22 pixels run tiled (tuning::automatic_table). (Under
  // replicate one image runs tiled too, its replicate dense kernel: clamp_dense.)
  problem p;
  p.src_w = p.dst_w = 128, p.src_h = p.dst_h = 128, p.src_roi = p.dst_roi = rect{0, 0, 128, 128};
  const filter2d f = random_filter(3, 3);
  check_batch<float, float>(p, f, border::reflect101{}, 256, 0, false, [&](auto s, auto d) {
    const resolution one = resolved_algorithm(s.first, d.first, f, border::reflect101{});
    const resolution all = resolved_algorithm(s, s.first.bounds(), d, d.first.bounds(), f, border::reflect101{});
    INFO("one image runs " << one.str() << ", the batch " << all.str());
    CHECK(std::strcmp(one.family, "direct") == 0);
    CHECK(std::strcmp(all.family, "tiled") == 0);
    convolve_batch(s, d, f, border::reflect101{});
  });
}

TEST_CASE("convolve_batch: automatic runs a Laplacian of Gaussian as its two separable terms", "[gpu][batch][lowrank]") {
  // The batched low-rank kernel (kernels/low_rank.hpp): 9 images 3 rows apart, ROIs at an
  // edge with the halo from the parent, u8 and float.
  problem p;
  p.src_w = p.dst_w = 97, p.src_h = p.dst_h = 61, p.src_roi = p.dst_roi = rect{10, 0, 80, 61};
  p.halo_mode = halo::from_parent;
  const filter2d f = filters::laplacian_of_gaussian(5.0, 15);
  const auto run = [&](auto s, auto d) {
    const resolution res = resolved_algorithm(s, p.src_roi, d, p.dst_roi, f, border::reflect101{},
                                              algo::automatic{}, p.halo_mode);
    INFO("automatic runs " << res.str());
    CHECK(res.rank == 2);
    CHECK(std::strcmp(res.family, "shared_mem") == 0);
    convolve_batch(s, p.src_roi, d, p.dst_roi, f, border::reflect101{}, algo::automatic{}, nullptr, p.halo_mode);
  };
  check_batch<float, float>(p, f, border::reflect101{}, 9, 3, false, run);
  check_batch<std::uint8_t, std::uint8_t>(p, f, border::reflect101{}, 9, 3, false, run);
}

TEST_CASE("convolve_batch two_pass: a workspace image per image, and a short workspace rejected", "[gpu][batch]") {
  const separable_filter sf = random_separable(7, 5);
  problem p;
  p.src_w = 40, p.src_h = 23, p.dst_w = 40, p.dst_h = 23, p.src_roi = p.dst_roi = rect{0, 0, 40, 23};
  const int count = 5;
  const std::size_t bytes = two_pass_workspace_bytes<float>(40, 23, sf, count);
  CHECK(bytes == 5 * two_pass_workspace_bytes<float>(40, 23, sf));
  void* mem = gpu::malloc(bytes);
  check_batch<float, float>(p, sf.to_2d(), border::wrap{}, count, 0, false, [&](auto s, auto d) {
    const resolution res = resolved_algorithm(s, p.src_roi, d, p.dst_roi, sf, border::wrap{}, algo::automatic{},
                                              halo::isolated, nullptr);
    INFO("automatic without a workspace runs " << res.str());
    CHECK(std::strcmp(res.family, "two_pass") != 0);
    const workspace short_ws{mem, bytes - 1};
    CHECK_THROWS_AS(convolve_batch(s, p.src_roi, d, p.dst_roi, sf, border::wrap{}, algo::two_pass<>{}, nullptr,
                                   halo::isolated, short_ws),
                    invalid_argument);
    convolve_batch(s, p.src_roi, d, p.dst_roi, sf, border::wrap{}, algo::two_pass<>{}, nullptr, halo::isolated,
                   workspace{mem, bytes});
  });
  gpu::free(mem);
}

TEST_CASE("convolve_batch: bad batches are rejected before anything runs", "[gpu][batch]") {
  device_batch<float> a(16, 8, 4), b(16, 8, 4), c(16, 8, 3);
  const filter2d f = random_filter(3, 3);
  b.fill_bytes(0x7F);
  auto untouched = [&] {
    const auto bytes = download_bytes(b.view().first.data, b.pitch_bytes(), std::size_t(8 * 4));
    for (unsigned char v : bytes)
      if (v != 0x7F) return false;
    return true;
  };
  CHECK_THROWS_WITH(convolve_batch(a.view(), c.view(), f), Catch::Contains("src has 4 images but dst has 3"));
  CHECK_THROWS_WITH(convolve_batch(batch_view<float>(a.image(0), 0, a.image_stride_bytes()), b.view(), f),
                    Catch::Contains("src.count=0"));
  const batch_view<float> overlapping(b.image(0), 4, b.pitch_bytes());
  CHECK_THROWS_WITH(convolve_batch(a.view(), overlapping, f), Catch::Contains("the output images would overlap"));
  // dst image k + 1 is src image k: the images of one allocation, one apart.
  const batch_view<float> shifted(a.image(1), 3, a.image_stride_bytes());
  CHECK_THROWS_WITH(convolve_batch(a.view().slice(0, 3), shifted, f),
                    Catch::Contains("dst image 0 overlaps the pixels that the filter reads in src image 1"));
  CHECK_THROWS_WITH(convolve_batch(a.view(), batch_view<float>(b.image(0), 4, b.image_stride_bytes() + 2), f),
                    Catch::Contains("is not a multiple of 4"));
  CHECK(untouched());
  // Interleaved input and output images of one allocation are apart: accepted.
  device_batch<float> both(16, 8, 8);
  both.fill_bytes(0);
  const std::size_t s2 = 2 * both.image_stride_bytes();
  convolve_batch(batch_view<float>(both.image(0), 4, s2), batch_view<float>(both.image(1), 4, s2), f);
  gpu::stream_synchronize(nullptr);
}
