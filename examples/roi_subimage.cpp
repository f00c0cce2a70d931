// examples/roi_subimage.cpp
// Filtering part of an image: a source ROI and a target ROI of the same size.
//
//   1. In place in a copy of the photo: blur the rectangle R of the source into the same
//      rectangle of the target (a copy of the source); every pixel outside R stays as it
//      was. halo::from_parent: the blur reads the real pixels around R, so the patch has
//      no seam.
//   2. Crop and filter: blur R into the whole of a small image of R's size, with
//      halo::isolated (the default): R is treated as the image, the border rule applies
//      at R's edges and nothing outside R is read.
//
//   example-roi-subimage [INPUT]   (default: data/astronaut.png; writes astronaut-roi.png
//                                   and astronaut-roi-crop.png)
//
// Exit status: 0 both match the host reference, 1 mismatch or error, 77 no GPU.
#include <hipstencil/hipstencil.hpp>

#include <cstdio>
#include <string>

#include "example_check.hpp"
#include "image_io.hpp"

namespace hs = hipstencil;

int main(int argc, char** argv) try {
  if (!example::have_gpu("example-roi-subimage")) return example::no_gpu;
  const std::string input = argc > 1 ? argv[1] : HIPSTENCIL_DATA_DIR "/astronaut.png";
  const hs::host_image<hs::uchar4> image = hipstencil_io::load_image<hs::uchar4>(input);
  const int w = image.width(), h = image.height();
  // The middle half of the image (any rectangle inside it will do).
  const hs::rect R{w / 4, h / 4, w / 2, h / 2};
  const hs::separable_filter blur = hs::filters::box(6);  // 13 x 13 mean

  example::stream stream;
  hs::device_image<hs::uchar4> src(w, h), patched(w, h), crop(R.width, R.height);
  src.upload(image.view(), stream.get());
  patched.upload(image.view(), stream.get());  // the target starts as a copy: only R changes
  const hs::rect whole_crop{0, 0, R.width, R.height};

  // 1. source ROI R -> target ROI R, reading real pixels around R.
  hs::convolve(src.view(), R, patched.view(), R, blur, hs::border::reflect101{}, hs::algo::automatic{}, stream.get(),
               hs::halo::from_parent);
  // 2. source ROI R -> the whole crop image, R isolated.
  hs::convolve(src.view(), R, crop.view(), whole_crop, blur, hs::border::reflect101{}, hs::algo::automatic{}, stream.get(),
               hs::halo::isolated);

  hs::host_image<hs::uchar4> out1(w, h), out2(R.width, R.height);
  patched.download(out1.view(), stream.get());
  crop.download(out2.view(), stream.get());
  hs::gpu::stream_synchronize(stream.get());
  hipstencil_io::save_png("astronaut-roi.png", out1, 4);
  hipstencil_io::save_png("astronaut-roi-crop.png", out2, 4);
  std::printf("%s (%dx%d): 13x13 box blur of ROI x=%d y=%d %dx%d\n", input.c_str(), w, h, R.x, R.y, R.width, R.height);
  std::printf("  into the same ROI of a copy, halo from_parent -> astronaut-roi.png\n");
  std::printf("  into a %dx%d image, halo isolated            -> astronaut-roi-crop.png\n", R.width, R.height);

  // The same calls on the host. The whole target is compared, so a write outside the
  // target ROI would show too.
  hs::host_image<hs::uchar4> ref1 = image, ref2(R.width, R.height);
  hs::reference::convolve(image.view(), R, ref1.view(), R, blur, hs::border::reflect101{}, hs::halo::from_parent,
                          hs::reference::all_threads());
  hs::reference::convolve(image.view(), R, ref2.view(), whole_crop, blur, hs::border::reflect101{}, hs::halo::isolated,
                          hs::reference::all_threads());
  bool ok = example::matches<hs::uchar4>("ROI in place, from_parent", patched.view(), ref1.view(), 1.0, stream.get());
  ok = example::matches<hs::uchar4>("ROI cropped, isolated", crop.view(), ref2.view(), 1.0, stream.get()) && ok;

  // The two halo modes agree except within the filter's reach (6 px) of R's edges.
  long long differ = 0, differ_inside = 0;
  for (int y = 0; y < R.height; ++y)
    for (int x = 0; x < R.width; ++x) {
      const hs::uchar4 a = out1(R.x + x, R.y + y), b = out2(x, y);
      const bool d = a.x != b.x || a.y != b.y || a.z != b.z || a.w != b.w;
      differ += d;
      differ_inside += d && x >= 6 && y >= 6 && x < R.width - 6 && y < R.height - 6;
    }
  std::printf("isolated vs from_parent: %lld pixels differ, %lld of them farther than 6 px from R's edges\n", differ,
              differ_inside);
  return ok && differ > 0 && differ_inside == 0 ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "example-roi-subimage: error: %s\n", e.what());
  return 1;
}
