// bench/report.hpp
// The benchmark's output: the readable table (one line per measurement, grouped by pixel
// type, filter and radius), the CSV (one row per measurement, ceilings first) and the
// closing summary. Every figure derives from the measured median and the two ceilings
// measured in the same run.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "bench.hpp"

namespace bench {

/// What the header and every derived figure need to know about the run.
struct run_info {
  int width = 0, height = 0, runs = 0, warmup = 0;
  int images = 1;  ///< --batch: images per call (every figure counts all of them)
  bool hold = false;  ///< --hold: the runs were queued behind hold_stream
  std::string device, backend, npp, command_line;
  ceilings ceil;
};

/// One measurement with its case (for a peer, `c.algo` is meaningless).
struct record {
  bench_case c;
  measurement m;
};

/// Figures derived from a case's median and the ceilings.
struct derived {
  double gbps = 0;            ///< (input + output bytes) / median
  double pct_copy = 0;        ///< gbps over the measured copy rate, in percent
  double mem_floor_ms = 0;    ///< input + output bytes at the copy rate
  double arith_floor_ms = 0;  ///< taps x pixels x channels at the measured FMA rate
  double ceiling_ms = 0;      ///< the larger floor: no version runs faster
  double x_ceiling = 0;       ///< median / ceiling (1.0 = at the ceiling)
};
derived derive(const run_info& info, const bench_case& c, const timing& t);
/// Floors alone (they do not depend on the median).
derived floors(const run_info& info, pixel type, bool separable, int radius);

class report {
 public:
  /// Opens `csv_path` (none when empty), anew with its header line, or to add rows to it
  /// when `append` (one CSV for several image sizes). Throws std::runtime_error if it
  /// cannot be written.
  report(run_info info, const std::string& csv_path, bool append = false);
  ~report();
  report(const report&) = delete;
  report& operator=(const report&) = delete;

  void header();
  void group(pixel type, bool separable, int radius);
  /// A table line and a CSV row. `npp_best`: the fastest NPP family of the same case, or null.
  void line(const record& r, const measurement* npp_best);
  /// Best algorithm per case against NPP, automatic's choice, and the cost of each border
  /// rule over `padded`; then the number of failed spot checks.
  void summary(const std::vector<record>& all);

 private:
  void csv_row(const record& r);
  run_info info_;
  std::FILE* csv_ = nullptr;
};

}  // namespace bench
