// bench/hipstencil_bench.cpp
// hipstencil-bench: times every algorithm of hipstencil against the memory and arithmetic
// ceilings measured in the same run, and against NVIDIA NPP where it is linked.
//
//   hipstencil-bench [--size LIST] [--algo LIST] [--radius LIST] [--type LIST] [--border LIST]
//                    [--sep] [--dense] [--dense-rank1] [--dense-log] [--batch N] [--strip-rows N] [--runs N] [--warmup N]
//                    [--hold] [--csv FILE] [--no-check] [--no-npp] [--list] [--help]
//
// Without options: 128x128, 512x512, 1920x1080, 3840x2160, 8192x8192 and 128x65536, one
// after another into one table and one CSV; every kernel family of the library's list
// (hipstencil::algo::for_each_family: naive, shared_mem, two_pass, tiled, streaming, direct at the
// time of writing; a family that takes no dense filter, two_pass, runs separable filters
// only), then automatic; radii 1, 2, 4, 7, 15; separable (Gaussian) and dense (random)
// filters; u8, u16 (uint16), s16 (int16), float, uchar4, ushort4, half, bfloat16, uchar3, ushort3,
// float3, half4 and bfloat16x4 pixels;
// replicate, reflect101, constant and padded borders (--border takes any rule of
// hipstencil::border::all_rules);
// median of 25 runs. Each hipstencil line says what actually ran when a family fell back
// to another (hipstencil::resolved_algorithm; the CSV's `resolved` column has it for every
// row). With --batch N each case filters N images of each size in one convolve_batch
// call, beside `loop` (automatic called once per image), `varshape` (the same images as a
// variable-shape batch) and NPP called once per image.
// Exit status: 0 done (spot checks may still report MISMATCH: see the summary), 1 failed
// (a GPU error, or no GPU), 2 bad options.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench.hpp"
#include "report.hpp"

namespace bench {
namespace {

/// Every algorithm's name, in table order (the library's family list, then automatic).
std::vector<std::string> all_algorithm_names() {
  std::vector<std::string> v;
  for (const algorithm& a : algorithms()) v.push_back(a.name);
  return v;
}

/// Every border rule of hs::border::all_rules, in the library's order.
std::vector<hs::border::kind> all_border_kinds() {
  std::vector<hs::border::kind> v;
  hs::border::for_each_rule([&](auto rule) { v.push_back(decltype(rule)::rule); });
  return v;
}

/// The command-line name of a choice.
const char* name_of(pixel p) { return name(p); }
const char* name_of(hs::border::kind b) { return hs::border::name(b); }
const char* name_of(const std::string& a) { return a.c_str(); }

/// "a,b,c" of the names of `values`.
template <class E>
std::string joined_names(const std::vector<E>& values) {
  std::string s;
  for (const E& e : values) s += std::string(s.empty() ? "" : ",") + name_of(e);
  return s;
}

/// The sizes users filter: a thumbnail, a tile, a video frame, a 4K frame, a large scan, and
/// a narrow strip (a line camera's, or a column of a mosaic) that leaves a wide kernel's
/// block columns mostly idle.
const char* const default_sizes = "128x128,512x512,1920x1080,3840x2160,8192x8192,128x65536";

struct options {
  int width = 8192, height = 8192;  ///< the size being run (one of `sizes`)
  std::vector<std::pair<int, int>> sizes;
  std::vector<std::string> algos;  ///< default: every algorithm (and `loop` with --batch)
  int strip_rows = 0;
  std::vector<int> radii{1, 2, 4, 7, 15};
  std::vector<pixel> types = all_pixels();
  std::vector<hs::border::kind> borders{hs::border::kind::replicate, hs::border::kind::reflect101,
                                        hs::border::kind::constant, hs::border::kind::padded};
  bool separable = true, dense = true, rank_one = false, log = false;
  int batch = 1;  ///< images per call (convolve_batch) when > 1
  int runs = 25, warmup = 3;
  std::string csv;
  bool check = true, npp = true, list = false;
  bool hold = false;  ///< --hold: queue every run behind hold_stream before the device reaches them
};

/// A bad command line: the message names the option and the value.
struct usage_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::string usage() {
  std::string dense_only, sep_only;
  for (const algorithm& a : algorithms()) {
    if (!a.dense) sep_only += std::string(sep_only.empty() ? "" : ", ") + a.name;
    if (!a.separable) dense_only += std::string(dense_only.empty() ? "" : ", ") + a.name;
  }
  std::string only;
  if (!sep_only.empty()) only += "; " + sep_only + " runs separable filters only";
  if (!dense_only.empty()) only += "; " + dense_only + " runs dense filters only";
  return std::string(
             "usage: hipstencil-bench [options]\n"
             "  --size LIST       image sizes WxH (default " + std::string(default_sizes) + ")\n"
             "  --algo LIST       ") +
         joined_names(all_algorithm_names()) + "\n                    (default: all" + only +
         ")\n"
         "  --strip-rows N    output rows per strip for streaming and packed (default: the library's choice)\n"
         "  --radius LIST     filter radii, 1..64 (default 1,2,4,7,15)\n"
         "  --type LIST       " + joined_names(all_pixels()) +
         " (default: all; u16: uint16_t, s16: int16_t)\n"
         "  --border LIST     " +
         joined_names(all_border_kinds()) +
         "\n"
         "                    (default replicate,reflect101,constant,padded; constant pads with 0;\n"
         "                    skip writes only the outputs whose window lies inside the image)\n"
         "  --sep, --dense    only separable (Gaussian) / only dense (random) filters (default: both)\n"
         "  --dense-rank1     dense filters are the Gaussian's outer product, a rank-one filter2d\n"
         "                    (automatic runs it separable; NPP and the families dense)\n"
         "  --dense-log       dense filters are Laplacians of Gaussian, rank two (automatic runs\n"
         "                    them as two separable terms; NPP and the families dense)\n"
         "  --batch N         filter N images of each size per call (convolve_batch; default 1), with\n"
         "                    `loop` (automatic once per image), `varshape` (the images as a\n"
         "                    variable-shape batch) and NPP once per image beside it;\n"
         "                    types u8, float, uchar4 only (the default types then)\n"
         "  --runs N          timed runs per case, median reported (default 25; report medians of 20 or more)\n"
         "  --warmup N        untimed runs after the first (default 3)\n"
         "  --hold            queue each case's runs behind a kernel that holds the stream, so that the\n"
         "                    device runs them back to back (default: as the host queues them)\n"
         "  --csv FILE        also write every measurement to FILE\n"
         "  --no-check        skip the spot check against the host reference\n"
         "  --no-npp          skip the NPP peer\n"
         "  --list            print the cases and exit (no GPU needed)\n"
         "  --help            this text\n";
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

int parse_int(const std::string& opt, const std::string& v, int lo, int hi) {
  char* end = nullptr;
  const long n = std::strtol(v.c_str(), &end, 10);
  if (v.empty() || *end != '\0' || n < lo || n > hi)
    throw usage_error(opt + ": '" + v + "' is not an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return int(n);
}

/// Maps each comma-separated name to the value of `values` (all the choices, in order)
/// that has that name.
template <class E>
std::vector<E> parse_names(const std::string& opt, const std::string& v, const std::vector<E>& values) {
  std::vector<E> out;
  for (const std::string& item : split(v)) {
    bool found = false;
    for (const E& e : values)
      if (item == name_of(e)) out.push_back(e), found = true;
    if (!found) {
      std::string expected;
      for (const E& e : values) expected += std::string(expected.empty() ? "" : ", ") + name_of(e);
      throw usage_error(opt + ": unknown value '" + item + "' (expected " + expected + ")");
    }
  }
  if (out.empty()) throw usage_error(opt + ": empty list");
  return out;
}

std::pair<int, int> parse_size(const std::string& v) {
  const auto x = v.find('x');
  if (x == std::string::npos) throw usage_error("--size: '" + v + "' is not WIDTHxHEIGHT (e.g. 8192x8192)");
  // A side up to 2^20 (tall or wide strips, as a scanner or a line camera makes them); the
  // image itself at most 2^28 pixels (1 GiB of float4 per buffer).
  const int w = parse_int("--size width", v.substr(0, x), 1, 1 << 20);
  const int h = parse_int("--size height", v.substr(x + 1), 1, 1 << 20);
  if (std::int64_t(w) * h > (std::int64_t(1) << 28)) throw usage_error("--size: " + v + " is over 2^28 pixels");
  return {w, h};
}

std::vector<std::pair<int, int>> parse_sizes(const std::string& list) {
  std::vector<std::pair<int, int>> out;
  std::stringstream in(list);
  std::string item;
  while (std::getline(in, item, ',')) out.push_back(parse_size(item));
  if (out.empty()) throw usage_error("--size: empty list");
  return out;
}

options parse(int argc, char** argv) {
  options o;
  bool only_sep = false, only_dense = false;
  std::string algos;  // --algo, parsed once --batch is known (`loop` needs it)
  bool types_given = false;
  const std::vector<std::string> all_algos = all_algorithm_names();
  const std::vector<hs::border::kind> all_borders = all_border_kinds();
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw usage_error(a + " needs a value");
      return argv[++i];
    };
    if (a == "--help" || a == "-h") {
      std::fputs(usage().c_str(), stdout);
      std::exit(0);
    } else if (a == "--size") {
      o.sizes = parse_sizes(value());
    } else if (a == "--algo") {
      algos = value();
    } else if (a == "--radius") {
      o.radii.clear();
      for (const std::string& r : split(value())) o.radii.push_back(parse_int(a, r, 1, 64));
      if (o.radii.empty()) throw usage_error("--radius: empty list");
    } else if (a == "--type") {
      o.types = parse_names(a, value(), all_pixels());
      types_given = true;
    } else if (a == "--border") {
      o.borders = parse_names(a, value(), all_borders);
    } else if (a == "--sep") {
      only_sep = true;
    } else if (a == "--dense") {
      only_dense = true;
    } else if (a == "--dense-rank1") {
      o.rank_one = true;
    } else if (a == "--dense-log") {
      o.log = true;
    } else if (a == "--batch") {
      o.batch = parse_int(a, value(), 1, 1 << 20);
    } else if (a == "--strip-rows") {
      o.strip_rows = parse_int(a, value(), 1, 4096);
    } else if (a == "--runs") {
      o.runs = parse_int(a, value(), 1, 10000);
    } else if (a == "--warmup") {
      o.warmup = parse_int(a, value(), 0, 1000);
    } else if (a == "--csv") {
      o.csv = value();
    } else if (a == "--no-check") {
      o.check = false;
    } else if (a == "--no-npp") {
      o.npp = false;
    } else if (a == "--hold") {
      o.hold = true;
    } else if (a == "--list") {
      o.list = true;
    } else {
      throw usage_error("unknown option '" + a + "' (--help lists them)");
    }
  }
  if (only_sep || only_dense) o.separable = only_sep, o.dense = only_dense;
  std::vector<std::string> names = all_algos;
  if (o.batch > 1) {
    names.push_back(loop_name());
    names.push_back(varshape_name());
    const std::vector<pixel>& b = batch_pixels();
    if (!types_given) o.types = b;
    for (pixel t : o.types)
      if (std::find(b.begin(), b.end(), t) == b.end())
        throw usage_error(std::string("--batch runs the types u8, float and uchar4 only (not ") + name(t) + ")");
  }
  o.algos = algos.empty() ? names : parse_names("--algo", algos, names);
  if (o.sizes.empty()) o.sizes = parse_sizes(default_sizes);
  return o;
}

std::string command_line(int argc, char** argv) {
  std::string s = argv[0];
  for (int i = 1; i < argc; ++i) s += std::string(" ") + argv[i];
  return s;
}

/// Whether algorithm `a` takes the filter form (algo::takes_dense / takes_separable).
bool takes(const std::string& a, bool separable) {
  if (a == loop_name() || a == varshape_name()) return true;  // automatic's forms; varshape's outer product
  for (const algorithm& x : algorithms())
    if (x.name == a) return separable ? x.separable : x.dense;
  return false;
}

/// The cases in table order: type, filter kind (separable first), radius, border, algorithm.
/// An algorithm runs only the filter forms it takes (two_pass: separable only).
std::vector<bench_case> make_cases(const options& o) {
  std::vector<bench_case> cases;
  std::vector<bool> kinds;
  if (o.separable) kinds.push_back(true);
  if (o.dense) kinds.push_back(false);
  for (pixel t : o.types)
    for (bool sep : kinds)
      for (int r : o.radii)
        for (hs::border::kind b : o.borders)
          for (const std::string& a : o.algos)
            if (takes(a, sep)) cases.push_back(bench_case{t, sep, r, b, a, o.strip_rows, !sep && o.rank_one, !sep && o.log});
  return cases;
}

std::unique_ptr<suite> make_suite(pixel t, const options& o, int max_radius, run_timer& timer) {
  switch (t) {
    case pixel::u8: return make_suite_u8(o.width, o.height, o.batch, max_radius, timer);
    case pixel::u16: return make_suite_u16(o.width, o.height, o.batch, max_radius, timer);
    case pixel::s16: return make_suite_s16(o.width, o.height, o.batch, max_radius, timer);
    case pixel::f32: return make_suite_f32(o.width, o.height, o.batch, max_radius, timer);
    case pixel::rgba8: return make_suite_rgba8(o.width, o.height, o.batch, max_radius, timer);
    case pixel::rgba16: return make_suite_rgba16(o.width, o.height, o.batch, max_radius, timer);
    case pixel::f16: return make_suite_f16(o.width, o.height, o.batch, max_radius, timer);
    case pixel::bf16: return make_suite_bf16(o.width, o.height, o.batch, max_radius, timer);
    case pixel::rgb8: return make_suite_rgb8(o.width, o.height, o.batch, max_radius, timer);
    case pixel::rgb16: return make_suite_rgb16(o.width, o.height, o.batch, max_radius, timer);
    case pixel::rgb32f: return make_suite_rgb32f(o.width, o.height, o.batch, max_radius, timer);
    case pixel::rgba16f: return make_suite_rgba16f(o.width, o.height, o.batch, max_radius, timer);
    case pixel::rgba16bf: return make_suite_rgba16bf(o.width, o.height, o.batch, max_radius, timer);
  }
  return nullptr;
}

bool same_group(const bench_case& a, const bench_case& b) {
  return a.type == b.type && a.separable == b.separable && a.radius == b.radius;
}

const measurement* fastest(const std::vector<measurement>& ms) {
  const measurement* best = nullptr;
  for (const measurement& m : ms)
    if (m.error.empty() && (!best || m.t.median_ms < best->t.median_ms)) best = &m;
  return best;
}

/// Runs every case, printing each line as it is measured (a run cut short keeps what it
/// printed), with NPP timed once per (type, filter, radius, border) before hipstencil.
std::vector<record> run_cases(const options& o, const std::vector<bench_case>& cases, report& out, run_timer& timer) {
  int max_radius = 0;
  for (int r : o.radii) max_radius = std::max(max_radius, r);
  std::vector<record> all;
  std::unique_ptr<suite> current;
  const bench_case* previous = nullptr;
  std::vector<measurement> npp;
  for (const bench_case& c : cases) {
    if (!previous || previous->type != c.type) {
      current.reset();  // one pixel type's images at a time
      current = make_suite(c.type, o, max_radius, timer);
    }
    if (!previous || !same_group(*previous, c)) out.group(c.type, c.separable, c.radius);
    const filter_set f = make_filters(c.radius, c.rank_one, c.log);
    if (!previous || !same_group(*previous, c) || previous->border != c.border) {
      npp = o.npp && npp_linked() ? time_npp(c.type, c.separable, f, c.border, current->images(), timer)
                                  : std::vector<measurement>{};
      for (const measurement& m : npp) {
        all.push_back(record{c, m});
        out.line(all.back(), nullptr);
      }
    }
    all.push_back(record{c, current->run(c, f, o.check)});
    out.line(all.back(), fastest(npp));
    previous = &c;
  }
  return all;
}

void list_cases(const std::vector<bench_case>& cases) {
  for (const bench_case& c : cases)
    std::printf("%s %s r=%d %s %s\n", name(c.type), filter_name(c), c.radius,
                hs::border::name(c.border), c.algo.c_str());
  std::printf("%zu cases\n", cases.size());
}

int run(int argc, char** argv) {
  const options o = parse(argc, argv);
  const std::vector<bench_case> cases = make_cases(o);
  if (o.list) {
    list_cases(cases);
    return 0;
  }
  if (gpu::device_count() == 0) {
    std::fprintf(stderr, "hipstencil-bench: no %s device is visible; nothing to measure\n", hs::backend_name());
    return 1;
  }
  if (o.runs < 20)
    std::printf("note: --runs %d is below 20; the median of so few runs is indicative only\n", o.runs);
  const gpu::stream_t stream = gpu::stream_create();
  {
    run_timer timer(stream, o.runs, o.warmup, o.hold);
    run_info info;
    info.runs = o.runs, info.warmup = o.warmup, info.images = o.batch, info.hold = o.hold;
    info.device = gpu::device_name(gpu::current_device());
    info.backend = hs::backend_name();
    info.npp = o.npp ? npp_description() : "NPP skipped (--no-npp)";
    info.command_line = command_line(argc, argv);
    info.ceil = measure_ceilings(timer);  // once: the copy and FMA rates do not depend on the image size
    for (std::size_t i = 0; i < o.sizes.size(); ++i) {
      options at = o;
      at.width = o.sizes[i].first, at.height = o.sizes[i].second;
      info.width = at.width, info.height = at.height;
      std::printf("%s== size %zu of %zu: %dx%d%s\n", i ? "\n" : "", i + 1, o.sizes.size(), at.width, at.height,
                  o.batch > 1 ? (" x " + std::to_string(o.batch) + " images").c_str() : "");
      std::fflush(stdout);
      report out(info, o.csv, /*append=*/i > 0);
      out.header();
      out.summary(run_cases(at, cases, out, timer));
    }
  }
  gpu::stream_destroy(stream);
  return 0;
}

}  // namespace
}  // namespace bench

int main(int argc, char** argv) {
  try {
    return bench::run(argc, argv);
  } catch (const bench::usage_error& e) {
    std::fprintf(stderr, "hipstencil-bench: %s\n%s", e.what(), bench::usage().c_str());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "hipstencil-bench: %s\n", e.what());
    return 1;
  }
}
