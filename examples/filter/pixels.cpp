// examples/filter/pixels.cpp
// hipstencil-filter: a loaded image filtered as the pixel type its samples call for
// (pixels.hpp): RGB without alpha as 3-channel pixels, 16-bit colour as ushort4, or as float
// planes for the responses sobel and laplacian show.

#include "pixels.hpp"

#include <hipstencil/hipstencil.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

namespace hsf {

namespace {

using hipstencil_io::raster;
using hipstencil_io::sample_type;

/// The raster's samples as an image of P (P holds `channels` samples of the raster's type).
template <class P>
hs::host_image<P> to_image(const raster& r) {
  hs::host_image<P> image(r.width, r.height);
  std::memcpy(static_cast<void*>(image.data()), r.samples.data(), r.samples.size());
  return image;
}

/// The raster as an image of P, filtered in place by `filter(image)` (which returns the time
/// in milliseconds), and written back into the raster's samples.
template <class P, class Filter>
double filter_in_place(raster& r, Filter&& filter) {
  hs::host_image<P> image = to_image<P>(r);
  const double ms = filter(image);
  std::memcpy(r.samples.data(), static_cast<const void*>(image.data()), r.samples.size());
  return ms;
}

template <class P>
double filter_as(raster& r, const filter_plan& plan, const run_settings& s, response_range& range) {
  return filter_in_place<P>(r, [&](hs::host_image<P>& image) { return filter_image(image, plan, s, range); });
}

/// An RGB raster (4 samples per pixel, the file has no alpha) filtered as P3, 3 samples of
/// type T per pixel (uchar3, ushort3, float3; NPP's C3 layout) with a filter whose output is
/// the image itself: the GPU moves and filters 3 channels, not 4. The raster's fourth
/// sample is never written out for such a file and is left as it is.
template <class P3, class T>
double filter_rgb(raster& r, const filter_plan& plan, const run_settings& s) {
  static_assert(sizeof(P3) == 3 * sizeof(T), "a packed 3-channel pixel");
  const std::size_t pixels = std::size_t(r.width) * std::size_t(r.height);
  hs::host_image<P3> image(r.width, r.height);
  unsigned char* packed = reinterpret_cast<unsigned char*>(image.data());
  constexpr std::size_t bytes = 3 * sizeof(T);  // of one pixel; the raster's are 4 * sizeof(T) apart
  for (std::size_t i = 0; i < pixels; ++i) std::memcpy(&packed[i * bytes], &r.samples[i * 4 * sizeof(T)], bytes);
  const double ms = filter_same_type(image, plan, s);
  packed = reinterpret_cast<unsigned char*>(image.data());
  for (std::size_t i = 0; i < pixels; ++i) std::memcpy(&r.samples[i * 4 * sizeof(T)], &packed[i * bytes], bytes);
  return ms;
}

/// 16-bit colour with a filter whose output is the image itself (box, gaussian, sharpen,
/// custom): one call on ushort4 pixels, alpha (when the file has none, never written out)
/// filtered with the rest.
double filter_rgba16(raster& r, const filter_plan& plan, const run_settings& s) {
  using image4 = hs::host_image<hs::ushort4>;
  return filter_in_place<hs::ushort4>(r, [&](image4& image) { return filter_same_type(image, plan, s); });
}

/// 16-bit colour responses (sobel, laplacian): each colour plane filtered as float, and the
/// planes shown together: the Sobel scale is the largest magnitude over the three, and
/// alpha (when the file has it) becomes 65535 wherever an output was written.
double filter_planes16(raster& r, const filter_plan& plan, const run_settings& s, response_range& range) {
  const int planes = r.file_channels == 4 ? 4 : 3;  // without alpha in the file, A is never written
  const std::size_t pixels = std::size_t(r.width) * std::size_t(r.height);
  std::vector<hs::host_image<std::uint16_t>> plane;
  for (int c = 0; c < planes; ++c) {
    plane.emplace_back(r.width, r.height);
    for (std::size_t i = 0; i < pixels; ++i) std::memcpy(&plane[c].data()[i], &r.samples[(4 * i + c) * 2], 2);
  }
  double ms = 0;
  std::vector<std::vector<hs::host_image<float>>> resp(3);  // per colour plane: one image per filter
  for (int c = 0; c < 3; ++c) {
    hs::host_image<float> as_float(r.width, r.height);
    for (std::size_t i = 0; i < pixels; ++i) as_float.data()[i] = float(plane[c].data()[i]);
    ms += filter_responses(as_float, plan, s, resp[c]);
  }
  response_range all;
  if (plan.filters.size() == 2) {  // sobel: one scale for the three planes
    for (int c = 0; c < 3; ++c) all.add(sobel_range(resp[c][0], resp[c][1], s.roi));
    for (int c = 0; c < 3; ++c) sobel_write(resp[c][0], resp[c][1], s.roi, all.empty ? 0.0 : all.max, plane[c]);
  } else {
    for (int c = 0; c < 3; ++c) all.add(laplacian_display(resp[c][0], s.roi, plane[c]));
  }
  if (planes == 4)
    for (int y = s.roi.y; y < s.roi.y + s.roi.height; ++y)
      for (int x = s.roi.x; x < s.roi.x + s.roi.width; ++x)
        if (!std::isnan(resp[0][0](x, y))) plane[3](x, y) = 65535;
  range = all;
  for (int c = 0; c < planes; ++c)
    for (std::size_t i = 0; i < pixels; ++i) std::memcpy(&r.samples[(4 * i + c) * 2], &plane[c].data()[i], 2);
  return ms;
}

}  // namespace

double filter_raster(raster& image, const filter_plan& plan, const run_settings& s, response_range& range,
                     std::string& filtered_as) {
  const bool grey = image.channels == 1;
  // RGB without alpha, filtered into its own type: 3-channel pixels (pixels.hpp).
  if (!grey && image.file_channels == 3 && !plan.float_output) {
    switch (image.type) {
      case sample_type::u8: filtered_as = "uchar3"; return filter_rgb<hs::uchar3, std::uint8_t>(image, plan, s);
      case sample_type::u16: filtered_as = "ushort3"; return filter_rgb<hs::ushort3, std::uint16_t>(image, plan, s);
      case sample_type::f32: filtered_as = "float3"; return filter_rgb<hs::float3, float>(image, plan, s);
    }
  }
  switch (image.type) {
    case sample_type::u8:
      filtered_as = grey ? "uint8" : "uchar4";
      return grey ? filter_as<std::uint8_t>(image, plan, s, range) : filter_as<hs::uchar4>(image, plan, s, range);
    case sample_type::u16:
      if (!grey && !plan.float_output) {
        filtered_as = "ushort4";
        return filter_rgba16(image, plan, s);
      }
      filtered_as = grey                        ? "uint16"
                    : image.file_channels == 4 ? "float planes (R, G, B, A)"
                                               : "float planes (R, G, B)";
      return grey ? filter_as<std::uint16_t>(image, plan, s, range) : filter_planes16(image, plan, s, range);
    case sample_type::f32:
      filtered_as = grey ? "float" : "float4";
      return grey ? filter_as<float>(image, plan, s, range) : filter_as<hs::float4>(image, plan, s, range);
  }
  return 0;
}

}  // namespace hsf
