// examples/gaussian_blur.cpp
// Gaussian blur of an 8-bit greyscale photograph on the GPU: load, upload, convolve,
// download, save; then the same filter with the host reference, compared on the device.
//
//   example-gaussian-blur [INPUT [OUTPUT]]   (default: data/camera.png -> camera-blur.png)
//
// Exit status: 0 the GPU result matches the reference, 1 it does not (or an error),
// 77 no GPU.
#include <hipstencil/hipstencil.hpp>

#include <cstdint>
#include <cstdio>
#include <string>

#include "example_check.hpp"
#include "image_io.hpp"

namespace hs = hipstencil;

int main(int argc, char** argv) try {
  if (!example::have_gpu("example-gaussian-blur")) return example::no_gpu;
  const std::string input = argc > 1 ? argv[1] : HIPSTENCIL_DATA_DIR "/camera.png";
  const std::string output = argc > 2 ? argv[2] : "camera-blur.png";

  // A colour file is converted to luma: the blur runs on one 8-bit channel.
  const hs::host_image<std::uint8_t> image = hipstencil_io::load_image<std::uint8_t>(input);
  const int w = image.width(), h = image.height();
  const hs::separable_filter blur = hs::filters::gaussian(2.0);  // sigma 2 px -> radius 8, 17 x 17 taps

  example::stream stream;
  hs::device_image<std::uint8_t> src(w, h), dst(w, h);  // pitched device memory
  src.upload(image.view(), stream.get());
  hs::convolve(src.view(), dst.view(), blur, hs::border::reflect101{}, hs::algo::automatic{}, stream.get());
  hs::host_image<std::uint8_t> out(w, h);
  dst.download(out.view(), stream.get());
  hs::gpu::stream_synchronize(stream.get());  // everything above was asynchronous: `out` is valid from here
  hipstencil_io::save_png(output, out);
  std::printf("blurred %s (%dx%d, 8-bit grey) with a %dx%d Gaussian, sigma 2, border reflect101 -> %s\n",
              input.c_str(), w, h, blur.width(), blur.height(), output.c_str());

  // The reference accumulates in double, the GPU in float: 8-bit results may differ by 1
  // where a value lies on a rounding boundary.
  hs::host_image<std::uint8_t> ref(w, h);
  hs::reference::convolve(image.view(), ref.view(), blur, hs::border::reflect101{}, hs::reference::all_threads());
  return example::matches<std::uint8_t>("check against reference::convolve", dst.view(), ref.view(), 1.0, stream.get())
             ? 0
             : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "example-gaussian-blur: error: %s\n", e.what());
  return 1;
}
