// examples/filter/run.hpp
// hipstencil-filter: one run of the program, from the parsed options to the written file(s)
// and the summary: the single-file form here, --output-dir in batch.cpp.
#pragma once

#include "options.hpp"

namespace hsf {

/// Throws usage_error for a mistake found only now (OUTPUT's format not built in, ROI
/// outside the image, ...), before any file is written. Returns the exit status. With
/// --output-dir, returns run_batch's.
int run(const options& o);

/// The --output-dir form: every INPUT filtered into the directory, a progress line per file
/// on stderr, a file that fails reported on its line without stopping the others. Usage
/// errors that concern every file (options, output names that collide, a --format this build
/// lacks, DIR not a directory) are thrown before any file is read. Returns 0 when every input
/// was written, 1 otherwise (after one error line saying how many failed).
int run_batch(const options& o);

}  // namespace hsf
