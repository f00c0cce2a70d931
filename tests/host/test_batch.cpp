// batch_view's addressing and convolve_batch's own argument checks (detail::validate_batch,
// the code convolve_batch runs before anything is queued), on host memory: the checks
// only compare addresses.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include <hipstencil/batch.hpp>
#include <hipstencil/detail/validate_batch.hpp>

using namespace hipstencil;

namespace {

/// validate_batch with a centred 3x3 filter, reflect101, isolated halo, whole images.
template <class In, class Out>
void validate(const batch_view<In>& src, const batch_view<Out>& dst) {
  detail::validate_batch("convolve_batch", src, src.first.bounds(), dst, dst.first.bounds(), 3, 3, 1, 1,
                         border::any(border::reflect101{}), halo::isolated);
}

}  // namespace

TEST_CASE("batch_view: image k lies k strides after image 0, with image 0's size and pitch") {
  std::vector<float> mem(10 * 4 * 5);
  const image_view<float> first(mem.data(), 7, 4, 10 * sizeof(float));
  const batch_view<float> b(first, 5, 10 * 4 * sizeof(float));
  for (int k = 0; k < 5; ++k) {
    const image_view<float> im = b.image(k);
    CHECK(im.data == mem.data() + 40 * k);
    CHECK(im.width == 7);
    CHECK(im.height == 4);
    CHECK(im.pitch_bytes == 10 * sizeof(float));
  }
  CHECK_THROWS_AS(b.image(5), invalid_argument);
  CHECK_THROWS_AS(b.image(-1), invalid_argument);
  const batch_view<float> s = b.slice(2, 3);
  CHECK(s.count == 3);
  CHECK(s.first.data == mem.data() + 80);
  CHECK(s.image(2).data == b.image(4).data);
  CHECK_THROWS_AS(b.slice(3, 3), invalid_argument);
  CHECK_THROWS_AS(b.slice(0, 0), invalid_argument);
  const batch_view<const float> c = b;  // implicit conversion to const pixels
  CHECK(c.image(1).data == b.image(1).data);
  // Offsets beyond 2^31 bytes: 64-bit arithmetic.
  const batch_view<const std::uint8_t> big(image_view<const std::uint8_t>(nullptr, 1, 1, 1), 4, std::size_t(3) << 30);
  CHECK(reinterpret_cast<std::uintptr_t>(big[3].data) == (std::uintptr_t(9) << 30));
}

TEST_CASE("validate_batch: counts, strides and overlaps between images are checked") {
  std::vector<float> mem(16 * 8 * 16);
  const std::size_t pitch = 16 * sizeof(float), image = pitch * 8;
  auto at = [&](int k) { return image_view<float>(mem.data() + std::size_t(k) * 16 * 8, 16, 8, pitch); };
  // Images 0-3 in, 4-7 out: accepted.
  CHECK_NOTHROW(validate(batch_view<float>(at(0), 4, image), batch_view<float>(at(4), 4, image)));
  CHECK_THROWS_WITH(validate(batch_view<float>(at(0), 4, image), batch_view<float>(at(4), 3, image)),
                    Catch::Contains("src has 4 images but dst has 3"));
  CHECK_THROWS_WITH(validate(batch_view<float>(at(0), 0, image), batch_view<float>(at(4), 0, image)),
                    Catch::Contains("src.count=0"));
  // Output images closer than one image: they would overlap.
  CHECK_THROWS_WITH(validate(batch_view<float>(at(0), 4, image), batch_view<float>(at(4), 4, image - 4)),
                    Catch::Contains("the output images would overlap"));
  // Strides must keep every image's pixels aligned.
  CHECK_THROWS_WITH(validate(batch_view<float>(at(0), 4, image + 2), batch_view<float>(at(4), 4, image)),
                    Catch::Contains("src.image_stride_bytes=514 is not a multiple of 4"));
  // Output image j on input image i != j (equal strides: exact per pair).
  CHECK_THROWS_WITH(validate(batch_view<float>(at(0), 4, image), batch_view<float>(at(2), 4, image)),
                    Catch::Contains("dst image 0 overlaps the pixels that the filter reads in src image 2"));
  CHECK_THROWS_WITH(validate(batch_view<float>(at(3), 4, image), batch_view<float>(at(0), 4, image)),
                    Catch::Contains("dst image 3 overlaps the pixels that the filter reads in src image 0"));
  // Interleaved: inputs 0, 2, 4, 6 and outputs 1, 3, 5, 7 share no pixel.
  CHECK_NOTHROW(validate(batch_view<float>(at(0), 4, 2 * image), batch_view<float>(at(1), 4, 2 * image)));
  // One source image repeated (stride 0) into outputs apart from it: accepted; with
  // outputs over it (different strides, ranges meeting): rejected conservatively.
  CHECK_NOTHROW(validate(batch_view<float>(at(0), 4, 0), batch_view<float>(at(1), 4, image)));
  CHECK_THROWS_WITH(validate(batch_view<float>(at(2), 4, 0), batch_view<float>(at(0), 4, image)),
                    Catch::Contains("share memory and their image strides differ"));
  // Image 0's own checks come first, with convolve's messages.
  CHECK_THROWS_WITH(validate(batch_view<float>(at(0), 4, image), batch_view<float>(at(0), 4, image)),
                    Catch::Contains("in-place filtering is not supported"));
  // A ROI that keeps the outputs off the pixels read: exact even on shared rows. Each
  // output image writes the right half of its rows, each input image is read on its left half.
  const rect left{0, 0, 8, 8}, right{8, 0, 8, 8};
  CHECK_NOTHROW(detail::validate_batch("convolve_batch", batch_view<float>(at(0), 4, image), left,
                                       batch_view<float>(at(0), 4, image), right, 3, 3, 1, 1,
                                       border::any(border::reflect101{}), halo::isolated));
}
