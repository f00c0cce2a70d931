// tests/host/test_image_formats.cpp
// Image files at their own depth (examples/common/image_formats), PNG and JPEG: 16-bit PNGs
// written here byte by byte load with every sample exact; what save_raster writes as 16-bit
// PNG is a 16-bit PNG that stb's decoder (independent of libpng) reads back sample for
// sample, with RGB kept as 3 channels; JPEG output is a JPEG stb reads (colour: stb's writer
// writes grey as R = G = B), its quality in effect; 8-bit files load exactly as image_io's
// decoder gives them; the errors (float as PNG or JPEG, unknown extension, bad quality, a
// library this build lacks) name the problem and leave no file. TIFF: test_image_tiff.cpp.
// [png16]: needs libpng (a ctest test of its own, Skipped without it).

#include <catch2/catch.hpp>

#include "image_files.hpp"
#include "scratch_dir.hpp"
#include "image_formats.hpp"
#include "image_io.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using hipstencil_io::raster;
using hipstencil_io::sample_type;
using test_images::bytes;
using test_images::contains;
using test_images::error_of;
using test_images::scratch_dir;
using test_images::samples16;

/// A raster of `channels` (1 or 4) samples of T, copied from `s`.
template <class T>
raster make_raster(int w, int h, int channels, sample_type t, const std::vector<T>& s) {
  raster r;
  r.width = w;
  r.height = h;
  r.channels = channels;
  r.file_channels = channels;
  r.type = t;
  r.samples.resize(s.size() * sizeof(T));
  std::memcpy(r.samples.data(), s.data(), r.samples.size());
  return r;
}

/// What a loaded raster holds for a file of `channels` samples `s`: grey keeps channel 0,
/// colour becomes RGBA with alpha `opaque` where the file has none.
template <class T>
std::vector<T> as_loaded(const std::vector<T>& s, int channels, T opaque) {
  std::vector<T> out;
  const std::size_t n = s.size() / std::size_t(channels);
  for (std::size_t i = 0; i < n; ++i) {
    const T* p = &s[i * std::size_t(channels)];
    if (channels <= 2)
      out.push_back(p[0]);
    else
      out.insert(out.end(), {p[0], p[1], p[2], channels == 4 ? p[3] : opaque});
  }
  return out;
}

/// The samples of a raster as T.
template <class T>
std::vector<T> samples_of(const raster& r) {
  std::vector<T> v(r.samples.size() / sizeof(T));
  std::memcpy(v.data(), r.samples.data(), r.samples.size());
  return v;
}

/// `s` (4 per pixel) with `keep` of each pixel's samples.
template <class T>
std::vector<T> first_channels(const std::vector<T>& s, int keep) {
  std::vector<T> out;
  for (std::size_t i = 0; i < s.size(); i += 4)
    out.insert(out.end(), s.begin() + std::ptrdiff_t(i), s.begin() + std::ptrdiff_t(i) + keep);
  return out;
}

}  // namespace

TEST_CASE("16-bit PNGs written here load at 16 bits with every sample exact", "[png16]") {
  if (!test_images::built_with(hipstencil_io::library::libpng)) return;
  const int sizes[][2] = {{1, 1}, {5, 3}, {40, 17}};
  for (const auto& sz : sizes)
    for (int channels = 1; channels <= 4; ++channels) {
      const int w = sz[0], h = sz[1];
      INFO(w << "x" << h << ", " << channels << " channels");
      const samples16 s = test_images::pattern16(w, h, channels, unsigned(channels));
      REQUIRE(std::count_if(s.begin(), s.end(), [](std::uint16_t v) { return v > 255; }) > 0);
      const bytes file = test_images::png16(w, h, channels, s);
      const raster r = hipstencil_io::decode_raster(file.data(), file.size(), "p16.png");
      CHECK(r.type == sample_type::u16);
      CHECK(r.width == w);
      CHECK(r.height == h);
      CHECK(r.file_channels == channels);
      CHECK(r.channels == (channels <= 2 ? 1 : 4));
      CHECK(samples_of<std::uint16_t>(r) == as_loaded<std::uint16_t>(s, channels, 65535));
    }
}

TEST_CASE("a 16-bit image saved as .png is a 16-bit PNG stb reads back exactly, RGB as 3 channels", "[png16]") {
  if (!test_images::built_with(hipstencil_io::library::libpng)) return;
  scratch_dir dir("hipstencil-formats");
  const int w = 23, h = 9;
  for (int channels : {1, 3, 4}) {
    INFO(channels << " channels written");
    const int loaded = channels == 1 ? 1 : 4;
    const samples16 s = test_images::pattern16(w, h, loaded, 3);
    const raster r = make_raster(w, h, loaded, sample_type::u16, s);
    const std::string p = dir / ("out" + std::to_string(channels) + ".PNG");  // the extension in any case
    hipstencil_io::save_raster(p, r, channels);
    const bytes file = test_images::read_file(p);
    REQUIRE(file.size() > 26);
    CHECK(int(file[24]) == 16);                                           // IHDR bit depth
    CHECK(int(file[25]) == (channels == 1 ? 0 : channels == 3 ? 2 : 6));  // colour type: grey, RGB, RGBA
    const test_images::stb_image back = test_images::stb_decode16(file);
    CHECK(back.width == w);
    CHECK(back.height == h);
    CHECK(back.channels == channels);
    CHECK(back.u16 == (channels == 3 ? first_channels(s, 3) : s));
    const raster again = hipstencil_io::load_raster(p);
    CHECK(again.file_channels == channels);
    CHECK(samples_of<std::uint16_t>(again) == as_loaded(back.u16, channels, std::uint16_t(65535)));
  }
}

TEST_CASE("every truncation of a 16-bit PNG is rejected as truncated", "[png16]") {
  if (!test_images::built_with(hipstencil_io::library::libpng)) return;
  const bytes file = test_images::png16(6, 4, 3, test_images::pattern16(6, 4, 3));
  int wrong = 0;
  std::string first_wrong;
  for (std::size_t n = 1; n < file.size(); ++n) {
    const std::string e = error_of([&] { hipstencil_io::decode_raster(file.data(), n, "cut"); });
    const bool ok =
        n < 8 ? contains(e, "not an image of a supported format") : contains(e, "'cut': truncated PNG file");
    if (!ok && wrong++ == 0) first_wrong = std::to_string(n) + " bytes: " + e;
  }
  INFO("first wrong: " << first_wrong);
  CHECK(wrong == 0);
}

TEST_CASE("8-bit files load through load_raster exactly as image_io's decoder gives them", "[image_formats]") {
  using test_images::kind;
  for (kind k : {kind::png, kind::jpeg, kind::bmp, kind::tga_rle})
    for (int channels = 1; channels <= 4; ++channels) {
      INFO(test_images::name(k) << ", " << channels << " channels");
      const bytes file = test_images::encode(k, 11, 7, channels, test_images::pattern(11, 7, channels, 9));
      const raster r = hipstencil_io::decode_raster(file.data(), file.size(), "f");
      // stb writes grey JPEGs and grey + alpha BMPs as colour: the file's header decides.
      const int want =
          hipstencil_io::is_grey(hipstencil_io::detail::info_memory(file.data(), file.size(), "f").channels) ? 1 : 4;
      const auto d = hipstencil_io::detail::decode_memory(file.data(), file.size(), want, "f");
      CHECK(r.type == sample_type::u8);
      CHECK(r.channels == want);
      CHECK(r.file_channels == d.file_channels);
      CHECK(r.samples == d.pixels);
    }
}

TEST_CASE("JPEG output is a JPEG stb reads, RGB (alpha dropped) or grey as R = G = B, its quality in effect",
          "[image_formats]") {
  scratch_dir dir("hipstencil-formats");
  const int w = 64, h = 48;
  // A smooth image, which JPEG keeps within a few levels at high quality.
  std::vector<unsigned char> rgba;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      rgba.insert(rgba.end(), {(unsigned char)(3 * x), (unsigned char)(4 * y), (unsigned char)(x + y), 17});
  const auto mean_error = [](const bytes& a, const bytes& b) {
    double e = 0;
    for (std::size_t i = 0; i < a.size(); ++i) e += std::abs(int(a[i]) - int(b[i]));
    return e / double(a.size());
  };
  SECTION("RGBA and RGB images become 3-channel JPEGs") {
    for (int channels : {3, 4}) {
      const std::string p = dir / "c.jpg";
      hipstencil_io::save_raster(p, make_raster(w, h, 4, sample_type::u8, rgba), channels);
      const test_images::stb_image back = test_images::stb_decode8(test_images::read_file(p));
      CHECK(back.width == w);
      CHECK(back.height == h);
      CHECK(back.channels == 3);
      CHECK(mean_error(back.u8, first_channels(rgba, 3)) < 2.0);
    }
  }
  SECTION("grey is written as R = G = B (stb's JPEG writer writes colour only)") {
    const std::vector<unsigned char> grey = first_channels(rgba, 1);
    const std::string p = dir / "g.jpeg";
    hipstencil_io::save_raster(p, make_raster(w, h, 1, sample_type::u8, grey), 1);
    const test_images::stb_image back = test_images::stb_decode8(test_images::read_file(p));
    REQUIRE(back.channels == 3);
    bytes r, g, b;
    for (std::size_t i = 0; i < back.u8.size(); i += 3)
      r.push_back(back.u8[i]), g.push_back(back.u8[i + 1]), b.push_back(back.u8[i + 2]);
    CHECK(mean_error(r, grey) < 2.0);
    CHECK(mean_error(g, grey) < 2.0);
    CHECK(mean_error(b, grey) < 2.0);
  }
  SECTION("16-bit samples are reduced to 8 bits (round(v / 257))") {
    samples16 s16;
    for (unsigned char v : rgba) s16.push_back(std::uint16_t(v * 257 + (v % 7) * 17));  // within 128 of v * 257
    const std::string p = dir / "d.jpg";
    hipstencil_io::save_raster(p, make_raster(w, h, 4, sample_type::u16, s16), 3);
    const test_images::stb_image back = test_images::stb_decode8(test_images::read_file(p));
    CHECK(back.channels == 3);
    CHECK(mean_error(back.u8, first_channels(rgba, 3)) < 2.0);
  }
  SECTION("a lower quality gives a smaller file further from the image") {
    hipstencil_io::save_options low, high;
    low.jpeg_quality = 10;
    high.jpeg_quality = 100;
    const raster r = make_raster(w, h, 4, sample_type::u8, rgba);
    hipstencil_io::save_raster(dir / "low.jpg", r, 3, low);
    hipstencil_io::save_raster(dir / "high.jpg", r, 3, high);
    const bytes a = test_images::read_file(dir / "low.jpg"), b = test_images::read_file(dir / "high.jpg");
    CHECK(a.size() < b.size());
    CHECK(mean_error(test_images::stb_decode8(a).u8, first_channels(rgba, 3)) >
          mean_error(test_images::stb_decode8(b).u8, first_channels(rgba, 3)));
  }
}

TEST_CASE("save_raster errors name the problem and leave no file", "[image_formats]") {
  scratch_dir dir("hipstencil-formats");
  const std::vector<float> f = test_images::pattern_float(4, 3, 1);
  const raster floats = make_raster(4, 3, 1, sample_type::f32, f);
  const raster grey = make_raster(4, 3, 1, sample_type::u8, test_images::pattern(4, 3, 1));
  SECTION("float samples have no PNG or JPEG form") {
    CHECK(contains(error_of([&] { hipstencil_io::save_raster(dir / "f.png", floats, 1); }),
                   "cannot write PNG '" + dir / "f.png" +
                       "': PNG holds 8- and 16-bit samples, not 32-bit float: "
                       "write .tif to keep them"));
    CHECK(contains(error_of([&] { hipstencil_io::save_raster(dir / "f.jpg", floats, 1); }),
                   "cannot write JPEG '" + dir / "f.jpg" + "': JPEG holds 8-bit samples, not 32-bit float"));
  }
  SECTION("an unknown extension, or none") {
    for (const std::string name : {"x.bmp", "x", "x.png.txt"})
      CHECK(contains(error_of([&] { hipstencil_io::save_raster(dir / name, grey, 1); }),
                     "cannot write image '" + dir / name + "': the name has no extension of a format written here"));
  }
  SECTION("a JPEG quality outside 1 to 100") {
    for (int q : {0, 101, -5}) {
      hipstencil_io::save_options o;
      o.jpeg_quality = q;
      CHECK(contains(error_of([&] { hipstencil_io::save_raster(dir / "q.jpg", grey, 1, o); }),
                     "the quality must be 1 to 100, got " + std::to_string(q)));
    }
  }
  SECTION("channel counts the image cannot give") {
    CHECK(contains(error_of([&] { hipstencil_io::save_raster(dir / "c.png", grey, 3); }),
                   "3 channels cannot be written from 1"));
  }
  CHECK(dir.files() == 0);
}

TEST_CASE("a format this build lacks is an error naming the package to install", "[image_formats]") {
  // Runs in every build: with the library the file loads; without, both directions name it.
  scratch_dir dir("hipstencil-formats");
  const samples16 s = test_images::pattern16(3, 2, 1);
  const bytes p16 = test_images::png16(3, 2, 1, s);
  const bytes tif = test_images::tiff(3, 2, 1, 16, s.data());
  const raster r16 = make_raster(3, 2, 1, sample_type::u16, s);
  struct lib_case {
    hipstencil_io::library lib;
    const bytes& file;
    const char* out;
    const char* package;
  };
  for (const lib_case& c : {lib_case{hipstencil_io::library::libpng, p16, "o.png", "libpng-dev"},
                            lib_case{hipstencil_io::library::libtiff, tif, "o.tif", "libtiff-dev"}}) {
    INFO(c.package);
    CHECK(contains(hipstencil_io::not_built_in_text(c.lib), "apt-get install " + std::string(c.package)));
    if (hipstencil_io::built_in(c.lib)) {
      CHECK(samples_of<std::uint16_t>(hipstencil_io::decode_raster(c.file.data(), c.file.size(), "in")) == s);
      hipstencil_io::save_raster(dir / c.out, r16, 1);
      CHECK(fs::exists(dir / c.out));
    } else {
      const std::string why = hipstencil_io::not_built_in_text(c.lib);
      CHECK(contains(error_of([&] { hipstencil_io::decode_raster(c.file.data(), c.file.size(), "in"); }),
                     "cannot read image 'in': " + why));
      CHECK(contains(error_of([&] { hipstencil_io::save_raster(dir / c.out, r16, 1); }), why));
      CHECK_FALSE(fs::exists(dir / c.out));
    }
  }
}
