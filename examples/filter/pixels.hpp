// examples/filter/pixels.hpp
// hipstencil-filter: which pixel type a loaded image is filtered as, from its samples and
// channels, and the copies between the file's samples and hipstencil's host images.
#pragma once

#include "display.hpp"
#include "engine.hpp"
#include "filters.hpp"
#include "image_formats.hpp"

#include <string>

namespace hsf {

/// Filters `image` (a loaded raster: 1 or 4 channels) in place as the plan says and returns
/// the time in milliseconds (filter_image's). The pixel type, named in `filtered_as`:
///   RGB files (no alpha) with a filter into the image's own type (box, gaussian, sharpen,
///   custom): uchar3, ushort3 or float3, 3 channels on the GPU (NPP's C3 layout);
///   else 8-bit grey uint8, 8-bit colour uchar4 (all four channels);
///   16-bit grey uint16; 16-bit colour ushort4 (all four channels), except for the responses
///   of sobel and laplacian: one float plane per colour channel, shown together;
///   float grey float, float colour float4 (all four channels).
/// Sobel and laplacian show their responses in the image's own type (display.hpp); the Sobel
/// scale of 16-bit colour is the largest magnitude over R, G and B together, as for uchar4.
double filter_raster(hipstencil_io::raster& image, const filter_plan& plan, const run_settings& s,
                     response_range& range, std::string& filtered_as);

}  // namespace hsf
