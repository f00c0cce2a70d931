// [gpu] tests of algo::naive against the host reference: every border rule x pixel type,
// awkward sizes, radii 1, 2, 5 and larger than the image, ROIs touching every edge and
// corner under both halo modes, outputs poisoned, pixels outside the target ROI checked.
#include "gpu_harness.hpp"

using namespace gpu_test;

namespace {

const border::any all_borders[] = {border::replicate{}, border::constant{0.37f}, border::reflect{},
                                   border::reflect101{}, border::wrap{},         border::skip{},
                                   border::padded{}};

/// ROI placement: 0 = the whole image; 1..4 = touching the left, right, top, bottom edge;
/// 5..8 = each corner. The target ROI sits at a different place in a larger target image.
problem make_problem(int w, int h, int placement, halo hm, const filter2d& f, border::kind b) {
  problem p;
  p.halo_mode = hm;
  if (b == border::kind::padded) {
    // The caller-guaranteed halo: the source ROI sits inside a parent with room for the
    // filter's reach on every side.
    p.src_w = w + f.width() - 1;
    p.src_h = h + f.height() - 1;
    p.src_roi = rect{f.anchor_x(), f.anchor_y(), w, h};
  } else if (placement == 0) {
    p.src_w = w, p.src_h = h, p.src_roi = rect{0, 0, w, h};
  } else {
    const int mx = 5, my = 4;  // parent margin
    p.src_w = w + mx, p.src_h = h + my;
    const int left = 0, right = mx, top = 0, bottom = my, cx = mx / 2, cy = my / 2;
    const int xs[9] = {0, left, right, cx, cx, left, right, left, right};
    const int ys[9] = {0, cy, cy, top, bottom, top, top, bottom, bottom};
    p.src_roi = rect{xs[placement], ys[placement], w, h};
  }
  // Target: a larger image, ROI at the opposite side from the source ROI.
  p.dst_w = w + 3, p.dst_h = h + 2;
  p.dst_roi = rect{(placement % 2) ? 3 : 0, (placement / 2 % 2) ? 2 : 0, w, h};
  return p;
}

template <class In, class Out>
long long run_naive_case(int w, int h, const filter2d& f, border::any b, int placement, halo hm) {
  const problem p = make_problem(w, h, placement, hm, f, b.rule);
  const auto src = random_image<In>(p.src_w, p.src_h);
  return check_against_reference<In, Out>(p, f, b, src, [&](image_view<const In> s, image_view<Out> d) {
    convolve(s, p.src_roi, d, p.dst_roi, f, b, algo::naive{}, nullptr, p.halo_mode);
  });
}

/// Filters for one size: square radii 1, 2, 5 with a random anchor shift on one of them,
/// and filters reaching beyond the image (thin ones for large images so the reference
/// stays fast; a square one over detail::inline_capacity taps on small images, so that the
/// coefficients go through device memory).
std::vector<filter2d> filters_for(int w, int h) {
  std::vector<filter2d> fs;
  fs.push_back(random_filter(3, 3));
  fs.push_back(random_filter(5, 5, 0, 3));  // off-centre anchor
  fs.push_back(random_filter(11, 11));
  const int big = 2 * (std::max(w, h) + 2) + 1;
  if (w * h <= 64) {
    const int side = std::max(big, 35);  // 35 x 35 = 1225 taps: past the inline capacity
    static_assert(35 * 35 > detail::inline_capacity, "the filter must not fit the parameter block");
    fs.push_back(random_filter(side, side));
  } else {
    fs.push_back(random_filter(big, 3));
    fs.push_back(random_filter(3, big));
  }
  return fs;
}

template <class In, class Out>
void naive_matrix() {
  const int sizes[][2] = {{1, 1}, {7, 3}, {127, 129}};
  long long pixels = 0;
  int counter = 0;
  for (auto& s : sizes)
    for (const filter2d& f : filters_for(s[0], s[1]))
      for (const border::any& b : all_borders) {
        const int placement = counter % 9;
        const halo hm = (counter / 9) % 2 ? halo::from_parent : halo::isolated;
        ++counter;
        pixels += run_naive_case<In, Out>(s[0], s[1], f, b, placement, hm);
      }
  INFO("compared " << pixels << " pixels over " << counter << " cases");
  CHECK(counter > 0);
}

}  // namespace

TEST_CASE("naive matches the reference: uint8", "[gpu][naive]") { naive_matrix<std::uint8_t, std::uint8_t>(); }
TEST_CASE("naive matches the reference: uint8 to float", "[gpu][naive]") { naive_matrix<std::uint8_t, float>(); }
TEST_CASE("naive matches the reference: uint16", "[gpu][naive]") { naive_matrix<std::uint16_t, std::uint16_t>(); }
TEST_CASE("naive matches the reference: int16", "[gpu][naive]") { naive_matrix<std::int16_t, std::int16_t>(); }
TEST_CASE("naive matches the reference: float", "[gpu][naive]") { naive_matrix<float, float>(); }
TEST_CASE("naive matches the reference: float to uint8", "[gpu][naive]") { naive_matrix<float, std::uint8_t>(); }
TEST_CASE("naive matches the reference: uchar4", "[gpu][naive]") { naive_matrix<uchar4, uchar4>(); }
TEST_CASE("naive matches the reference: uchar4 to float4", "[gpu][naive]") { naive_matrix<uchar4, float4>(); }
TEST_CASE("naive matches the reference: float4", "[gpu][naive]") { naive_matrix<float4, float4>(); }

TEST_CASE("naive: every ROI placement and halo mode for every border", "[gpu][naive][roi]") {
  for (const border::any& b : all_borders)
    for (int placement = 0; placement < 9; ++placement)
      for (halo hm : {halo::isolated, halo::from_parent})
        for (int r : {1, 5}) {
          const filter2d f = random_filter(2 * r + 1, 2 * r + 1);
          run_naive_case<float, float>(31, 33, f, b, placement, hm);
          run_naive_case<uchar4, uchar4>(31, 33, f, b, placement, hm);
        }
}

TEST_CASE("naive: 1000x999 for every border", "[gpu][naive][large]") {
  for (const border::any& b : all_borders) {
    run_naive_case<float, float>(1000, 999, random_filter(3, 3), b, 0, halo::isolated);
    run_naive_case<uchar4, uchar4>(1000, 999, random_filter(5, 5), b, 5, halo::from_parent);
  }
  run_naive_case<std::uint8_t, std::uint8_t>(1000, 999, random_filter(11, 11), border::reflect101{}, 8, halo::isolated);
  run_naive_case<float, float>(1000, 999, random_filter(2 * 1001 + 1, 3), border::reflect{}, 0, halo::isolated);
}

TEST_CASE("naive: separable filters equal their dense outer product", "[gpu][naive]") {
  const auto src = random_image<float>(61, 47);
  device_image<float> d_src(61, 47), a(61, 47), b(61, 47);
  d_src.upload(src.view());
  const separable_filter f = filters::gaussian(1.5);
  convolve(d_src.view(), a.view(), f, border::reflect101{}, algo::naive{});
  convolve(d_src.view(), b.view(), f.to_2d(), border::reflect101{}, algo::naive{});
  host_image<float> ha(61, 47), hb(61, 47);
  a.download(ha.view());
  b.download(hb.view());
  gpu::stream_synchronize(nullptr);
  CHECK(std::memcmp(ha.data(), hb.data(), ha.pitch_bytes() * 47) == 0);
}

TEST_CASE("naive runs asynchronously on the caller's stream", "[gpu][naive]") {
  gpu::stream_t s = gpu::stream_create();
  const auto src = random_image<std::uint8_t>(257, 131);
  device_image<std::uint8_t> d_src(257, 131);
  device_image<float> d_dst(257, 131);
  d_src.upload(src.view(), s);
  d_dst.fill_bytes(0xFF, s);
  convolve(d_src.view(), d_dst.view(), filters::sobel_x(), border::replicate{}, algo::naive{}, s);
  host_image<float> out(257, 131), ref(257, 131);
  d_dst.download(out.view(), s);
  gpu::stream_synchronize(s);
  gpu::stream_destroy(s);
  reference::convolve(src.view(), ref.view(), filters::sobel_x(), border::replicate{});
  double err = 0;
  for (int y = 0; y < 131; ++y)
    for (int x = 0; x < 257; ++x) err = std::max(err, double(std::fabs(out(x, y) - ref(x, y))));
  CHECK(err <= 1e-3);
}

TEST_CASE("invalid arguments are rejected before anything is written", "[gpu][errors]") {
  device_image<float> a(16, 16), b(16, 16);
  b.fill_bytes(0x7F);
  const filter2d f = filters::laplacian();
  CHECK_THROWS_AS(convolve(a.view(), rect{0, 0, 16, 16}, b.view(), rect{1, 0, 16, 16}, f), hipstencil::invalid_argument);
  CHECK_THROWS_AS(convolve(image_view<float>(nullptr, 16, 16), b.view(), f), hipstencil::invalid_argument);
  CHECK_THROWS_WITH(convolve(a.view(), rect{0, 0, 8, 8}, b.view(), rect{0, 0, 8, 9}, f),
                    Catch::Contains("src_roi is 8x8 but dst_roi is 8x9"));
  CHECK_THROWS_WITH(convolve(a.view(), a.view(), f), Catch::Contains("in-place"));
  host_image<float> out(16, 16);
  b.download(out.view());
  gpu::stream_synchronize(nullptr);
  for (int y = 0; y < 16; ++y)
    for (int x = 0; x < 16; ++x) CHECK(same_bytes(out(x, y), poison_pixel<float>(0x7F)));
}

TEST_CASE("runtime failures throw gpu_error with the runtime's code and name", "[gpu][errors]") {
  try {
    device_image<float4> huge(1 << 20, 1 << 20);  // 16 TiB
    FAIL("allocation of 16 TiB did not fail");
  } catch (const hipstencil::gpu_error& e) {
    CHECK(e.code() != 0);
    CHECK_THAT(e.name(), Catch::Contains("rrorMemoryAllocation") || Catch::Contains("rrorOutOfMemory"));
    CHECK_THAT(std::string(e.what()), Catch::Contains("MallocPitch"));
  }
  // The failure was reported by the exception and does not linger as the runtime's last
  // error (which made the next unrelated runtime call fail in an earlier version).
  CHECK(gpu::peek_last_error() == gpu::success);
  device_image<float> small(4, 4);
  small.fill_bytes(0);
  CHECK_NOTHROW(gpu::stream_synchronize(nullptr));
}
