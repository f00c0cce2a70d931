// examples/common/image_formats.cpp
// Image files at their depth (image_formats.hpp): which decoder a file's magic bytes call
// for, and how an image is packed for the format its output path names.

#include "image_formats.hpp"

#include "image_codecs.hpp"
#include "image_headers.hpp"
#include "image_io.hpp"

#include <cstdint>
#include <cstring>

namespace hipstencil_io {

namespace {

using headers::fail;

/// A TIFF (II*\0, MM\0*) or BigTIFF (II+\0, MM\0+) byte-order mark and version.
bool is_tiff(const unsigned char* d, std::size_t n) {
  if (n < 4) return false;
  const bool le = d[0] == 'I' && d[1] == 'I' && (d[2] == 42 || d[2] == 43) && d[3] == 0;
  const bool be = d[0] == 'M' && d[1] == 'M' && d[2] == 0 && (d[3] == 42 || d[3] == 43);
  return le || be;
}

/// A PNG whose IHDR (the first chunk, as the format requires) gives bit depth 16.
bool is_png16(const unsigned char* d, std::size_t n) {
  static const unsigned char signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
  return n >= 25 && std::memcmp(d, signature, 8) == 0 && std::memcmp(d + 12, "IHDR", 4) == 0 && d[24] == 16;
}

/// `image` with `channels` samples per pixel (1 from 1; 3 or 4 from 4), tightly packed.
std::vector<unsigned char> packed(const raster& image, int channels) {
  if (channels == image.channels) return image.samples;
  const std::size_t sb = std::size_t(sample_bytes(image.type));
  const std::size_t pixels = std::size_t(image.width) * std::size_t(image.height);
  std::vector<unsigned char> out(pixels * std::size_t(channels) * sb);
  for (std::size_t i = 0; i < pixels; ++i)
    std::memcpy(&out[i * std::size_t(channels) * sb], &image.samples[i * std::size_t(image.channels) * sb],
                std::size_t(channels) * sb);
  return out;
}

/// 16-bit samples reduced to 8 bits: round(v / 257), which maps 65535 to 255 (never a tie:
/// 257 is odd).
std::vector<unsigned char> to_8_bits(const std::vector<unsigned char>& samples16) {
  std::vector<unsigned char> out(samples16.size() / 2);
  for (std::size_t i = 0; i < out.size(); ++i) {
    std::uint16_t v;
    std::memcpy(&v, &samples16[2 * i], 2);
    out[i] = static_cast<unsigned char>((unsigned(v) + 128) / 257);
  }
  return out;
}

}  // namespace

bool built_in(library l) { return l == library::libpng ? codecs::have_libpng() : codecs::have_libtiff(); }

std::string not_built_in_text(library l) {
  if (l == library::libpng)
    return "16-bit PNG support is not built in: libpng was not found when hipstencil was configured "
           "(apt-get install libpng-dev, then configure again)";
  return "TIFF support is not built in: libtiff was not found when hipstencil was configured "
         "(apt-get install libtiff-dev, then configure again)";
}

std::optional<library> library_for(file_format f, sample_type t) {
  if (f == file_format::tiff) return library::libtiff;
  if (f == file_format::png && t == sample_type::u16) return library::libpng;
  return std::nullopt;
}

raster decode_raster(const unsigned char* data, std::size_t size, const std::string& name) {
  const char* what = "cannot read image";
  if (!data && size != 0) fail(what, name, "null data with a size of " + std::to_string(size));
  if (size > std::size_t(max_file_bytes))
    fail(what, name,
         "the file is too large (" + std::to_string(size) + " bytes; the limit is " + std::to_string(max_file_bytes) +
             ")");
  if (is_tiff(data, size)) return codecs::decode_tiff(data, size, name);
  const headers::header h = headers::read_header(data, size);
  if (size > 0 && h.fmt == headers::format::unknown)
    fail(what, name, "not an image of a supported format (PNG, JPEG, BMP, TGA, TIFF)");
  if (is_png16(data, size)) {
    headers::check_header(h, size, name);  // the same size and truncation checks as 8-bit PNGs
    return codecs::decode_png16(data, size, name);
  }
  // 8-bit files: as the filter program has always loaded them, grey as grey and colour as
  // RGBA (image_io.hpp's detail::decode).
  const image_info info = detail::info_memory(data, size, name);
  const int channels = is_grey(info.channels) ? 1 : 4;
  detail::decoded d = detail::decode_memory(data, size, channels, name);
  raster r;
  r.width = d.width;
  r.height = d.height;
  r.channels = channels;
  r.file_channels = d.file_channels;
  r.type = sample_type::u8;
  r.samples = std::move(d.pixels);
  return r;
}

raster load_raster(const std::string& path) {
  const std::vector<unsigned char> bytes = detail::read_file(path);
  return decode_raster(bytes.data(), bytes.size(), path);
}

void save_raster(const std::string& path, const raster& image, int channels, const save_options& options) {
  const std::optional<file_format> f = output_format_of(path);
  if (!f)
    fail("cannot write image", path, std::string("the name has no extension of a format written here (") +
                                         output_extensions() + ")");
  const std::string what = std::string("cannot write ") + format_name(*f);
  if (image.width < 1 || image.height < 1)
    fail(what, path, "empty image (" + headers::size_text(image.width, image.height) + ")");
  if (image.channels != 1 && image.channels != 4)
    fail(what, path, "the image has " + std::to_string(image.channels) + " channels (1 or 4 are written)");
  if (!(image.channels == 1 && channels == 1) && !(image.channels == 4 && (channels == 3 || channels == 4)))
    fail(what, path, std::to_string(channels) + " channels cannot be written from " + std::to_string(image.channels) +
                         " (grey: 1; RGBA: 3 or 4)");
  if (image.samples.size() != std::size_t(image.height) * image.row_bytes())
    fail(what, path, "the image holds " + std::to_string(image.samples.size()) + " bytes, not the " +
                         std::to_string(std::size_t(image.height) * image.row_bytes()) + " of its size");
  if (!can_hold(*f, image.type))
    fail(what, path,
         std::string(format_name(*f)) + (*f == file_format::png ? " holds 8- and 16-bit" : " holds 8-bit") +
             " samples, not 32-bit float: write .tif to keep them");
  if (const std::optional<library> lib = library_for(*f, image.type); lib && !built_in(*lib))
    fail(what, path, not_built_in_text(*lib));

  std::vector<unsigned char> file;
  switch (*f) {
    case file_format::png:
      if (image.type == sample_type::u8) {  // stb, exactly as save_png writes
        detail::write_png(path, image.samples.data(), image.width, image.height, image.row_bytes(), image.channels,
                          channels);
        return;
      }
      file = codecs::encode_png16(packed(image, channels).data(), image.width, image.height, channels, path);
      break;
    case file_format::tiff:
      file = codecs::encode_tiff(packed(image, channels).data(), image.width, image.height, channels, image.type, path);
      break;
    case file_format::jpeg: {
      if (options.jpeg_quality < 1 || options.jpeg_quality > 100)
        fail(what, path, "the quality must be 1 to 100, got " + std::to_string(options.jpeg_quality));
      const int jpeg_channels = channels == 1 ? 1 : 3;  // JPEG has no alpha
      std::vector<unsigned char> p = packed(image, jpeg_channels);
      if (image.type == sample_type::u16) p = to_8_bits(p);
      file = detail::stb_encode_jpeg(p.data(), image.width, image.height, jpeg_channels, options.jpeg_quality);
      if (file.empty()) fail(what, path, "the JPEG encoder failed (out of memory?)");
      break;
    }
  }
  detail::write_file_atomically(path, what, file.data(), file.size());
}

}  // namespace hipstencil_io
