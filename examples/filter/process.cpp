// examples/filter/process.cpp
// hipstencil-filter: one image file through the program (process.hpp).

#include "process.hpp"

#include "pixels.hpp"

#include <hipstencil/hipstencil.hpp>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <variant>

namespace hsf {

run_settings make_settings(const options& o, const filter_plan& plan, std::string& device) {
  if (std::holds_alternative<hs::algo::two_pass<>>(o.algo))
    for (const auto& f : plan.filters)
      if (std::holds_alternative<hs::filter2d>(f))
        throw usage_error("--algo two_pass needs a separable filter (box, gaussian, sobel), not " + o.filter);
  run_settings s;
  s.where = choose_engine(o.host, device);
  s.halo = o.halo;
  s.border = o.border;
  s.algo = o.algo;
  s.strategy = o.strategy;
  return s;
}

std::string made_output_name(const std::string& input, const std::string& filter,
                             std::optional<hipstencil_io::file_format> format) {
  using hipstencil_io::file_format;
  const std::filesystem::path p(input);
  std::string stem = p.stem().string();
  if (stem.empty()) stem = "output";
  // A TIFF input keeps its format by default: it may hold float samples, which PNG cannot.
  const file_format f = format ? *format
                        : hipstencil_io::output_format_of(input) == file_format::tiff ? file_format::tiff
                                                                                        : file_format::png;
  return stem + "-" + filter + (f == file_format::png ? ".png" : f == file_format::tiff ? ".tif" : ".jpg");
}

void require_built_in(hipstencil_io::file_format format) {
  if (format == hipstencil_io::file_format::tiff && !hipstencil_io::built_in(hipstencil_io::library::libtiff))
    throw usage_error("cannot write TIFF: " + hipstencil_io::not_built_in_text(hipstencil_io::library::libtiff));
}

void process_file(const options& o, const filter_plan& plan, run_settings s, run_result& r) {
  hipstencil_io::raster image = hipstencil_io::load_raster(r.input);
  const hs::rect whole{0, 0, image.width, image.height};
  if (o.roi && !whole.contains(*o.roi)) {
    const hs::rect& roi = *o.roi;
    throw usage_error("--roi " + std::to_string(roi.x) + "," + std::to_string(roi.y) + "," + std::to_string(roi.width) +
                      "," + std::to_string(roi.height) + " is not inside the " + std::to_string(image.width) + "x" +
                      std::to_string(image.height) + " image " + r.input);
  }
  // Whether the output can take these samples, before the work: float has no PNG or JPEG
  // form, and 16-bit PNG needs libpng.
  const hipstencil_io::file_format f = *hipstencil_io::output_format_of(r.output);
  if (!hipstencil_io::can_hold(f, image.type))
    throw usage_error(std::string("cannot write the ") + hipstencil_io::sample_name(image.type) + " samples of " +
                      r.input + " as " + hipstencil_io::format_name(f) + " ('" + r.output +
                      "'): write a .tif (or --format tiff) to keep them");
  if (const auto lib = hipstencil_io::library_for(f, image.type); lib && !hipstencil_io::built_in(*lib))
    throw std::runtime_error(std::string("cannot write ") + hipstencil_io::format_name(f) + " '" + r.output +
                             "': " + hipstencil_io::not_built_in_text(*lib));
  r.width = image.width;
  r.height = image.height;
  r.file_channels = image.file_channels;
  r.type = image.type;
  s.roi = o.roi.value_or(whole);
  r.ms = filter_raster(image, plan, s, r.range, r.filtered_as);
  // The input's channels: grey (grey + alpha loses its alpha), RGB or RGBA.
  const int channels = image.channels == 1 ? 1 : image.file_channels == 4 ? 4 : 3;
  hipstencil_io::save_options save;
  save.jpeg_quality = o.quality.value_or(default_quality);
  hipstencil_io::save_raster(r.output, image, channels, save);
}

}  // namespace hsf
