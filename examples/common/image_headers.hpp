// examples/common/image_headers.hpp
// Part of hipstencil_io (image_io.cpp): what an image file's header says, read by our own
// code rather than by stb: the format (from the magic bytes, as stb's own tests recognise
// them), the size, and for BMP, TGA and JPEG a lower bound on the bytes a file of that size
// needs. It lets errors name the format, reject sizes past the limits before stb allocates,
// and reject a file too short for its header's size before stb decodes it (stb fills what is
// missing with zeros, after allocating the whole image). Also the guards around what stb 2.27
// decodes unsafely (a JPEG's Huffman tables, a PNG's empty IDAT chunks). Internal: not
// installed, used by image_io.cpp only.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace hipstencil_io {
namespace headers {

/// Throws std::runtime_error "<what> '<path>': <reason>", the loader's one error form.
[[noreturn]] inline void fail(const std::string& what, const std::string& path, const std::string& reason) {
  throw std::runtime_error(what + " '" + path + "': " + reason);
}

enum class format { unknown, png, jpeg, bmp, tga };

/// "PNG", "JPEG", "BMP", "TGA", or "image" for an unknown format.
const char* format_name(format f);

/// What read_header found.
struct header {
  format fmt = format::unknown;
  bool has_size = false;             ///< width and height below come from the header
  long long width = 0, height = 0;   ///< pixels
  unsigned long long min_bytes = 0;  ///< a file of this size is at least this long (0: no bound)
  const char* corrupt = nullptr;     ///< what makes the file unsafe to hand to stb, if anything
  std::string truncated;             ///< where the header shows the file to be cut short, if it does
  std::size_t start = 0;             ///< where stb is to start reading (past a JPEG's extra fill bytes)
};

/// Reads the header of `size` bytes at `data` (any bytes: nothing is read past the end).
header read_header(const unsigned char* data, std::size_t size);

/// Throws (fail, "cannot read image") what the header alone shows to be unusable: an empty
/// file, no known format, an empty or too large size (image_io.hpp's limits), a file
/// corrupt or shorter than its size needs.
void check_header(const header& h, std::size_t size, const std::string& name);

/// The PNG without its empty IDAT chunks, or an empty vector when it has none (see the
/// definition for why).
std::vector<unsigned char> png_without_empty_idat(const unsigned char* data, std::size_t size);

/// "WxH".
std::string size_text(long long w, long long h);

}  // namespace headers
}  // namespace hipstencil_io
