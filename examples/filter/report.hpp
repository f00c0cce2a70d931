// examples/filter/report.hpp
// hipstencil-filter: what the program prints: the summary of a run on stdout, and the
// one-line error on stderr.
#pragma once

#include "display.hpp"
#include "engine.hpp"
#include "filters.hpp"
#include "image_formats.hpp"
#include "options.hpp"

#include <string>

namespace hsf {

/// What the summary shows of a finished run, beside the options, the plan and the settings.
struct run_result {
  std::string input, output;
  int width = 0, height = 0;  // of the input file
  int file_channels = 0;
  hipstencil_io::sample_type type = hipstencil_io::sample_type::u8;  // of the input's samples
  std::string filtered_as;  // the pixel type(s): "uint8", "uchar4", "ushort4", "float planes (R, G, B)", ...
  std::string device;       // from choose_engine
  double ms = 0;
  response_range range;  // sobel, laplacian
};

void print_summary(const options& o, const filter_plan& plan, const run_settings& s, const run_result& r);

/// The --output-dir form's summary, after the last file: the settings every file shared,
/// then how many of the inputs were written, the wall time and the images per second.
void print_batch_summary(const options& o, const filter_plan& plan, const run_settings& s, const std::string& device,
                         int written, int inputs, double seconds, double filter_ms);

/// Prints the one-line error; newlines inside a message are flattened. Returns `status`.
int report(const char* what, int status);

}  // namespace hsf
