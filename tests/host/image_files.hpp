// Image files made by the tests themselves, as bytes: BMP, 16-bit PNG and uncompressed TIFF
// written here byte by byte, PNG, JPEG, BMP and TGA through stb_image_write (Debian's
// libstb-dev); and stb_image's decoders, independent of the loader under test, to read back
// what the program writes. Used to build valid, truncated and malformed inputs in a temporary
// directory rather than committing binaries.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "image_formats.hpp"

namespace test_images {

using bytes = std::vector<unsigned char>;

/// The formats the encoders below write. tga_rle and tga_raw: run-length coded or not.
enum class kind { png, jpeg, bmp, tga_rle, tga_raw };
const char* name(kind k);  ///< "PNG", "JPEG", "BMP", "TGA", "TGA"

/// width x height pixels of `channels` (1 to 4) interleaved bytes, row-major, top row first,
/// every byte different from its neighbours (a pattern mixing x, y, channel and `seed`).
bytes pattern(int width, int height, int channels, unsigned seed = 0);

/// `pixels` (as pattern() lays them out) encoded as a whole file of kind k (JPEG at quality
/// 100, still lossy). stb writes BMP as 24-bit (1 and 3 channels) or 32-bit (2 and 4).
bytes encode(kind k, int width, int height, int channels, const bytes& pixels);

/// A 24-bit uncompressed BMP (BITMAPINFOHEADER) of RGB `pixels`, written here: bottom-up
/// (positive height, as most writers do) or top-down (negative height).
bytes bmp24(int width, int height, const bytes& rgb, bool top_down);

/// A PNG holding only its signature and a valid IHDR chunk (with CRC) giving width x height,
/// 8-bit RGB, and nothing after it.
bytes png_header_only(std::uint32_t width, std::uint32_t height);

/// A complete PNG whose IHDR says width x height, 8-bit RGB, with one IDAT of a few bytes
/// and IEND: the header is what a decoder checks first.
bytes png_with_size(std::uint32_t width, std::uint32_t height);

/// Writes `b` to `path` (binary, replacing it); throws std::runtime_error on failure.
void write_file(const std::string& path, const bytes& b);

/// The whole file at `path`; throws std::runtime_error if it cannot be read.
bytes read_file(const std::string& path);

/// 16-bit samples, interleaved, host byte order.
using samples16 = std::vector<std::uint16_t>;

/// width x height pixels of `channels` 16-bit samples, every one different from its
/// neighbours and spread over the whole 16-bit range (most above 255, low bytes varied too).
samples16 pattern16(int width, int height, int channels, unsigned seed = 0);

/// width x height pixels of `channels` floats: negative, fractional, tiny (subnormal) and huge
/// values, every one different from its neighbours, so that only a bit-exact path keeps them.
std::vector<float> pattern_float(int width, int height, int channels, unsigned seed = 0);

/// A 16-bit PNG of `channels` (1 grey, 2 grey + alpha, 3 RGB, 4 RGBA), written here: IHDR,
/// one IDAT of stored (uncompressed) deflate blocks, IEND; samples big-endian as PNG has them.
bytes png16(int width, int height, int channels, const samples16& samples);

/// An uncompressed TIFF written here, one strip: `bits` 8 or 16 (unsigned) or 32 (IEEE
/// float), `channels` 1 (BlackIsZero), 2 (grey + alpha), 3 (RGB) or 4 (RGBA; alpha as an
/// unassociated extra sample), in little-endian (II) or big-endian (MM) byte order.
/// `samples` holds width * height * channels samples of that size in host order.
bytes tiff(int width, int height, int channels, int bits, const void* samples, bool big_endian = false);

/// What stb_image decodes from a whole file: size, the channels stored (1 to 4) and the
/// samples as stored, 8-bit (decode8) or 16-bit (decode16; 8-bit files are widened). Throws
/// std::runtime_error with stb's reason if it cannot.
struct stb_image {
  int width = 0, height = 0, channels = 0;
  bytes u8;
  samples16 u16;
};
stb_image stb_decode8(const bytes& file);
stb_image stb_decode16(const bytes& file);

/// Whether a test may run: true when this build has `l`; otherwise prints "skipped: built
/// without libpng" (or libtiff) and the test returns. ctest runs such tests (tags [png16]
/// and [tiff]) as tests of their own, reported Skipped in a build without the library.
bool built_with(hipstencil_io::library l);

}  // namespace test_images
