// tests/host/test_cli_batch.cpp
// hipstencil-filter --output-dir DIR INPUT...: every readable input is filtered (equal to
// hipstencil::reference::convolve) and written as DIR/<stem>-<filter>.<ext> even when another
// input fails; each file gets a progress line "[N/M] IN -> OUT (WxH, R images/s)" or
// "[N/M] IN: error: <reason>" on stderr, and the exit status is 1 when any failed. Also the
// options around output formats: an unknown OUTPUT extension, --quality outside 1 to 100 or
// without JPEG output, --format with OUTPUT, colliding output names, and DIR being a file are
// usage errors (exit 2) before any file is read or written.

#include <catch2/catch.hpp>

#include <hipstencil/hipstencil.hpp>

#include "cli_run.hpp"
#include "image_files.hpp"
#include "image_io.hpp"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using namespace hipstencil;
using cli::astronaut;
using cli::camera;
using cli::check_failed;
using cli::quote;
using cli::run_filter;
using cli::temp_dir;

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

/// `in` with the whole image filtered by the reference (reflect101).
template <class T>
host_image<T> box1_expected(const host_image<T>& in) {
  host_image<T> want = in;
  reference::convolve(in.view(), want.view(), filters::box(1), border::reflect101{});
  return want;
}

template <class T>
long long differences(const host_image<T>& a, const host_image<T>& b) {
  if (a.width() != b.width() || a.height() != b.height()) return -1;
  long long n = 0;
  for (int y = 0; y < a.height(); ++y)
    for (int x = 0; x < a.width(); ++x)
      for (int c = 0; c < pixel_traits<T>::channels; ++c)
        n += pixel_traits<T>::get(a(x, y), c) != pixel_traits<T>::get(b(x, y), c);
  return n;
}

/// A regular expression matching `s` literally.
std::string literal(const std::string& s) {
  static const std::regex special(R"([.^$|()\[\]{}*+?\\])");
  return std::regex_replace(s, special, R"(\$&)");
}

}  // namespace

TEST_CASE("--output-dir writes every readable input, reports each file on a line, exits 1 if one failed", "[cli]") {
  temp_dir dir;
  const std::string bad = (dir.root / "cut.png").string();  // a PNG cut short: unreadable
  const test_images::bytes whole =
      test_images::encode(test_images::kind::png, 20, 10, 3, test_images::pattern(20, 10, 3));
  test_images::write_file(bad, test_images::bytes(whole.begin(), whole.end() - 20));
  const std::string missing = (dir.root / "missing.png").string();
  const cli::result r = run_filter(dir, "--host --filter box --radius 1 --output-dir out " + quote(camera) + " " +
                                            quote(bad) + " " + quote(astronaut) + " " + quote(missing));
  INFO("stdout: " << r.out << "\nstderr: " << r.err);
  CHECK(r.status == 1);
  // The readable inputs are written and filtered; nothing else is left in the directory.
  std::vector<std::string> written = dir.work_files("out");
  std::sort(written.begin(), written.end());
  CHECK(written == std::vector<std::string>{"astronaut-box.png", "camera-box.png"});
  int channels = 0;
  const auto grey = hipstencil_io::load_image<std::uint8_t>((dir.work / "out/camera-box.png").string(), &channels);
  CHECK(channels == 1);
  CHECK(differences(grey, box1_expected(hipstencil_io::load_image<std::uint8_t>(camera))) == 0);
  const auto rgb = hipstencil_io::load_image<uchar4>((dir.work / "out/astronaut-box.png").string(), &channels);
  CHECK(channels == 3);
  CHECK(differences(rgb, box1_expected(hipstencil_io::load_image<uchar4>(astronaut))) == 0);
  // One line per input, in order, then the error line saying how many failed.
  const std::vector<std::string> err = lines(r.err);
  REQUIRE(err.size() == 5);
  const std::string rate = R"( images/s\)$)";
  CHECK(std::regex_match(err[0], std::regex(R"(^\[1/4\] )" + literal(camera) + " -> " + literal("out/camera-box.png") +
                                            R"( \(512x512, [0-9]+\.[0-9])" + rate)));
  CHECK(std::regex_match(err[1], std::regex(R"(^\[2/4\] )" + literal(bad) + ": error: " +
                                            literal("cannot read image '" + bad + "': truncated PNG file") + ".*")));
  CHECK(std::regex_match(err[2], std::regex(R"(^\[3/4\] )" + literal(astronaut) + " -> " +
                                            literal("out/astronaut-box.png") + R"( \(512x512, [0-9]+\.[0-9])" + rate)));
  CHECK(err[3] == "[4/4] " + missing + ": error: cannot open '" + missing + "': No such file or directory");
  CHECK(err[4] == "hipstencil-filter: error: 2 of 4 inputs failed (each named above)");
  CHECK(r.out.find("wrote:     2 of 4 images to out") != std::string::npos);
}

TEST_CASE("--output-dir with every input readable exits 0, creates DIR and counts images per second", "[cli]") {
  temp_dir dir;
  const cli::result r =
      run_filter(dir, "--host --filter sharpen --output-dir a/b " + quote(camera) + " " + quote(astronaut));
  INFO("stdout: " << r.out << "\nstderr: " << r.err);
  CHECK(r.status == 0);
  std::vector<std::string> written = dir.work_files("a/b");
  std::sort(written.begin(), written.end());
  CHECK(written == std::vector<std::string>{"astronaut-sharpen.png", "camera-sharpen.png"});
  const std::vector<std::string> err = lines(r.err);
  REQUIRE(err.size() == 2);
  for (std::size_t i = 0; i < 2; ++i) {
    std::smatch m;
    REQUIRE(std::regex_match(err[i], m,
                             std::regex(R"(^\[)" + std::to_string(i + 1) +
                                        R"(/2\] .* -> a/b/.*-sharpen\.png \(512x512, ([0-9.]+) images/s\)$)")));
    CHECK(std::stod(m[1].str()) > 0);
  }
}

TEST_CASE("--format and --quality with --output-dir write JPEGs of that quality", "[cli]") {
  temp_dir dir;
  const cli::result r = run_filter(dir, "--host --format jpeg --quality 40 --output-dir out " + quote(astronaut));
  INFO("stderr: " << r.err);
  REQUIRE(r.status == 0);
  const test_images::bytes low = test_images::read_file((dir.work / "out/astronaut-gaussian.jpg").string());
  const test_images::stb_image img = test_images::stb_decode8(low);
  CHECK(img.width == 512);
  CHECK(img.channels == 3);
  const cli::result q = run_filter(dir, "--host --format jpg --output-dir best " + quote(astronaut));  // default 95
  REQUIRE(q.status == 0);
  CHECK(low.size() < test_images::read_file((dir.work / "best/astronaut-gaussian.jpg").string()).size());
}

TEST_CASE("output formats and --output-dir: usage errors exit 2 before any file is read or written", "[cli]") {
  struct bad_case {
    std::string args;
    std::vector<std::string> says;
  };
  const std::string cam = quote(camera);
  const bad_case cases[] = {
      {cam + " out.bmp", {"OUTPUT must end in .png, .tif, .tiff, .jpg or .jpeg", "'out.bmp'"}},
      {cam + " out", {"OUTPUT must end in", "'out'"}},
      {cam + " out.png.txt", {"OUTPUT must end in", "'out.png.txt'"}},
      {"--quality 0 " + cam + " out.jpg", {"--quality must be in [1, 100], got 0"}},
      {"--quality 101 " + cam + " out.jpg", {"--quality must be in [1, 100], got 101"}},
      {"--quality high " + cam + " out.jpg", {"--quality", "'high' is not an integer"}},
      {"--quality 80 " + cam + " out.png", {"--quality does nothing with OUTPUT 'out.png'", "JPEG"}},
      {"--quality 80 " + cam, {"--quality does nothing with the default output format"}},
      {"--quality 80 --format tiff --output-dir out " + cam, {"--quality does nothing with --format tiff"}},
      {"--format jpeg " + cam + " out.png", {"--format does nothing with OUTPUT given"}},
      {"--format gif --output-dir out " + cam, {"unknown --format 'gif'"}},
      {"--output-dir out", {"--output-dir needs at least one INPUT"}},
      {"--output-dir '' " + cam, {"--output-dir needs a directory"}},
      {"--output-dir out a/x.png b/x.jpg",
       {"inputs 'a/x.png' and 'b/x.jpg' would both be written to 'out/x-gaussian.png'"}},
      {"--output-dir out " + cam + " " + cam, {"would both be written to 'out/camera-gaussian.png'"}},
      {cam + " a.png b.png", {"too many arguments", "--output-dir"}},
  };
  for (const auto& c : cases) {
    DYNAMIC_SECTION(c.args) {
      temp_dir dir;
      check_failed(dir, run_filter(dir, "--host " + c.args), 2, c.says);
    }
  }
  SECTION("--output-dir naming a file") {
    temp_dir dir;
    { std::ofstream(dir.work / "file") << "x"; }
    const cli::result r = run_filter(dir, "--host --output-dir file " + cam);
    INFO("stderr: " << r.err);
    CHECK(r.status == 2);
    CHECK(r.err == "hipstencil-filter: error: --output-dir 'file' is not a directory\n");
    CHECK(cli::read_text(dir.work / "file") == "x");
  }
}

TEST_CASE("OUTPUT's extension, in any case, chooses the format written", "[cli]") {
  temp_dir dir;
  for (const std::string name : {"o.PNG", "o.jpeg", "o.JPG"}) {
    const cli::result r = run_filter(dir, "--host --filter box --radius 1 " + quote(camera) + " " + name);
    INFO(name << ": " << r.err);
    REQUIRE(r.status == 0);
    const test_images::bytes file = test_images::read_file((dir.work / name).string());
    const bool png = name == "o.PNG";
    CHECK((png ? file[1] == 'P' : file[0] == 0xFF && file[1] == 0xD8));  // PNG signature or JPEG SOI
    const test_images::stb_image img = test_images::stb_decode8(file);
    CHECK(img.width == 512);
    CHECK(img.channels == (png ? 1 : 3));  // stb writes grey JPEGs as colour
  }
}
