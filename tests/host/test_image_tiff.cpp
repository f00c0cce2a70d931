// tests/host/test_image_tiff.cpp
// TIFF at its own depth (examples/common/codec_tiff.cpp): uncompressed TIFFs written here byte
// by byte (8-bit, 16-bit, float; grey to RGBA; both byte orders) load with every sample
// exact, float bit for bit; what save_raster writes is, by libtiff's own tag and scanline
// reading (not the loader under test), a TIFF of the image's depth, kind and channel count
// (RGB stays 3 channels), and loads back bit-exactly; tiled, planar, WhiteIsZero and palette
// files load; truncated files are rejected naming the truncation. [tiff]: needs libtiff (a
// ctest test of its own, Skipped without it).

#include <catch2/catch.hpp>

#include "image_files.hpp"
#include "scratch_dir.hpp"
#include "image_formats.hpp"

#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#if HIPSTENCIL_IO_HAVE_TIFF
#include <tiffio.h>
#endif

namespace {

namespace fs = std::filesystem;
using hipstencil_io::raster;
using hipstencil_io::sample_type;
using test_images::bytes;
using test_images::contains;
using test_images::error_of;
using test_images::scratch_dir;

/// Samples of every kind as bytes: pattern(), pattern16() or pattern_float(), host order.
bytes pattern_bytes(int bits, int w, int h, int channels, unsigned seed) {
  bytes b;
  const auto append = [&](const void* p, std::size_t n) {
    b.resize(n);
    std::memcpy(b.data(), p, n);
  };
  if (bits == 8) return test_images::pattern(w, h, channels, seed);
  if (bits == 16) {
    const test_images::samples16 s = test_images::pattern16(w, h, channels, seed);
    append(s.data(), s.size() * 2);
  } else {
    const std::vector<float> s = test_images::pattern_float(w, h, channels, seed);
    append(s.data(), s.size() * 4);
  }
  return b;
}

/// A loaded raster's samples for a file of `channels` samples: grey keeps channel 0, colour
/// becomes 4 per pixel with alpha at the type's maximum where the file has none.
bytes as_loaded(const bytes& s, int bits, int channels) {
  const std::size_t sb = std::size_t(bits / 8), n = s.size() / sb / std::size_t(channels);
  bytes opaque(sb);
  if (bits == 8)
    opaque[0] = 255;
  else if (bits == 16)
    opaque[0] = opaque[1] = 255;
  else {
    const float one = 1.0f;
    std::memcpy(opaque.data(), &one, 4);
  }
  bytes out;
  for (std::size_t i = 0; i < n; ++i) {
    const auto at = [&](int c) {
      return s.begin() + std::ptrdiff_t((i * std::size_t(channels) + std::size_t(c)) * sb);
    };
    if (channels <= 2) {
      out.insert(out.end(), at(0), at(1));
    } else {
      out.insert(out.end(), at(0), at(3));
      if (channels == 4)
        out.insert(out.end(), at(3), at(4));
      else
        out.insert(out.end(), opaque.begin(), opaque.end());
    }
  }
  return out;
}

sample_type type_of(int bits) { return bits == 8 ? sample_type::u8 : bits == 16 ? sample_type::u16 : sample_type::f32; }

#if HIPSTENCIL_IO_HAVE_TIFF
struct tiff_closer {
  void operator()(TIFF* t) const { TIFFClose(t); }
};
using tiff_ptr = std::unique_ptr<TIFF, tiff_closer>;

/// Writes `path` with libtiff: `tags` sets the fields, then `rows` scanlines of `row` bytes
/// (per plane: `planes` passes, sample index p).
void write_with_libtiff(const std::string& path, const std::function<void(TIFF*)>& tags, int height, int planes,
                        const std::function<bytes(int y, int p)>& row) {
  tiff_ptr t(TIFFOpen(path.c_str(), "w"));
  REQUIRE(t);
  tags(t.get());
  for (int p = 0; p < planes; ++p)
    for (int y = 0; y < height; ++y) {
      bytes r = row(y, p);
      REQUIRE(TIFFWriteScanline(t.get(), r.data(), std::uint32_t(y), std::uint16_t(p)) >= 0);
    }
}
#endif

}  // namespace

TEST_CASE("TIFFs written here load with every sample exact: 8, 16 and float, grey to RGBA, II and MM", "[tiff]") {
  if (!test_images::built_with(hipstencil_io::library::libtiff)) return;
  for (int bits : {8, 16, 32})
    for (int channels = 1; channels <= 4; ++channels)
      for (bool big_endian : {false, true}) {
        INFO(bits << "-bit, " << channels << " channels, " << (big_endian ? "MM" : "II"));
        const int w = 13, h = 7;
        const bytes s = pattern_bytes(bits, w, h, channels, unsigned(channels + bits));
        const bytes file = test_images::tiff(w, h, channels, bits, s.data(), big_endian);
        const raster r = hipstencil_io::decode_raster(file.data(), file.size(), "t.tif");
        CHECK(r.type == type_of(bits));
        CHECK(r.width == w);
        CHECK(r.height == h);
        CHECK(r.file_channels == channels);
        CHECK(r.channels == (channels <= 2 ? 1 : 4));
        CHECK(r.samples == as_loaded(s, bits, channels));  // bytes: float bit for bit (-0, subnormals)
      }
}

TEST_CASE("images saved as .tif are TIFFs of their depth, by libtiff's reading, and load back bit-exactly", "[tiff]") {
  if (!test_images::built_with(hipstencil_io::library::libtiff)) return;
#if HIPSTENCIL_IO_HAVE_TIFF
  scratch_dir dir("hipstencil-tiff");
  const int w = 37, h = 11;
  for (int bits : {8, 16, 32})
    for (int channels : {1, 3, 4}) {
      INFO(bits << "-bit, " << channels << " channels written");
      const int loaded = channels == 1 ? 1 : 4;
      raster r;
      r.width = w;
      r.height = h;
      r.channels = r.file_channels = loaded;
      r.type = type_of(bits);
      r.samples = pattern_bytes(bits, w, h, loaded, 7);
      const std::string p = dir / "o.tiff";
      hipstencil_io::save_raster(p, r, channels);
      // What the file says, read by libtiff directly.
      const std::size_t sb = std::size_t(bits / 8);
      bytes rows;
      {
        tiff_ptr t(TIFFOpen(p.c_str(), "r"));
        REQUIRE(t);
        std::uint16_t spp = 0, bps = 0, fmt = 0, photometric = 0;
        std::uint32_t tw = 0, th = 0;
        TIFFGetField(t.get(), TIFFTAG_IMAGEWIDTH, &tw);
        TIFFGetField(t.get(), TIFFTAG_IMAGELENGTH, &th);
        TIFFGetFieldDefaulted(t.get(), TIFFTAG_SAMPLESPERPIXEL, &spp);
        TIFFGetFieldDefaulted(t.get(), TIFFTAG_BITSPERSAMPLE, &bps);
        TIFFGetFieldDefaulted(t.get(), TIFFTAG_SAMPLEFORMAT, &fmt);
        TIFFGetField(t.get(), TIFFTAG_PHOTOMETRIC, &photometric);
        CHECK(tw == std::uint32_t(w));
        CHECK(th == std::uint32_t(h));
        CHECK(spp == channels);
        CHECK(bps == bits);
        CHECK(fmt == (bits == 32 ? SAMPLEFORMAT_IEEEFP : SAMPLEFORMAT_UINT));
        CHECK(photometric == (channels == 1 ? PHOTOMETRIC_MINISBLACK : PHOTOMETRIC_RGB));
        bytes line(std::size_t(TIFFScanlineSize(t.get())));
        REQUIRE(line.size() == std::size_t(w * channels) * sb);
        for (int y = 0; y < h; ++y) {
          REQUIRE(TIFFReadScanline(t.get(), line.data(), std::uint32_t(y), 0) >= 0);
          rows.insert(rows.end(), line.begin(), line.end());
        }
      }
      bytes want;  // the image's samples, alpha left out for RGB
      for (std::size_t i = 0; i < std::size_t(w * h); ++i)
        want.insert(want.end(), r.samples.begin() + std::ptrdiff_t(i * std::size_t(loaded) * sb),
                    r.samples.begin() + std::ptrdiff_t((i * std::size_t(loaded) + std::size_t(channels)) * sb));
      CHECK(rows == want);
      const raster back = hipstencil_io::load_raster(p);
      CHECK(back.type == r.type);
      CHECK(back.file_channels == channels);
      CHECK(back.samples == as_loaded(want, bits, channels));
    }
#endif
}

TEST_CASE("tiled, planar, WhiteIsZero and palette TIFFs load", "[tiff]") {
  if (!test_images::built_with(hipstencil_io::library::libtiff)) return;
#if HIPSTENCIL_IO_HAVE_TIFF
  scratch_dir dir("hipstencil-tiff");
  const int w = 37, h = 23;
  const auto basic = [&](TIFF* t, int spp, int bits, int photometric) {
    TIFFSetField(t, TIFFTAG_IMAGEWIDTH, std::uint32_t(w));
    TIFFSetField(t, TIFFTAG_IMAGELENGTH, std::uint32_t(h));
    TIFFSetField(t, TIFFTAG_SAMPLESPERPIXEL, spp);
    TIFFSetField(t, TIFFTAG_BITSPERSAMPLE, bits);
    TIFFSetField(t, TIFFTAG_PHOTOMETRIC, photometric);
  };
  SECTION("16-bit RGB in 16x16 deflate tiles") {
    const test_images::samples16 s = test_images::pattern16(w, h, 3, 4);
    const std::string p = dir / "tiled.tif";
    {
      tiff_ptr t(TIFFOpen(p.c_str(), "w"));
      REQUIRE(t);
      basic(t.get(), 3, 16, PHOTOMETRIC_RGB);
      TIFFSetField(t.get(), TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
      TIFFSetField(t.get(), TIFFTAG_COMPRESSION, COMPRESSION_ADOBE_DEFLATE);
      TIFFSetField(t.get(), TIFFTAG_TILEWIDTH, 16u);
      TIFFSetField(t.get(), TIFFTAG_TILELENGTH, 16u);
      std::vector<std::uint16_t> tile(16 * 16 * 3);
      for (int ty = 0; ty < h; ty += 16)
        for (int tx = 0; tx < w; tx += 16) {
          for (int y = 0; y < 16; ++y)
            for (int x = 0; x < 16; ++x)
              for (int c = 0; c < 3; ++c)
                tile[std::size_t((y * 16 + x) * 3 + c)] =
                    tx + x < w && ty + y < h ? s[std::size_t(((ty + y) * w + tx + x) * 3 + c)] : 0;
          REQUIRE(TIFFWriteTile(t.get(), tile.data(), std::uint32_t(tx), std::uint32_t(ty), 0, 0) >= 0);
        }
    }
    const raster r = hipstencil_io::load_raster(p);
    bytes want(s.size() * 2);
    std::memcpy(want.data(), s.data(), want.size());
    CHECK(r.type == sample_type::u16);
    CHECK(r.samples == as_loaded(want, 16, 3));
  }
  SECTION("float grey + alpha in separate planes, strips of 5 rows, LZW") {
    const std::vector<float> s = test_images::pattern_float(w, h, 2, 5);
    const std::string p = dir / "planar.tif";
    write_with_libtiff(
        p,
        [&](TIFF* t) {
          basic(t, 2, 32, PHOTOMETRIC_MINISBLACK);
          const std::uint16_t alpha = EXTRASAMPLE_UNASSALPHA;
          TIFFSetField(t, TIFFTAG_EXTRASAMPLES, 1, &alpha);
          TIFFSetField(t, TIFFTAG_SAMPLEFORMAT, SAMPLEFORMAT_IEEEFP);
          TIFFSetField(t, TIFFTAG_PLANARCONFIG, PLANARCONFIG_SEPARATE);
          TIFFSetField(t, TIFFTAG_COMPRESSION, COMPRESSION_LZW);
          TIFFSetField(t, TIFFTAG_ROWSPERSTRIP, 5u);
        },
        h, 2,
        [&](int y, int p) {
          bytes row(std::size_t(w) * 4);
          for (int x = 0; x < w; ++x) std::memcpy(&row[std::size_t(x) * 4], &s[std::size_t((y * w + x) * 2 + p)], 4);
          return row;
        });
    const raster r = hipstencil_io::load_raster(p);
    bytes want(s.size() * 4);
    std::memcpy(want.data(), s.data(), want.size());
    CHECK(r.type == sample_type::f32);
    CHECK(r.file_channels == 2);
    CHECK(r.samples == as_loaded(want, 32, 2));
  }
  SECTION("8-bit WhiteIsZero is inverted to black-is-zero") {
    const bytes s = test_images::pattern(w, h, 1, 6);
    const std::string p = dir / "white.tif";
    write_with_libtiff(
        p, [&](TIFF* t) { basic(t, 1, 8, PHOTOMETRIC_MINISWHITE); }, h, 1,
        [&](int y, int) { return bytes(s.begin() + std::ptrdiff_t(y * w), s.begin() + std::ptrdiff_t((y + 1) * w)); });
    const raster r = hipstencil_io::load_raster(p);
    REQUIRE(r.samples.size() == s.size());
    int wrong = 0;
    for (std::size_t i = 0; i < s.size(); ++i) wrong += r.samples[i] != 255 - s[i];
    CHECK(wrong == 0);
  }
  SECTION("a palette image (libtiff's RGBA reader) gives its colours as 8-bit RGB") {
    std::vector<std::uint16_t> red(256), green(256), blue(256);
    for (int i = 0; i < 256; ++i)
      red[i] = std::uint16_t(i * 257), green[i] = std::uint16_t((255 - i) * 257), blue[i] = 0x8080;
    const bytes s = test_images::pattern(w, h, 1, 8);
    const std::string p = dir / "palette.tif";
    write_with_libtiff(
        p,
        [&](TIFF* t) {
          basic(t, 1, 8, PHOTOMETRIC_PALETTE);
          TIFFSetField(t, TIFFTAG_COLORMAP, red.data(), green.data(), blue.data());
        },
        h, 1,
        [&](int y, int) { return bytes(s.begin() + std::ptrdiff_t(y * w), s.begin() + std::ptrdiff_t((y + 1) * w)); });
    const raster r = hipstencil_io::load_raster(p);
    CHECK(r.type == sample_type::u8);
    CHECK(r.file_channels == 3);
    REQUIRE(r.channels == 4);
    int wrong = 0;
    for (std::size_t i = 0; i < s.size(); ++i)
      wrong += r.samples[4 * i] != s[i] || r.samples[4 * i + 1] != 255 - s[i] || r.samples[4 * i + 2] != 0x80 ||
               r.samples[4 * i + 3] != 255;
    CHECK(wrong == 0);
  }
#endif
}

TEST_CASE("truncated TIFFs are rejected naming the truncation", "[tiff]") {
  if (!test_images::built_with(hipstencil_io::library::libtiff)) return;
  const test_images::samples16 s = test_images::pattern16(9, 5, 3);
  const bytes file = test_images::tiff(9, 5, 3, 16, s.data());  // pixels first, the IFD last
  SECTION("every prefix") {
    int wrong = 0;
    std::string first_wrong;
    for (std::size_t n = 1; n < file.size(); ++n) {
      const std::string e = error_of([&] { hipstencil_io::decode_raster(file.data(), n, "cut"); });
      const bool ok = n < 4 ? contains(e, "not an image of a supported format (PNG, JPEG, BMP, TGA, TIFF)")
                            : contains(e, "cannot read image 'cut': truncated TIFF file");
      if (!ok && wrong++ == 0) first_wrong = std::to_string(n) + " bytes: " + e;
    }
    INFO("first wrong: " << first_wrong);
    CHECK(wrong == 0);
  }
  SECTION("a strip that runs past the end, its directory whole") {
    bytes b = file;
    std::uint32_t ifd;
    std::memcpy(&ifd, &b[4], 4);  // little-endian file on a little-endian host
    std::uint16_t entries;
    std::memcpy(&entries, &b[ifd], 2);
    bool patched = false;
    for (std::uint32_t i = 0; i < entries; ++i) {
      unsigned char* e = &b[ifd + 2 + 12 * i];
      // StripOffsets moved past the end (libtiff itself recomputes a single uncompressed
      // strip's byte count that looks wrong, so the offset is what can be made to lie).
      if (e[0] == 273 - 256 && e[1] == 1) {
        const std::uint32_t far = std::uint32_t(b.size()) + 1000;
        std::memcpy(e + 8, &far, 4);
        patched = true;
      }
    }
    REQUIRE(patched);
    CHECK(contains(error_of([&] { hipstencil_io::decode_raster(b.data(), b.size(), "long"); }),
                   "cannot read image 'long': truncated TIFF file: its strip 0 runs past the end"));
  }
}
