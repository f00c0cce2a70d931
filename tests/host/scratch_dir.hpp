// A fresh temporary directory for the image and file-format tests (removed with its files
// when the test ends), the message of the exception a call throws, and a substring test for
// such messages. POSIX only (mkdtemp).
#pragma once

#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstddef>
#include <filesystem>
#include <iterator>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#include "image_files.hpp"

namespace test_images {

/// A directory made by mkdtemp under the system's temporary directory ("<prefix>-XXXXXX").
struct scratch_dir {
  std::filesystem::path path;
  explicit scratch_dir(const std::string& prefix = "hipstencil-test") {
    std::string pattern = (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX")).string();
    std::vector<char> buf(pattern.begin(), pattern.end());
    buf.push_back('\0');
    REQUIRE(::mkdtemp(buf.data()) != nullptr);
    path = buf.data();
  }
  ~scratch_dir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  scratch_dir(const scratch_dir&) = delete;
  scratch_dir& operator=(const scratch_dir&) = delete;
  /// The path of `name` inside the directory.
  std::string operator/(const std::string& name) const { return (path / name).string(); }
  /// Writes `b` to `name` inside the directory and returns its path.
  std::string file(const std::string& name, const bytes& b) const {
    const std::string p = *this / name;
    write_file(p, b);
    return p;
  }
  /// How many entries the directory holds.
  std::size_t files() const {
    return std::size_t(std::distance(std::filesystem::directory_iterator(path), std::filesystem::directory_iterator()));
  }
};

/// what() of the std::runtime_error f throws; a failure (and "") if it throws nothing.
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  FAIL_CHECK("no exception");
  return "";
}

/// True when `part` occurs in `s` (error messages name the file, the library, the reason).
inline bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace test_images
