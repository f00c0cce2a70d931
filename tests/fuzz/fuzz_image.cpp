// tests/fuzz/fuzz_image.cpp
// libFuzzer target: the image loader's in-memory entry points, on any bytes. A failure must
// be a std::runtime_error (a file the loader rejects); anything else, a crash, a leak or
// undefined behaviour (ASan, UBSan) is a finding. Also checked, on every input:
//   - decoding to 1 and to 4 channels succeed or fail together, with the same size;
//   - a decoded image is at least 1 x 1, within max_side and max_pixels, and its buffer
//     holds exactly width * height * channels bytes;
//   - the header (info_memory, read_info's core) of a decodable input gives the decoded size
//     and agrees on grey versus colour.
// Built and run by tests/fuzz/run.sh (CMake option HIPSTENCIL_FUZZ, clang only).

#include "image_io.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <stdexcept>

namespace {

[[noreturn]] void finding(const char* what) {
  std::fprintf(stderr, "fuzz_image: %s\n", what);
  std::abort();
}

std::optional<hipstencil_io::detail::decoded> decode(const std::uint8_t* data, std::size_t size, int channels) {
  try {
    return hipstencil_io::detail::decode_memory(data, size, channels, "fuzz");
  } catch (const std::runtime_error&) {
    return std::nullopt;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto grey = decode(data, size, 1);
  const auto rgba = decode(data, size, 4);
  if (grey.has_value() != rgba.has_value()) finding("decoding to 1 and to 4 channels disagree on success");
  if (!grey) return 0;
  for (const auto* d : {&*grey, &*rgba}) {
    if (d->width < 1 || d->height < 1) finding("decoded an empty image");
    if (d->width > hipstencil_io::max_side || d->height > hipstencil_io::max_side ||
        static_cast<long long>(d->width) * d->height > hipstencil_io::max_pixels)
      finding("decoded an image past the limits");
    if (d->pixels.size() != std::size_t(d->width) * std::size_t(d->height) * std::size_t(d->channels))
      finding("the pixel buffer does not hold width * height * channels bytes");
    if (d->file_channels < 1 || d->file_channels > 4) finding("file_channels out of 1..4");
  }
  if (grey->width != rgba->width || grey->height != rgba->height || grey->file_channels != rgba->file_channels)
    finding("decoding to 1 and to 4 channels give different sizes");
  hipstencil_io::image_info info;
  try {
    info = hipstencil_io::detail::info_memory(data, size, "fuzz");
  } catch (const std::runtime_error&) {
    finding("the header of a decodable input is rejected");
  }
  if (info.width != grey->width || info.height != grey->height)
    finding("the header and the decoder disagree on the size");
  if (hipstencil_io::is_grey(info.channels) != hipstencil_io::is_grey(grey->file_channels))
    finding("the header and the decoder disagree on grey versus colour");
  return 0;
}
