// examples/common/image_formats.hpp
// Image files at the depth their samples have, for hipstencil-filter: reads 8-bit PNG, JPEG,
// BMP and TGA (stb, exactly as image_io.hpp loads them), 16-bit PNG (libpng) and TIFF of
// 8-bit, 16-bit and 32-bit float samples (libtiff); writes PNG (8-bit through stb, 16-bit
// through libpng), TIFF (libtiff) or JPEG (stb), atomically, the format chosen by the output
// path's extension. Part of target hipstencil-image-io, namespace hipstencil_io.
//
// libpng and libtiff are optional when hipstencil is configured (cmake/HipstencilImageLibs):
// a build without one reads and writes everything else, and asking it for the missing one's
// format throws an error naming the package to install (built_in says what this build has).
//
// Errors throw std::runtime_error with one line naming the file: "cannot read image '<path>':
// <reason>" (image_io.hpp's reasons, the TIFF and 16-bit PNG ones documented below) or
// "cannot write <FORMAT> '<path>': <reason>". POSIX only, as image_io.hpp.
#pragma once

#include <cctype>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace hipstencil_io {

/// How one channel of a pixel is stored: unsigned 8 or 16 bits, or 32-bit IEEE float.
enum class sample_type { u8, u16, f32 };

/// Bytes per sample: 1, 2 or 4.
constexpr int sample_bytes(sample_type t) { return t == sample_type::u8 ? 1 : t == sample_type::u16 ? 2 : 4; }

/// "8-bit", "16-bit" or "32-bit float".
inline const char* sample_name(sample_type t) {
  return t == sample_type::u8 ? "8-bit" : t == sample_type::u16 ? "16-bit" : "32-bit float";
}

/// An image at the depth of the file it came from.
struct raster {
  int width = 0, height = 0;  ///< pixels, >= 1 once loaded
  /// Samples per pixel in `samples`: 1 (grey) or 4 (R, G, B, A in that order). A loaded
  /// file gives 1 for grey and grey + alpha (the alpha is dropped) and 4 for RGB and RGBA
  /// (alpha at the type's maximum where the file has none: 255, 65535 or 1.0f).
  int channels = 0;
  int file_channels = 0;  ///< channels stored in the file: 1 grey, 2 grey + alpha, 3 RGB, 4 RGBA
  sample_type type = sample_type::u8;
  /// width * height * channels samples, row-major, top row first, tightly packed, each
  /// sample_bytes(type) bytes in the host's byte order.
  std::vector<unsigned char> samples;

  /// Bytes per row of `samples`: width * channels * sample_bytes(type).
  std::size_t row_bytes() const { return std::size_t(width) * std::size_t(channels) * std::size_t(sample_bytes(type)); }
};

/// The formats written.
enum class file_format { png, tiff, jpeg };

/// "PNG", "TIFF" or "JPEG".
inline const char* format_name(file_format f) {
  return f == file_format::png ? "PNG" : f == file_format::tiff ? "TIFF" : "JPEG";
}

/// The format an output path's extension names: .png, .tif or .tiff, .jpg or .jpeg, in any
/// case; nullopt for any other extension or none. Header-only (the command-line parser and
/// its fuzzer use it without the rest of this library).
inline std::optional<file_format> output_format_of(const std::string& path) {
  const std::size_t dot = path.find_last_of('.');
  const std::size_t slash = path.find_last_of('/');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return std::nullopt;
  std::string e = path.substr(dot + 1);
  for (char& c : e) c = char(std::tolower(static_cast<unsigned char>(c)));
  if (e == "png") return file_format::png;
  if (e == "tif" || e == "tiff") return file_format::tiff;
  if (e == "jpg" || e == "jpeg") return file_format::jpeg;
  return std::nullopt;
}

/// The extensions output_format_of knows, for messages: ".png, .tif, .tiff, .jpg or .jpeg".
inline const char* output_extensions() { return ".png, .tif, .tiff, .jpg or .jpeg"; }

/// The optional libraries.
enum class library { libpng, libtiff };

/// True when this build has `l` (found when hipstencil was configured).
bool built_in(library l);

/// Why a format of `l` cannot be used in this build, naming the package, e.g. "TIFF support
/// is not built in: libtiff was not found when hipstencil was configured (apt-get install
/// libtiff-dev, then configure again)".
std::string not_built_in_text(library l);

/// The library writing samples of type `t` as format `f` needs, if any: libpng for 16-bit
/// PNG, libtiff for TIFF. 8-bit PNG and JPEG need stb only.
std::optional<library> library_for(file_format f, sample_type t);

/// Whether a file of format `f` can hold samples of type `t` (this build aside): PNG holds
/// 8- and 16-bit samples, JPEG 8-bit ones (16-bit images are reduced to 8 bits, as
/// save_raster says), TIFF all three. False only for float samples in PNG and JPEG.
constexpr bool can_hold(file_format f, sample_type t) { return f == file_format::tiff || t != sample_type::f32; }

/// Loads an image file whatever its depth: 16-bit PNG through libpng, TIFF through libtiff,
/// everything else through image_io.hpp's decoder (8-bit, as load_image: channels 1 for grey
/// files, 4 for colour). The format is recognised by its magic bytes, never by the name.
/// TIFF: grey (BlackIsZero or WhiteIsZero, the latter inverted to BlackIsZero), RGB and RGBA,
/// in strips or tiles, interleaved or in planes, with any compression libtiff decodes, of
/// unsigned 8- or 16-bit or 32-bit IEEE float samples at their depth; other 8-bit and smaller
/// kinds (palette, YCbCr, CMYK, 1-bit, ...) through libtiff's RGBA reader, as 8-bit RGBA.
/// Only the first image of a multi-page TIFF is read.
/// @throws std::runtime_error "cannot read image '<path>': <reason>": image_io.hpp's reasons
///         (I/O, too large, truncated, not an image, ...); for 16-bit PNG and TIFF also
///         "<FORMAT> support is not built in: ..." (not_built_in_text), "truncated TIFF file:
///         ...", "unsupported TIFF: ..." (naming the sample kind or photometric), and "the
///         <FORMAT> decoder failed: <the library's reason>".
raster load_raster(const std::string& path);

/// load_raster on `size` bytes at `data` (a whole file); `name` is used in messages only.
/// @throws std::runtime_error as load_raster.
raster decode_raster(const unsigned char* data, std::size_t size, const std::string& name);

/// How save_raster writes.
struct save_options {
  int jpeg_quality = 95;  ///< 1 (smallest) to 100 (best), for JPEG only
};

/// Writes `image` (channels 1 or 4) as the format `path`'s extension names
/// (output_format_of), atomically as image_io.hpp's write_png: a failure leaves `path` as it
/// was. `channels` is what the file holds: 1 from a grey image; 3 (RGB, alpha not written) or
/// 4 (RGBA) from a 4-channel one. Samples keep their depth: PNG 8 or 16 bits, TIFF 8, 16 or
/// 32-bit float (deflate-compressed, grey as BlackIsZero, alpha as unassociated). JPEG holds
/// 8-bit colour (baseline, stb's encoder, which writes three components: a grey image becomes
/// R = G = B): 16-bit samples are reduced to 8 bits (round(v / 257)) and alpha is not written.
/// @throws std::runtime_error "cannot write <FORMAT> '<path>': <reason>": an unknown
///         extension ("<path> has no extension of a known format (...)", FORMAT "image"),
///         bad arguments, a format that cannot hold the samples ("PNG holds 8- and 16-bit
///         samples, not 32-bit float: write .tif to keep them"), a library this build lacks
///         (not_built_in_text), an encoder failure, or the system's reason for the file.
void save_raster(const std::string& path, const raster& image, int channels, const save_options& options = {});

}  // namespace hipstencil_io
