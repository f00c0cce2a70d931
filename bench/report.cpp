// bench/report.cpp
// Table, CSV and summary of the benchmark (see report.hpp).
#include "report.hpp"

#include <cmath>
#include <map>
#include <stdexcept>
#include <tuple>

namespace bench {

derived floors(const run_info& info, pixel type, bool separable, int radius) {
  derived d;
  const double pixels = double(info.width) * double(info.height) * double(info.images);
  const double bytes = pixels * 2.0 * double(pixel_bytes(type));
  d.mem_floor_ms = bytes / (info.ceil.copy_gbps * 1e9) * 1e3;
  d.arith_floor_ms = pixels * pixel_channels(type) * taps_per_output(separable, radius) / info.ceil.fma_per_s * 1e3;
  d.ceiling_ms = std::max(d.mem_floor_ms, d.arith_floor_ms);
  return d;
}

derived derive(const run_info& info, const bench_case& c, const timing& t) {
  derived d = floors(info, c.type, c.separable, c.radius);
  const double bytes = double(info.width) * double(info.height) * double(info.images) * 2.0 * double(pixel_bytes(c.type));
  d.gbps = bytes / (t.median_ms * 1e-3) / 1e9;
  d.pct_copy = 100.0 * d.gbps / info.ceil.copy_gbps;
  d.x_ceiling = t.median_ms / d.ceiling_ms;
  return d;
}

namespace {

std::string filter_name(bool separable, int radius) {
  const int k = 2 * radius + 1;
  return std::string(separable ? "separable " : "dense ") + std::to_string(k) + "x" + std::to_string(k);
}

std::string check_text(const check_result& c) {
  if (!c.ran) return "-";
  char buf[48];
  std::snprintf(buf, sizeof buf, "%s %.1e", c.ok ? "ok" : "MISMATCH", c.max_error);
  return buf;
}

/// CSV field: quoted when it holds a comma or a quote.
std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char ch : s) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return q + "\"";
}

/// The family of a resolution string ("shared_mem r=* dense tile_class sm_90" -> "shared_mem").
std::string resolved_family(const std::string& resolved) { return resolved.substr(0, resolved.find(' ')); }
/// Family and radius of a resolution string ("shared_mem r=*").
std::string resolved_short(const std::string& resolved) {
  const auto a = resolved.find(' ');
  return resolved.substr(0, a == std::string::npos ? a : resolved.find(' ', a + 1));
}

/// The table's name of a measurement: a peer's impl and variant; for hipstencil the
/// requested algorithm, followed, when another family ran (a fallback), by what ran:
/// "streaming -> shared_mem r=*"; automatic shows its choice: "automatic: streaming r=1".
std::string table_name(const measurement& m) {
  if (m.impl != "hipstencil") return m.impl + " " + m.variant;
  if (m.resolved.empty()) return m.variant;
  if (m.variant == automatic_name()) return m.variant + ": " + resolved_short(m.resolved);
  if (resolved_family(m.resolved) != m.variant) return m.variant + " -> " + resolved_short(m.resolved);
  return m.variant;
}

const char* table_columns =
    "  %-10s %-40s %9s %9s %9s %8s %6s %9s %9s %7s %9s  %s\n";

}  // namespace

report::report(run_info info, const std::string& csv_path, bool append) : info_(std::move(info)) {
  if (csv_path.empty()) return;
  csv_ = std::fopen(csv_path.c_str(), append ? "a" : "w");
  if (!csv_) throw std::runtime_error("cannot write the CSV file '" + csv_path + "'");
  if (append) return;
  std::fprintf(csv_,
               "impl,variant,type,filter,radius,border,width,height,runs,median_ms,min_ms,max_ms,rate,rate_unit,"
               "pct_copy,mem_floor_ms,arith_floor_ms,ceiling_ms,x_ceiling,check,max_error,error,resolved,images\n");
}

report::~report() {
  if (csv_) std::fclose(csv_);
}

void report::header() {
  const ceilings& c = info_.ceil;
  std::printf("hipstencil-bench: %s (%s backend)\n", info_.device.c_str(), info_.backend.c_str());
  std::printf("command: %s\n", info_.command_line.c_str());
  if (info_.images > 1)
    std::printf("batch of %d images of %dx%d (bytes and floors count every image); ", info_.images, info_.width,
                info_.height);
  else
    std::printf("image %dx%d; ", info_.width, info_.height);
  std::printf("each figure is the median of %d runs timed with device events, after 1 + %d warm-up runs%s\n", info_.runs,
              info_.warmup,
              info_.hold ? " (--hold: all queued behind a kernel holding the stream)" : "");
  std::printf("memory ceiling: device-to-device copy of %.0f MiB: %.1f GB/s (read + write; median %.4f ms, min %.4f, max %.4f)\n",
              double(c.copy_bytes) / (1 << 20), c.copy_gbps, c.copy.median_ms, c.copy.min_ms, c.copy.max_ms);
  std::printf("arithmetic ceiling: FP32 FMA microkernel on %d multiprocessors: %.2f TFMA/s (median %.4f ms, min %.4f, max %.4f)\n",
              c.multiprocessors, c.fma_per_s / 1e12, c.fma.median_ms, c.fma.min_ms, c.fma.max_ms);
  std::printf("peer: %s\n", info_.npp.c_str());
  std::printf("GB/s = (input + output bytes) / median; %%copy = GB/s over the copy rate; arith = taps x pixels x channels\n"
              "at the FMA rate (dense: kw*kh taps, separable: kw+kh); ceiling = max(memory floor, arith); x_ceil = median/ceiling\n"
              "implementation \"A -> F r=R\": algorithm A fell back to family F (radius R compiled, r=*: run-time size);\n"
              "\"automatic: F r=R\": what automatic ran (hipstencil::resolved_algorithm; the CSV's `resolved` column)\n");
  if (csv_) {
    std::fprintf(csv_, "ceiling,copy_d2d,,,,,%d,%d,%d,%.6f,%.6f,%.6f,%.3f,GB/s,,,,,,,,,,%d\n", info_.width,
                 info_.height, c.copy.runs, c.copy.median_ms, c.copy.min_ms, c.copy.max_ms, c.copy_gbps, info_.images);
    std::fprintf(csv_, "ceiling,fma_fp32,,,,,%d,%d,%d,%.6f,%.6f,%.6f,%.4f,TFMA/s,,,,,,,,,,%d\n", info_.width,
                 info_.height, c.fma.runs, c.fma.median_ms, c.fma.min_ms, c.fma.max_ms, c.fma_per_s / 1e12,
                 info_.images);
    std::fflush(csv_);
  }
}

void report::group(pixel type, bool separable, int radius) {
  const derived f = floors(info_, type, separable, radius);
  std::printf("\n== %s, %s (radius %d): memory floor %.4f ms, arithmetic floor %.4f ms, ceiling %.4f ms\n", name(type),
              filter_name(separable, radius).c_str(), radius, f.mem_floor_ms, f.arith_floor_ms, f.ceiling_ms);
  std::printf(table_columns, "border", "implementation", "median_ms", "min_ms", "max_ms", "GB/s", "%copy", "arith_ms",
              "ceil_ms", "x_ceil", "NPP_GB/s", "check");
  std::fflush(stdout);
}

void report::line(const record& r, const measurement* npp_best) {
  const std::string impl = table_name(r.m);
  csv_row(r);
  if (!r.m.error.empty()) {
    std::printf("  %-10s %-40s not run: %s\n", hs::border::name(r.c.border), impl.c_str(), r.m.error.c_str());
    std::fflush(stdout);
    return;
  }
  const derived d = derive(info_, r.c, r.m.t);
  char npp[16] = "-";
  if (npp_best) std::snprintf(npp, sizeof npp, "%.1f", derive(info_, r.c, npp_best->t).gbps);
  char f[9][16];
  std::snprintf(f[0], 16, "%.4f", r.m.t.median_ms);
  std::snprintf(f[1], 16, "%.4f", r.m.t.min_ms);
  std::snprintf(f[2], 16, "%.4f", r.m.t.max_ms);
  std::snprintf(f[3], 16, "%.1f", d.gbps);
  std::snprintf(f[4], 16, "%.1f", d.pct_copy);
  std::snprintf(f[5], 16, "%.4f", d.arith_floor_ms);
  std::snprintf(f[6], 16, "%.4f", d.ceiling_ms);
  std::snprintf(f[7], 16, "%.2f", d.x_ceiling);
  std::printf(table_columns, hs::border::name(r.c.border), impl.c_str(), f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7],
              r.m.impl == "hipstencil" ? npp : "", check_text(r.m.check).c_str());
  std::fflush(stdout);
}

void report::csv_row(const record& r) {
  if (!csv_) return;
  const bench_case& c = r.c;
  std::fprintf(csv_, "%s,%s,%s,%s,%d,%s,%d,%d,", r.m.impl.c_str(), csv_field(r.m.variant).c_str(), name(c.type),
               filter_name(c), c.radius, hs::border::name(c.border), info_.width, info_.height);
  if (!r.m.error.empty()) {
    std::fprintf(csv_, ",,,,,,,,,,,,,%s,%s,%d\n", csv_field(r.m.error).c_str(), csv_field(r.m.resolved).c_str(),
                 info_.images);
  } else {
    const derived d = derive(info_, c, r.m.t);
    std::fprintf(csv_, "%d,%.6f,%.6f,%.6f,%.3f,GB/s,%.2f,%.6f,%.6f,%.6f,%.4f,%s,%.3g,,%s,%d\n", r.m.t.runs,
                 r.m.t.median_ms, r.m.t.min_ms, r.m.t.max_ms, d.gbps, d.pct_copy, d.mem_floor_ms, d.arith_floor_ms,
                 d.ceiling_ms, d.x_ceiling, r.m.check.ran ? (r.m.check.ok ? "ok" : "mismatch") : "", r.m.check.max_error,
                 csv_field(r.m.resolved).c_str(), info_.images);
  }
  std::fflush(csv_);
}

namespace {
using case_key = std::tuple<pixel, bool, int>;  // type, separable, radius

/// Fastest successful measurement among `rs` that satisfy `pick`, or null.
template <class Pick>
const record* fastest(const std::vector<record>& rs, Pick pick) {
  const record* best = nullptr;
  for (const record& r : rs)
    if (r.m.error.empty() && pick(r) && (!best || r.m.t.median_ms < best->m.t.median_ms)) best = &r;
  return best;
}
}  // namespace

void report::summary(const std::vector<record>& all) {
  std::map<case_key, std::vector<record>> by_case;
  for (const record& r : all) by_case[case_key{r.c.type, r.c.separable, r.c.radius}].push_back(r);

  // The summary's border: replicate (NPP's rule) when it was measured, else the first one run.
  hs::border::kind shown = all.empty() ? hs::border::kind::replicate : all.front().c.border;
  for (const record& r : all)
    if (r.c.border == hs::border::kind::replicate) shown = hs::border::kind::replicate;
  std::printf("\n== summary: fastest hipstencil algorithm per case (%s border) against the fastest NPP family;\n"
              "   automatic's time over that fastest; worst border rule over padded for the fastest algorithm\n",
              hs::border::name(shown));
  std::printf("  %-7s %-15s %-11s %8s %6s %7s %9s %8s %10s %11s\n", "type", "filter", "best", "GB/s", "%copy", "x_ceil",
              "NPP_GB/s", "ours/NPP", "auto/best", "border/pad");
  for (const auto& kv : by_case) {
    const auto& rs = kv.second;
    const bench_case& c0 = rs.front().c;
    auto ours_at = [](hs::border::kind b) {
      return [b](const record& r) { return r.m.impl == "hipstencil" && r.c.border == b; };
    };
    const record* best = fastest(rs, ours_at(shown));
    if (!best) continue;
    const record* npp = fastest(rs, [&](const record& r) { return r.m.impl == "npp" && r.c.border == shown; });
    const record* autom = fastest(rs, [&](const record& r) {
      return r.m.impl == "hipstencil" && r.c.border == shown && r.c.algo == automatic_name();
    });
    // Border cost: the same algorithm as `best`, each rule against padded.
    const record* pad = fastest(rs, [&](const record& r) {
      return r.m.impl == "hipstencil" && r.c.border == hs::border::kind::padded && r.c.algo == best->c.algo;
    });
    double worst_border = NAN;
    if (pad)
      for (const record& r : rs)
        if (r.m.impl == "hipstencil" && r.m.error.empty() && r.c.algo == best->c.algo &&
            r.c.border != hs::border::kind::padded) {
          const double cost = r.m.t.median_ms / pad->m.t.median_ms - 1.0;
          if (std::isnan(worst_border) || cost > worst_border) worst_border = cost;
        }
    const derived d = derive(info_, best->c, best->m.t);
    char npp_gbps[16] = "-", ratio[16] = "-", auto_ratio[16] = "-", border[16] = "-";
    if (npp) {
      std::snprintf(npp_gbps, 16, "%.1f", derive(info_, npp->c, npp->m.t).gbps);
      std::snprintf(ratio, 16, "%.2f", npp->m.t.median_ms / best->m.t.median_ms);
    }
    if (autom) std::snprintf(auto_ratio, 16, "%.3f", autom->m.t.median_ms / best->m.t.median_ms);
    if (!std::isnan(worst_border)) std::snprintf(border, 16, "%+.1f%%", 100.0 * worst_border);
    std::printf("  %-7s %-15s %-11s %8.1f %6.1f %7.2f %9s %8s %10s %11s\n", name(c0.type),
                filter_name(c0.separable, c0.radius).c_str(), best->c.algo.c_str(), d.gbps, d.pct_copy, d.x_ceiling,
                npp_gbps, ratio, auto_ratio, border);
  }
  int checked = 0, failed = 0;
  for (const record& r : all)
    if (r.m.check.ran) ++checked, failed += r.m.check.ok ? 0 : 1;
  std::printf("\nspot checks against the host reference: %d of %d cases failed\n", failed, checked);
  std::printf("ours/NPP > 1: hipstencil is faster. auto/best: 1.000 = automatic chose the fastest.\n");
}

}  // namespace bench
