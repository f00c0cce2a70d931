// bench/npp_absent.cpp
// Stands in for npp_peer.cpp where NPP is not linked (the hip backend, or CUDA without
// NPP): the benchmark then says why and times hipstencil alone.
#include "bench.hpp"

#ifndef HIPSTENCIL_BENCH_NPP_ABSENT
#define HIPSTENCIL_BENCH_NPP_ABSENT "NPP not built in"
#endif

namespace bench {

bool npp_linked() { return false; }
std::string npp_description() { return "NPP skipped: " HIPSTENCIL_BENCH_NPP_ABSENT; }
std::vector<measurement> time_npp(pixel, bool, const filter_set&, hs::border::kind, const device_images&, run_timer&) {
  return {};
}

}  // namespace bench
