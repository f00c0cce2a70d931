// examples/filter/engine.hpp
// hipstencil-filter: where the filters run (the GPU, or the host reference) and the run itself.
#pragma once

#include "choices.hpp"
#include "display.hpp"
#include "filters.hpp"

#include <hipstencil/hipstencil.hpp>

#include <string>
#include <vector>

namespace hsf {

namespace hs = hipstencil;

// ---------------------------------------------------------------------------------------
// Running the filters: on the GPU, or with the host reference.

enum class engine { gpu, host };

struct run_settings {
  engine where = engine::host;
  hs::rect roi;
  hs::halo halo = hs::halo::isolated;
  border_choice border = hs::border::reflect101{};
  algo_choice algo;
  strategy_choice strategy;
};

/// Chooses where to run and fills `device` with the summary's device line (which, on a host run,
/// is the one line saying why the host reference is used).
engine choose_engine(bool force_host, std::string& device);

/// Filters `image` in place as the plan says; returns the time in milliseconds (GPU event
/// time of the convolve calls, or host wall time). For sobel and laplacian, `range` receives
/// the response range and the image shows the responses (display.hpp). engine.cpp
/// instantiates it for std::uint8_t, hs::uchar4, std::uint16_t, float and hs::float4: the
/// pixel types whose kernels hipstencil's own build compiles (instance_list.inc), so that
/// this program compiles none itself.
template <class P>
double filter_image(hs::host_image<P>& image, const filter_plan& plan, const run_settings& s, response_range& range);

/// Filters `image` in place with plan's one filter into its own pixel type (plan.float_output
/// false: no responses to display); returns the time as filter_image. filter_image's path for
/// such plans; engine.cpp also instantiates it for hs::ushort4 (16-bit colour) and for
/// hs::uchar3, hs::ushort3 and hs::float3 (RGB files without alpha; pixels.cpp).
template <class P>
double filter_same_type(hs::host_image<P>& image, const filter_plan& plan, const run_settings& s);

/// The float responses of each of plan's filters to `src` (float or hs::float4), one image
/// each in `out`, NaN where the border rule writes nothing (skip) and outside the ROI;
/// returns the time as filter_image. For images displayed elsewhere (the 16-bit colour
/// planes, pixels.cpp). engine.cpp instantiates it for float.
template <class W>
double filter_responses(const hs::host_image<W>& src, const filter_plan& plan, const run_settings& s,
                        std::vector<hs::host_image<W>>& out);

}  // namespace hsf
