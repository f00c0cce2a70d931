// examples/filter/options.cpp
// hipstencil-filter: parsing the command line, and the --help text.

#include "options.hpp"

#include "choices.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iterator>
#include <limits>
#include <utility>
#include <variant>
#include <vector>

namespace hsf {

namespace {

const char* const filter_names[] = {"box", "gaussian", "sobel", "laplacian", "sharpen", "custom"};

/// The border names for --help, with the constant's optional value.
std::string border_help() {
  std::string s = choice_names<border_choice>();
  const std::size_t c = s.find("constant");
  if (c != std::string::npos) s.insert(c + std::strlen("constant"), "[:V]");
  return s;
}

}  // namespace

void print_usage(std::FILE* to) {
  std::fprintf(to,
               "Usage: %s [options] [INPUT [OUTPUT]]\n"
               "\n"
               "Filters an image with hipstencil on the GPU (the host reference where there is no GPU)\n"
               "and writes a PNG. INPUT: PNG, JPEG, BMP or TGA; grey (and grey+alpha, whose alpha is\n"
               "dropped) is filtered as uint8, colour as RGBA uchar4 (all four channels). The output has\n"
               "the input's channels (grey, RGB or RGBA).\n"
               "Without INPUT: filters the bundled photograph %s/astronaut.png.\n"
               "Without OUTPUT: writes <input stem>-<filter>.png in the current directory. OUTPUT must\n"
               "end in .png. The file is written atomically (temporary file, then rename).\n"
               "\n"
               "Options:\n"
               "  --filter NAME    box|gaussian|sobel|laplacian|sharpen|custom (default gaussian)\n"
               "                     box        mean of (2R+1)x(2R+1) pixels (--radius, default %d)\n"
               "                     gaussian   --sigma S (default %g), --radius R (default int(4S+0.5))\n"
               "                     sobel      gradient magnitude sqrt(gx^2 + gy^2) of the 3x3 Sobel pair, in\n"
               "                                float, scaled so the largest magnitude in the ROI (colour\n"
               "                                channels, not alpha) is 255; alpha is 255\n"
               "                     laplacian  3x3 4-neighbour Laplacian, in float, shown as 128 + value\n"
               "                                clamped to [0, 255] (mid-grey = 0); alpha is 255\n"
               "                     sharpen    identity - A * Laplacian (--amount A, default %g)\n"
               "                     custom     --coeffs \"W H c0 c1 ...\": W x H (odd) row-major correlation\n"
               "                                coefficients, anchor at the centre\n"
               "  --radius R       radius in pixels (box, gaussian), R >= 0\n"
               "  --sigma S        Gaussian standard deviation in pixels, S > 0\n"
               "  --amount A       sharpening strength\n"
               "  --coeffs \"W H c...\"  custom filter (separated by spaces or commas)\n"
               "  --border RULE    %s (default reflect101);\n"
               "                   constant:V pads with V (input units, default 0). padded is not offered:\n"
               "                   it needs a halo in memory around the image, and a loaded image has none\n"
               "                   skip: outputs whose window leaves the image (or the isolated ROI) keep\n"
               "                   the input's pixels\n"
               "  --roi X,Y,W,H    filter only this rectangle (source ROI = target ROI); the rest of the\n"
               "                   output is a copy of the input\n"
               "  --roi-halo MODE  isolated (default: the border rule applies at the ROI's edges) or parent\n"
               "                   (real pixels around the ROI are read; the rule applies at the image's edges)\n"
               "  --algo NAME      %s (default automatic; two_pass takes separable filters only)\n"
               "  --strategy NAME  %s: border strategy of shared_mem, two_pass, tiled, streaming (default tile_class:\n"
               "                   interior tiles run with no border checks; per_access maps every read)\n"
               "  --host           use the host reference even when a GPU is present\n"
               "  --list-algorithms  print the names --algo takes, one per line, and exit\n"
               "  -h, --help       show this help\n"
               "\n"
               "Prints a summary: image, filter, border, ROI, algorithm, device and time (GPU time measured\n"
               "with device events around the convolve call(s), on the second of two runs; host wall time\n"
               "on the host reference).\n"
               "Exit status: 0 success, 1 runtime error (unreadable input, write or GPU failure),\n"
               "2 usage error (bad option or value, ROI outside the image, even custom size).\n",
               program, HIPSTENCIL_DATA_DIR, default_box_radius, default_sigma, default_amount,
               border_help().c_str(), choice_names<algo_choice>().c_str(), choice_names<strategy_choice>().c_str());
}

// Strict number parsing: the whole text must be the number.
long long parse_integer(const std::string& what, const std::string& s) {
  const char* b = s.c_str();
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(b, &end, 10);
  if (s.empty() || std::isspace(static_cast<unsigned char>(s[0])) || end == b || *end != '\0')
    throw usage_error(what + ": '" + s + "' is not an integer");
  if (errno == ERANGE || v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max())
    throw usage_error(what + ": " + s + " is out of range");
  return v;
}
double parse_real(const std::string& what, const std::string& s) {
  const char* b = s.c_str();
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(b, &end);
  if (s.empty() || std::isspace(static_cast<unsigned char>(s[0])) || end == b || *end != '\0')
    throw usage_error(what + ": '" + s + "' is not a number");
  if (!std::isfinite(v) || errno == ERANGE) throw usage_error(what + ": " + s + " is not a finite number");
  return v;
}

namespace {

hs::rect parse_roi(const std::string& s) {
  // Exactly four comma-separated integers (empty fields are errors).
  std::vector<std::string> f;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = s.find(',', start);
    f.push_back(s.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (f.size() != 4) throw usage_error("--roi: expected X,Y,W,H (four integers), got '" + s + "'");
  hs::rect r;
  r.x = int(parse_integer("--roi X", f[0]));
  r.y = int(parse_integer("--roi Y", f[1]));
  r.width = int(parse_integer("--roi W", f[2]));
  r.height = int(parse_integer("--roi H", f[3]));
  if (r.x < 0 || r.y < 0) throw usage_error("--roi: X and Y must be >= 0, got " + s);
  if (r.width < 1 || r.height < 1) throw usage_error("--roi: W and H must be >= 1, got " + s);
  return r;
}

void parse_border(const std::string& text, options& o) {
  const std::size_t colon = text.find(':');
  const std::string name = text.substr(0, colon);
  if (name == "padded")
    throw usage_error("--border padded is not offered: it reads a halo that must exist in memory around the image, "
                      "and a loaded image has none (use replicate, reflect101, ...)");
  if (!choose_by_name(name, o.border))
    throw usage_error("unknown border '" + text + "' (expected " + choice_names<border_choice>(", ") + ")");
  if (colon != std::string::npos) {
    auto* c = std::get_if<hs::border::constant>(&o.border);
    if (!c) throw usage_error("--border " + name + " takes no value (only constant:V does), got '" + text + "'");
    const double v = parse_real("--border constant:V", text.substr(colon + 1));
    if (std::fabs(v) > double(std::numeric_limits<float>::max()))
      throw usage_error("--border constant:V: " + text.substr(colon + 1) + " does not fit a 32-bit float (|V| <= 3.4e38)");
    c->value = float(v);
  }
  o.border_text = text;
}

}  // namespace

options parse_args(int argc, char** argv) {
  options o;
  using setter = std::function<void(options&, const std::string&)>;
  const std::pair<const char*, setter> valued[] = {
      {"--filter",
       [](options& opt, const std::string& v) {
         if (std::find(std::begin(filter_names), std::end(filter_names), v) == std::end(filter_names))
           throw usage_error("unknown filter '" + v + "' (expected box, gaussian, sobel, laplacian, sharpen or custom)");
         opt.filter = v;
       }},
      {"--radius",
       [](options& opt, const std::string& v) {
         const long long r = parse_integer("--radius", v);
         if (r < 0 || r > 1000000) throw usage_error("--radius must be in [0, 1000000], got " + v);
         opt.radius = int(r);
       }},
      {"--sigma",
       [](options& opt, const std::string& v) {
         const double s = parse_real("--sigma", v);
         if (!(s > 0)) throw usage_error("--sigma must be > 0, got " + v);
         opt.sigma = s;
       }},
      {"--amount", [](options& opt, const std::string& v) { opt.amount = parse_real("--amount", v); }},
      {"--coeffs", [](options& opt, const std::string& v) { opt.coeffs = v; }},
      {"--border", [](options& opt, const std::string& v) { parse_border(v, opt); }},
      {"--roi", [](options& opt, const std::string& v) { opt.roi = parse_roi(v); }},
      {"--roi-halo",
       [](options& opt, const std::string& v) {
         if (v == "isolated") opt.halo = hs::halo::isolated;
         else if (v == "parent" || v == "from_parent") opt.halo = hs::halo::from_parent;
         else throw usage_error("unknown --roi-halo '" + v + "' (expected isolated or parent)");
       }},
      {"--algo",
       [](options& opt, const std::string& v) {
         if (!choose_by_name(v, opt.algo))
           throw usage_error("unknown algorithm '" + v + "' (expected " + choice_names<algo_choice>(", ") + ")");
       }},
      {"--strategy",
       [](options& opt, const std::string& v) {
         if (!choose_by_name(v, opt.strategy))
           throw usage_error("unknown border strategy '" + v + "' (expected " + choice_names<strategy_choice>(", ") +
                             ")");
       }},
  };

  std::vector<std::string> positional;
  bool options_end = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (options_end || a.size() < 2 || a[0] != '-') {
      positional.push_back(a);
      continue;
    }
    if (a == "--") {
      options_end = true;
      continue;
    }
    if (a == "-h" || a == "--help") {
      o.help = true;
      return o;
    }
    if (a == "--list-algorithms") {  // for scripts: the names --algo takes, one per line
      std::printf("%s\n", choice_names<algo_choice>("\n").c_str());
      std::exit(0);
    }
    if (a == "--host") {
      o.host = true;
      continue;
    }
    const std::size_t eq = a.find('=');
    const std::string name = a.substr(0, eq);
    const setter* set = nullptr;
    for (const auto& v : valued)
      if (name == v.first) set = &v.second;
    if (!set) throw usage_error("unknown option '" + a + "' (see --help)");
    std::string value;
    if (eq != std::string::npos) {
      value = a.substr(eq + 1);
    } else {
      if (i + 1 >= argc) throw usage_error("option " + name + " needs a value (see --help)");
      value = argv[++i];
    }
    (*set)(o, value);
  }
  if (positional.size() > 2)
    throw usage_error("too many arguments: expected at most INPUT and OUTPUT, got '" + positional[2] + "'");
  if (positional.size() >= 1) o.input = positional[0];
  if (positional.size() >= 2) o.output = positional[1];
  if (o.input.empty() && positional.size() >= 1) throw usage_error("INPUT is an empty string");

  // Options that do not apply to the chosen filter are mistakes, not silently ignored.
  const std::string& f = o.filter;
  if (o.radius && f != "box" && f != "gaussian") throw usage_error("--radius applies to box and gaussian, not " + f);
  if (o.sigma && f != "gaussian") throw usage_error("--sigma applies to gaussian, not " + f);
  if (o.amount && f != "sharpen") throw usage_error("--amount applies to sharpen, not " + f);
  if (o.coeffs && f != "custom") throw usage_error("--coeffs applies to custom, not " + f);
  if (f == "custom" && !o.coeffs) throw usage_error("--filter custom needs --coeffs \"W H c0 c1 ...\"");
  return o;
}

}  // namespace hsf
