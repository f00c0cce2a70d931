// tests/host/test_cli.cpp
// hipstencil-filter end to end: run the program (--host, so the host reference does the
// work whichever backend built it) on the bundled photographs, load its PNG, and compare
// with hipstencil::reference::convolve computed here on the same input. Also: bad inputs
// (options, values, and image files made here: truncated, oversized) fail with one line on
// stderr naming the problem and create no file; a top-down BMP filters; no arguments writes
// astronaut-gaussian.png in the current directory.
//
// POSIX only (mkdtemp, sh). Radii are kept small: the host reference is not fast.

#include <catch2/catch.hpp>

#include <hipstencil/hipstencil.hpp>

#include "cli_run.hpp"
#include "image_files.hpp"
#include "image_io.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using namespace hipstencil;

using cli::astronaut;
using cli::camera;
using cli::check_failed;
using cli::data_dir;
using cli::quote;
using cli::read_text;
using cli::result;
using cli::run_filter;
using cli::temp_dir;

template <class T>
void require_equal_images(const host_image<T>& got, const host_image<T>& want) {
  REQUIRE(got.width() == want.width());
  REQUIRE(got.height() == want.height());
  long long bad = 0;
  int first_x = -1, first_y = -1;
  for (int y = 0; y < want.height(); ++y)
    for (int x = 0; x < want.width(); ++x)
      for (int c = 0; c < pixel_traits<T>::channels; ++c)
        if (pixel_traits<T>::get(got(x, y), c) != pixel_traits<T>::get(want(x, y), c)) {
          if (bad++ == 0) first_x = x, first_y = y;
        }
  INFO("first difference at (" << first_x << ", " << first_y << ")");
  CHECK(bad == 0);
}

/// Runs the program on `input` with `options`, requires success, and loads its output.
template <class T>
host_image<T> run_and_load(const std::string& input, const std::string& options) {
  temp_dir dir;
  const result r = run_filter(dir, "--host " + options + " " + quote(input) + " out.png");
  INFO("stdout: " << r.out << "\nstderr: " << r.err);
  REQUIRE(r.status == 0);
  REQUIRE(r.err.empty());
  REQUIRE(fs::exists(dir.work / "out.png"));
  int channels = 0;
  host_image<T> out = hipstencil_io::load_image<T>((dir.work / "out.png").string(), &channels);
  CHECK(channels == (pixel_traits<T>::channels == 1 ? 1 : 3));  // as the input: grey or RGB
  return out;
}

/// The expected output of a filter that keeps the pixel type: a copy of the input with the
/// ROI filtered by the reference.
template <class T, class Filter, class Border>
host_image<T> expected(const host_image<T>& in, const Filter& f, Border b, rect roi, halo h) {
  host_image<T> want = in;
  reference::convolve(in.view(), roi, want.view(), roi, f, b, h);
  return want;
}

/// The documented Sobel display: 255 * |g| / max|g| over the ROI's colour channels, rounded
/// to nearest (ties to even) in double; alpha 255; outside the ROI the input.
template <class T, class F>
host_image<T> sobel_expected(const host_image<T>& in, rect roi) {
  using tf = pixel_traits<F>;
  using ti = pixel_traits<T>;
  const int C = ti::channels == 1 ? 1 : 3;
  host_image<F> gx(in.width(), in.height()), gy(in.width(), in.height());
  reference::convolve(in.view(), roi, gx.view(), roi, filters::sobel_x(), border::reflect101{}, halo::isolated);
  reference::convolve(in.view(), roi, gy.view(), roi, filters::sobel_y(), border::reflect101{}, halo::isolated);
  double mx = 0;
  for (int y = roi.y; y < roi.y + roi.height; ++y)
    for (int x = roi.x; x < roi.x + roi.width; ++x)
      for (int c = 0; c < C; ++c) {
        const double a = tf::get(gx(x, y), c), b = tf::get(gy(x, y), c);
        mx = std::max(mx, std::sqrt(a * a + b * b));
      }
  REQUIRE(mx > 0);
  host_image<T> want = in;
  for (int y = roi.y; y < roi.y + roi.height; ++y)
    for (int x = roi.x; x < roi.x + roi.width; ++x) {
      for (int c = 0; c < C; ++c) {
        const double a = tf::get(gx(x, y), c), b = tf::get(gy(x, y), c);
        const double v = std::nearbyint(std::min(255.0, std::sqrt(a * a + b * b) * (255.0 / mx)));
        ti::set(want(x, y), c, static_cast<typename ti::channel_type>(v));
      }
      if constexpr (ti::channels == 4) ti::set(want(x, y), 3, 255);
    }
  return want;
}

host_image<std::uint8_t> load_grey(const std::string& p) { return hipstencil_io::load_image<std::uint8_t>(p); }
host_image<uchar4> load_colour(const std::string& p) { return hipstencil_io::load_image<uchar4>(p); }

}  // namespace

TEST_CASE("hipstencil-filter --host gaussian equals the reference (grey and colour)", "[cli]") {
  const separable_filter g = filters::gaussian(1.0, 2);
  SECTION("grey camera.png") {
    const auto in = load_grey(camera);
    const auto got = run_and_load<std::uint8_t>(camera, "--filter gaussian --sigma 1 --radius 2");
    require_equal_images(got, expected(in, g, border::reflect101{}, rect{0, 0, 512, 512}, halo::isolated));
  }
  SECTION("colour astronaut.png, replicate border") {
    const auto in = load_colour(astronaut);
    const auto got = run_and_load<uchar4>(astronaut, "--filter=gaussian --sigma=1 --radius=2 --border replicate");
    require_equal_images(got, expected(in, g, border::replicate{}, rect{0, 0, 512, 512}, halo::isolated));
  }
}

TEST_CASE("hipstencil-filter --host ROI, both halo modes, equals the reference", "[cli]") {
  const auto in = load_grey(camera);
  const rect roi{100, 120, 200, 150};
  const separable_filter box = filters::box(3);
  SECTION("isolated") {
    const auto got = run_and_load<std::uint8_t>(camera, "--filter box --radius 3 --roi 100,120,200,150 --roi-halo isolated");
    const auto want = expected(in, box, border::reflect101{}, roi, halo::isolated);
    require_equal_images(got, want);
    CHECK(got(99, 200) == in(99, 200));  // outside the ROI: the input
  }
  SECTION("parent") {
    const auto got = run_and_load<std::uint8_t>(camera, "--filter box --radius 3 --roi 100,120,200,150 --roi-halo parent");
    const auto want = expected(in, box, border::reflect101{}, roi, halo::from_parent);
    require_equal_images(got, want);
    // The two modes really differ at the ROI's edge (real neighbours vs reflected ones).
    const auto iso = expected(in, box, border::reflect101{}, roi, halo::isolated);
    bool differ = false;
    for (int y = roi.y; y < roi.y + roi.height && !differ; ++y) differ = iso(roi.x, y) != want(roi.x, y);
    CHECK(differ);
  }
}

TEST_CASE("hipstencil-filter --host sobel shows the scaled gradient magnitude", "[cli]") {
  SECTION("grey") {
    const auto in = load_grey(camera);
    const auto got = run_and_load<std::uint8_t>(camera, "--filter sobel");
    require_equal_images(got, sobel_expected<std::uint8_t, float>(in, rect{0, 0, 512, 512}));
  }
  SECTION("colour, in a ROI") {
    const auto in = load_colour(astronaut);
    const rect roi{64, 32, 300, 200};
    const auto got = run_and_load<uchar4>(astronaut, "--filter sobel --roi 64,32,300,200");
    require_equal_images(got, sobel_expected<uchar4, float4>(in, roi));
  }
}

TEST_CASE("hipstencil-filter --host laplacian, sharpen and custom filters", "[cli]") {
  const auto in = load_grey(camera);
  SECTION("laplacian, constant border: 128 + value") {
    const auto got = run_and_load<std::uint8_t>(camera, "--filter laplacian --border constant:10");
    host_image<float> lap(512, 512);
    reference::convolve(in.view(), lap.view(), filters::laplacian(), border::constant{10.0f});
    host_image<std::uint8_t> want(512, 512);
    for (int y = 0; y < 512; ++y)
      for (int x = 0; x < 512; ++x) want(x, y) = saturate_cast<std::uint8_t>(128.0 + double(lap(x, y)));
    require_equal_images(got, want);
  }
  SECTION("sharpen, wrap border") {
    const auto got = run_and_load<std::uint8_t>(camera, "--filter sharpen --amount 0.5 --border wrap");
    require_equal_images(got, expected(in, filters::sharpen(0.5f), border::wrap{}, rect{0, 0, 512, 512}, halo::isolated));
  }
  SECTION("custom 3x1, skip border leaves the edge columns as they were") {
    const auto got = run_and_load<std::uint8_t>(camera, "--filter custom --coeffs '3 1 0.25 0.5 0.25' --border skip");
    const filter2d k(3, 1, {0.25f, 0.5f, 0.25f});
    require_equal_images(got, expected(in, k, border::skip{}, rect{0, 0, 512, 512}, halo::isolated));
    CHECK(got(0, 10) == in(0, 10));
  }
}

TEST_CASE("hipstencil-filter rejects bad input with one line and no output file", "[cli]") {
  struct bad_case {
    const char* what;
    std::string args;
    int status;
  };
  const std::string cam = quote(camera);
  const bad_case cases[] = {
      {"missing input file", "no-such-file.png out.png", 1},
      {"input that is not an image", quote(data_dir + "/SOURCES.md") + " out.png", 1},
      {"unknown filter", "--filter blur " + cam + " out.png", 2},
      {"unknown border", "--border mirror " + cam + " out.png", 2},
      {"padded border", "--border padded " + cam + " out.png", 2},
      {"unknown algorithm", "--algo fastest " + cam + " out.png", 2},
      {"malformed radius", "--filter box --radius 2x " + cam + " out.png", 2},
      {"malformed sigma", "--sigma abc " + cam + " out.png", 2},
      {"ROI outside the image", "--roi 500,0,20,20 " + cam + " out.png", 2},
      {"malformed ROI", "--roi 1,2,3 " + cam + " out.png", 2},
      {"even custom size", "--filter custom --coeffs '2 1 0.5 0.5' " + cam + " out.png", 2},
      {"custom coefficient count", "--filter custom --coeffs '3 3 1 2 3' " + cam + " out.png", 2},
      {"option missing its value", cam + " out.png --radius", 2},
      {"unknown option", "--fast " + cam + " out.png", 2},
      {"constant that overflows a float", "--border constant:1e39 " + cam + " out.png", 2},
      {"constant that overflows a float (negative)", "--border constant:-4e38 " + cam + " out.png", 2},
  };
  for (const auto& c : cases) {
    DYNAMIC_SECTION(c.what) {
      temp_dir dir;
      const result r = run_filter(dir, "--host " + c.args);
      INFO("args: " << c.args << "\nstdout: " << r.out << "\nstderr: " << r.err);
      CHECK(r.status == c.status);
      CHECK(r.err.rfind("hipstencil-filter: error: ", 0) == 0);
      CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
      CHECK(r.err.back() == '\n');
      CHECK(dir.work_files().empty());  // no output, no temporary file left behind
    }
  }
  SECTION("an existing output file is left as it was") {
    temp_dir dir;
    { std::ofstream(dir.work / "out.png") << "old contents"; }
    const result r = run_filter(dir, "--host --roi 0,0,513,10 " + cam + " out.png");
    CHECK(r.status == 2);
    CHECK(read_text(dir.work / "out.png") == "old contents");
    CHECK(dir.work_files().size() == 1);
  }
}

TEST_CASE("hipstencil-filter with no arguments writes astronaut-gaussian.png in the cwd", "[cli]") {
  temp_dir dir;
  const result r = run_filter(dir, "");
  INFO("stdout: " << r.out << "\nstderr: " << r.err);
  REQUIRE(r.status == 0);
  CHECK(r.err.empty());
  CHECK(r.out.find("astronaut-gaussian.png") != std::string::npos);
  CHECK(dir.work_files() == std::vector<std::string>{"astronaut-gaussian.png"});
  const auto info = hipstencil_io::read_info((dir.work / "astronaut-gaussian.png").string());
  CHECK(info.width == 512);
  CHECK(info.height == 512);
  CHECK(info.channels == 3);
}

TEST_CASE("hipstencil-filter --help prints the usage and exits 0", "[cli]") {
  temp_dir dir;
  const result r = run_filter(dir, "--help");
  CHECK(r.status == 0);
  CHECK(r.out.rfind("Usage: hipstencil-filter", 0) == 0);
  CHECK(dir.work_files().empty());
}

TEST_CASE("hipstencil-filter rejects out-of-range values and options that do nothing, naming them", "[cli]") {
  // Parsed before any file is read or any device touched: the same on every build.
  struct bad_case {
    std::string args;
    std::vector<std::string> says;
  };
  const std::string cam = quote(camera);
  const bad_case cases[] = {
      {"--filter sharpen --amount 1e38", {"--amount", "[-1000000, 1000000]", "1e38"}},
      {"--filter sharpen --amount -1000001", {"--amount", "[-1000000, 1000000]"}},
      {"--filter custom --coeffs '3 1 1 1e39 1'", {"--coeffs c1", "1e39", "does not fit a 32-bit float"}},
      {"--algo naive --strategy per_access", {"--strategy", "--algo naive"}},
      {"--strategy per_access", {"--strategy", "the default --algo automatic"}},
      {"--algo automatic --strategy tile_class", {"--strategy", "--algo automatic"}},
      {"--roi-halo parent", {"--roi-halo", "without --roi"}},
      {"--roi-halo isolated", {"--roi-halo", "without --roi"}},
      {"--host --algo tiled", {"--algo", "--host"}},
      {"--host --strategy per_access", {"--strategy", "--host"}},
      {"--filter sobel --radius 3", {"--radius", "--filter sobel"}},
      {"--amount 2", {"--amount", "the default --filter gaussian"}},
      {"--filter box --sigma 2", {"--sigma", "--filter box"}},
      {"--filter box --radius 3 --radius=4", {"--radius", "twice", "'3'", "'4'"}},
      {"--host --host", {"--host", "twice"}},
  };
  for (const auto& c : cases) {
    DYNAMIC_SECTION(c.args) {
      temp_dir dir;
      check_failed(dir, run_filter(dir, c.args + " " + cam + " out.png"), 2, c.says);
    }
  }
  SECTION("the same options where they do something are accepted") {
    temp_dir dir;
    const std::string args = "--host --filter sharpen --amount 1000000 --roi 0,0,64,64 --roi-halo parent ";
    const result r = run_filter(dir, args + cam + " out.png");
    INFO("stderr: " << r.err);
    CHECK(r.status == 0);
    CHECK(dir.work_files() == std::vector<std::string>{"out.png"});
  }
}

TEST_CASE("hipstencil-filter --list-algorithms prints the --algo names and exits 0", "[cli]") {
  temp_dir dir;
  const result r = run_filter(dir, "--list-algorithms");
  CHECK(r.status == 0);
  CHECK(r.err.empty());
  CHECK(r.out.rfind("automatic\nnaive\n", 0) == 0);
  CHECK(r.out.find("two_pass\n") != std::string::npos);
  CHECK(dir.work_files().empty());
}

TEST_CASE("hipstencil-filter on made images: a top-down BMP filters; truncated and oversized inputs fail", "[cli]") {
  using test_images::kind;
  temp_dir dir;
  const auto input = [&](const std::string& name, const test_images::bytes& b) {
    const std::string p = (dir.root / name).string();  // beside the working directory
    test_images::write_file(p, b);
    return p;
  };
  SECTION("a top-down BMP (negative height) filters as the same image stored bottom-up") {
    const test_images::bytes rgb = test_images::pattern(4, 4, 3);
    const std::string td = input("td.bmp", test_images::bmp24(4, 4, rgb, true));
    host_image<uchar4> in(4, 4);
    for (int y = 0; y < 4; ++y)
      for (int x = 0; x < 4; ++x) {
        const unsigned char* p = &rgb[std::size_t(y * 4 + x) * 3];
        in(x, y) = uchar4{p[0], p[1], p[2], 255};
      }
    const auto got = run_and_load<uchar4>(td, "--filter box --radius 1");
    require_equal_images(got, expected(in, filters::box(1), border::reflect101{}, rect{0, 0, 4, 4}, halo::isolated));
  }
  SECTION("truncated files of every format: exit 1, 'truncated', nothing written") {
    for (kind k : {kind::png, kind::jpeg, kind::bmp, kind::tga_rle, kind::tga_raw}) {
      const test_images::bytes whole = test_images::encode(k, 24, 16, 3, test_images::pattern(24, 16, 3));
      for (std::size_t keep : {whole.size() - 1, whole.size() * 2 / 3, std::size_t(30)}) {
        const std::string p = input("cut", test_images::bytes(whole.begin(), whole.begin() + std::ptrdiff_t(keep)));
        INFO(test_images::name(k) << ": " << keep << " of " << whole.size() << " bytes");
        check_failed(dir, run_filter(dir, "--host " + quote(p) + " out.png"), 1,
                     {"'" + p + "'", std::string("truncated ") + test_images::name(k) + " file"});
      }
    }
  }
  SECTION("a PNG of only its signature and IHDR: truncated, not an unknown chunk") {
    const std::string p = input("h.png", test_images::png_header_only(4, 4));
    check_failed(dir, run_filter(dir, "--host " + quote(p) + " out.png"), 1, {"truncated PNG file"});
  }
  SECTION("a 100000x100000 PNG header: too large, with the size and the limit") {
    for (const auto& b : {test_images::png_with_size(100000, 100000), test_images::png_header_only(100000, 100000)}) {
      const std::string p = input("big.png", b);
      check_failed(dir, run_filter(dir, "--host " + quote(p) + " out.png"), 1,
                   {"100000x100000 pixels is too large", std::to_string(hipstencil_io::max_pixels)});
    }
  }
  SECTION("an input that stays as it was after a failure") {
    const test_images::bytes whole = test_images::encode(kind::bmp, 8, 8, 3, test_images::pattern(8, 8, 3));
    const test_images::bytes cut(whole.begin(), whole.end() - 5);
    const std::string p = input("cut.bmp", cut);
    check_failed(dir, run_filter(dir, "--host " + quote(p) + " out.png"), 1, {"truncated BMP file"});
    const std::string now = read_text(p);
    CHECK(now == std::string(cut.begin(), cut.end()));
  }
}
