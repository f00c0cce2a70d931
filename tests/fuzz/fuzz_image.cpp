// tests/fuzz/fuzz_image.cpp
// libFuzzer target: the image loader's in-memory entry points, on any bytes. A failure must
// be a std::runtime_error (a file the loader rejects); anything else, a crash, a leak or
// undefined behaviour (ASan, UBSan) is a finding. Also checked, on every input:
//   - decoding to 1 and to 4 channels succeed or fail together, with the same size;
//   - a decoded image is at least 1 x 1, within max_side and max_pixels, and its buffer
//     holds exactly width * height * channels bytes;
//   - the header (info_memory, read_info's core) of a decodable input gives the decoded size
//     and agrees on grey versus colour;
//   - the loader at the files' depth (decode_raster, load_raster's core: 16-bit PNG through
//     libpng, TIFF through libtiff, the rest as above) gives a raster within the limits,
//     holding exactly width * height * channels samples, grey exactly when the file is; an
//     8-bit file that is not a 16-bit PNG or a TIFF decodes there as above, at the same size;
//     and a small raster goes through the encoders of its depth (TIFF, 16-bit PNG) and back
//     unchanged, bit for bit.
// Built and run by tests/fuzz/run.sh (CMake option HIPSTENCIL_FUZZ, clang only).

#include "image_codecs.hpp"
#include "image_formats.hpp"
#include "image_io.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <vector>

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

std::optional<hipstencil_io::raster> decode_raster(const std::uint8_t* data, std::size_t size) {
  try {
    return hipstencil_io::decode_raster(data, size, "fuzz");
  } catch (const std::runtime_error&) {
    return std::nullopt;
  }
}

/// A raster encoded by `encode` into a file and decoded again must come back unchanged.
template <class Encode>
void round_trip(const hipstencil_io::raster& r, Encode encode) {
  std::vector<unsigned char> file;
  try {
    file = encode();
  } catch (const std::runtime_error&) {
    finding("an encoder rejected a decoded image");
  }
  const auto back = decode_raster(file.data(), file.size());
  if (!back) finding("an encoded image does not decode");
  if (back->type != r.type || back->width != r.width || back->height != r.height || back->channels != r.channels ||
      back->samples != r.samples)
    finding("an image does not survive its encoder and decoder unchanged");
}

/// The checks on decode_raster; `rgba` is the 8-bit decoder's RGBA result, if it had one.
void check_raster(const std::uint8_t* data, std::size_t size, const std::optional<hipstencil_io::detail::decoded>& grey,
                  const std::optional<hipstencil_io::detail::decoded>& rgba) {
  using hipstencil_io::sample_type;
  const bool png16 = size >= 25 && data[0] == 0x89 && data[24] == 16;  // the PNG signature's first byte, bit depth 16
  const bool tiff = size >= 4 && (data[0] == 'I' || data[0] == 'M') && data[0] == data[1];
  const auto r = decode_raster(data, size);
  if (grey && !png16 && !tiff && !r) finding("decode_raster rejects an 8-bit file the 8-bit decoder takes");
  if (!r) return;
  if (r->width < 1 || r->height < 1 || r->width > hipstencil_io::max_side || r->height > hipstencil_io::max_side ||
      static_cast<long long>(r->width) * r->height > hipstencil_io::max_pixels)
    finding("decode_raster gave an empty image or one past the limits");
  if ((r->channels != 1 && r->channels != 4) || r->file_channels < 1 || r->file_channels > 4)
    finding("decode_raster gave a channel count out of range");
  if ((r->channels == 1) != hipstencil_io::is_grey(r->file_channels)) finding("decode_raster: grey but a colour file");
  if (r->samples.size() != std::size_t(r->height) * r->row_bytes())
    finding("the raster does not hold width * height * channels samples");
  if (grey && r->type == sample_type::u8 && !tiff) {
    const auto& d = r->channels == 1 ? *grey : *rgba;
    // Sizes, not samples: on some corrupt files stb 2.27 reads pixels it never wrote (a BMP's
    // or a palette PNG's indices past the palette read an uninitialised stack array), which
    // differ from one call to the next. No memory error, so ASan is silent; valgrind shows
    // it. Its heap buffers start zeroed (image_io.cpp): whether a file decodes does not
    // depend on what the heap held (it did for some corrupt progressive JPEGs).
    if (r->width != d.width || r->height != d.height || r->samples.size() != d.pixels.size())
      finding("decode_raster and the 8-bit decoder give images of different sizes");
  }
  if (std::size_t(r->width) * std::size_t(r->height) > 4096) return;  // keep the encoders quick
  if (hipstencil_io::codecs::have_libtiff())
    round_trip(*r, [&] {
      return hipstencil_io::codecs::encode_tiff(r->samples.data(), r->width, r->height, r->channels, r->type,
                                                "fuzz.tif");
    });
  if (hipstencil_io::codecs::have_libpng() && r->type == sample_type::u16)
    round_trip(*r, [&] {
      return hipstencil_io::codecs::encode_png16(r->samples.data(), r->width, r->height, r->channels, "fuzz.png");
    });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto grey = decode(data, size, 1);
  const auto rgba = decode(data, size, 4);
  if (grey.has_value() != rgba.has_value()) finding("decoding to 1 and to 4 channels disagree on success");
  check_raster(data, size, grey, rgba);
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
