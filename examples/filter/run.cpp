// examples/filter/run.cpp
// hipstencil-filter: the single-file form, from the parsed options to the written file and
// the summary.

#include "run.hpp"

#include "filters.hpp"
#include "image_formats.hpp"
#include "process.hpp"
#include "report.hpp"

#include <string>

namespace hsf {

int run(const options& o) {
  if (!o.output_dir.empty()) return run_batch(o);
  run_result r;  // what the summary shows
  r.input = o.input.empty() ? std::string(HIPSTENCIL_DATA_DIR) + "/astronaut.png" : o.input;
  r.output = o.output.empty() ? made_output_name(r.input, o.filter, o.format) : o.output;
  // A format asked for that this build lacks is a usage error before any work (parse_args
  // has checked that OUTPUT's extension names a format).
  if (!o.output.empty()) require_built_in(*hipstencil_io::output_format_of(o.output));
  if (o.format) require_built_in(*o.format);

  const filter_plan plan = make_plan(o);  // usage errors before any file is touched
  const run_settings s = make_settings(o, plan, r.device);
  process_file(o, plan, s, r);
  print_summary(o, plan, s, r);
  return 0;
}

}  // namespace hsf
