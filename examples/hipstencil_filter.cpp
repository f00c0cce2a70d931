// examples/hipstencil_filter.cpp
// hipstencil-filter: filters a photograph with hipstencil on the GPU (or with the host
// reference where there is none) and writes a PNG. Run with --help for the options.
//
// One source, three builds: g++ (host-only backend: HIPSTENCIL_HAS_GPU is 0 and the host
// reference hipstencil::reference::convolve does the work), nvcc (CUDA backend) and hipcc
// (HIP backend). Everything GPU-specific is inside `#if HIPSTENCIL_HAS_GPU`.
//
// Exit status: 0 success; 2 usage error (bad option or value, ROI outside the image, even
// custom filter size, ...); 1 runtime error (unreadable input, failed write, GPU error).
// Every error is one line on stderr starting "hipstencil-filter: error: ", and no output
// file is created or changed (the PNG is written to a temporary file and renamed).

#include <hipstencil/hipstencil.hpp>

#include "image_io.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <functional>
#include <limits>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#ifndef HIPSTENCIL_DATA_DIR
#define HIPSTENCIL_DATA_DIR "data"  // CMake sets the absolute path of the bundled images
#endif

namespace hs = hipstencil;

namespace {

constexpr const char* program = "hipstencil-filter";

/// A mistake on the command line (exit status 2).
struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// ---------------------------------------------------------------------------------------
// Run-time choices that select types. Each list is a std::variant of the library's tag or
// policy types; parsing matches a name against every alternative, and the work is done
// by std::visit with generic lambdas, so adding an algorithm (or a border rule) to the
// command line is adding its type to the list below.

/// Algorithms offered by --algo (first = default). Names come from Tag::name.
using algo_choice =
    std::variant<hs::algo::automatic, hs::algo::naive, hs::algo::shared_mem<>, hs::algo::two_pass<>, hs::algo::tiled<>,
                 hs::algo::streaming<>>;

/// Border strategies offered by --strategy (first = default); they apply to shared_mem,
/// two_pass, tiled and streaming (naive maps every access; automatic uses tile-class dispatch).
using strategy_choice = std::variant<hs::strategy::tile_class, hs::strategy::per_access>;

/// The algorithm tag A with strategy S (A unchanged for algorithms without a choice).
template <class A, class S>
struct with_strategy {
  using type = A;
};
template <class S0, class S>
struct with_strategy<hs::algo::shared_mem<S0>, S> {
  using type = hs::algo::shared_mem<S>;
};
template <class S0, class S>
struct with_strategy<hs::algo::two_pass<S0>, S> {
  using type = hs::algo::two_pass<S>;
};
template <class S0, class S>
struct with_strategy<hs::algo::tiled<S0>, S> {
  using type = hs::algo::tiled<S>;
};
template <class S0, class S>
struct with_strategy<hs::algo::streaming<S0>, S> {
  using type = hs::algo::streaming<S>;
};
template <class A>
constexpr bool is_two_pass = std::is_same<A, hs::algo::two_pass<>>::value;

/// Border rules offered by --border (first = default). `padded` is deliberately absent:
/// it reads a halo that must exist in memory around the image, and a loaded image has none.
using border_choice = std::variant<hs::border::reflect101, hs::border::replicate, hs::border::constant,
                                   hs::border::reflect, hs::border::wrap, hs::border::skip>;

/// A filter is separable (box, gaussian, sobel) or dense (laplacian, sharpen, custom).
using filter_choice = std::variant<hs::separable_filter, hs::filter2d>;

template <class T, class = void>
struct is_border_policy : std::false_type {};
template <class T>
struct is_border_policy<T, std::void_t<decltype(T::rule)>> : std::true_type {};

/// The command-line name of a choice: border::name(T::rule) for a border policy, else T::name.
template <class T>
std::string choice_name() {
  if constexpr (is_border_policy<T>::value)
    return hs::border::name(T::rule);
  else
    return T::name;
}

/// Sets `out` to the alternative called `name`; false if there is none.
template <class Variant, std::size_t... I>
bool choose_by_name(const std::string& name, Variant& out, std::index_sequence<I...>) {
  return ((choice_name<std::variant_alternative_t<I, Variant>>() == name ? (out.template emplace<I>(), true) : false) ||
          ...);
}
template <class Variant>
bool choose_by_name(const std::string& name, Variant& out) {
  return choose_by_name(name, out, std::make_index_sequence<std::variant_size<Variant>::value>{});
}
/// "a|b|c": the names of a variant's alternatives, for --help and error messages.
template <class Variant, std::size_t... I>
std::string choice_names(std::index_sequence<I...>, const char* sep) {
  std::string s;
  ((s += (I ? sep : "") + choice_name<std::variant_alternative_t<I, Variant>>()), ...);
  return s;
}
template <class Variant>
std::string choice_names(const char* sep = "|") {
  return choice_names<Variant>(std::make_index_sequence<std::variant_size<Variant>::value>{}, sep);
}

std::string variant_name(const algo_choice& a) {
  return std::visit([](auto t) { return choice_name<decltype(t)>(); }, a);
}

const char* const filter_names[] = {"box", "gaussian", "sobel", "laplacian", "sharpen", "custom"};

// ---------------------------------------------------------------------------------------
// Options.

struct options {
  std::string filter = "gaussian";
  std::optional<int> radius;         // box, gaussian
  std::optional<double> sigma;       // gaussian
  std::optional<double> amount;      // sharpen
  std::optional<std::string> coeffs; // custom
  border_choice border;              // default reflect101
  std::string border_text = "reflect101";
  std::optional<hs::rect> roi;
  hs::halo halo = hs::halo::isolated;
  algo_choice algo;                  // default automatic
  strategy_choice strategy;          // default tile_class
  bool host = false;
  bool help = false;
  std::string input, output;
};

constexpr double default_sigma = 2.0;
constexpr int default_box_radius = 2;
constexpr double default_amount = 1.0;

/// The border names for --help, with the constant's optional value.
std::string border_help() {
  std::string s = choice_names<border_choice>();
  const std::size_t c = s.find("constant");
  if (c != std::string::npos) s.insert(c + std::strlen("constant"), "[:V]");
  return s;
}

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

std::vector<std::string> split(const std::string& s, const char* separators) {
  std::vector<std::string> out;
  std::string cur;
  bool in_token = false;
  for (char c : s) {
    if (std::strchr(separators, c)) {
      if (in_token) out.push_back(cur);
      cur.clear();
      in_token = false;
    } else {
      cur += c;
      in_token = true;
    }
  }
  if (in_token) out.push_back(cur);
  return out;
}

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
    c->value = float(parse_real("--border constant:V", text.substr(colon + 1)));
  }
  o.border_text = text;
}

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

// ---------------------------------------------------------------------------------------
// Filters.

hs::filter2d parse_custom(const std::string& text) {
  const std::vector<std::string> t = split(text, " \t\n,");
  if (t.size() < 2) throw usage_error("--coeffs: expected \"W H c0 c1 ...\", got '" + text + "'");
  const long long w = parse_integer("--coeffs W", t[0]);
  const long long h = parse_integer("--coeffs H", t[1]);
  if (w < 1 || h < 1 || w % 2 == 0 || h % 2 == 0)
    throw usage_error("--coeffs: the filter size must be odd in both directions (the anchor is the centre), got " +
                      t[0] + "x" + t[1]);
  if (w * h > 1000000) throw usage_error("--coeffs: " + t[0] + "x" + t[1] + " is too large");
  if (t.size() - 2 != std::size_t(w * h))
    throw usage_error("--coeffs: a " + t[0] + "x" + t[1] + " filter needs " + std::to_string(w * h) +
                      " coefficients, got " + std::to_string(t.size() - 2));
  std::vector<float> c;
  for (std::size_t i = 2; i < t.size(); ++i) c.push_back(float(parse_real("--coeffs c" + std::to_string(i - 2), t[i])));
  return hs::filter2d(int(w), int(h), std::move(c));
}

/// The filters to run (sobel: x then y) and a description for the summary.
struct filter_plan {
  std::vector<filter_choice> filters;
  std::string description;
  bool float_output = false;  // sobel, laplacian: filtered into float, post-processed for display
};

filter_plan make_plan(const options& o) {
  filter_plan p;
  std::ostringstream d;
  const std::string& f = o.filter;
  if (f == "box") {
    const int r = o.radius.value_or(default_box_radius);
    p.filters.emplace_back(hs::filters::box(r));
    d << "box, radius " << r << " (" << 2 * r + 1 << "x" << 2 * r + 1 << ", separable)";
  } else if (f == "gaussian") {
    const double sigma = o.sigma.value_or(default_sigma);
    const int r = o.radius.value_or(-1);
    hs::separable_filter g = hs::filters::gaussian(sigma, r);
    d << "gaussian, sigma " << sigma << ", radius " << g.width() / 2 << (o.radius ? "" : " (from sigma)") << " ("
      << g.width() << "x" << g.height() << ", separable)";
    p.filters.emplace_back(std::move(g));
  } else if (f == "sobel") {
    p.filters.emplace_back(hs::filters::sobel_x());
    p.filters.emplace_back(hs::filters::sobel_y());
    p.float_output = true;
    d << "sobel (3x3 x and y, magnitude scaled to max 255)";
  } else if (f == "laplacian") {
    p.filters.emplace_back(hs::filters::laplacian());
    p.float_output = true;
    d << "laplacian (3x3, shown as 128 + value)";
  } else if (f == "sharpen") {
    const double a = o.amount.value_or(default_amount);
    p.filters.emplace_back(hs::filters::sharpen(float(a)));
    d << "sharpen, amount " << a << " (3x3)";
  } else {  // custom
    hs::filter2d k = parse_custom(*o.coeffs);
    d << "custom (" << k.width() << "x" << k.height() << ")";
    p.filters.emplace_back(std::move(k));
  }
  p.description = d.str();
  return p;
}

// ---------------------------------------------------------------------------------------
// Running the filters: on the GPU, or with the host reference.

enum class engine { gpu, host };

struct run_settings {
  engine where = engine::host;
  hs::rect roi;
  hs::halo halo = hs::halo::isolated;
  border_choice border;
  algo_choice algo;
  strategy_choice strategy;
};

#if HIPSTENCIL_HAS_GPU
/// One GPU run: the stream, device copies of the source and of one output per filter, and
/// the events around the timed launches.
template <class In, class Out>
struct device_run {
  hs::gpu::stream stream;
  hs::gpu::event start, stop;
  hs::device_image<In> src;
  std::vector<hs::device_image<Out>> dst;

  /// Uploads src and dsts (the untouched pixels keep their values) and queues the filters
  /// twice, the second time between the events. Returns once the work is queued.
  void launch(const hs::host_image<In>& h_src, const std::vector<filter_choice>& filters,
              const std::vector<hs::host_image<Out>>& h_dsts, const run_settings& s) {
    src = hs::device_image<In>(h_src.width(), h_src.height());
    src.upload(h_src.view(), stream.get());
    for (const auto& d : h_dsts) {
      dst.emplace_back(d.width(), d.height());
      dst.back().upload(d.view(), stream.get());
    }
    const auto launch_all = [&] {
      for (std::size_t i = 0; i < filters.size(); ++i)
        std::visit(
            [&](const auto& f, auto border, auto algo, auto strategy) {
              using algo_t = typename with_strategy<decltype(algo), decltype(strategy)>::type;
              using filter_t = std::decay_t<decltype(f)>;
              // Rejected in main() before anything runs: two_pass takes separable filters only.
              if constexpr (!(is_two_pass<decltype(algo)> && std::is_same<filter_t, hs::filter2d>::value))
                hs::convolve(src.view(), s.roi, dst[i].view(), s.roi, f, border, algo_t{}, stream.get(), s.halo);
            },
            filters[i], s.border, s.algo, s.strategy);
    };
    launch_all();  // warm-up: module loading and first-touch costs are not timed
    hs::gpu::event_record(start.get(), stream.get());
    launch_all();  // writes the same values again
    hs::gpu::event_record(stop.get(), stream.get());
  }
  /// GPU milliseconds of the timed launches; call after synchronising the stream.
  double ms() const { return double(hs::gpu::event_elapsed_ms(start.get(), stop.get())); }
};
#endif

/// Filters src with each filters[i] into dsts[i] (same size as src; pixels outside the ROI,
/// and outputs border::skip does not write, keep the values they come with). Returns the
/// time in milliseconds: GPU event time of the convolve calls, or host wall time.
template <class In, class Out>
double run_filters(const hs::host_image<In>& src, const std::vector<filter_choice>& filters,
                   std::vector<hs::host_image<Out>>& dsts, const run_settings& s) {
  if (s.where == engine::host) {
    const auto t0 = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < filters.size(); ++i)
      std::visit(
          [&](const auto& f, auto border) {
            hs::reference::convolve(src.view(), s.roi, dsts[i].view(), s.roi, f, border, s.halo);
          },
          filters[i], s.border);
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  }
#if HIPSTENCIL_HAS_GPU
  device_run<In, Out> run;
  run.launch(src, filters, dsts, s);
  for (std::size_t i = 0; i < dsts.size(); ++i) run.dst[i].download(dsts[i].view(), run.stream.get());
  hs::gpu::stream_synchronize(run.stream.get());
  return run.ms();
#else
  throw std::logic_error("GPU engine requested in a host-only build");
#endif
}

// ---------------------------------------------------------------------------------------
// Display post-processing of float results: on the host after download (host reference),
// or on the device (GPU runs), where the Sobel scale comes from hs::min_max. Both give the
// same bytes for the same float responses: the device reduces the SQUARED magnitude, which
// is exact in float for 8-bit inputs and integer taps (|g| <= 1020, g^2 + g^2 < 2^24), and
// sqrt(max g^2) is max sqrt(g^2), correctly rounded on both sides.

template <class P>
constexpr int colour_channels() {
  return hs::pixel_traits<P>::channels == 1 ? 1 : 3;  // RGBA: R, G, B (alpha excluded)
}

/// Range of the response over the ROI's colour channels, for the summary: the gradient
/// magnitude (sobel) or the value (laplacian). empty when nothing was written.
struct response_range {
  bool empty = true;
  double min = 0, max = 0;
  void add(double v) {
    if (v != v) return;
    min = empty ? v : std::min(min, v);
    max = empty ? v : std::max(max, v);
    empty = false;
  }
};

/// Sobel: out = round(255 * sqrt(gx^2 + gy^2) / max) per colour channel (double maths,
/// ties to even, saturated), max over the ROI's colour channels; alpha 255. Outputs that
/// were not computed (NaN: border::skip) keep the input pixel.
template <class In, class F>
response_range sobel_display(const hs::host_image<F>& gx, const hs::host_image<F>& gy, const hs::rect& roi,
                             hs::host_image<In>& out) {
  using ti = hs::pixel_traits<In>;
  using tf = hs::pixel_traits<F>;
  constexpr int C = colour_channels<In>();
  response_range range;
  for (int y = roi.y; y < roi.y + roi.height; ++y)
    for (int x = roi.x; x < roi.x + roi.width; ++x)
      for (int c = 0; c < C; ++c) {
        const double a = tf::get(gx(x, y), c), b = tf::get(gy(x, y), c);
        range.add(std::sqrt(a * a + b * b));
      }
  const double max_mag = range.empty ? 0.0 : range.max;
  const double scale = max_mag > 0 ? 255.0 / max_mag : 0.0;
  for (int y = roi.y; y < roi.y + roi.height; ++y)
    for (int x = roi.x; x < roi.x + roi.width; ++x) {
      if (std::isnan(double(tf::get(gx(x, y), 0)))) continue;  // not written (skip)
      In p = out(x, y);
      for (int c = 0; c < C; ++c) {
        const double a = tf::get(gx(x, y), c), b = tf::get(gy(x, y), c);
        ti::set(p, c, hs::saturate_cast<typename ti::channel_type>(std::sqrt(a * a + b * b) * scale));
      }
      if constexpr (ti::channels == 4) ti::set(p, 3, 255);
      out(x, y) = p;
    }
  return range;
}

/// Laplacian: out = clamp(round(128 + value), 0, 255) per colour channel (ties to even);
/// alpha 255. NaN (not written under border::skip) keeps the input pixel.
template <class In, class F>
response_range laplacian_display(const hs::host_image<F>& v, const hs::rect& roi, hs::host_image<In>& out) {
  using ti = hs::pixel_traits<In>;
  using tf = hs::pixel_traits<F>;
  constexpr int C = colour_channels<In>();
  response_range range;
  for (int y = roi.y; y < roi.y + roi.height; ++y)
    for (int x = roi.x; x < roi.x + roi.width; ++x) {
      if (std::isnan(double(tf::get(v(x, y), 0)))) continue;
      In p = out(x, y);
      for (int c = 0; c < C; ++c) {
        range.add(double(tf::get(v(x, y), c)));
        ti::set(p, c, hs::saturate_cast<typename ti::channel_type>(128.0 + double(tf::get(v(x, y), c))));
      }
      if constexpr (ti::channels == 4) ti::set(p, 3, 255);
      out(x, y) = p;
    }
  return range;
}

template <class P>
struct float_of;
template <>
struct float_of<std::uint8_t> {
  using type = float;
  static float nan() { return std::numeric_limits<float>::quiet_NaN(); }
};
template <>
struct float_of<hs::uchar4> {
  using type = hs::float4;
  static hs::float4 nan() {
    const float n = std::numeric_limits<float>::quiet_NaN();
    hs::float4 v;
    v.x = v.y = v.z = v.w = n;
    return v;
  }
};

#if HIPSTENCIL_HAS_GPU
// The same display on the device. One thread per ROI pixel; (x, y) are parent coordinates.
#define HIPSTENCIL_FILTER_ROI_PIXEL(roi)                                      \
  const int x = roi.x + int(blockIdx.x * blockDim.x + threadIdx.x);       \
  const int y = roi.y + int(blockIdx.y * blockDim.y + threadIdx.y);       \
  if (x >= roi.x + roi.width || y >= roi.y + roi.height) return;

/// sq = gx^2 + gy^2 per colour channel (formed in double, stored as float); NaN stays NaN.
template <class P, class F>
__global__ void squared_magnitude_kernel(hs::image_view<const F> gx, hs::image_view<const F> gy, hs::image_view<F> sq,
                                         hs::rect roi) {
  HIPSTENCIL_FILTER_ROI_PIXEL(roi)
  using tf = hs::pixel_traits<F>;
  F m = gx(x, y);  // alpha (not selected by the reduction) is left as it is
  for (int c = 0; c < (hs::pixel_traits<P>::channels == 1 ? 1 : 3); ++c) {
    const double a = tf::get(gx(x, y), c), b = tf::get(gy(x, y), c);
    tf::set(m, c, float(a * a + b * b));
  }
  sq(x, y) = m;
}

/// As sobel_display, with max = sqrt(range->max), the largest squared magnitude.
template <class P, class F>
__global__ void sobel_display_kernel(hs::image_view<const F> gx, hs::image_view<const F> gy,
                                     const hs::value_range<float>* range, hs::image_view<P> out, hs::rect roi) {
  HIPSTENCIL_FILTER_ROI_PIXEL(roi)
  using ti = hs::pixel_traits<P>;
  using tf = hs::pixel_traits<F>;
  const float g0 = tf::get(gx(x, y), 0);
  if (g0 != g0) return;  // not written (skip): keep the input pixel
  const double max_mag = range->max > 0 ? ::sqrt(double(range->max)) : 0.0;  // -inf when nothing was written
  const double scale = max_mag > 0 ? 255.0 / max_mag : 0.0;
  P p = out(x, y);
  for (int c = 0; c < (ti::channels == 1 ? 1 : 3); ++c) {
    const double a = tf::get(gx(x, y), c), b = tf::get(gy(x, y), c);
    ti::set(p, c, hs::saturate_cast<typename ti::channel_type>(::sqrt(a * a + b * b) * scale));
  }
  if (ti::channels == 4) ti::set(p, 3, 255);
  out(x, y) = p;
}

template <class P, class F>
__global__ void laplacian_display_kernel(hs::image_view<const F> v, hs::image_view<P> out, hs::rect roi) {
  HIPSTENCIL_FILTER_ROI_PIXEL(roi)
  using ti = hs::pixel_traits<P>;
  using tf = hs::pixel_traits<F>;
  const float v0 = tf::get(v(x, y), 0);
  if (v0 != v0) return;
  P p = out(x, y);
  for (int c = 0; c < (ti::channels == 1 ? 1 : 3); ++c)
    ti::set(p, c, hs::saturate_cast<typename ti::channel_type>(128.0 + double(tf::get(v(x, y), c))));
  if (ti::channels == 4) ti::set(p, 3, 255);
  out(x, y) = p;
}
#undef HIPSTENCIL_FILTER_ROI_PIXEL

/// One value_range<float> in device memory.
struct device_range {
  hs::value_range<float>* p = static_cast<hs::value_range<float>*>(hs::gpu::malloc(sizeof(hs::value_range<float>)));
  device_range() = default;
  device_range(const device_range&) = delete;
  device_range& operator=(const device_range&) = delete;
  ~device_range() { hs::gpu::free(p); }
};

/// The GPU path of a float-output plan (sobel, laplacian): convolve, then scale for
/// display on the device, with the response range from hs::min_max; only the displayed
/// image comes back. Returns the time of the convolve calls.
template <class P>
double gpu_display(hs::host_image<P>& image, const filter_plan& plan, const run_settings& s, response_range& range) {
  using F = typename float_of<P>::type;
  std::vector<hs::host_image<F>> init;
  for (std::size_t i = 0; i < plan.filters.size(); ++i)
    init.emplace_back(image.width(), image.height(), float_of<P>::nan());  // NaN marks "not written"
  device_run<P, F> run;
  run.launch(image, plan.filters, init, s);
  const hs::gpu::stream_t st = run.stream.get();
  const dim3 block(16, 16);
  const dim3 grid((s.roi.width + 15) / 16, (s.roi.height + 15) / 16);
  device_range d_range;
  const auto out = run.src.view();  // displayed in place: its pixels are not needed any more
  if (plan.filters.size() == 2) {
    const hs::image_view<const F> gx = run.dst[0].view(), gy = run.dst[1].view();
    hs::device_image<F> sq(image.width(), image.height());
    squared_magnitude_kernel<P, F><<<grid, block, 0, st>>>(gx, gy, sq.view(), s.roi);
    hs::gpu::check_launch("squared_magnitude_kernel");
    // Allocates its workspace stream-ordered on st (a CLI runs this once).
    hs::min_max(sq.view().sub(s.roi), hs::channel_set::colour(), d_range.p, st);
    sobel_display_kernel<P, F><<<grid, block, 0, st>>>(gx, gy, d_range.p, out, s.roi);
    hs::gpu::check_launch("sobel_display_kernel");
  } else {
    const hs::image_view<const F> v = run.dst[0].view();
    hs::min_max(v.sub(s.roi), hs::channel_set::colour(), d_range.p, st);
    laplacian_display_kernel<P, F><<<grid, block, 0, st>>>(v, out, s.roi);
    hs::gpu::check_launch("laplacian_display_kernel");
  }
  hs::value_range<float> r{};
  hs::gpu::memcpy(&r, d_range.p, sizeof r, hs::gpu::copy_kind::device_to_host, st);
  run.src.download(image.view(), st);
  hs::gpu::stream_synchronize(st);
  if (r.min <= r.max) {  // else nothing was written: min_max gives {+inf, -inf}
    const bool squared = plan.filters.size() == 2;
    range.add(squared ? std::sqrt(double(r.min)) : double(r.min));
    range.add(squared ? std::sqrt(double(r.max)) : double(r.max));
  }
  return run.ms();
}
#endif

/// Filters `image` (grey uint8 or colour uchar4) as the plan says; returns the time. For
/// sobel and laplacian, `range` receives the response range.
template <class P>
double filter_image(hs::host_image<P>& image, const filter_plan& plan, const run_settings& s, response_range& range) {
  if (!plan.float_output) {
    std::vector<hs::host_image<P>> out{image};  // a copy: only the ROI changes
    const double ms = run_filters(image, plan.filters, out, s);
    image = std::move(out[0]);
    return ms;
  }
#if HIPSTENCIL_HAS_GPU
  if (s.where == engine::gpu) return gpu_display(image, plan, s, range);
#endif
  using F = typename float_of<P>::type;
  std::vector<hs::host_image<F>> out;
  for (std::size_t i = 0; i < plan.filters.size(); ++i)
    out.emplace_back(image.width(), image.height(), float_of<P>::nan());  // NaN marks "not written"
  const double ms = run_filters(image, plan.filters, out, s);
  if (plan.filters.size() == 2)
    range = sobel_display(out[0], out[1], s.roi, image);
  else
    range = laplacian_display(out[0], s.roi, image);
  return ms;
}

// ---------------------------------------------------------------------------------------

bool ends_with_png(const std::string& p) {
  if (p.size() < 4) return false;
  std::string e = p.substr(p.size() - 4);
  for (char& c : e) c = char(std::tolower(static_cast<unsigned char>(c)));
  return e == ".png";
}

/// Chooses where to run and fills `device` with the summary's device line (which, on a host run,
/// is the one line saying why the host reference is used).
engine choose_engine(bool force_host, std::string& device) {
  if (force_host) {
    device = "host reference (--host)";
    return engine::host;
  }
#if HIPSTENCIL_HAS_GPU
  if (hs::gpu::device_count() == 0) {
    device = "host reference (no GPU: no " + std::string(hs::backend_name()) + " device found)";
    return engine::host;
  }
  device = hs::gpu::device_name(hs::gpu::current_device()) + " (" + hs::backend_name() + ")";
  return engine::gpu;
#else
  device = "host reference (no GPU: host-only build)";
  return engine::host;
#endif
}

int run(const options& o) {
  const std::string input = o.input.empty() ? std::string(HIPSTENCIL_DATA_DIR) + "/astronaut.png" : o.input;
  std::string output = o.output;
  if (output.empty()) {
    std::string stem = std::filesystem::path(input).stem().string();
    if (stem.empty()) stem = "output";
    output = stem + "-" + o.filter + ".png";
  } else if (!ends_with_png(output)) {
    throw usage_error("OUTPUT must end in .png (the output is always PNG), got '" + output + "'");
  }

  const filter_plan plan = make_plan(o);  // usage errors before any file is touched
  const hipstencil_io::image_info info = hipstencil_io::read_info(input);
  const hs::rect whole{0, 0, info.width, info.height};
  if (o.roi && !whole.contains(*o.roi)) {
    const hs::rect& r = *o.roi;
    throw usage_error("--roi " + std::to_string(r.x) + "," + std::to_string(r.y) + "," + std::to_string(r.width) + "," +
                      std::to_string(r.height) + " is not inside the " + std::to_string(info.width) + "x" +
                      std::to_string(info.height) + " image " + input);
  }

  run_settings s;
  std::string device;
  s.where = choose_engine(o.host, device);
  s.roi = o.roi.value_or(whole);
  s.halo = o.halo;
  s.border = o.border;
  s.algo = o.algo;
  s.strategy = o.strategy;
  if (std::holds_alternative<hs::algo::two_pass<>>(o.algo))
    for (const auto& f : plan.filters)
      if (std::holds_alternative<hs::filter2d>(f))
        throw usage_error("--algo two_pass needs a separable filter (box, gaussian, sobel), not " + o.filter);

  const bool grey = hipstencil_io::is_grey(info.channels);
  int file_channels = 0;
  double ms = 0;
  response_range range;
  if (grey) {
    auto image = hipstencil_io::load_image<std::uint8_t>(input, &file_channels);
    ms = filter_image(image, plan, s, range);
    hipstencil_io::save_png(output, image.view(), 1);
  } else {
    auto image = hipstencil_io::load_image<hs::uchar4>(input, &file_channels);
    ms = filter_image(image, plan, s, range);
    hipstencil_io::save_png(output, image.view(), file_channels == 4 ? 4 : 3);
  }

  static const char* const channel_names[] = {"", "grey", "grey+alpha, alpha dropped", "RGB", "RGBA"};
  std::printf("image:     %s: %dx%d, %d channel%s (%s), filtered as %s\n", input.c_str(), info.width, info.height,
              file_channels, file_channels == 1 ? "" : "s", channel_names[std::clamp(file_channels, 0, 4)],
              grey ? "uint8" : "uchar4");
  std::printf("filter:    %s\n", plan.description.c_str());
  if (plan.float_output) {
    const bool sobel = plan.filters.size() == 2;
    if (range.empty)
      std::printf("range:     none (no output was written)\n");
    else if (sobel)
      std::printf("range:     gradient magnitude %.6g to %.6g over the ROI's colour channels (%.6g shown as 255)\n",
                  range.min, range.max, range.max);
    else
      std::printf("range:     %.6g to %.6g over the ROI's colour channels (shown as 128 + value, clamped)\n", range.min,
                  range.max);
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
  std::printf("device:    %s\n", device.c_str());
  if (s.where == engine::gpu)
    std::printf("time:      %.3f ms GPU (device events around the convolve call%s; second of two runs)\n", ms,
                plan.filters.size() > 1 ? "s" : "");
  else
    std::printf("time:      %.1f ms host wall time (reference::convolve)\n", ms);
  std::error_code ec;
  const std::filesystem::path shown = std::filesystem::absolute(output, ec);
  std::printf("wrote:     %s\n", ec ? output.c_str() : shown.lexically_normal().string().c_str());
  return 0;
}

/// Prints the one-line error; newlines inside a message are flattened.
int report(const char* what, int status) {
  std::string m = what;
  std::replace(m.begin(), m.end(), '\n', ' ');
  std::fflush(stdout);
  std::fprintf(stderr, "%s: error: %s\n", program, m.c_str());
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const options o = parse_args(argc, argv);
    if (o.help) {
      print_usage(stdout);
      return 0;
    }
    return run(o);
  } catch (const usage_error& e) {
    return report(e.what(), 2);
  } catch (const hs::invalid_argument& e) {
    return report(e.what(), 2);  // the library rejected a value given on the command line
  } catch (const hs::gpu_error& e) {
    return report(e.what(), 1);
  } catch (const std::bad_alloc&) {
    return report("out of memory", 1);
  } catch (const std::exception& e) {
    return report(e.what(), 1);
  } catch (...) {
    return report("unknown exception", 1);
  }
}
