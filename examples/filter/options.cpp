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
#include <map>
#include <optional>
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

/// A number in its shortest exact form (1000000, 0.5).
std::string format_number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.15g", v);
  return buf;
}

}  // namespace

void print_usage(std::FILE* to) {
  std::fprintf(to,
               "Usage: %s [options] [INPUT [OUTPUT]]\n"
               "       %s [options] --output-dir DIR INPUT...\n"
               "\n"
               "Filters images with hipstencil on the GPU (the host reference where there is no GPU).\n"
               "INPUT: PNG (8- or 16-bit), TIFF (8-bit, 16-bit or 32-bit float), JPEG, BMP or TGA; grey\n"
               "(and grey+alpha, whose alpha is dropped), RGB or RGBA. Filtered as: RGB uchar3, ushort3\n"
               "or float3 (sobel and laplacian: as RGBA); 8-bit grey uint8, RGBA uchar4; 16-bit grey\n"
               "uint16, RGBA ushort4 (sobel, laplacian: one float plane per channel); float grey float,\n"
               "RGBA float4 (alpha filtered too). The output keeps the input's channels (grey,\n"
               "RGB or RGBA) and sample depth, in the format OUTPUT's extension names: .png (8 or 16\n"
               "bits), .tif/.tiff (8, 16 or float), .jpg/.jpeg (8-bit colour: 16-bit samples reduced,\n"
               "alpha dropped, grey written as R = G = B); float cannot be written as PNG or JPEG.\n"
               "Without INPUT: filters the bundled photograph %s/astronaut.png.\n"
               "Without OUTPUT: writes <input stem>-<filter>.png (.tif for a .tif/.tiff input; --format\n"
               "chooses) in the current directory. Files are written atomically (temporary file, then\n"
               "rename).\n"
               "With --output-dir: filters every INPUT into DIR/<input stem>-<filter>.<ext> (as without\n"
               "OUTPUT; DIR is created if missing), printing a line per file on stderr, \"[N/M] INPUT ->\n"
               "OUTPUT (WxH, R images/s)\" or \"[N/M] INPUT: error: <reason>\"; a file that fails does not\n"
               "stop the others.\n"
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
               "  --amount A       sharpening strength, -%.15g <= A <= %.15g\n"
               "  --coeffs \"W H c...\"  custom filter (separated by spaces or commas)\n"
               "  --border RULE    %s (default reflect101);\n"
               "                   constant:V pads with V (input units, default 0). padded is not offered:\n"
               "                   it needs a halo in memory around the image, and a loaded image has none\n"
               "                   skip: outputs whose window leaves the image (or the isolated ROI) keep\n"
               "                   the input's pixels\n"
               "  --roi X,Y,W,H    filter only this rectangle (source ROI = target ROI); the rest of the\n"
               "                   output is a copy of the input\n"
               "  --roi-halo MODE  with --roi: isolated (default: the border rule applies at the ROI's\n"
               "                   edges) or parent (real pixels around the ROI are read; the rule applies at\n"
               "                   the image's edges)\n"
               "  --algo NAME      %s (default automatic; two_pass takes separable filters only)\n"
               "  --strategy NAME  %s (default tile_class), with --algo %s:\n"
               "                   tile_class runs interior tiles with no border checks; per_access maps every read\n"
               "  --host           use the host reference even when a GPU is present (it has one algorithm: no\n"
               "                   --algo or --strategy)\n"
               "  --output-dir DIR the several-inputs form (above)\n"
               "  --format NAME    png|tiff|jpeg: the format of outputs named here (--output-dir, or no\n"
               "                   OUTPUT); OUTPUT's extension sets its own\n"
               "  --quality Q      JPEG quality, 1 <= Q <= 100 (default %d); JPEG output only\n"
               "  --list-algorithms  print the names --algo takes, one per line, and exit\n"
               "  -h, --help       show this help\n"
               "\n"
               "Each option at most once. An option that does nothing with the others given is a usage\n"
               "error: --radius, --sigma, --amount, --coeffs with another filter than they name, --roi-halo\n"
               "without --roi, --strategy with another --algo (automatic, the default, included), --algo and\n"
               "--strategy with --host, --quality without JPEG output, --format with OUTPUT. Without a GPU\n"
               "the host reference runs and --algo and --strategy are not used (the summary says so).\n"
               "Sobel and laplacian show their responses in the image's type: the largest magnitude as\n"
               "255 (8-bit), 65535 (16-bit) or 1.0 (float), 0 as 128, 32768 or 0.5.\n"
               "\n"
               "Prints a summary: image, filter, border, ROI, algorithm, device and time (GPU time measured\n"
               "with device events around the convolve call(s), on the second of two runs; host wall time\n"
               "on the host reference).\n"
               "Exit status: 0 success, 1 runtime error (unreadable input, write or GPU failure; with\n"
               "--output-dir, any input that failed), 2 usage error (bad option or value, unknown output\n"
               "extension or a format this build lacks, ROI outside the image, even custom size).\n",
               program, program, HIPSTENCIL_DATA_DIR, default_box_radius, default_sigma, default_amount, max_amount,
               max_amount, border_help().c_str(), choice_names<algo_choice>().c_str(),
               choice_names<strategy_choice>().c_str(), strategy_algo_names().c_str(), default_quality);
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
      {"--amount",
       [](options& opt, const std::string& v) {
         const double a = parse_real("--amount", v);
         if (!(std::fabs(a) <= max_amount))
           throw usage_error("--amount must be in [-" + format_number(max_amount) + ", " + format_number(max_amount) +
                             "], got " + v);
         opt.amount = a;
       }},
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
      {"--quality",
       [](options& opt, const std::string& v) {
         const long long q = parse_integer("--quality", v);
         if (q < 1 || q > 100) throw usage_error("--quality must be in [1, 100], got " + v);
         opt.quality = int(q);
       }},
      {"--format",
       [](options& opt, const std::string& v) {
         if (v == "png") opt.format = hipstencil_io::file_format::png;
         else if (v == "tiff" || v == "tif") opt.format = hipstencil_io::file_format::tiff;
         else if (v == "jpeg" || v == "jpg") opt.format = hipstencil_io::file_format::jpeg;
         else throw usage_error("unknown --format '" + v + "' (expected png, tiff or jpeg)");
       }},
      {"--output-dir",
       [](options& opt, const std::string& v) {
         if (v.empty()) throw usage_error("--output-dir needs a directory, got an empty string");
         opt.output_dir = v;
       }},
  };

  std::vector<std::string> positional;
  std::map<std::string, std::string> given;  // option name -> its value: repeats are rejected, the rules below ask it
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
    if (a == "--list-algorithms") {
      o.list_algorithms = true;
      return o;
    }
    if (a == "--host") {
      if (o.host) throw usage_error("option --host given twice");
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
    const auto earlier = given.find(name);
    if (earlier != given.end())
      throw usage_error("option " + name + " given twice ('" + earlier->second + "', then '" + value +
                        "'): give it once");
    given.emplace(name, value);
    (*set)(o, value);
  }
  std::optional<hipstencil_io::file_format> output_format;  // OUTPUT's, when given
  if (!o.output_dir.empty()) {
    if (positional.empty()) throw usage_error("--output-dir needs at least one INPUT");
    for (std::size_t i = 0; i < positional.size(); ++i)
      if (positional[i].empty()) throw usage_error("INPUT " + std::to_string(i + 1) + " is an empty string");
    o.inputs = positional;
  } else {
    if (positional.size() > 2)
      throw usage_error("too many arguments: expected at most INPUT and OUTPUT (several inputs take --output-dir), "
                        "got '" + positional[2] + "'");
    if (positional.size() >= 1) o.input = positional[0];
    if (positional.size() >= 2) o.output = positional[1];
    if (o.input.empty() && positional.size() >= 1) throw usage_error("INPUT is an empty string");
    if (!o.output.empty()) {  // an empty OUTPUT is the default name, as it always was
      output_format = hipstencil_io::output_format_of(o.output);
      if (!output_format)
        throw usage_error(std::string("OUTPUT must end in ") + hipstencil_io::output_extensions() +
                          " (its extension sets the format), got '" + o.output + "'");
    }
  }

  // One rule: an option that does nothing with the others given is a mistake, never
  // silently ignored; the message names both.
  const std::string& f = o.filter;
  const std::string filter_text = (given.count("--filter") ? "--filter " : "the default --filter ") + f;
  if (o.radius && f != "box" && f != "gaussian")
    throw usage_error("--radius does nothing with " + filter_text + " (it applies to box and gaussian)");
  if (o.sigma && f != "gaussian")
    throw usage_error("--sigma does nothing with " + filter_text + " (it applies to gaussian)");
  if (o.amount && f != "sharpen")
    throw usage_error("--amount does nothing with " + filter_text + " (it applies to sharpen)");
  if (o.coeffs && f != "custom")
    throw usage_error("--coeffs does nothing with " + filter_text + " (it applies to custom)");
  if (f == "custom" && !o.coeffs) throw usage_error("--filter custom needs --coeffs \"W H c0 c1 ...\"");
  const bool halo_given = given.count("--roi-halo"), algo_given = given.count("--algo"),
             strategy_given = given.count("--strategy");
  if (halo_given && !o.roi)
    throw usage_error("--roi-halo does nothing without --roi (it sets how a ROI's edges are read)");
  if (o.host && algo_given)
    throw usage_error("--algo does nothing with --host (the host reference has a single algorithm)");
  if (o.host && strategy_given)
    throw usage_error("--strategy does nothing with --host (the host reference has no border strategies)");
  if (o.format && output_format)
    throw usage_error("--format does nothing with OUTPUT given ('" + o.output + "': its extension sets the format)");
  const std::optional<hipstencil_io::file_format> written = output_format ? output_format : o.format;
  if (o.quality && written != hipstencil_io::file_format::jpeg)
    throw usage_error("--quality does nothing with " +
                      (output_format ? "OUTPUT '" + o.output + "'"
                       : o.format    ? "--format " + given.at("--format")
                                     : std::string("the default output format (PNG, or TIFF for a TIFF input)")) +
                      " (it applies to JPEG output: an OUTPUT ending in .jpg or .jpeg, or --format jpeg)");
  if (strategy_given && !takes_strategy(o.algo))
    throw usage_error("--strategy does nothing with " + std::string(algo_given ? "--algo " : "the default --algo ") +
                      variant_name(o.algo) + " (it applies to --algo " + strategy_algo_names() + ")");
  return o;
}

}  // namespace hsf
