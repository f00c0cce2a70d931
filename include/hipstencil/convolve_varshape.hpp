// hipstencil/convolve_varshape.hpp
// Variable-shape batches in one launch: convolve_batch over a list of varshape_image
// (varshape.hpp), each image with its own size, ROIs, filter and constant border value.
// One kernel runs them all (detail/kernels/varshape.hpp): run-time filter sizes, taps and
// sizes read from device memory. Where every image has one size and one filter, the
// uniform convolve_batch (convolve_batch.hpp) runs the tuned families instead and is
// faster.
#pragma once

#include "platform/config.hpp"
#if HIPSTENCIL_HAS_GPU
#include <algorithm>
#include <cstring>
#include <type_traits>
#include <vector>

#include "convolve.hpp"
#include "detail/kernels/varshape.hpp"
#include "detail/validate_varshape.hpp"
#include "varshape.hpp"

namespace hipstencil {

namespace detail {

/// Where each part of a variable-shape batch's device block lies (bytes from its start):
/// the descriptors, the tile prefix (images + 1 entries), the coefficients of every
/// filter of the list. Each part starts on a 256-byte boundary.
struct varshape_layout {
  std::size_t descs = 0, prefix = 0, taps = 0, bytes = 0;
};

inline std::size_t round_up_256(std::size_t b) { return (b + 255) / 256 * 256; }

template <class In, class Out>
varshape_layout layout_varshape(std::size_t images, const std::vector<filter2d>& filters) {
  varshape_layout l;
  std::size_t taps = 0;
  for (const filter2d& f : filters) taps += f.taps();
  l.prefix = round_up_256(images * sizeof(varshape_desc<In, Out>));
  l.taps = l.prefix + round_up_256((images + 1) * sizeof(long long));
  l.bytes = l.taps + round_up_256(taps * sizeof(float));
  return l;
}

/// Validates a variable-shape batch and runs it on `stream`, its block staged in `ws` (or,
/// without one, in a stream-ordered allocation released after the kernel).
template <class In, class Out>
void run_varshape(const char* fn, const std::vector<varshape_image<In, Out>>& images,
                  const std::vector<filter2d>& filters, border::any b, halo h, gpu::stream_t stream,
                  const workspace* ws) {
  check_pixels<In, Out>();
  validate_varshape(fn, images, filters, b, h);
  std::size_t total_taps = 0;
  for (const filter2d& f : filters) total_taps += f.taps();
  if (total_taps > std::size_t(2147483647))
    throw_invalid(fn, ": the filters hold ", total_taps, " coefficients in all, more than 2^31 - 1");
  const varshape_layout l = layout_varshape<In, Out>(images.size(), filters);
  if (ws && (!ws->data || ws->bytes < l.bytes))
    throw_invalid(fn, ": the workspace holds ", ws->data ? ws->bytes : 0, " bytes",
                  ws->data ? "" : " (null data)", "; this batch needs ", l.bytes,
                  " (varshape_workspace_bytes)");

  std::vector<unsigned char> block(l.bytes);
  std::vector<int> offset(filters.size());
  for (std::size_t i = 0, at = 0; i < filters.size(); at += filters[i].taps(), ++i) {
    offset[i] = int(at);
    std::memcpy(block.data() + l.taps + at * sizeof(float), filters[i].coefficients().data(),
                filters[i].taps() * sizeof(float));
  }
  constexpr int BX = varshape_block_x, BY = varshape_block_y, TH = varshape_block_y * varshape_rows;
  long long tiles = 0;
  for (std::size_t k = 0; k < images.size(); ++k) {
    const auto& im = images[k];
    const filter2d& f = filters[std::size_t(im.filter)];
    static_assert(std::is_trivially_copyable<varshape_desc<In, Out>>::value, "copied to the device as bytes");
    varshape_desc<In, Out> d;
    d.src = im.src;
    d.dst = im.dst;
    d.g = make_geometry(im.src.bounds(), im.src_roi, im.dst_roi, f.width(), f.height(), f.anchor_x(),
                        f.anchor_y(), image_border(im, b), h);
    d.taps_offset = offset[std::size_t(im.filter)];
    d.tiles_x = (d.g.width + BX - 1) / BX;
    std::memcpy(block.data() + k * sizeof(d), &d, sizeof(d));
    std::memcpy(block.data() + l.prefix + k * sizeof(long long), &tiles, sizeof(long long));
    tiles += (long long)d.tiles_x * ((d.g.height + TH - 1) / TH);
  }
  std::memcpy(block.data() + l.prefix + images.size() * sizeof(long long), &tiles, sizeof(long long));

  auto* dev = static_cast<unsigned char*>(ws ? ws->data : gpu::malloc_async(l.bytes, stream));
  gpu::memcpy(dev, block.data(), l.bytes, gpu::copy_kind::host_to_device, stream);
  // Blocks loop over the tiles past the grid: 2^20 blocks fill any GPU many times over.
  const unsigned grid = unsigned(std::min<long long>(tiles, 1LL << 20));
  varshape_kernel<In, Out, BX, BY, varshape_rows><<<grid, dim3(BX, BY), 0, stream>>>(
      reinterpret_cast<const varshape_desc<In, Out>*>(dev), reinterpret_cast<const long long*>(dev + l.prefix),
      int(images.size()), tiles, reinterpret_cast<const float*>(dev + l.taps));
  const auto launch = gpu::get_last_error();
  if (!ws) gpu::free_async(dev, stream);
  gpu::check(launch, "varshape_kernel");
}

/// Each separable filter as its dense outer product (column times row, in float).
inline std::vector<filter2d> outer_products(const std::vector<separable_filter>& filters) {
  std::vector<filter2d> d;
  d.reserve(filters.size());
  for (const separable_filter& f : filters) d.push_back(f.to_2d());
  return d;
}

}  // namespace detail

/// Bytes of device workspace a variable-shape convolve_batch of `images` images with
/// `filters` needs: about 120 bytes an image for its descriptor and tile offset, plus the
/// filters' coefficients (4 bytes a tap). Depends on the pixel types, not on the sizes.
template <class In, class Out>
std::size_t varshape_workspace_bytes(std::size_t images, const std::vector<filter2d>& filters) {
  return detail::layout_varshape<In, Out>(images, filters).bytes;
}

/// Filters every image of a variable-shape batch in one launch: for each k,
///
///   convolve(images[k].src, images[k].src_roi, images[k].dst, images[k].dst_roi,
///            filters[images[k].filter], border with images[k]'s constant, algo::naive{},
///            stream, h)
///
/// with the same results (float accumulation; integer outputs rounded to nearest, ties to
/// even, and saturated), every border rule and both halo modes. Filters of any odd size and
/// anchor, one list shared by the batch. Each tile of 32 x 32 outputs reads in place where
/// its windows lie in the image, and through the border rule elsewhere.
///
/// The images' descriptors and the filters' coefficients (varshape_workspace_bytes) are
/// built on the host and copied to the device on `stream` from pageable memory, which the
/// runtime may do synchronously with the host; this overload stages them in a
/// stream-ordered allocation (MallocAsync, FreeAsync on `stream`), the workspace overload
/// in the caller's memory.
///
/// @param images  one or more images (varshape.hpp), In and Out with the same channel count
/// @param filters one or more filters; images[k].filter indexes this list
/// @throws invalid_argument, naming the image ("convolve_batch (image 12): ..."), for all
///         that convolve rejects of any image, a filter index outside the list, an empty
///         list, or a target overlapping another image's target or the pixels any image
///         reads; nothing is queued. Validation compares every pair of images whose byte
///         ranges meet (ROIs of one large image: up to N^2 pairs).
/// @throws gpu_error when the runtime rejects the allocation, the copy or the launch.
template <class In, class Out, class Border = border::reflect101>
void convolve_batch(const std::vector<varshape_image<In, Out>>& images, const std::vector<filter2d>& filters,
                    Border border = {}, gpu::stream_t stream = {}, halo h = halo::isolated) {
  detail::run_varshape("convolve_batch", images, filters, border::any(border), h, stream, nullptr);
}

/// As above, the device block in `ws` (at least varshape_workspace_bytes<In, Out>(
/// images.size(), filters) bytes; it must stay untouched until the kernel has run). No
/// allocation. @throws invalid_argument as above, and if ws is null or too small.
template <class In, class Out, class Border>
void convolve_batch(const std::vector<varshape_image<In, Out>>& images, const std::vector<filter2d>& filters,
                    Border border, gpu::stream_t stream, halo h, workspace ws) {
  detail::run_varshape("convolve_batch", images, filters, border::any(border), h, stream, &ws);
}

/// Separable filters, each run as its dense outer product (the filter list of the dense
/// overload is built from them on the host at each call).
template <class In, class Out, class Border = border::reflect101>
void convolve_batch(const std::vector<varshape_image<In, Out>>& images,
                    const std::vector<separable_filter>& filters, Border border = {}, gpu::stream_t stream = {},
                    halo h = halo::isolated) {
  detail::run_varshape("convolve_batch", images, detail::outer_products(filters), border::any(border), h, stream,
                       nullptr);
}

}  // namespace hipstencil
#endif
