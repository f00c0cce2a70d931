// examples/filter/options.hpp
// hipstencil-filter: the command line (options, --help text, strict number parsing) and the
// usage error that every mistake on it raises.
#pragma once

#include "choices.hpp"

#include <hipstencil/hipstencil.hpp>

#include <cstdio>
#include <optional>
#include <stdexcept>
#include <string>

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
  border_choice border;              // default reflect101
  std::string border_text = "reflect101";
  std::optional<hs::rect> roi;
  hs::halo halo = hs::halo::isolated;
  algo_choice algo;                  // default automatic
  strategy_choice strategy;          // default tile_class
  bool host = false;
  bool help = false;
  std::string input, output;
};

inline constexpr double default_sigma = 2.0;
inline constexpr int default_box_radius = 2;
inline constexpr double default_amount = 1.0;

void print_usage(std::FILE* to);

// Strict number parsing: the whole text must be the number.
long long parse_integer(const std::string& what, const std::string& s);
double parse_real(const std::string& what, const std::string& s);

options parse_args(int argc, char** argv);

}  // namespace hsf
