// examples/filter/report.cpp
// hipstencil-filter: the summary of a run, and the one-line error.

#include "report.hpp"

#include "choices.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <system_error>
#include <variant>

namespace hsf {

namespace {

/// The lines every run shows: border, ROI, algorithm, device.
void print_settings(const options& o, const run_settings& s, const std::string& device) {
  std::printf("border:    %s\n", o.border_text.c_str());
  if (o.roi)
    std::printf("roi:       x=%d y=%d %dx%d, halo %s\n", o.roi->x, o.roi->y, o.roi->width, o.roi->height,
                o.halo == hs::halo::isolated ? "isolated" : "parent");
  else
    std::printf("roi:       whole image\n");
  std::printf("algorithm: %s, %s strategy%s\n", variant_name(o.algo).c_str(),
              std::visit([](auto t) { return choice_name<decltype(t)>(); }, o.strategy).c_str(),
              s.where == engine::host ? " (not used: the host reference has a single algorithm)" : "");
  std::printf("device:    %s\n", device.c_str());
}

}  // namespace

void print_summary(const options& o, const filter_plan& plan, const run_settings& s, const run_result& r) {
  static const char* const channel_names[] = {"", "grey", "grey+alpha, alpha dropped", "RGB", "RGBA"};
  // 8-bit images keep the line they always had; other depths name theirs.
  using hipstencil_io::sample_type;
  const std::string depth =
      r.type == sample_type::u8 ? std::string() : std::string(", ") + hipstencil_io::sample_name(r.type);
  // The display scale of sobel and laplacian (display.hpp), for the range line.
  const double full = r.type == sample_type::u8    ? display_scale<std::uint8_t>::full
                      : r.type == sample_type::u16 ? display_scale<std::uint16_t>::full
                                                   : display_scale<float>::full;
  const double mid = r.type == sample_type::u8    ? display_scale<std::uint8_t>::mid
                     : r.type == sample_type::u16 ? display_scale<std::uint16_t>::mid
                                                  : display_scale<float>::mid;
  std::printf("image:     %s: %dx%d, %d channel%s (%s)%s, filtered as %s\n", r.input.c_str(), r.width, r.height,
              r.file_channels, r.file_channels == 1 ? "" : "s", channel_names[std::clamp(r.file_channels, 0, 4)],
              depth.c_str(), r.filtered_as.c_str());
  std::printf("filter:    %s\n", plan.description.c_str());
  if (plan.float_output) {
    const bool sobel = plan.filters.size() == 2;
    if (r.range.empty)
      std::printf("range:     none (no output was written)\n");
    else if (sobel)
      std::printf("range:     gradient magnitude %.6g to %.6g over the ROI's colour channels (%.6g shown as %g)\n",
                  r.range.min, r.range.max, r.range.max, full);
    else
      std::printf("range:     %.6g to %.6g over the ROI's colour channels (shown as %g + value%s)\n", r.range.min,
                  r.range.max, mid, r.type == sample_type::f32 ? "" : ", clamped");
  }
  print_settings(o, s, r.device);
  if (s.where == engine::gpu)
    std::printf("time:      %.3f ms GPU (device events around the convolve call%s; second of two runs)\n", r.ms,
                plan.filters.size() > 1 ? "s" : "");
  else
    std::printf("time:      %.1f ms host wall time (reference::convolve)\n", r.ms);
  std::error_code ec;
  const std::filesystem::path shown = std::filesystem::absolute(r.output, ec);
  std::printf("wrote:     %s\n", ec ? r.output.c_str() : shown.lexically_normal().string().c_str());
}

void print_batch_summary(const options& o, const filter_plan& plan, const run_settings& s, const std::string& device,
                         int written, int inputs, double seconds, double filter_ms) {
  std::printf("filter:    %s\n", plan.description.c_str());
  print_settings(o, s, device);
  std::printf("time:      %.1f ms %s over the files written\n", filter_ms,
              s.where == engine::gpu ? "GPU (device events around the convolve calls; second of two runs)"
                                     : "host wall time (reference::convolve)");
  std::printf("wrote:     %d of %d images to %s in %.2f s (%.1f images/s)\n", written, inputs, o.output_dir.c_str(),
              seconds, seconds > 0 ? inputs / seconds : 0.0);
}

int report(const char* what, int status) {
  std::string m = what;
  std::replace(m.begin(), m.end(), '\n', ' ');
  std::fflush(stdout);
  std::fprintf(stderr, "%s: error: %s\n", program, m.c_str());
  return status;
}

}  // namespace hsf
