// examples/filter/engine.hpp
// hipstencil-filter: where the filters run (the GPU, or the host reference) and the run itself.
#pragma once

#include "choices.hpp"
#include "display.hpp"
#include "filters.hpp"

#include <hipstencil/hipstencil.hpp>

#include <string>

namespace hsf {

namespace hs = hipstencil;

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

/// Chooses where to run and fills `device` with the summary's device line (which, on a host run,
/// is the one line saying why the host reference is used).
engine choose_engine(bool force_host, std::string& device);

/// Filters `image` (grey uint8 or colour uchar4) as the plan says; returns the time. For
/// sobel and laplacian, `range` receives the response range. engine.cpp instantiates it for
/// std::uint8_t and hs::uchar4 only.
template <class P>
double filter_image(hs::host_image<P>& image, const filter_plan& plan, const run_settings& s, response_range& range);

}  // namespace hsf
