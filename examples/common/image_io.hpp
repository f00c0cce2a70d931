// examples/common/image_io.hpp
// Image files for the examples and the tests: load PNG, JPEG, BMP and TGA into hipstencil
// host images, and save PNG atomically. Built on stb (Debian's libstb-dev); target
// `hipstencil-image-io`, namespace `hipstencil_io`. Files at other depths (16-bit PNG, TIFF)
// and JPEG output: image_formats.hpp, built on what this file's detail part offers.
//
// The compiled part (image_io.cpp) works on plain bytes only, so one build of this library
// serves translation units of every hipstencil backend: hipstencil::uchar4 is the GPU
// runtime's type in a hip/cuda translation unit and a stand-in struct in a host-only one
// (pixel.hpp), and the templates below are instantiated with whichever one the includer
// sees. Every pixel type used here is 8-bit: uint8_t (grey) or a 4 x 8-bit interleaved
// RGBA pixel (uchar4, channels in memory order R, G, B, A).
//
// Errors throw std::runtime_error with a one-line message that names the file and the
// reason: the system's for I/O; for decoding, the format (recognised by its magic bytes,
// not by the file name) and what is wrong with it: "truncated", "too large" (with the
// size and the limit), or the decoder's own reason. POSIX only (mkstemp, rename).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include <hipstencil/image.hpp>
#include <hipstencil/pixel.hpp>

namespace hipstencil_io {

/// The largest image the loader accepts: at most max_side pixels in either direction and
/// max_pixels pixels in all (2^27 = 134217728, e.g. 16384 x 8192; a 16-bit RGBA PNG of that
/// size decodes to 1 GiB). The size in the file's header is checked before anything is
/// decoded or allocated; a larger image is rejected with "... is too large".
inline constexpr long long max_side = 1LL << 24;
inline constexpr long long max_pixels = 1LL << 27;
/// The largest file read, in bytes (1 GiB).
inline constexpr long long max_file_bytes = 1LL << 30;

/// Size and channel count of an image file, as its header gives them.
struct image_info {
  int width = 0;     ///< pixels, >= 1: what load_image returns
  int height = 0;    ///< pixels, >= 1: what load_image returns (a top-down BMP too)
  int channels = 0;  ///< 1 grey, 2 grey + alpha, 3 RGB, 4 RGBA
};

/// Reads the header of an image file (PNG, JPEG, BMP or TGA) without decoding its pixels.
/// width and height are those load_image gives. `channels` is the header's count; it can be
/// one less than load_image's `file_channels` for a PNG whose transparency is in a tRNS chunk
/// (grey stays grey and colour stays colour, so is_grey() agrees).
/// @throws std::runtime_error if the file cannot be opened or read ("cannot open 'p':
///         <errno text>"), is larger than max_file_bytes, is not an image of a supported format,
///         is too large (see max_pixels), or its header is cut short or invalid
///         ("cannot read image 'p': <reason>").
image_info read_info(const std::string& path);

/// True when a file holding `channels` channels is loaded as grey (1 and 2: grey, and grey
/// with alpha, whose alpha is dropped) rather than as colour (3 and 4).
constexpr bool is_grey(int channels) { return channels <= 2; }

namespace detail {

/// A decoded image, tightly packed, `channels` bytes per pixel (row-major, no padding).
struct decoded {
  int width = 0, height = 0;
  int channels = 0;       ///< bytes per pixel in `pixels` (the channel count asked for)
  int file_channels = 0;  ///< channels stored in the file (1 to 4)
  std::vector<unsigned char> pixels;
};

/// Decodes an image file into `desired_channels` (1: grey, stb's luma
/// (77 R + 150 G + 29 B) / 256 for colour files, alpha dropped; 4: RGBA, grey replicated
/// to R, G and B, alpha 255 where the file has none). 16-bit files are reduced to 8 bits.
/// Reads the whole file, then calls decode_memory.
/// @throws std::runtime_error as read_info and decode_memory.
decoded decode(const std::string& path, int desired_channels);

/// The whole file at `path` (at most max_file_bytes).
/// @throws std::runtime_error "cannot open '<path>': <errno text>" (also "is a directory"),
///         "cannot read '<path>': <errno text>", or "cannot read image '<path>': the file is too
///         large (N bytes; the limit is M)".
std::vector<unsigned char> read_file(const std::string& path);

/// Decodes `size` bytes at `data` (a whole PNG, JPEG, BMP or TGA file) as decode does;
/// `name` is used in messages only. desired_channels: 1 to 4. `data` may be null only when
/// `size` is 0. The result is at least 1 x 1 and within max_side and max_pixels.
/// A file that ends before its image data do is rejected as truncated, never decoded with
/// the missing pixels black: the decoder reads through callbacks that record any request for
/// bytes past the end, and for BMP, TGA and JPEG a header whose size needs more bytes than
/// there are is rejected before decoding.
/// @throws std::runtime_error "cannot read image '<name>': <reason>", reason one of: "empty
///         file", "not an image of a supported format (PNG, JPEG, BMP, TGA)", "truncated
///         <FORMAT> file: ...", "<FORMAT> image of WxH pixels is too large ...", "<FORMAT> header
///         gives an invalid size: WxH pixels", "corrupt <FORMAT> file: ..." (what stb 2.27 would
///         mishandle: a JPEG Huffman table of over 256 codes, or used but never defined), "the
///         <FORMAT> decoder failed: <stb's reason>".
decoded decode_memory(const unsigned char* data, std::size_t size, int desired_channels, const std::string& name);

/// The header of `size` bytes at `data`, as read_info gives it for a file; `name` is used
/// in messages only. When the header cannot be read, the reason is the one decode_memory
/// gives (it is called to find it).
/// @throws std::runtime_error as decode_memory.
image_info info_memory(const unsigned char* data, std::size_t size, const std::string& name);

/// Writes `height` rows of `width` pixels as a PNG of `png_channels` channels (1, 3 or 4)
/// atomically: the data go to a temporary file in the destination's directory, which is
/// flushed, closed and renamed over `path` only once complete; on any failure the
/// temporary file is removed and `path` is left as it was (absent or the old file).
/// `data` points at pixel (0, 0); row y starts `y * pitch_bytes` bytes after it; each pixel
/// is `bytes_per_pixel` bytes (1 for grey, 4 for RGBA); with png_channels 3 and 4-byte
/// pixels the 4th byte (alpha) is not written.
/// @throws std::runtime_error naming `path` and the reason (bad arguments, the system's
///         error text for the temporary file, write or rename, or an encoder failure).
void write_png(const std::string& path, const unsigned char* data, int width, int height, std::size_t pitch_bytes,
               int bytes_per_pixel, int png_channels);

/// Writes the `size` bytes at `data` to `path` atomically, as write_png does (temporary file
/// in the destination's directory, flushed, closed, renamed over `path`; removed on any
/// failure). `what` starts the messages ("cannot write PNG").
/// @throws std::runtime_error "<what> '<path>': <reason>" (an empty path or one naming a
///         directory, or the system's error text for the temporary file, write or rename).
void write_file_atomically(const std::string& path, const std::string& what, const unsigned char* data,
                           std::size_t size);

/// `height` rows of `width` pixels of `channels` (1 to 4) bytes each, row y at
/// `data + y * stride` bytes, encoded by stb_image_write as a whole PNG file in memory.
/// Empty if stb fails (it fails only when out of memory).
std::vector<unsigned char> stb_encode_png(const unsigned char* data, int width, int height, int channels,
                                          std::size_t stride);

/// As stb_encode_png, as a baseline JPEG of `quality` 1 to 100 (stb clamps others), rows
/// tightly packed (stride width * channels); channels 1 (grey) or 3 (RGB).
std::vector<unsigned char> stb_encode_jpeg(const unsigned char* data, int width, int height, int channels,
                                           int quality);

template <class Pixel>
constexpr bool is_rgba8() {
  using P = std::remove_const_t<Pixel>;
  if constexpr (hipstencil::is_pixel<P>::value) {
    return sizeof(P) == 4 && hipstencil::pixel_traits<P>::channels == 4 &&
           sizeof(typename hipstencil::pixel_traits<P>::channel_type) == 1;
  } else {
    return false;
  }
}

}  // namespace detail

/// Loads an image file (PNG, JPEG, BMP, TGA; grey, grey + alpha, RGB or RGBA; 8 or 16 bits)
/// into a host image of `Pixel`, which is either
///   - std::uint8_t: grey. A colour file is converted to luma (see detail::decode) and any
///     alpha channel is dropped; or
///   - hipstencil::uchar4 (any 4 x 8-bit RGBA pixel): colour. Grey is replicated to R, G,
///     B; a file without alpha gets alpha 255.
/// The result is width x height pixels, tightly packed. If `file_channels` is not null it
/// receives the channel count stored in the file (1 to 4), e.g. to save the result back
/// with the same number of channels. Use read_info first to choose the pixel type.
/// @throws std::runtime_error if the file cannot be opened or decoded (message names the
///         path and the reason).
template <class Pixel>
hipstencil::host_image<Pixel> load_image(const std::string& path, int* file_channels = nullptr) {
  static_assert(std::is_same<Pixel, std::uint8_t>::value || detail::is_rgba8<Pixel>(),
                "load_image: Pixel must be std::uint8_t (grey) or a 4 x 8-bit RGBA pixel such as hipstencil::uchar4");
  constexpr int channels = std::is_same<Pixel, std::uint8_t>::value ? 1 : 4;
  detail::decoded d = detail::decode(path, channels);
  hipstencil::host_image<Pixel> image(d.width, d.height);
  std::memcpy(static_cast<void*>(image.data()), d.pixels.data(), d.pixels.size());
  if (file_channels) *file_channels = d.file_channels;
  return image;
}

/// Saves `image` as a PNG file, atomically (see detail::write_png: a failure never leaves
/// a partial or truncated file at `path`). The file is always PNG, whatever `path`'s
/// extension.
///   - Pixel std::uint8_t: a grey PNG; `channels` must be 1.
///   - Pixel uchar4 (any 4 x 8-bit RGBA pixel): `channels` 3 writes RGB (alpha dropped),
///     4 writes RGBA.
/// Any pitch >= width * sizeof(Pixel) is accepted (device-style pitched host buffers too).
/// @throws std::runtime_error for an empty or null image, a channel count the pixel type
///         cannot give, or any I/O or encoding failure (message names the path and reason).
template <class Pixel>
void save_png(const std::string& path, hipstencil::image_view<Pixel> image,
              int channels = std::is_same<std::remove_const_t<Pixel>, std::uint8_t>::value ? 1 : 4) {
  using P = std::remove_const_t<Pixel>;
  static_assert(std::is_same<P, std::uint8_t>::value || detail::is_rgba8<P>(),
                "save_png: Pixel must be std::uint8_t (grey) or a 4 x 8-bit RGBA pixel such as hipstencil::uchar4");
  detail::write_png(path, reinterpret_cast<const unsigned char*>(image.data), image.width, image.height,
                    image.pitch_bytes, int(sizeof(P)), channels);
}

/// Convenience overload for an owning host image.
template <class Pixel>
void save_png(const std::string& path, const hipstencil::host_image<Pixel>& image,
              int channels = std::is_same<Pixel, std::uint8_t>::value ? 1 : 4) {
  save_png(path, image.view(), channels);
}

}  // namespace hipstencil_io
