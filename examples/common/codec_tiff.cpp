// examples/common/codec_tiff.cpp
// TIFF through libtiff (Debian's libtiff-dev): the first image of a file in memory decoded at
// its sample depth, and images encoded into memory (image_formats.cpp writes them
// atomically). libtiff reads through callbacks over the bytes, never through a file of its
// own. Without libtiff (HIPSTENCIL_IO_HAVE_TIFF 0) both functions throw the message naming
// the package.

#include "image_codecs.hpp"

#include "image_headers.hpp"
#include "image_io.hpp"

#include <algorithm>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <new>

#if HIPSTENCIL_IO_HAVE_TIFF
#include <tiffio.h>
#endif

namespace hipstencil_io {
namespace codecs {

using headers::fail;
using headers::size_text;

#if HIPSTENCIL_IO_HAVE_TIFF

namespace {

/// The "file" libtiff reads or writes: bytes in memory, the first error libtiff reports,
/// and whether a read asked for bytes past the end (a cut-short file).
struct memory_file {
  const unsigned char* data = nullptr;    // reading
  std::size_t size = 0;
  std::vector<unsigned char>* out = nullptr;  // writing
  std::uint64_t pos = 0;
  bool overran = false;
  std::string error;

  std::size_t length() const { return out ? out->size() : size; }
  const unsigned char* bytes() const { return out ? out->data() : data; }

  static tmsize_t read(thandle_t h, void* buf, tmsize_t n) {
    auto* f = static_cast<memory_file*>(h);
    const std::uint64_t len = f->length();
    const std::uint64_t left = f->pos < len ? len - f->pos : 0;
    const std::uint64_t k = std::min<std::uint64_t>(left, std::uint64_t(std::max<tmsize_t>(n, 0)));
    if (k < std::uint64_t(std::max<tmsize_t>(n, 0))) f->overran = true;
    if (k) std::memcpy(buf, f->bytes() + f->pos, std::size_t(k));
    f->pos += k;
    return tmsize_t(k);
  }
  static tmsize_t write(thandle_t h, void* buf, tmsize_t n) {
    auto* f = static_cast<memory_file*>(h);
    if (!f->out || n < 0) return -1;
    const std::size_t end = std::size_t(f->pos) + std::size_t(n);
    if (end > f->out->size()) f->out->resize(end);
    std::memcpy(f->out->data() + f->pos, buf, std::size_t(n));
    f->pos = end;
    return n;
  }
  static toff_t seek(thandle_t h, toff_t off, int whence) {
    auto* f = static_cast<memory_file*>(h);
    const std::uint64_t base = whence == SEEK_CUR ? f->pos : whence == SEEK_END ? f->length() : 0;
    f->pos = base + off;
    return f->pos;
  }
  static int close(thandle_t) { return 0; }
  static toff_t file_size(thandle_t h) { return static_cast<memory_file*>(h)->length(); }
  static int map(thandle_t, void**, toff_t*) { return 0; }  // never mapped: reads go through read()
  static void unmap(thandle_t, void*, toff_t) {}

  void note(const char* module, const char* fmt, va_list ap) {
    if (!error.empty()) return;
    char buf[512];
    std::vsnprintf(buf, sizeof buf, fmt, ap);
    error = (module && *module ? std::string(module) + ": " : std::string()) + buf;
  }
};

#if defined(TIFFLIB_AT_LEAST)
#if TIFFLIB_AT_LEAST(4, 5, 0)
#define HIPSTENCIL_TIFF_HANDLERS_PER_FILE 1
#endif
#endif

#if HIPSTENCIL_TIFF_HANDLERS_PER_FILE
// libtiff 4.5 and later: errors go to the handle that caused them; warnings are dropped
// (libtiff warns about tags it does not know, which are no reason to stop).
int on_error(TIFF*, void* user, const char* module, const char* fmt, va_list ap) {
  static_cast<memory_file*>(user)->note(module, fmt, ap);
  return 1;
}
int on_warning(TIFF*, void*, const char*, const char*, va_list) { return 1; }
#else
// Older libtiff: the process-wide handlers, which receive the handle's client data.
void on_error_ext(thandle_t h, const char* module, const char* fmt, va_list ap) {
  if (h) static_cast<memory_file*>(h)->note(module, fmt, ap);
}
#endif

struct tiff_close {
  void operator()(TIFF* t) const { TIFFClose(t); }
};
using tiff_ptr = std::unique_ptr<TIFF, tiff_close>;

tiff_ptr open_memory(memory_file& f, const std::string& name, const char* mode) {
#if HIPSTENCIL_TIFF_HANDLERS_PER_FILE
  std::unique_ptr<TIFFOpenOptions, void (*)(TIFFOpenOptions*)> opts(TIFFOpenOptionsAlloc(), TIFFOpenOptionsFree);
  if (!opts) throw std::bad_alloc();
  TIFFOpenOptionsSetErrorHandlerExtR(opts.get(), on_error, &f);
  TIFFOpenOptionsSetWarningHandlerExtR(opts.get(), on_warning, &f);
  return tiff_ptr(TIFFClientOpenExt(name.c_str(), mode, &f, memory_file::read, memory_file::write, memory_file::seek,
                                    memory_file::close, memory_file::file_size, memory_file::map, memory_file::unmap,
                                    opts.get()));
#else
  static const bool handlers_set = [] {
    TIFFSetErrorHandler(nullptr);
    TIFFSetWarningHandler(nullptr);
    TIFFSetWarningHandlerExt(nullptr);
    TIFFSetErrorHandlerExt(on_error_ext);
    return true;
  }();
  (void)handlers_set;
  return tiff_ptr(TIFFClientOpen(name.c_str(), mode, &f, memory_file::read, memory_file::write, memory_file::seek,
                                 memory_file::close, memory_file::file_size, memory_file::map, memory_file::unmap));
#endif
}

/// The decoder's failure: "truncated TIFF file" when libtiff asked for bytes past the end,
/// else libtiff's own reason (or `fallback`).
[[noreturn]] void fail_decode(const memory_file& f, const std::string& name, const std::string& fallback) {
  const std::string reason = f.error.empty() ? fallback : f.error;
  if (f.overran) fail("cannot read image", name, "truncated TIFF file: " + reason);
  fail("cannot read image", name, "the TIFF decoder failed: " + reason);
}

/// A file libtiff decoded although it asked for bytes past the end (e.g. the offset of a next
/// directory): cut short all the same, and rejected as the other formats' are.
void check_whole(const memory_file& f, const std::string& name) {
  if (f.overran) fail("cannot read image", name, "truncated TIFF file: it ends inside its directory");
}

/// Copies one decoded sample of file channel `c` (of `spp`) to pixel i of `r`, as load_raster
/// documents: grey keeps channel 0 (inverted for WhiteIsZero), colour channels 0 to 3.
struct sample_sink {
  raster& r;
  int sb;  // bytes per sample
  bool invert;
  void put(std::size_t i, int c, const unsigned char* src) const {
    if (c >= r.channels) return;
    unsigned char* dst = &r.samples[(i * std::size_t(r.channels) + std::size_t(c)) * std::size_t(sb)];
    if (!invert) {
      std::memcpy(dst, src, std::size_t(sb));
    } else if (sb == 1) {
      *dst = static_cast<unsigned char>(255 - *src);
    } else {
      std::uint16_t v;
      std::memcpy(&v, src, 2);
      v = static_cast<std::uint16_t>(65535 - v);
      std::memcpy(dst, &v, 2);
    }
  }
};

/// Alpha at the type's maximum (for colour files without one).
void fill_opaque(raster& r) {
  const std::size_t pixels = std::size_t(r.width) * std::size_t(r.height);
  const int sb = sample_bytes(r.type);
  unsigned char one[4];
  if (r.type == sample_type::u8) {
    one[0] = 255;
  } else if (r.type == sample_type::u16) {
    const std::uint16_t v = 65535;
    std::memcpy(one, &v, 2);
  } else {
    const float v = 1.0f;
    std::memcpy(one, &v, 4);
  }
  for (std::size_t i = 0; i < pixels; ++i) std::memcpy(&r.samples[(i * 4 + 3) * std::size_t(sb)], one, std::size_t(sb));
}

/// The samples of a directly readable image (grey or RGB, 8/16-bit unsigned or 32-bit float),
/// strip by strip or tile by tile, interleaved or in planes.
void read_direct(TIFF* tif, memory_file& f, const std::string& name, int spp, bool separate, const sample_sink& sink,
                 std::uint64_t image_bytes) {
  const raster& r = sink.r;
  const std::uint32_t w = std::uint32_t(r.width), h = std::uint32_t(r.height);
  const int planes = separate ? spp : 1, per_pixel = separate ? 1 : spp;
  const std::size_t px_bytes = std::size_t(per_pixel) * std::size_t(sink.sb);
  std::uint32_t bw = w, bh = 0;  // block (tile or strip) size in pixels
  if (TIFFIsTiled(tif)) {
    if (!TIFFGetField(tif, TIFFTAG_TILEWIDTH, &bw) || !TIFFGetField(tif, TIFFTAG_TILELENGTH, &bh) || bw == 0 || bh == 0)
      fail("cannot read image", name, "corrupt TIFF file: a tiled image without a tile size");
  } else {
    TIFFGetFieldDefaulted(tif, TIFFTAG_ROWSPERSTRIP, &bh);
    bh = std::min(bh == 0 ? h : bh, h);
  }
  // A block is at most the image or 64 MiB, whichever is larger: a header cannot make us
  // allocate more for one tile than the image itself needs.
  const std::uint64_t block = std::uint64_t(bw) * bh * px_bytes;
  if (block > std::max<std::uint64_t>(image_bytes, 64u << 20))
    fail("cannot read image", name, "unsupported TIFF: blocks of " + size_text(bw, bh) + " pixels");
  const tmsize_t have = TIFFIsTiled(tif) ? TIFFTileSize(tif) : TIFFStripSize(tif);
  if (have <= 0 || std::uint64_t(have) < (TIFFIsTiled(tif) ? block : std::uint64_t(bw) * bh * px_bytes))
    fail_decode(f, name, "its blocks are not of the size their samples need");
  std::vector<unsigned char> buf(static_cast<std::size_t>(have));
  for (int p = 0; p < planes; ++p)
    for (std::uint32_t y0 = 0; y0 < h; y0 += bh)
      for (std::uint32_t x0 = 0; x0 < w; x0 += bw) {
        const tmsize_t got = TIFFIsTiled(tif)
                                 ? TIFFReadEncodedTile(tif, TIFFComputeTile(tif, x0, y0, 0, std::uint16_t(p)),
                                                       buf.data(), have)
                                 : TIFFReadEncodedStrip(tif, TIFFComputeStrip(tif, y0, std::uint16_t(p)), buf.data(),
                                                        have);
        const std::uint32_t rows = std::min(bh, h - y0), cols = std::min(bw, w - x0);
        // A strip holds its rows and a tile all of its block, whatever part lies inside.
        const std::uint64_t need = TIFFIsTiled(tif) ? block : std::uint64_t(rows) * bw * px_bytes;
        if (got < 0 || std::uint64_t(got) < need) fail_decode(f, name, "a strip or tile decodes short");
        for (std::uint32_t y = 0; y < rows; ++y)
          for (std::uint32_t x = 0; x < cols; ++x) {
            const unsigned char* src = buf.data() + (std::size_t(y) * bw + x) * px_bytes;
            const std::size_t i = std::size_t(y0 + y) * w + (x0 + x);
            for (int s = 0; s < per_pixel; ++s)
              sink.put(i, separate ? p : s, src + std::size_t(s) * std::size_t(sink.sb));
          }
      }
}

}  // namespace

bool have_libtiff() { return true; }

raster decode_tiff(const unsigned char* data, std::size_t size, const std::string& name) {
  const char* what = "cannot read image";
  memory_file f;
  f.data = data;
  f.size = size;
  tiff_ptr tif = open_memory(f, name, "rm");  // m: no memory mapping, every read goes through memory_file
  if (!tif) fail_decode(f, name, "not a TIFF file libtiff can open");

  std::uint32_t w = 0, h = 0;
  if (!TIFFGetField(tif.get(), TIFFTAG_IMAGEWIDTH, &w) || !TIFFGetField(tif.get(), TIFFTAG_IMAGELENGTH, &h))
    fail(what, name, "corrupt TIFF file: its first image has no width or height");
  if (w < 1 || h < 1) fail(what, name, "TIFF header gives an invalid size: " + size_text(w, h) + " pixels");
  if (w > max_side || h > max_side || std::uint64_t(w) * h > std::uint64_t(max_pixels))
    fail(what, name,
         "TIFF image of " + size_text(w, h) + " pixels is too large (the limits are " + std::to_string(max_pixels) +
             " pixels, e.g. 16384x8192, and " + std::to_string(max_side) + " a side)");
  std::uint16_t spp = 1, bps = 1, format = SAMPLEFORMAT_UINT, planar = PLANARCONFIG_CONTIG, photometric = 0,
                compression = COMPRESSION_NONE;
  TIFFGetFieldDefaulted(tif.get(), TIFFTAG_SAMPLESPERPIXEL, &spp);
  TIFFGetFieldDefaulted(tif.get(), TIFFTAG_BITSPERSAMPLE, &bps);
  TIFFGetFieldDefaulted(tif.get(), TIFFTAG_SAMPLEFORMAT, &format);
  TIFFGetFieldDefaulted(tif.get(), TIFFTAG_PLANARCONFIG, &planar);
  TIFFGetFieldDefaulted(tif.get(), TIFFTAG_COMPRESSION, &compression);
  const bool has_photometric = TIFFGetField(tif.get(), TIFFTAG_PHOTOMETRIC, &photometric) != 0;
  if (spp < 1 || spp > 16) fail(what, name, "unsupported TIFF: " + std::to_string(spp) + " samples per pixel");

  const bool uint = format == SAMPLEFORMAT_UINT || format == SAMPLEFORMAT_VOID;
  const bool grey = has_photometric && (photometric == PHOTOMETRIC_MINISBLACK || photometric == PHOTOMETRIC_MINISWHITE);
  const bool rgb = has_photometric && photometric == PHOTOMETRIC_RGB && spp >= 3;
  sample_type t = sample_type::u8;
  bool direct = grey || rgb;
  if (uint && bps == 8) t = sample_type::u8;
  else if (uint && bps == 16) t = sample_type::u16;
  else if (format == SAMPLEFORMAT_IEEEFP && bps == 32 && photometric != PHOTOMETRIC_MINISWHITE) t = sample_type::f32;
  else direct = false;

  // Every strip or tile must lie inside the file, and hold enough bytes for its share of the
  // image (uncompressed: all of it; compressed: at least 1/4096, far past what deflate and
  // LZW reach), before the image is allocated from what the header says.
  const std::uint32_t blocks = TIFFIsTiled(tif.get()) ? TIFFNumberOfTiles(tif.get()) : TIFFNumberOfStrips(tif.get());
  std::uint64_t present = 0;
  for (std::uint32_t s = 0; s < blocks; ++s) {
    int err = 0;
    const std::uint64_t off = TIFFGetStrileOffsetWithErr(tif.get(), s, &err);
    const std::uint64_t count = TIFFGetStrileByteCountWithErr(tif.get(), s, &err);
    if (err) fail_decode(f, name, "its strip or tile offsets cannot be read");
    if (off > size || count > size - off)
      fail(what, name,
           "truncated TIFF file: its " + std::string(TIFFIsTiled(tif.get()) ? "tile " : "strip ") + std::to_string(s) +
               " runs past the end");
    present += count;
  }
  // What the strips hold once decoded (rows of whole bytes; YCbCr may be subsampled, to a
  // quarter of that at least), and what we make of them (libtiff's RGBA reader gives 4 bytes
  // per pixel, whatever the file stores).
  const std::uint64_t image_bytes = std::uint64_t(h) * ((std::uint64_t(w) * spp * bps + 7) / 8);
  const std::uint64_t decoded_bytes = direct ? image_bytes : std::uint64_t(w) * h * 4;
  const std::uint64_t needed = compression != COMPRESSION_NONE         ? decoded_bytes / 4096
                               : photometric == PHOTOMETRIC_YCBCR ? image_bytes / 4
                                                                  : image_bytes;
  if (present < needed)
    fail(what, name,
         "truncated TIFF file: it has " + std::to_string(present) + " bytes of image data, a " + size_text(w, h) +
             " TIFF of " + std::to_string(spp) + " x " + std::to_string(bps) + "-bit samples needs at least " +
             std::to_string(needed));

  raster r;
  r.width = int(w);
  r.height = int(h);
  if (direct) {
    r.type = t;
    r.channels = grey ? 1 : 4;
    r.file_channels = grey ? (spp >= 2 ? 2 : 1) : (spp >= 4 ? 4 : 3);
    r.samples.resize(std::size_t(w) * h * std::size_t(r.channels) * std::size_t(sample_bytes(t)));
    if (!grey && spp < 4) fill_opaque(r);
    const sample_sink sink{r, sample_bytes(t), photometric == PHOTOMETRIC_MINISWHITE};
    read_direct(tif.get(), f, name, spp, planar == PLANARCONFIG_SEPARATE && spp > 1, sink, image_bytes);
    check_whole(f, name);
    return r;
  }
  char why[1024] = "";
  if (!TIFFRGBAImageOK(tif.get(), why))
    fail(what, name,
         "unsupported TIFF: " + std::to_string(spp) + " x " + std::to_string(bps) + "-bit samples (sample format " +
             std::to_string(format) + ", photometric " + std::to_string(photometric) +
             "); hipstencil reads 8- and 16-bit unsigned and 32-bit float grey, RGB and RGBA, and what libtiff's "
             "RGBA reader takes (" + why + ")");
  // Everything else libtiff turns into 8-bit RGBA (palette, YCbCr, CMYK, 1- to 4-bit, ...).
  std::uint16_t extra = 0;
  std::uint16_t* extra_kinds = nullptr;
  TIFFGetField(tif.get(), TIFFTAG_EXTRASAMPLES, &extra, &extra_kinds);
  std::vector<std::uint32_t> abgr(std::size_t(w) * h);
  if (!TIFFReadRGBAImageOriented(tif.get(), w, h, abgr.data(), ORIENTATION_TOPLEFT, 1))
    fail_decode(f, name, "libtiff's RGBA reader failed");
  r.type = sample_type::u8;
  r.channels = grey ? 1 : 4;
  r.file_channels = (grey ? 1 : 3) + (extra > 0 ? 1 : 0);
  r.samples.resize(abgr.size() * std::size_t(r.channels));
  for (std::size_t i = 0; i < abgr.size(); ++i) {
    const std::uint32_t p = abgr[i];
    if (grey) {
      r.samples[i] = static_cast<unsigned char>(TIFFGetR(p));
    } else {
      r.samples[4 * i + 0] = static_cast<unsigned char>(TIFFGetR(p));
      r.samples[4 * i + 1] = static_cast<unsigned char>(TIFFGetG(p));
      r.samples[4 * i + 2] = static_cast<unsigned char>(TIFFGetB(p));
      r.samples[4 * i + 3] = static_cast<unsigned char>(TIFFGetA(p));
    }
  }
  check_whole(f, name);
  return r;
}

std::vector<unsigned char> encode_tiff(const unsigned char* samples, int width, int height, int channels,
                                       sample_type t, const std::string& path) {
  const char* what = "cannot write TIFF";
  if (channels != 1 && channels != 3 && channels != 4)
    fail(what, path, "a TIFF is written with 1, 3 or 4 channels, not " + std::to_string(channels));
  std::vector<unsigned char> out;
  memory_file f;
  f.out = &out;
  tiff_ptr tif = open_memory(f, path, "w");
  if (!tif)
    fail(what, path, "libtiff cannot start a file: " + (f.error.empty() ? std::string("no reason given") : f.error));
  const int sb = sample_bytes(t);
  const std::size_t row = std::size_t(width) * std::size_t(channels) * std::size_t(sb);
  // Deflate where this libtiff has it, with the predictor for the sample kind (differences
  // of neighbours compress better; the floating-point one splits the bytes of each float).
  const bool deflate = TIFFIsCODECConfigured(COMPRESSION_ADOBE_DEFLATE) != 0;
  const std::uint32_t rows_per_strip = std::uint32_t(std::max<std::size_t>(1, (std::size_t(256) << 10) / row));
  bool ok = TIFFSetField(tif.get(), TIFFTAG_IMAGEWIDTH, std::uint32_t(width)) &&
            TIFFSetField(tif.get(), TIFFTAG_IMAGELENGTH, std::uint32_t(height)) &&
            TIFFSetField(tif.get(), TIFFTAG_SAMPLESPERPIXEL, std::uint16_t(channels)) &&
            TIFFSetField(tif.get(), TIFFTAG_BITSPERSAMPLE, std::uint16_t(8 * sb)) &&
            TIFFSetField(tif.get(), TIFFTAG_SAMPLEFORMAT,
                         std::uint16_t(t == sample_type::f32 ? SAMPLEFORMAT_IEEEFP : SAMPLEFORMAT_UINT)) &&
            TIFFSetField(tif.get(), TIFFTAG_PHOTOMETRIC,
                         std::uint16_t(channels == 1 ? PHOTOMETRIC_MINISBLACK : PHOTOMETRIC_RGB)) &&
            TIFFSetField(tif.get(), TIFFTAG_PLANARCONFIG, std::uint16_t(PLANARCONFIG_CONTIG)) &&
            TIFFSetField(tif.get(), TIFFTAG_ORIENTATION, std::uint16_t(ORIENTATION_TOPLEFT)) &&
            TIFFSetField(tif.get(), TIFFTAG_ROWSPERSTRIP, std::min(rows_per_strip, std::uint32_t(height))) &&
            TIFFSetField(tif.get(), TIFFTAG_COMPRESSION,
                         std::uint16_t(deflate ? COMPRESSION_ADOBE_DEFLATE : COMPRESSION_NONE));
  if (ok && deflate)
    ok = TIFFSetField(tif.get(), TIFFTAG_PREDICTOR,
                      std::uint16_t(t == sample_type::f32 ? PREDICTOR_FLOATINGPOINT : PREDICTOR_HORIZONTAL));
  if (ok && channels == 4) {
    const std::uint16_t kind = EXTRASAMPLE_UNASSALPHA;  // straight alpha, as PNG's
    ok = TIFFSetField(tif.get(), TIFFTAG_EXTRASAMPLES, std::uint16_t(1), &kind);
  }
  if (!ok) fail(what, path, "libtiff rejected a tag: " + (f.error.empty() ? std::string("no reason given") : f.error));
  // libtiff may change the row it is given (byte swapping, the predictor): give it a copy.
  std::vector<unsigned char> scratch(row);
  for (int y = 0; y < height; ++y) {
    std::memcpy(scratch.data(), samples + std::size_t(y) * row, row);
    if (TIFFWriteScanline(tif.get(), scratch.data(), std::uint32_t(y), 0) < 0)
      fail(what, path, "the TIFF encoder failed: " + (f.error.empty() ? std::string("no reason given") : f.error));
  }
  if (!TIFFFlush(tif.get()) || !f.error.empty())
    fail(what, path, "the TIFF encoder failed: " + (f.error.empty() ? std::string("no reason given") : f.error));
  tif.reset();  // TIFFClose: nothing is left to write after the flush
  return out;
}

#else  // no libtiff

bool have_libtiff() { return false; }

raster decode_tiff(const unsigned char*, std::size_t, const std::string& name) {
  fail("cannot read image", name, not_built_in_text(library::libtiff));
}

std::vector<unsigned char> encode_tiff(const unsigned char*, int, int, int, sample_type, const std::string& path) {
  fail("cannot write TIFF", path, not_built_in_text(library::libtiff));
}

#endif

}  // namespace codecs
}  // namespace hipstencil_io
