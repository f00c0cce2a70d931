// examples/sobel_rgba.cpp
// Sobel edge magnitude of an RGBA photograph: the two 3x3 derivatives with hs::convolve
// (uchar4 in, float4 out), the magnitude sqrt(gx^2 + gy^2) per colour channel with a
// kernel of our own over image_view, its largest value with hs::min_max (on the device,
// colour channels only), and a second kernel scaling it to 0..255 for display.
//
//   example-sobel-rgba [INPUT [OUTPUT]]   (default: data/astronaut.png -> astronaut-edges.png)
//
// Exit status: 0 the result matches the host computation, 1 it does not (or an error),
// 77 no GPU.
#include <hipstencil/hipstencil.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "example_check.hpp"
#include "image_io.hpp"

namespace hs = hipstencil;

/// mag = sqrt(gx^2 + gy^2) in R, G and B; alpha 0 (the reduction below leaves it out).
__global__ void magnitude(hs::image_view<const hs::float4> gx, hs::image_view<const hs::float4> gy,
                          hs::image_view<hs::float4> mag) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= mag.width || y >= mag.height) return;
  const hs::float4 a = gx(x, y), b = gy(x, y);
  mag(x, y) = hs::float4{sqrtf(a.x * a.x + b.x * b.x), sqrtf(a.y * a.y + b.y * b.y), sqrtf(a.z * a.z + b.z * b.z), 0.f};
}

/// out = 255 * mag / max (rounded, saturated), alpha 255. `range` is read on the device:
/// no round trip to the host between the reduction and this kernel.
__global__ void to_display(hs::image_view<const hs::float4> mag, const hs::value_range<float>* range,
                           hs::image_view<hs::uchar4> out) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= out.width || y >= out.height) return;
  const float scale = range->max > 0 ? 255.f / range->max : 0.f;
  const hs::float4 m = mag(x, y);
  out(x, y) = hs::uchar4{hs::saturate_cast<unsigned char>(m.x * scale), hs::saturate_cast<unsigned char>(m.y * scale),
                         hs::saturate_cast<unsigned char>(m.z * scale), 255};
}

int main(int argc, char** argv) try {
  if (!example::have_gpu("example-sobel-rgba")) return example::no_gpu;
  const std::string input = argc > 1 ? argv[1] : HIPSTENCIL_DATA_DIR "/astronaut.png";
  const std::string output = argc > 2 ? argv[2] : "astronaut-edges.png";
  const hs::host_image<hs::uchar4> image = hipstencil_io::load_image<hs::uchar4>(input);  // grey -> R = G = B
  const int w = image.width(), h = image.height();

  example::stream stream;
  hs::device_image<hs::uchar4> src(w, h), out(w, h);
  hs::device_image<hs::float4> gx(w, h), gy(w, h), mag(w, h);
  src.upload(image.view(), stream.get());
  hs::convolve(src.view(), gx.view(), hs::filters::sobel_x(), hs::border::replicate{}, hs::algo::automatic{}, stream.get());
  hs::convolve(src.view(), gy.view(), hs::filters::sobel_y(), hs::border::replicate{}, hs::algo::automatic{}, stream.get());
  const dim3 block(16, 16), grid((w + 15) / 16, (h + 15) / 16);
  magnitude<<<grid, block, 0, stream.get()>>>(gx.view(), gy.view(), mag.view());
  hs::gpu::check_launch("magnitude");
  auto* d_range = static_cast<hs::value_range<float>*>(hs::gpu::malloc_async(sizeof(hs::value_range<float>), stream.get()));
  hs::min_max(mag.view(), hs::channel_set::colour(), d_range, stream.get());  // allocates its workspace stream-ordered
  to_display<<<grid, block, 0, stream.get()>>>(mag.view(), d_range, out.view());
  hs::gpu::check_launch("to_display");
  hs::value_range<float> range{};
  hs::gpu::memcpy(&range, d_range, sizeof range, hs::gpu::copy_kind::device_to_host, stream.get());
  hs::gpu::free_async(d_range, stream.get());
  hs::host_image<hs::uchar4> edges(w, h);
  out.download(edges.view(), stream.get());
  hs::gpu::stream_synchronize(stream.get());
  hipstencil_io::save_png(output, edges, 4);
  std::printf("Sobel magnitude of %s (%dx%d, RGBA, border replicate): largest %g (R, G, B), shown as 255 -> %s\n",
              input.c_str(), w, h, range.max, output.c_str());

  // Host check. The derivatives of 8-bit pixels with integer taps are integers, exact in
  // float on both sides: they must agree exactly.
  hs::host_image<hs::float4> hx(w, h), hy(w, h);
  hs::reference::convolve(image.view(), hx.view(), hs::filters::sobel_x(), hs::border::replicate{}, hs::reference::all_threads());
  hs::reference::convolve(image.view(), hy.view(), hs::filters::sobel_y(), hs::border::replicate{}, hs::reference::all_threads());
  bool ok = example::matches<hs::float4>("gx against reference::convolve", gx.view(), hx.view(), 0.0, stream.get());
  ok = example::matches<hs::float4>("gy against reference::convolve", gy.view(), hy.view(), 0.0, stream.get()) && ok;
  // The display, recomputed on the host from the host derivatives (float maths as above:
  // off by one at most, where float rounding meets a .5 boundary).
  float largest = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int c = 0; c < 3; ++c) {
        const float a = hs::pixel_traits<hs::float4>::get(hx(x, y), c), b = hs::pixel_traits<hs::float4>::get(hy(x, y), c);
        largest = std::max(largest, std::sqrt(a * a + b * b));
      }
  hs::host_image<hs::uchar4> want(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      hs::uchar4 p{0, 0, 0, 255};
      for (int c = 0; c < 3; ++c) {
        const float a = hs::pixel_traits<hs::float4>::get(hx(x, y), c), b = hs::pixel_traits<hs::float4>::get(hy(x, y), c);
        hs::pixel_traits<hs::uchar4>::set(p, c, hs::saturate_cast<unsigned char>(std::sqrt(a * a + b * b) * (255.f / largest)));
      }
      want(x, y) = p;
    }
  std::printf("largest magnitude: gpu %g, host %g\n", range.max, largest);
  ok = range.max == largest && ok;
  ok = example::matches<hs::uchar4>("display against the host", out.view(), want.view(), 1.0, stream.get()) && ok;
  return ok ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "example-sobel-rgba: error: %s\n", e.what());
  return 1;
}
