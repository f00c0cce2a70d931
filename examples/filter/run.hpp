// examples/filter/run.hpp
// hipstencil-filter: one run of the program, from the parsed options to the written PNG and
// the summary.
#pragma once

#include "options.hpp"

namespace hsf {

/// Throws usage_error for a mistake found only now (OUTPUT, ROI outside the image, ...),
/// before any file is touched. Returns the exit status.
int run(const options& o);

}  // namespace hsf
