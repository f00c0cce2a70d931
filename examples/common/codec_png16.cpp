// examples/common/codec_png16.cpp
// 16-bit PNG through libpng (Debian's libpng-dev): stb reads 16-bit PNGs but writes only 8
// bits, so 16-bit files go through libpng both ways (libpng rather than libspng: the GPU
// machines have libpng-dev). Without libpng (HIPSTENCIL_IO_HAVE_LIBPNG 0) both functions
// throw the message naming the package.
//
// libpng reports errors by longjmp to a setjmp in its caller: each function below that calls
// setjmp holds only trivially destructible locals (pointers, sizes), so that nothing is
// skipped when libpng jumps back; the C++ objects live in the callers.

#include "image_codecs.hpp"

#include "image_headers.hpp"
#include "image_io.hpp"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <new>

#if HIPSTENCIL_IO_HAVE_LIBPNG
#include <png.h>

#include <csetjmp>
#endif

namespace hipstencil_io {
namespace codecs {

using headers::fail;

#if HIPSTENCIL_IO_HAVE_LIBPNG

namespace {

/// What libpng's callbacks share with us: the bytes read or written, the first error.
struct png_io {
  const unsigned char* data = nullptr;  // reading
  std::size_t size = 0, pos = 0;
  bool overran = false;                 // a read asked for bytes past the end
  std::vector<unsigned char>* out = nullptr;  // writing
  char error[256] = "";
};

[[noreturn]] void on_error(png_structp png, png_const_charp message) {
  auto* io = static_cast<png_io*>(png_get_error_ptr(png));
  if (io->error[0] == '\0') std::snprintf(io->error, sizeof io->error, "%s", message);
  png_longjmp(png, 1);
}
void on_warning(png_structp, png_const_charp) {}  // e.g. an ancillary chunk's bad CRC: dropped

void read_bytes(png_structp png, png_bytep out, png_size_t n) {
  auto* io = static_cast<png_io*>(png_get_io_ptr(png));
  if (n > io->size - io->pos) {
    io->overran = true;
    png_error(png, "the file ends early");
  }
  std::memcpy(out, io->data + io->pos, n);
  io->pos += n;
}

void write_bytes(png_structp png, png_bytep in, png_size_t n) {
  auto* io = static_cast<png_io*>(png_get_io_ptr(png));
  try {
    io->out->insert(io->out->end(), in, in + n);
  } catch (const std::bad_alloc&) {  // no exception may cross libpng's C frames
    png_error(png, "out of memory");
  }
}
void flush_bytes(png_structp) {}

bool little_endian() {
  const std::uint16_t one = 1;
  unsigned char first;
  std::memcpy(&first, &one, 1);
  return first == 1;
}

/// The header, and the transformations to 16-bit host-order grey or RGBA (tRNS applied as
/// alpha, as stb does; grey's alpha dropped). False when libpng failed (io.error says why).
bool read_header(png_structp png, png_infop info, png_uint_32& w, png_uint_32& h, int& depth, int& colour,
                 bool& trns) {
  if (setjmp(png_jmpbuf(png))) return false;
  png_read_info(png, info);
  int interlace = 0;
  png_get_IHDR(png, info, &w, &h, &depth, &colour, &interlace, nullptr, nullptr);
  trns = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
  if (depth != 16) return true;  // the caller rejects it
  if (colour & PNG_COLOR_MASK_COLOR) {
    if (trns) png_set_tRNS_to_alpha(png);
    else if (!(colour & PNG_COLOR_MASK_ALPHA)) png_set_add_alpha(png, 0xFFFF, PNG_FILLER_AFTER);
  } else if (colour & PNG_COLOR_MASK_ALPHA) {
    png_set_strip_alpha(png);
  }
  if (little_endian()) png_set_swap(png);  // PNG stores samples big-endian
  png_set_interlace_handling(png);
  png_read_update_info(png, info);
  return true;
}

/// The rows, then the chunks after them up to IEND (CRCs checked: a file cut inside IEND is
/// truncated, as stb finds it).
bool read_rows(png_structp png, png_bytepp rows) {
  if (setjmp(png_jmpbuf(png))) return false;
  png_read_image(png, rows);
  png_read_end(png, nullptr);
  return true;
}

bool write_all(png_structp png, png_infop info, png_uint_32 w, png_uint_32 h, int colour, png_bytepp rows) {
  if (setjmp(png_jmpbuf(png))) return false;
  png_set_IHDR(png, info, w, h, 16, colour, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  if (little_endian()) png_set_swap(png);
  png_write_image(png, rows);
  png_write_end(png, nullptr);
  return true;
}

[[noreturn]] void fail_decode(const png_io& io, const std::string& name) {
  if (io.overran) fail("cannot read image", name, "truncated PNG file: it ends before its image data do");
  fail("cannot read image", name,
       std::string("the PNG decoder failed: ") + (io.error[0] ? io.error : "no reason given"));
}

}  // namespace

bool have_libpng() { return true; }

raster decode_png16(const unsigned char* data, std::size_t size, const std::string& name) {
  png_io io;
  io.data = data;
  io.size = size;
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &io, on_error, on_warning);
  png_infop info = png ? png_create_info_struct(png) : nullptr;
  struct destroy {
    png_structp& png;
    png_infop& info;
    ~destroy() { png_destroy_read_struct(&png, &info, nullptr); }
  } destroyer{png, info};
  if (!png || !info) throw std::bad_alloc();
  png_set_read_fn(png, &io, read_bytes);
  png_set_user_limits(png, png_uint_32(max_side), png_uint_32(max_side));
  png_set_chunk_malloc_max(png, png_alloc_size_t(max_file_bytes));

  png_uint_32 w = 0, h = 0;
  int depth = 0, colour = 0;
  bool trns = false;
  if (!read_header(png, info, w, h, depth, colour, trns)) fail_decode(io, name);
  if (depth != 16) fail("cannot read image", name, "not a 16-bit PNG (bit depth " + std::to_string(depth) + ")");
  if (w < 1 || h < 1 || w > max_side || h > max_side || (long long)w * h > max_pixels)
    fail("cannot read image", name, "PNG image of " + headers::size_text(w, h) + " pixels is too large");
  const bool grey = !(colour & PNG_COLOR_MASK_COLOR);
  raster r;
  r.width = int(w);
  r.height = int(h);
  r.type = sample_type::u16;
  r.channels = grey ? 1 : 4;
  // A tRNS chunk counts as an alpha channel, as stb reports it for 8-bit files.
  r.file_channels = (grey ? 1 : 3) + ((colour & PNG_COLOR_MASK_ALPHA) || trns ? 1 : 0);
  if (png_get_rowbytes(png, info) != r.row_bytes())
    fail("cannot read image", name, "the PNG decoder gives rows of " + std::to_string(png_get_rowbytes(png, info)) +
                                        " bytes, not " + std::to_string(r.row_bytes()));
  r.samples.resize(std::size_t(h) * r.row_bytes());
  std::vector<png_bytep> rows(h);
  for (png_uint_32 y = 0; y < h; ++y) rows[y] = r.samples.data() + std::size_t(y) * r.row_bytes();
  if (!read_rows(png, rows.data())) fail_decode(io, name);
  return r;
}

std::vector<unsigned char> encode_png16(const unsigned char* samples, int width, int height, int channels,
                                        const std::string& path) {
  const char* what = "cannot write PNG";
  if (channels != 1 && channels != 3 && channels != 4)
    fail(what, path, "a 16-bit PNG holds 1, 3 or 4 channels, not " + std::to_string(channels));
  std::vector<unsigned char> out;
  png_io io;
  io.out = &out;
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &io, on_error, on_warning);
  png_infop info = png ? png_create_info_struct(png) : nullptr;
  struct destroy {
    png_structp& png;
    png_infop& info;
    ~destroy() { png_destroy_write_struct(&png, &info); }
  } destroyer{png, info};
  if (!png || !info) throw std::bad_alloc();
  png_set_write_fn(png, &io, write_bytes, flush_bytes);
  const std::size_t row = std::size_t(width) * std::size_t(channels) * 2;
  // libpng takes non-const rows; with png_set_swap it swaps a copy of each, never the input.
  std::vector<png_bytep> rows(static_cast<std::size_t>(height));
  for (int y = 0; y < height; ++y) rows[std::size_t(y)] = const_cast<png_bytep>(samples + std::size_t(y) * row);
  const int colour = channels == 1 ? PNG_COLOR_TYPE_GRAY : channels == 3 ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGBA;
  if (!write_all(png, info, png_uint_32(width), png_uint_32(height), colour, rows.data()))
    fail(what, path, std::string("the PNG encoder failed: ") + (io.error[0] ? io.error : "no reason given"));
  return out;
}

#else  // no libpng

bool have_libpng() { return false; }

raster decode_png16(const unsigned char*, std::size_t, const std::string& name) {
  fail("cannot read image", name, not_built_in_text(library::libpng));
}

std::vector<unsigned char> encode_png16(const unsigned char*, int, int, int, const std::string& path) {
  fail("cannot write PNG", path, not_built_in_text(library::libpng));
}

#endif

}  // namespace codecs
}  // namespace hipstencil_io
