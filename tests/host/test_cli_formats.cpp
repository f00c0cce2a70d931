// tests/host/test_cli_formats.cpp
// hipstencil-filter on 16-bit PNG and TIFF inputs (made here, byte by byte): a 16-bit grey
// image is filtered as uint16 and written at 16 bits, equal to hipstencil::reference::convolve
// on the uint16 data; 16-bit colour is filtered plane by plane, equal to the reference on each
// plane, and keeps 3 (or 4) channels; Sobel shows its magnitude with 65535 as the largest; a
// float TIFF is filtered as float (float3 for RGB, float4 for RGBA) and written as float, bit for bit the
// reference's; float cannot go to PNG (exit 2). In a build without libpng or libtiff the
// program says which package to install (exit 2 for an output, 1 for an input).
// [png16] and [tiff]: need libpng or libtiff (ctest tests of their own, Skipped without).

#include <catch2/catch.hpp>

#include <hipstencil/hipstencil.hpp>

#include "cli_run.hpp"
#include "image_files.hpp"
#include "image_formats.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using namespace hipstencil;
using cli::check_failed;
using cli::quote;
using cli::run_filter;
using cli::temp_dir;
using test_images::samples16;

const int W = 61, H = 47;  // odd sizes: partial tiles everywhere

/// Plane c of interleaved `s` (`channels` per pixel) as an image.
template <class T>
host_image<T> plane(const std::vector<T>& s, int channels, int c) {
  host_image<T> p(W, H);
  for (std::size_t i = 0; i < std::size_t(W * H); ++i) p.data()[i] = s[i * std::size_t(channels) + std::size_t(c)];
  return p;
}

/// The program's output, which must exist, loaded at its depth.
hipstencil_io::raster output(const temp_dir& dir, const cli::result& r, const std::string& name) {
  INFO("stdout: " << r.out << "\nstderr: " << r.err);
  REQUIRE(r.status == 0);
  REQUIRE(r.err.empty());
  return hipstencil_io::load_raster((dir.work / name).string());
}

/// Plane c of a loaded raster of T samples.
template <class T>
host_image<T> plane_of(const hipstencil_io::raster& r, int c) {
  std::vector<T> s(r.samples.size() / sizeof(T));
  std::memcpy(s.data(), r.samples.data(), r.samples.size());
  return plane(s, r.channels, c);
}

template <class T>
long long differences(const host_image<T>& a, const host_image<T>& b) {
  long long n = 0;
  for (std::size_t i = 0; i < std::size_t(W * H); ++i)
    n += std::memcmp(&a.data()[i], &b.data()[i], sizeof(T)) != 0;  // floats bit for bit
  return n;
}

/// A float image the reference keeps finite: smooth values with fractions, negative ones too.
std::vector<float> smooth_floats(int channels) {
  std::vector<float> s;
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x)
      for (int c = 0; c < channels; ++c) s.push_back(std::sin(0.3f * float(x + 2 * c)) * 1.7f + 0.01f * float(y));
  return s;
}

}  // namespace

TEST_CASE("a 16-bit grey PNG is filtered as uint16, written at 16 bits, equal to the reference", "[png16]") {
  if (!test_images::built_with(hipstencil_io::library::libpng)) return;
  temp_dir dir;
  const samples16 s = test_images::pattern16(W, H, 1, 2);
  const std::string in = (dir.root / "in16.png").string();
  test_images::write_file(in, test_images::png16(W, H, 1, s));
  const host_image<std::uint16_t> src = plane(s, 1, 0);
  SECTION("gaussian, replicate border") {
    const cli::result r =
        run_filter(dir, "--host --filter gaussian --sigma 1.5 --border replicate " + quote(in) + " out.png");
    CHECK(r.out.find("1 channel (grey), 16-bit, filtered as uint16") != std::string::npos);
    const hipstencil_io::raster got = output(dir, r, "out.png");
    CHECK(got.type == hipstencil_io::sample_type::u16);
    CHECK(got.file_channels == 1);
    host_image<std::uint16_t> want(W, H);
    reference::convolve(src.view(), want.view(), filters::gaussian(1.5), border::replicate{});
    CHECK(differences(plane_of<std::uint16_t>(got, 0), want) == 0);
    long long above_255 = 0;
    for (std::size_t i = 0; i < std::size_t(W * H); ++i) above_255 += want.data()[i] > 255;
    CHECK(above_255 > W * H / 2);  // the test would notice a trip through 8 bits
    // stb, independent of libpng, reads the same 16-bit samples from the file.
    const test_images::stb_image back =
        test_images::stb_decode16(test_images::read_file((dir.work / "out.png").string()));
    CHECK(std::memcmp(back.u16.data(), want.data(), back.u16.size() * 2) == 0);
  }
  SECTION("sobel: the largest magnitude shown as 65535") {
    const hipstencil_io::raster got =
        output(dir, run_filter(dir, "--host --filter sobel " + quote(in) + " out.png"), "out.png");
    host_image<float> gx(W, H), gy(W, H);
    reference::convolve(src.view(), gx.view(), filters::sobel_x(), border::reflect101{});
    reference::convolve(src.view(), gy.view(), filters::sobel_y(), border::reflect101{});
    double mx = 0;
    const auto magnitude = [&](std::size_t i) {
      const double a = gx.data()[i], b = gy.data()[i];
      return std::sqrt(a * a + b * b);
    };
    for (std::size_t i = 0; i < std::size_t(W * H); ++i) mx = std::max(mx, magnitude(i));
    REQUIRE(mx > 0);
    host_image<std::uint16_t> want(W, H);
    for (std::size_t i = 0; i < std::size_t(W * H); ++i)
      want.data()[i] = saturate_cast<std::uint16_t>(magnitude(i) * (65535.0 / mx));
    CHECK(differences(plane_of<std::uint16_t>(got, 0), want) == 0);
  }
}

TEST_CASE("16-bit RGB and RGBA PNGs are filtered as ushort3 and ushort4 and keep their channels at 16 bits",
          "[png16]") {
  if (!test_images::built_with(hipstencil_io::library::libpng)) return;
  for (int channels : {3, 4}) {
    INFO(channels << " channels");
    temp_dir dir;
    const samples16 s = test_images::pattern16(W, H, channels, 5);
    const std::string in = (dir.root / "rgb16.png").string();
    test_images::write_file(in, test_images::png16(W, H, channels, s));
    const cli::result r = run_filter(dir, "--host --filter box --radius 2 --border wrap " + quote(in) + " out.png");
    CHECK(r.out.find(channels == 3 ? "filtered as ushort3" : "filtered as ushort4") != std::string::npos);
    const hipstencil_io::raster got = output(dir, r, "out.png");
    CHECK(got.type == hipstencil_io::sample_type::u16);
    CHECK(got.file_channels == channels);  // RGB stays RGB: no alpha added
    for (int c = 0; c < channels; ++c) {
      host_image<std::uint16_t> want(W, H);
      reference::convolve(plane(s, channels, c).view(), want.view(), filters::box(2), border::wrap{});
      INFO("plane " << c);
      CHECK(differences(plane_of<std::uint16_t>(got, c), want) == 0);
    }
  }
}

TEST_CASE("a float TIFF is filtered as float, float3 or float4 and written as float, bit for bit", "[tiff]") {
  if (!test_images::built_with(hipstencil_io::library::libtiff)) return;
  for (int channels : {1, 3, 4}) {
    INFO(channels << " channels");
    temp_dir dir;
    const std::vector<float> s = smooth_floats(channels);
    const std::string in = (dir.root / "in.tif").string();
    test_images::write_file(in, test_images::tiff(W, H, channels, 32, s.data()));
    const filter2d k(3, 3, {0.1f, -0.2f, 0.3f, 0.05f, 1.1f, -0.15f, 0.2f, 0.0f, 0.125f});
    const cli::result r =
        run_filter(dir, "--host --filter custom --coeffs '3 3 0.1 -0.2 0.3 0.05 1.1 -0.15 0.2 0 0.125' " + quote(in));
    const char* as = channels == 1 ? "float\n" : channels == 3 ? "float3\n" : "float4\n";
    CHECK(r.out.find(std::string("32-bit float, filtered as ") + as) != std::string::npos);
    const hipstencil_io::raster got = output(dir, r, "in-custom.tif");  // a TIFF input keeps TIFF by default
    CHECK(got.type == hipstencil_io::sample_type::f32);
    CHECK(got.file_channels == channels);
    if (channels < 4) {  // grey, or RGB: every channel on its own, as the reference of one plane
      for (int c = 0; c < channels; ++c) {
        host_image<float> want(W, H);
        reference::convolve(plane(s, channels, c).view(), want.view(), k, border::reflect101{});
        INFO("plane " << c);
        CHECK(differences(plane_of<float>(got, c), want) == 0);
      }
    } else {
      host_image<float4> src(W, H), want(W, H);
      std::memcpy(static_cast<void*>(src.data()), s.data(), s.size() * 4);
      reference::convolve(src.view(), want.view(), k, border::reflect101{});
      std::vector<float> w(s.size());
      std::memcpy(w.data(), static_cast<const void*>(want.data()), w.size() * 4);
      for (int c = 0; c < 4; ++c) CHECK(differences(plane_of<float>(got, c), plane(w, 4, c)) == 0);
    }
  }
}

TEST_CASE("a 16-bit TIFF keeps 16 bits, and RGB TIFF output has 3 channels", "[tiff]") {
  if (!test_images::built_with(hipstencil_io::library::libtiff)) return;
  temp_dir dir;
  const samples16 s = test_images::pattern16(W, H, 1, 7);
  const std::string in = (dir.root / "in.tiff").string();
  test_images::write_file(in, test_images::tiff(W, H, 1, 16, s.data(), true));
  const hipstencil_io::raster got =
      output(dir, run_filter(dir, "--host --filter box --radius 1 " + quote(in) + " o.tif"), "o.tif");
  host_image<std::uint16_t> want(W, H);
  reference::convolve(plane(s, 1, 0).view(), want.view(), filters::box(1), border::reflect101{});
  CHECK(got.type == hipstencil_io::sample_type::u16);
  CHECK(differences(plane_of<std::uint16_t>(got, 0), want) == 0);
  const cli::result r = run_filter(dir, "--host " + quote(cli::astronaut) + " rgb.tif");
  CHECK(r.out.find("filtered as uchar3\n") != std::string::npos);  // an 8-bit RGB PNG: 3 channels throughout
  const hipstencil_io::raster rgb = output(dir, r, "rgb.tif");
  CHECK(rgb.type == hipstencil_io::sample_type::u8);
  CHECK(rgb.file_channels == 3);
}

TEST_CASE("float samples cannot be written as PNG or JPEG: exit 2 naming .tif, nothing written", "[tiff]") {
  if (!test_images::built_with(hipstencil_io::library::libtiff)) return;
  temp_dir dir;
  const std::vector<float> s = smooth_floats(1);
  const std::string in = (dir.root / "f.tif").string();
  test_images::write_file(in, test_images::tiff(W, H, 1, 32, s.data()));
  for (const char* out : {"o.png", "o.jpg"})
    check_failed(dir, run_filter(dir, "--host " + quote(in) + " " + out), 2,
                 {"32-bit float samples of " + in, "write a .tif"});
}

TEST_CASE("a build without libtiff or libpng names the package: exit 2 for an output, 1 for an input", "[cli]") {
  // Runs in every build: with the library the same runs succeed.
  temp_dir dir;
  const bool tiff = hipstencil_io::built_in(hipstencil_io::library::libtiff);
  const cli::result r = run_filter(dir, "--host " + quote(cli::camera) + " out.tif");
  if (tiff) {
    INFO("stderr: " << r.err);
    CHECK(r.status == 0);
    CHECK(hipstencil_io::load_raster((dir.work / "out.tif").string()).file_channels == 1);
  } else {
    check_failed(dir, r, 2, {"cannot write TIFF", "libtiff was not found", "apt-get install libtiff-dev"});
    check_failed(dir, run_filter(dir, "--host --format tiff --output-dir out " + quote(cli::camera)), 2,
                 {"apt-get install libtiff-dev"});
  }
  temp_dir dir16;
  const std::string in = (dir16.root / "in16.png").string();
  test_images::write_file(in, test_images::png16(W, H, 1, test_images::pattern16(W, H, 1)));
  const cli::result p = run_filter(dir16, "--host " + quote(in) + " out.png");
  if (hipstencil_io::built_in(hipstencil_io::library::libpng)) {
    CHECK(p.status == 0);
  } else {
    check_failed(dir16, p, 1, {"cannot read image '" + in + "'", "apt-get install libpng-dev"});
  }
}
