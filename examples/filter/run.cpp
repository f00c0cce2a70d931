// examples/filter/run.cpp
// hipstencil-filter: one run, from the parsed options to the written PNG and the summary.

#include "run.hpp"

#include "engine.hpp"
#include "filters.hpp"
#include "image_io.hpp"
#include "report.hpp"

#include <hipstencil/hipstencil.hpp>

#include <cctype>
#include <cstdint>
#include <filesystem>
#include <string>
#include <variant>

namespace hsf {

namespace {

bool ends_with_png(const std::string& p) {
  if (p.size() < 4) return false;
  std::string e = p.substr(p.size() - 4);
  for (char& c : e) c = char(std::tolower(static_cast<unsigned char>(c)));
  return e == ".png";
}

}  // namespace

int run(const options& o) {
  run_result r;  // what the summary shows
  r.input = o.input.empty() ? std::string(HIPSTENCIL_DATA_DIR) + "/astronaut.png" : o.input;
  r.output = o.output;
  if (r.output.empty()) {
    std::string stem = std::filesystem::path(r.input).stem().string();
    if (stem.empty()) stem = "output";
    r.output = stem + "-" + o.filter + ".png";
  } else if (!ends_with_png(r.output)) {
    throw usage_error("OUTPUT must end in .png (the output is always PNG), got '" + r.output + "'");
  }

  const filter_plan plan = make_plan(o);  // usage errors before any file is touched
  const hipstencil_io::image_info info = hipstencil_io::read_info(r.input);
  const hs::rect whole{0, 0, info.width, info.height};
  if (o.roi && !whole.contains(*o.roi)) {
    const hs::rect& roi = *o.roi;
    throw usage_error("--roi " + std::to_string(roi.x) + "," + std::to_string(roi.y) + "," + std::to_string(roi.width) +
                      "," + std::to_string(roi.height) + " is not inside the " + std::to_string(info.width) + "x" +
                      std::to_string(info.height) + " image " + r.input);
  }
  r.width = info.width;
  r.height = info.height;

  run_settings s;
  s.where = choose_engine(o.host, r.device);
  s.roi = o.roi.value_or(whole);
  s.halo = o.halo;
  s.border = o.border;
  s.algo = o.algo;
  s.strategy = o.strategy;
  if (std::holds_alternative<hs::algo::two_pass<>>(o.algo))
    for (const auto& f : plan.filters)
      if (std::holds_alternative<hs::filter2d>(f))
        throw usage_error("--algo two_pass needs a separable filter (box, gaussian, sobel), not " + o.filter);

  r.grey = hipstencil_io::is_grey(info.channels);
  if (r.grey) {
    auto image = hipstencil_io::load_image<std::uint8_t>(r.input, &r.file_channels);
    r.ms = filter_image(image, plan, s, r.range);
    hipstencil_io::save_png(r.output, image.view(), 1);
  } else {
    auto image = hipstencil_io::load_image<hs::uchar4>(r.input, &r.file_channels);
    r.ms = filter_image(image, plan, s, r.range);
    hipstencil_io::save_png(r.output, image.view(), r.file_channels == 4 ? 4 : 3);
  }

  print_summary(o, plan, s, r);
  return 0;
}

}  // namespace hsf
