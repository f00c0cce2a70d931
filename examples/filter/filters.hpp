// examples/filter/filters.hpp
// hipstencil-filter: the filters that --filter and its options describe.
#pragma once

#include "choices.hpp"
#include "options.hpp"

#include <hipstencil/hipstencil.hpp>

#include <string>
#include <vector>

namespace hsf {

namespace hs = hipstencil;

/// The filters to run (sobel: x then y) and a description for the summary.
struct filter_plan {
  std::vector<filter_choice> filters;
  std::string description;
  bool float_output = false;  // sobel, laplacian: filtered into float, post-processed for display
};

/// Throws usage_error for a bad --coeffs.
filter_plan make_plan(const options& o);

}  // namespace hsf
