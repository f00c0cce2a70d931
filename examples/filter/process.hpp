// examples/filter/process.hpp
// hipstencil-filter: one image file through the program, from its name to the written
// output (loaded, checked against the options, filtered, saved), shared by the single-file
// form (run.cpp) and --output-dir (batch.cpp); and what both need before the first file.
#pragma once

#include "engine.hpp"
#include "filters.hpp"
#include "image_formats.hpp"
#include "options.hpp"
#include "report.hpp"

#include <optional>
#include <string>

namespace hsf {

/// The settings every file of a run shares (s.roi is set per file), with the summary's
/// device line in `device` (choose_engine's).
/// @throws usage_error for --algo two_pass with a dense filter.
run_settings make_settings(const options& o, const filter_plan& plan, std::string& device);

/// The name of an output made here for `input`: <input stem>-<filter>.<ext> ("output" for an
/// input without a stem), ext "png", "tif" or "jpg" for `format`, or without it "tif" for an
/// input named .tif or .tiff and "png" otherwise. Just the file name: no directory.
std::string made_output_name(const std::string& input, const std::string& filter,
                             std::optional<hipstencil_io::file_format> format);

/// Throws usage_error naming the missing package when `format`, asked for on the command
/// line (OUTPUT's extension, --format), needs a library this build lacks for every image
/// (TIFF without libtiff). 16-bit PNG depends on the input and is checked per file.
void require_built_in(hipstencil_io::file_format format);

/// Loads r.input, filters it as the plan says (over --roi, or the whole image) and writes
/// r.output (its extension names the format; JPEG with --quality); fills r's size, channels,
/// depth, pixel type, time and response range.
/// @throws usage_error for a --roi outside the image or an output that cannot hold the
///         image's samples (float as PNG or JPEG); std::runtime_error for an unreadable input,
///         a format this build lacks or a failed write ("cannot ... '<path>': <reason>");
///         hs::gpu_error.
void process_file(const options& o, const filter_plan& plan, run_settings s, run_result& r);

}  // namespace hsf
