// examples/filter/report.hpp
// hipstencil-filter: what the program prints: the summary of a run on stdout, and the
// one-line error on stderr.
#pragma once

#include "display.hpp"
#include "engine.hpp"
#include "filters.hpp"
#include "options.hpp"

#include <string>

namespace hsf {

/// What the summary shows of a finished run, beside the options, the plan and the settings.
struct run_result {
  std::string input, output;
  int width = 0, height = 0;  // of the input file
  int file_channels = 0;
  bool grey = false;  // filtered as uint8 (else as uchar4)
  std::string device;  // from choose_engine
  double ms = 0;
  response_range range;  // sobel, laplacian
};

void print_summary(const options& o, const filter_plan& plan, const run_settings& s, const run_result& r);

/// Prints the one-line error; newlines inside a message are flattened. Returns `status`.
int report(const char* what, int status);

}  // namespace hsf
