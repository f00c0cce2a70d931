// examples/filter/batch.cpp
// hipstencil-filter --output-dir DIR INPUT...: every input filtered into DIR, one progress
// line per file on stderr, a file that fails reported on its line without stopping the rest.

#include "filters.hpp"
#include "process.hpp"
#include "report.hpp"
#include "run.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <new>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

namespace hsf {

namespace {

namespace fs = std::filesystem;

/// DIR/<made name> for each input. Two inputs with one stem (a/x.png and b/x.jpg, or one
/// input given twice) would write one file: a usage error, before any is read.
std::vector<std::string> output_paths(const options& o) {
  std::vector<std::string> out;
  std::map<std::string, std::size_t> first;  // output -> the input it came from
  for (std::size_t i = 0; i < o.inputs.size(); ++i) {
    out.push_back((fs::path(o.output_dir) / made_output_name(o.inputs[i], o.filter, o.format)).string());
    const auto [at, fresh] = first.emplace(out.back(), i);
    if (!fresh)
      throw usage_error("inputs '" + o.inputs[at->second] + "' and '" + o.inputs[i] + "' would both be written to '" +
                        out.back() + "' (give them different stems, or filter them in separate runs)");
  }
  return out;
}

std::string one_line(std::string s) {
  std::replace(s.begin(), s.end(), '\n', ' ');
  return s;
}

}  // namespace

int run_batch(const options& o) {
  const filter_plan plan = make_plan(o);  // usage errors before any file is touched
  if (o.format) require_built_in(*o.format);
  const std::vector<std::string> outputs = output_paths(o);
  std::error_code ec;
  if (fs::exists(o.output_dir, ec) && !fs::is_directory(o.output_dir, ec))
    throw usage_error("--output-dir '" + o.output_dir + "' is not a directory");
  std::string device;
  const run_settings s = make_settings(o, plan, device);
  if (!fs::is_directory(o.output_dir, ec)) {
    fs::create_directories(o.output_dir, ec);
    if (ec) throw std::runtime_error("cannot create --output-dir '" + o.output_dir + "': " + ec.message());
  }

  const int n = int(o.inputs.size());
  const auto t0 = std::chrono::steady_clock::now();
  const auto seconds = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  int written = 0;
  double filter_ms = 0;
  for (int i = 0; i < n; ++i) {
    run_result r;
    r.input = o.inputs[std::size_t(i)];
    r.output = outputs[std::size_t(i)];
    r.device = device;
    std::string failure;
    try {
      process_file(o, plan, s, r);
      ++written;
      filter_ms += r.ms;
    } catch (const std::bad_alloc&) {
      failure = "out of memory";
    } catch (const std::exception& e) {  // a usage error of this file (its ROI), I/O, the library, the GPU
      failure = e.what();
    }
    // Files done (written or failed) per second of wall time since the first began.
    const double t = seconds(), rate = t > 0 ? (i + 1) / t : 0.0;
    if (failure.empty())
      std::fprintf(stderr, "[%d/%d] %s -> %s (%dx%d, %.1f images/s)\n", i + 1, n, r.input.c_str(), r.output.c_str(),
                   r.width, r.height, rate);
    else
      std::fprintf(stderr, "[%d/%d] %s: error: %s\n", i + 1, n, r.input.c_str(), one_line(failure).c_str());
    std::fflush(stderr);
  }
  print_batch_summary(o, plan, s, device, written, n, seconds(), filter_ms);
  if (written < n)
    return report(
        (std::to_string(n - written) + " of " + std::to_string(n) + " inputs failed (each named above)").c_str(), 1);
  return 0;
}

}  // namespace hsf
