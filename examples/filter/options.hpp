// examples/filter/options.hpp
// hipstencil-filter: the command line (options, --help text, strict number parsing) and the
// usage error that every mistake on it raises.
#pragma once

#include "choices.hpp"
#include "image_formats.hpp"

#include <hipstencil/hipstencil.hpp>

#include <cstdio>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#ifndef HIPSTENCIL_DATA_DIR
#define HIPSTENCIL_DATA_DIR "data"  // CMake sets the absolute path of the bundled images
#endif

namespace hsf {

namespace hs = hipstencil;

inline constexpr const char* program = "hipstencil-filter";

/// A mistake on the command line (exit status 2).
struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// ---------------------------------------------------------------------------------------
// Options.

struct options {
  std::string filter = "gaussian";
  std::optional<int> radius;         // box, gaussian
  std::optional<double> sigma;       // gaussian
  std::optional<double> amount;      // sharpen
  std::optional<std::string> coeffs; // custom
  border_choice border = hs::border::reflect101{};  // the default, as OpenCV's
  std::string border_text = "reflect101";
  std::optional<hs::rect> roi;
  hs::halo halo = hs::halo::isolated;
  algo_choice algo;                  // default automatic
  strategy_choice strategy;          // default tile_class
  bool host = false;
  bool help = false;                 // -h, --help: print the usage and exit 0 (main.cpp)
  bool list_algorithms = false;      // --list-algorithms: print the --algo names and exit 0 (main.cpp)
  std::optional<int> quality;        // --quality: JPEG quality, 1 to 100
  std::optional<hipstencil_io::file_format> format;  // --format: of the outputs whose names are made here
  std::string output_dir;            // --output-dir: the form with several inputs (batch.cpp)
  std::string input, output;         // the single-file form: INPUT [OUTPUT]
  std::vector<std::string> inputs;   // with --output-dir: every INPUT, in order
};

inline constexpr double default_sigma = 2.0;
inline constexpr int default_box_radius = 2;
inline constexpr double default_amount = 1.0;
/// --amount takes [-max_amount, max_amount]: far past any useful sharpening (at 1000 every
/// pixel off a flat area already saturates), and small enough for every coefficient, and
/// every sum of 8-bit pixels times them, to be finite in float.
inline constexpr double max_amount = 1e6;
/// JPEG quality without --quality: high enough that the blocks of a filtered photograph
/// are not seen.
inline constexpr int default_quality = 95;

void print_usage(std::FILE* to);

// Strict number parsing: the whole text must be the number.
long long parse_integer(const std::string& what, const std::string& s);
double parse_real(const std::string& what, const std::string& s);

/// Parses the command line (argv[1] to argv[argc - 1]; argv[0] is not read). Stops at -h,
/// --help or --list-algorithms, setting `help` or `list_algorithms`. Never exits and never
/// prints: the caller acts on those flags.
/// @throws usage_error for any mistake: an unknown option or value, a malformed or out of
///         range number (--quality outside 1 to 100), an option given twice, too many
///         arguments (more than INPUT and OUTPUT without --output-dir), none with
///         --output-dir, an OUTPUT whose extension names no format written (.png, .tif,
///         .tiff, .jpg, .jpeg), or an option that does nothing with the others given (e.g.
///         --radius with --filter sobel, --strategy with --algo naive, --algo with --host,
///         --roi-halo without --roi, --quality without JPEG output, --format with OUTPUT);
///         the message names it (and the option it conflicts with).
options parse_args(int argc, char** argv);

}  // namespace hsf
