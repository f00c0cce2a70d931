// tests/host/cli_run.hpp
// Running hipstencil-filter from the host tests (test_cli*.cpp): a fresh temporary directory
// per run whose `work` subdirectory is the program's working directory, stdout and stderr
// captured beside it, shell quoting, and the check of a failed run (status, one error line,
// nothing written). POSIX only (mkdtemp, sh).
#pragma once

#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace cli {

namespace fs = std::filesystem;

inline const std::string exe = HIPSTENCIL_FILTER_EXE;
inline const std::string data_dir = HIPSTENCIL_DATA_DIR;
inline const std::string camera = data_dir + "/camera.png";        // 512x512 grey
inline const std::string astronaut = data_dir + "/astronaut.png";  // 512x512 RGB

/// A fresh temporary directory `root` with an empty working directory `root/work` (the
/// program's cwd) and the captured streams beside it; removed on destruction.
struct temp_dir {
  fs::path root, work;
  temp_dir() {
    std::string pattern = (fs::temp_directory_path() / "hipstencil-cli-XXXXXX").string();
    std::vector<char> buf(pattern.begin(), pattern.end());
    buf.push_back('\0');
    REQUIRE(::mkdtemp(buf.data()) != nullptr);
    root = buf.data();
    work = root / "work";
    fs::create_directory(work);
  }
  ~temp_dir() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
  /// The names in `work` (or in `work/sub`), unordered.
  std::vector<std::string> work_files(const std::string& sub = "") const {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(sub.empty() ? work : work / sub))
      names.push_back(e.path().filename().string());
    return names;
  }
};

inline std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

inline std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

struct result {
  int status = -1;  // exit status, or -1 if it did not exit normally
  std::string out, err;
};

/// Runs hipstencil-filter with `args` (already shell-quoted) in dir.work.
inline result run_filter(const temp_dir& dir, const std::string& args) {
  const fs::path out = dir.root / "stdout.txt", err = dir.root / "stderr.txt";
  const std::string cmd = "cd " + quote(dir.work.string()) + " && " + quote(exe) + " " + args + " >" +
                          quote(out.string()) + " 2>" + quote(err.string());
  const int raw = std::system(cmd.c_str());
  result r;
  if (raw != -1 && WIFEXITED(raw)) r.status = WEXITSTATUS(raw);
  r.out = read_text(out);
  r.err = read_text(err);
  return r;
}

/// A failed run: `status`, one line on stderr starting "hipstencil-filter: error: " and
/// holding each of `says`, nothing written in the working directory.
inline void check_failed(const temp_dir& dir, const result& r, int status, const std::vector<std::string>& says) {
  INFO("stdout: " << r.out << "\nstderr: " << r.err);
  CHECK(r.status == status);
  CHECK(r.err.rfind("hipstencil-filter: error: ", 0) == 0);
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
  for (const std::string& s : says) CHECK(r.err.find(s) != std::string::npos);
  CHECK(dir.work_files().empty());
}

}  // namespace cli
