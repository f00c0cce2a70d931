// [gpu] Variable-shape convolve_batch: batches whose images differ in size, ROI, filter
// (size, anchor) and constant, under every border rule and both halo modes, against the
// host reference of each image, with every output allocation poisoned; ROIs of one shared
// image (tiles of a mosaic); a batch with one large image among many small ones (the flat
// tile list); the workspace overload. Awkward sizes: 1x1, primes, filters larger than the
// image.
#include "algo_matrix.hpp"

#include <hipstencil/convolve_varshape.hpp>

#include <memory>
#include <string>
#include <vector>

using namespace gpu_test;

namespace {

/// One image of a test batch: its problem (test sizes and ROIs), its filter's index, its
/// own constant or none, its source, and device memory for both.
template <class In, class Out>
struct case_image {
  problem p;
  int filter;
  std::optional<float> value;
  host_image<In> src;
  std::unique_ptr<device_image<In>> d_src;
  std::unique_ptr<device_image<Out>> d_dst;
};

/// Runs `images` (already uploaded) through convolve_batch(launch) under two poisons and
/// compares each output image with reference::convolve of its own source, filter and
/// constant. Returns the pixels compared.
template <class In, class Out, class Launch>
long long check_images(std::vector<case_image<In, Out>>& cases, const std::vector<filter2d>& filters, border::any b,
                       Launch&& launch) {
  std::vector<host_image<Out>> refs;
  std::vector<varshape_image<In, Out>> images;
  for (auto& c : cases) {
    border::any bk = b;
    if (b.rule == border::kind::constant && c.value) bk.value = *c.value;
    refs.emplace_back(c.p.dst_w, c.p.dst_h, poison_pixel<Out>(poisons[0]));
    reference::convolve(c.src.view(), c.p.src_roi, refs.back().view(), c.p.dst_roi, filters[c.filter], bk,
                        c.p.halo_mode);
    images.emplace_back(c.d_src->view(), c.p.src_roi, c.d_dst->view(), c.p.dst_roi, c.filter, c.value);
  }
  long long compared = 0;
  for (unsigned char poison : poisons) {
    for (auto& c : cases) c.d_dst->fill_bytes(poison);
    launch(images);
    for (std::size_t k = 0; k < cases.size(); ++k) {
      auto& c = cases[k];
      border::any bk = b;
      if (b.rule == border::kind::constant && c.value) bk.value = *c.value;
      host_image<Out> out(c.p.dst_w, c.p.dst_h);
      c.d_dst->download(out.view());
      gpu::stream_synchronize(nullptr);
      const filter2d& f = filters[c.filter];
      std::string first_bad;
      const long long bad = count_mismatches(c.p, f, bk.rule, refs[k], out, poison, poison == poisons[0],
                                             float_tolerance(f, bk, c.src), first_bad);
      INFO("image " << k << ": " << c.p.describe(f, bk) << ": " << first_bad);
      CHECK(bad == 0);
      compared += (long long)c.p.dst_w * c.p.dst_h;
    }
  }
  return compared;
}

/// Filters of several shapes: centred 3x3 and 5x5, off-centre 7x3 (anchor (1, 2)), 1x1,
/// 9x9 (larger than the smallest images), 3x11 with anchor (0, 10).
inline std::vector<filter2d> mixed_filters() {
  return {random_filter(3, 3), random_filter(7, 3, 1, 2), random_filter(1, 1), random_filter(9, 9),
          random_filter(5, 5), random_filter(3, 11, 0, 10)};
}

/// A batch of images of separate allocations, sizes from 1x1 to 130x37, each placed at
/// an edge or corner of its parent (algo_matrix's place), with the filter and constant
/// varying from image to image.
template <class In, class Out>
std::vector<case_image<In, Out>> separate_images(const std::vector<filter2d>& filters, border::kind rule, halo hm,
                                                 int count) {
  static const int sizes[][2] = {{1, 1}, {31, 33}, {97, 41}, {5, 3}, {2, 3}, {130, 37}, {64, 17}, {13, 70}, {1, 50}};
  std::vector<case_image<In, Out>> v;
  for (int k = 0; k < count; ++k) {
    case_image<In, Out> c;
    c.filter = int(rng()() % filters.size());
    const filter2d& f = filters[c.filter];
    const int* s = sizes[(k + int(rng()() % 9)) % 9];
    c.p = place(s[0], s[1], k % 9, hm, f.reach_left(), f.reach_top(), f.reach_right(), f.reach_bottom(), rule);
    if (k % 2 == 0) c.value = -3.5f + float(k);
    c.src = random_image<In>(c.p.src_w, c.p.src_h);
    c.d_src = std::make_unique<device_image<In>>(c.p.src_w, c.p.src_h);
    c.d_src->upload(c.src.view());
    c.d_dst = std::make_unique<device_image<Out>>(c.p.dst_w, c.p.dst_h);
    v.push_back(std::move(c));
  }
  return v;
}

template <class In, class Out>
void varshape_matrix() {
  long long cases = 0, pixels = 0;
  for (const border::any& b : matrix_borders())
    for (halo hm : {halo::isolated, halo::from_parent}) {
      const std::vector<filter2d> filters = mixed_filters();
      auto images = separate_images<In, Out>(filters, b.rule, hm, 1 + int(cases % 12));
      INFO("case " << cases << ", " << images.size() << " images, border " << border::name(b.rule) << ", halo "
                   << name(hm));
      pixels += check_images(images, filters, b, [&](const std::vector<varshape_image<In, Out>>& im) {
        convolve_batch(im, filters, b, nullptr, hm);
      });
      ++cases;
    }
  INFO("compared " << pixels << " pixels over " << cases << " batches");
  CHECK(pixels > 0);
}

}  // namespace

TEST_CASE("varshape convolve_batch u8: sizes, ROIs, filters and constants per image, every border rule",
          "[gpu][batch][varshape][sanitize]") {
  varshape_matrix<std::uint8_t, std::uint8_t>();
}
TEST_CASE("varshape convolve_batch float: sizes, ROIs, filters and constants per image, every border rule",
          "[gpu][batch][varshape]") {
  varshape_matrix<float, float>();
}
TEST_CASE("varshape convolve_batch uchar4 to float4: per-image problems, every border rule",
          "[gpu][batch][varshape]") {
  varshape_matrix<uchar4, float4>();
}

TEST_CASE("varshape convolve_batch: ROIs of one shared image, tiles of a mosaic", "[gpu][batch][varshape]") {
  // A 203 x 151 float image cut into a 3 x 2 grid of ROIs of unequal sizes, each filtered
  // with the whole image as its border domain (halo::from_parent) into the same place of
  // one output image: the result must equal one convolve of the whole image (under skip,
  // the outputs whose windows lie in the image). The tiles read each other's pixels.
  const int W = 203, H = 151;
  const host_image<float> src = random_image<float>(W, H);
  device_image<float> d_src(W, H), d_dst(W, H);
  d_src.upload(src.view());
  const std::vector<filter2d> filters = {random_filter(5, 5), random_filter(3, 7, 0, 6)};
  const int xs[] = {0, 67, 140, W}, ys[] = {0, 90, H};
  for (int fi = 0; fi < 2; ++fi)
    for (const border::any& b : matrix_borders()) {
      if (b.rule == border::kind::padded) continue;  // the tiles' halos are each other's pixels
      INFO("filter " << fi << ", border " << border::name(b.rule));
      std::vector<varshape_image<float, float>> images;
      for (int j = 0; j < 2; ++j)
        for (int i = 0; i < 3; ++i) {
          const rect r{xs[i], ys[j], xs[i + 1] - xs[i], ys[j + 1] - ys[j]};
          images.emplace_back(d_src.view(), r, d_dst.view(), r, fi);
        }
      host_image<float> ref(W, H);
      reference::convolve(src.view(), src.view().bounds(), ref.view(), ref.view().bounds(), filters[fi], b);
      for (unsigned char poison : poisons) {
        d_dst.fill_bytes(poison);
        convolve_batch(images, filters, b, nullptr, halo::from_parent);
        host_image<float> out(W, H);
        d_dst.download(out.view());
        gpu::stream_synchronize(nullptr);
        problem p;
        p.src_w = p.dst_w = W, p.src_h = p.dst_h = H, p.src_roi = p.dst_roi = rect{0, 0, W, H};
        std::string first_bad;
        const long long bad =
            count_mismatches(p, filters[fi], b.rule, ref, out, poison, false, float_tolerance(filters[fi], b, src),
                             first_bad);
        INFO(first_bad);
        CHECK(bad == 0);
      }
    }
}

TEST_CASE("varshape convolve_batch: one 1000x700 image among 1500 small ones, and the workspace overload",
          "[gpu][batch][varshape]") {
  // Tiles of the large image sit between thousands of one-tile images in the flat list:
  // every block must find its own image.
  const std::vector<filter2d> filters = {random_filter(3, 3), random_filter(5, 3, 4, 0)};
  std::vector<case_image<std::uint8_t, std::uint8_t>> cases;
  for (int k = 0; k < 1501; ++k) {
    case_image<std::uint8_t, std::uint8_t> c;
    c.filter = k % 2;
    const int w = k == 750 ? 1000 : 1 + int(rng()() % 40), h = k == 750 ? 700 : 1 + int(rng()() % 20);
    c.p.src_w = c.p.dst_w = w, c.p.src_h = c.p.dst_h = h;
    c.p.src_roi = c.p.dst_roi = rect{0, 0, w, h};
    if (k % 3 == 0) c.value = float(k % 256);
    c.src = random_image<std::uint8_t>(w, h);
    c.d_src = std::make_unique<device_image<std::uint8_t>>(w, h);
    c.d_src->upload(c.src.view());
    c.d_dst = std::make_unique<device_image<std::uint8_t>>(w, h);
    cases.push_back(std::move(c));
  }
  const std::size_t bytes = varshape_workspace_bytes<std::uint8_t, std::uint8_t>(cases.size(), filters);
  CHECK(bytes >= cases.size() * sizeof(detail::varshape_desc<std::uint8_t, std::uint8_t>));
  void* mem = gpu::malloc(bytes);
  for (const border::any& b : {border::any(border::reflect101{}), border::any(border::constant{9.f})}) {
    INFO("border " << border::name(b.rule));
    check_images(cases, filters, b, [&](const std::vector<varshape_image<std::uint8_t, std::uint8_t>>& im) {
      CHECK_THROWS_WITH(convolve_batch(im, filters, b, nullptr, halo::isolated, workspace{mem, bytes - 1}),
                        Catch::Contains("this batch needs"));
      convolve_batch(im, filters, b, nullptr, halo::isolated, workspace{mem, bytes});
    });
  }
  gpu::stream_synchronize(nullptr);
  gpu::free(mem);
}

TEST_CASE("varshape convolve_batch: separable filters run as their outer products", "[gpu][batch][varshape]") {
  const std::vector<separable_filter> sep = {random_separable(3, 3), random_separable(5, 7, 0, 2)};
  const std::vector<filter2d> dense = {sep[0].to_2d(), sep[1].to_2d()};
  auto images = separate_images<float, float>(dense, border::kind::wrap, halo::isolated, 7);
  check_images(images, dense, border::wrap{}, [&](const std::vector<varshape_image<float, float>>& im) {
    convolve_batch(im, sep, border::wrap{});
  });
}
