// examples/multi_stream.cpp
// The same filter on several streams at once: the image is cut into horizontal bands and
// each band is filtered on a stream of its own (source ROI = target ROI = the band, with
// halo::from_parent so each band reads the real rows above and below it). All launches are
// queued before any result is waited for, so the bands can run concurrently; the result
// is the whole-image filter.
//
//   example-multi-stream [INPUT [OUTPUT]]   (default: data/camera.png -> camera-bands.png)
//
// Exit status: 0 the result matches the whole-image reference, 1 mismatch or error, 77 no GPU.
#include <hipstencil/hipstencil.hpp>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "example_check.hpp"
#include "image_io.hpp"

namespace hs = hipstencil;

int main(int argc, char** argv) try {
  if (!example::have_gpu("example-multi-stream")) return example::no_gpu;
  const std::string input = argc > 1 ? argv[1] : HIPSTENCIL_DATA_DIR "/camera.png";
  const std::string output = argc > 2 ? argv[2] : "camera-bands.png";
  const hs::host_image<std::uint8_t> image = hipstencil_io::load_image<std::uint8_t>(input);
  const int w = image.width(), h = image.height();
  const hs::separable_filter blur = hs::filters::gaussian(3.0);  // radius 12: reaches well into the next band

  constexpr int n = 4;
  std::vector<example::stream> streams(n);
  hs::device_image<std::uint8_t> src(w, h), dst(w, h);
  src.upload(image.view(), streams[0].get());
  // The streams are created non-blocking and do not wait for each other: make the upload
  // complete before the other streams read the source.
  hs::gpu::stream_synchronize(streams[0].get());

  hs::host_image<std::uint8_t> out(w, h);
  std::vector<hs::rect> bands;
  for (int i = 0; i < n; ++i) {
    const int y0 = h * i / n, y1 = h * (i + 1) / n;
    if (y1 > y0) bands.push_back(hs::rect{0, y0, w, y1 - y0});
  }
  for (std::size_t i = 0; i < bands.size(); ++i)  // queue every band's filter first ...
    hs::convolve(src.view(), bands[i], dst.view(), bands[i], blur, hs::border::reflect101{}, hs::algo::automatic{},
                 streams[i].get(), hs::halo::from_parent);
  for (std::size_t i = 0; i < bands.size(); ++i) {  // ... then each band's copy back, on its stream
    const hs::rect& b = bands[i];
    hs::gpu::memcpy_2d(&out(0, b.y), out.pitch_bytes(), &dst.view()(0, b.y), dst.pitch_bytes(), std::size_t(w),
                       std::size_t(b.height), hs::gpu::copy_kind::device_to_host, streams[i].get());
  }
  for (auto& s : streams) hs::gpu::stream_synchronize(s.get());
  hipstencil_io::save_png(output, out);
  std::printf("blurred %s (%dx%d) with a %dx%d Gaussian in %zu bands of about %d rows on %zu streams -> %s\n",
              input.c_str(), w, h, blur.width(), blur.height(), bands.size(), h / n, bands.size(), output.c_str());

  hs::host_image<std::uint8_t> ref(w, h);
  hs::reference::convolve(image.view(), ref.view(), blur, hs::border::reflect101{}, hs::reference::all_threads());
  return example::matches<std::uint8_t>("bands against the whole-image reference", dst.view(), ref.view(), 1.0,
                                        streams[0].get())
             ? 0
             : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "example-multi-stream: error: %s\n", e.what());
  return 1;
}
