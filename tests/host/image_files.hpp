// Image files made by the tests themselves, as bytes: BMP written here byte by byte (both row
// orders), PNG, JPEG, BMP and TGA through stb_image_write (Debian's libstb-dev). Used to build
// valid, truncated and malformed inputs in a temporary directory rather than committing
// binaries.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

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

}  // namespace test_images
