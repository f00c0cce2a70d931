// Variable-shape convolve_batch's own argument checks (detail::validate_varshape, the code
// it runs before anything is queued), on host memory: the checks only compare addresses.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include <hipstencil/detail/validate_varshape.hpp>

using namespace hipstencil;

namespace {

using image = varshape_image<float, float>;

void validate(const std::vector<image>& images, const std::vector<filter2d>& filters,
              border::any b = border::reflect101{}, halo h = halo::isolated) {
  detail::validate_varshape("convolve_batch", images, filters, b, h);
}

}  // namespace

TEST_CASE("validate_varshape: each image is checked as one convolve call, named by its index") {
  std::vector<float> a(20 * 10), c(20 * 10), d(7 * 3), e(7 * 3);
  const image_view<float> A(a.data(), 20, 10), C(c.data(), 20, 10), D(d.data(), 7, 3), E(e.data(), 7, 3);
  const std::vector<filter2d> filters = {filter2d(3, 3, std::vector<float>(9, 1.f)),
                                         filter2d(5, 1, std::vector<float>(5, 1.f))};
  // Different sizes and filters: accepted.
  CHECK_NOTHROW(validate({image(A, C, 0), image(D, E, 1)}, filters));
  CHECK_THROWS_WITH(validate({}, filters), Catch::Contains("the batch holds no images"));
  CHECK_THROWS_WITH(validate({image(A, C, 0)}, {}), Catch::Contains("the filter list is empty"));
  CHECK_THROWS_WITH(validate({image(A, C, 0), image(D, E, 2)}, filters),
                    Catch::Contains("convolve_batch (image 1): filter index 2 is outside the list of 2 filters"));
  CHECK_THROWS_WITH(validate({image(A, C, 0), image(D, E, -1)}, filters), Catch::Contains("filter index -1"));
  // convolve's own messages, prefixed with the image.
  CHECK_THROWS_WITH(validate({image(D, E, 0), image(A, E, 0)}, filters),
                    Catch::Contains("convolve_batch (image 1): src is 20x10 but dst is 7x3") ||
                        Catch::Contains("convolve_batch (image 1): src_roi is 20x10 but dst_roi is 7x3"));
  CHECK_THROWS_WITH(validate({image(A, rect{15, 0, 6, 3}, C, rect{0, 0, 6, 3}, 0)}, filters),
                    Catch::Contains("convolve_batch (image 0): src_roi {x=15"));
  CHECK_THROWS_WITH(validate({image(A, C, 0), image(D, image_view<float>(), 0)}, filters),
                    Catch::Contains("convolve_batch (image 1): dst.data is null"));
  // An image filtered in place.
  CHECK_THROWS_WITH(validate({image(D, E, 0), image(A, A, 0)}, filters),
                    Catch::Contains("convolve_batch (image 1): dst_roi overlaps the source pixels"));
}

TEST_CASE("validate_varshape: a per-image constant replaces the call's, and must be finite") {
  std::vector<float> a(6 * 4), c(6 * 4);
  const image_view<float> A(a.data(), 6, 4), C(c.data(), 6, 4);
  const std::vector<filter2d> filters = {filter2d(3, 3, std::vector<float>(9, 1.f))};
  const image own(A, C, 0, 2.5f), theirs(A, C, 0);
  CHECK(detail::image_border(own, border::constant{7.f}).value == 2.5f);
  CHECK(detail::image_border(theirs, border::constant{7.f}).value == 7.f);
  // Under the other rules the value is not used and is left as the call's.
  CHECK(detail::image_border(own, border::wrap{}).rule == border::kind::wrap);
  CHECK(detail::image_border(own, border::wrap{}).value == 0.f);
  const image bad(A, C, 0, std::numeric_limits<float>::infinity());
  CHECK_THROWS_WITH(validate({own, bad}, filters, border::constant{1.f}),
                    Catch::Contains("convolve_batch (image 1): border::constant value inf is not finite"));
  CHECK_NOTHROW(validate({bad}, filters, border::replicate{}));  // not the constant rule: unused
}

TEST_CASE("validate_varshape: outputs apart from every other image's output and input") {
  // One 40 x 20 parent holding the sources on its left half and targets on its right.
  std::vector<float> m(40 * 20);
  const image_view<float> P(m.data(), 40, 20);
  const std::vector<filter2d> filters = {filter2d(3, 3, std::vector<float>(9, 1.f))};
  const rect s0{0, 0, 10, 10}, s1{0, 10, 10, 10}, d0{20, 0, 10, 10}, d1{20, 10, 10, 10}, d2{30, 0, 10, 10};
  // Interleaved byte ranges (rows of one image) but no shared pixel: accepted; two images
  // may read the same pixels.
  CHECK_NOTHROW(validate({image(P, s0, P, d0, 0), image(P, s1, P, d1, 0)}, filters));
  CHECK_NOTHROW(validate({image(P, s0, P, d0, 0), image(P, s0, P, d2, 0)}, filters));
  // Image 1 writes where image 0 reads.
  CHECK_THROWS_WITH(validate({image(P, s0, P, d0, 0), image(P, s1, P, rect{5, 0, 10, 10}, 0)}, filters),
                    Catch::Contains("the dst_roi of image 1 overlaps the source pixels that image 0 reads"));
  // Image 0 writes where image 1 reads (the order of the list does not matter).
  CHECK_THROWS_WITH(validate({image(P, rect{0, 12, 10, 8}, P, rect{5, 0, 10, 8}, 0), image(P, s0, P, d0, 0)}, filters),
                    Catch::Contains("the dst_roi of image 0 overlaps the source pixels that image 1 reads"));
  // Two targets sharing a pixel.
  CHECK_THROWS_WITH(validate({image(P, s0, P, d0, 0), image(P, s1, P, rect{29, 9, 10, 10}, 0)}, filters),
                    Catch::Contains("the dst_roi of image 0 and that of image 1 share memory"));
  // Under from_parent an image reads its whole parent: a target anywhere in it is refused
  // by the image's own check.
  CHECK_THROWS_WITH(validate({image(P, s0, P, d0, 0), image(P, s1, P, d1, 0)}, filters, border::reflect101{},
                             halo::from_parent),
                    Catch::Contains("convolve_batch (image 0): dst_roi overlaps the source pixels"));
  // Separate allocations in any order: no exact test is needed.
  std::vector<std::vector<float>> bufs(65, std::vector<float>(9 * 5));
  std::vector<image> many;
  for (int k = 0; k < 32; ++k)
    many.emplace_back(image_view<float>(bufs[63 - 2 * k].data(), 9, 5), image_view<float>(bufs[2 * k].data(), 9, 5), 0);
  CHECK_NOTHROW(validate(many, filters));
  // Image 32 reads what image 0 writes.
  many.emplace_back(image_view<float>(bufs[0].data(), 9, 5), image_view<float>(bufs[64].data(), 9, 5), 0);
  CHECK_THROWS_WITH(validate(many, filters),
                    Catch::Contains("the dst_roi of image 0 overlaps the source pixels that image 32 reads"));
  // Image 32 writes where image 31 writes.
  many.back() = image(image_view<float>(bufs[64].data(), 9, 5), image_view<float>(bufs[62].data(), 9, 5), 0);
  CHECK_THROWS_WITH(validate(many, filters), Catch::Contains("the dst_roi of image 31 and that of image 32"));
}
