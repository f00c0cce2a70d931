// examples/filter/report.cpp
// hipstencil-filter: the summary of a run, and the one-line error.

#include "report.hpp"

#include "choices.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <system_error>
#include <variant>

namespace hsf {

void print_summary(const options& o, const filter_plan& plan, const run_settings& s, const run_result& r) {
  static const char* const channel_names[] = {"", "grey", "grey+alpha, alpha dropped", "RGB", "RGBA"};
  std::printf("image:     %s: %dx%d, %d channel%s (%s), filtered as %s\n", r.input.c_str(), r.width, r.height,
              r.file_channels, r.file_channels == 1 ? "" : "s", channel_names[std::clamp(r.file_channels, 0, 4)],
              r.grey ? "uint8" : "uchar4");
  std::printf("filter:    %s\n", plan.description.c_str());
  if (plan.float_output) {
    const bool sobel = plan.filters.size() == 2;
    if (r.range.empty)
      std::printf("range:     none (no output was written)\n");
    else if (sobel)
      std::printf("range:     gradient magnitude %.6g to %.6g over the ROI's colour channels (%.6g shown as 255)\n",
                  r.range.min, r.range.max, r.range.max);
    else
      std::printf("range:     %.6g to %.6g over the ROI's colour channels (shown as 128 + value, clamped)\n",
                  r.range.min, r.range.max);
  }
  std::printf("border:    %s\n", o.border_text.c_str());
  if (o.roi)
    std::printf("roi:       x=%d y=%d %dx%d, halo %s\n", s.roi.x, s.roi.y, s.roi.width, s.roi.height,
                o.halo == hs::halo::isolated ? "isolated" : "parent");
  else
    std::printf("roi:       whole image\n");
  std::printf("algorithm: %s, %s strategy%s\n", variant_name(o.algo).c_str(),
              std::visit([](auto t) { return choice_name<decltype(t)>(); }, o.strategy).c_str(),
              s.where == engine::host ? " (not used: the host reference has a single algorithm)" : "");
  std::printf("device:    %s\n", r.device.c_str());
  if (s.where == engine::gpu)
    std::printf("time:      %.3f ms GPU (device events around the convolve call%s; second of two runs)\n", r.ms,
                plan.filters.size() > 1 ? "s" : "");
  else
    std::printf("time:      %.1f ms host wall time (reference::convolve)\n", r.ms);
  std::error_code ec;
  const std::filesystem::path shown = std::filesystem::absolute(r.output, ec);
  std::printf("wrote:     %s\n", ec ? r.output.c_str() : shown.lexically_normal().string().c_str());
}

int report(const char* what, int status) {
  std::string m = what;
  std::replace(m.begin(), m.end(), '\n', ' ');
  std::fflush(stdout);
  std::fprintf(stderr, "%s: error: %s\n", program, m.c_str());
  return status;
}

}  // namespace hsf
