// hipstencil/detail/dispatch.hpp
// Dispatch layer: chooses the compiled instantiation (compile-time radius or run-time
// size), sizes the grid and launches on the caller's stream. No synchronisation; launch
// errors are checked (get_last_error) and thrown as gpu_error.
#pragma once

#include "../platform/config.hpp"
#if HIPSTENCIL_HAS_GPU
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "../platform/runtime.hpp"
#include "geometry.hpp"
#include "kernels/naive.hpp"
#include "kernels/shared_mem.hpp"
#include "kernels/streaming.hpp"
#include "kernels/tiled.hpp"
#include "kernels/two_pass.hpp"

namespace hipstencil {
namespace detail {

/// Radii compiled as templates (fully unrolled tap loops, coefficients as immediates):
/// every radius up to 16 for dense filters and up to 32 for separable ones; beyond, the
/// same kernels run with a run-time size. Shifted sequences: R = 1 + index.
template <int N>
struct radii_from_1 {
  template <int... I>
  static std::integer_sequence<int, (I + 1)...> make(std::integer_sequence<int, I...>);
  using type = decltype(make(std::make_integer_sequence<int, N>{}));
};
using static_radii_2d = radii_from_1<16>::type;
using static_radii_separable = radii_from_1<32>::type;
/// Radii of the register-blocked family (registers hold OX + 2R pixels per thread).
using static_radii_tiled = std::integer_sequence<int, 1, 2, 3, 4, 5, 6, 7, 8>;
/// Radii of the streaming family (registers hold 2R + 1 partial output rows per thread):
/// those where it can win. On the H200 (bench/RESULTS.md) it took 1.29x tiled's time at
/// dense radius 7 and 1.59x shared_mem's at separable radius 7 (float), and won at dense
/// radius 4 and (after the interior/edge split) separable radius 4 for one channel.
using static_radii_streaming_dense = std::integer_sequence<int, 1, 2, 3, 4, 5>;
using static_radii_streaming_separable = std::integer_sequence<int, 1, 2, 3, 4>;
/// Dynamic shared memory every target grants without opting in.
constexpr std::size_t smem_limit = 48 * 1024;

/// Calls fn(std::integral_constant<int, R>) for the R of `Radii` equal to r; false if none.
template <class Fn, int... Rs>
bool with_static_radius(int r, Fn&& fn, std::integer_sequence<int, Rs...>) {
  bool found = false;
  ((r == Rs ? (fn(std::integral_constant<int, Rs>{}), found = true) : false), ...);
  return found;
}

/// Radius of a square filter with centred anchor, or -1 (such filters take run-time paths).
inline int centred_radius(int kw, int kh, int ax, int ay) {
  return (kw == kh && ax == kw / 2 && ay == kh / 2) ? kw / 2 : -1;
}

template <int C>
dim3 tile_grid(int width, int height) {
  using T = smem_tile<C>;
  return dim3(unsigned((width + T::width - 1) / T::width),
              unsigned(std::min((height + T::height - 1) / T::height, 65535)));
}

template <int N>
inline_taps<N> pack_taps(const float* t, std::size_t n) {
  inline_taps<N> p{};
  std::memcpy(p.v, t, n * sizeof(float));
  return p;
}

// ---------------------------------------------------------------------------------- naive

inline dim3 naive_grid(const geometry& g) {
  const unsigned gx = unsigned((g.width + naive_block_x - 1) / naive_block_x);
  const unsigned gy = unsigned(std::min((g.height + naive_block_y - 1) / naive_block_y, 65535));
  return dim3(gx, gy);
}

/// Launches the naive kernel. `taps` are host coefficients, row-major kw x kh. Filters of
/// more than inline_capacity taps are staged in a stream-ordered device allocation that
/// is released on the same stream after the kernel (MallocAsync/FreeAsync).
template <class In, class Out>
void launch_naive(image_view<const In> src, image_view<Out> dst, const geometry& g, const std::vector<float>& taps,
                  gpu::stream_t stream) {
  const dim3 block(naive_block_x, naive_block_y), grid = naive_grid(g);
  if (taps.size() <= std::size_t(inline_capacity)) {
    naive_kernel<In, Out, inline_taps<inline_capacity>>
        <<<grid, block, 0, stream>>>(src, dst, g, pack_taps<inline_capacity>(taps.data(), taps.size()));
    gpu::check_launch("naive_kernel");
  } else {
    const std::size_t bytes = taps.size() * sizeof(float);
    auto* d = static_cast<float*>(gpu::malloc_async(bytes, stream));
    gpu::memcpy(d, taps.data(), bytes, gpu::copy_kind::host_to_device, stream);
    naive_kernel<In, Out, global_taps><<<grid, block, 0, stream>>>(src, dst, g, global_taps{d});
    const auto launch = gpu::get_last_error();
    gpu::free_async(d, stream);
    gpu::check(launch, "naive_kernel");
  }
}

// ----------------------------------------------------------------------------- shared_mem

/// Dense filter through shared memory. Returns false (nothing launched) when the filter
/// does not fit the family (more than inline_capacity taps, or a tile over smem_limit).
template <class In, class Out>
bool launch_smem2d(image_view<const In> src, image_view<Out> dst, const geometry& g, const std::vector<float>& taps,
                   int ax, int ay, bool tile_class, gpu::stream_t stream) {
  constexpr int C = pixel_traits<In>::channels;
  const dim3 block(smem_tile<C>::block_x, smem_tile<C>::block_y), grid = tile_grid<C>(g.width, g.height);
  const std::size_t smem = smem2d_bytes<C>(g.kw, g.kh);
  const int r = centred_radius(g.kw, g.kh, ax, ay);
  const bool launched = with_static_radius(r, [&](auto R) {
    constexpr int n = (2 * R + 1) * (2 * R + 1);
    smem2d_kernel<In, Out, R, inline_taps<n>>
        <<<grid, block, smem, stream>>>(src, dst, g, pack_taps<n>(taps.data(), taps.size()), tile_class);
  }, static_radii_2d{});
  if (!launched) {
    if (taps.size() > std::size_t(inline_capacity) || smem > smem_limit) return false;
    smem2d_kernel<In, Out, -1, inline_taps<inline_capacity>><<<grid, block, smem, stream>>>(
        src, dst, g, pack_taps<inline_capacity>(taps.data(), taps.size()), tile_class);
  }
  gpu::check_launch("smem2d_kernel");
  return true;
}

/// Separable filter with both passes fused in shared memory. Returns false when it does
/// not fit (more than separable_capacity taps per axis, or a tile over smem_limit).
template <class In, class Out>
bool launch_smem_sep(image_view<const In> src, image_view<Out> dst, const geometry& g, const std::vector<float>& row,
                     const std::vector<float>& col, int ax, int ay, bool tile_class, gpu::stream_t stream) {
  constexpr int C = pixel_traits<In>::channels;
  const dim3 block(smem_tile<C>::block_x, smem_tile<C>::block_y), grid = tile_grid<C>(g.width, g.height);
  const std::size_t smem = smem_sep_bytes<C>(g.kh);
  auto pack = [&](auto N) {
    separable_taps<N> t{};
    std::memcpy(t.row, row.data(), row.size() * sizeof(float));
    std::memcpy(t.col, col.data(), col.size() * sizeof(float));
    return t;
  };
  const int r = centred_radius(g.kw, g.kh, ax, ay);
  const bool launched = with_static_radius(r, [&](auto R) {
    constexpr int n = 2 * R + 1;
    smem_sep_kernel<In, Out, R, n>
        <<<grid, block, smem, stream>>>(src, dst, g, pack(std::integral_constant<int, n>{}), tile_class);
  }, static_radii_separable{});
  if (!launched) {
    if (std::max(row.size(), col.size()) > std::size_t(separable_capacity) || smem > smem_limit) return false;
    smem_sep_kernel<In, Out, -1, separable_capacity><<<grid, block, smem, stream>>>(
        src, dst, g, pack(std::integral_constant<int, separable_capacity>{}), tile_class);
  }
  gpu::check_launch("smem_sep_kernel");
  return true;
}

// --------------------------------------------------------------------------------- tiled

template <int BX, int BY, int OX, int OY>
dim3 tiled_grid(int width, int height) {
  return dim3(unsigned((width + BX * OX - 1) / (BX * OX)), unsigned(std::min((height + BY * OY - 1) / (BY * OY), 65535)));
}

/// Dense filter, register-blocked. Returns false (nothing launched) unless the filter is
/// square, centred and of a radius in static_radii_tiled.
template <class In, class Out, int BX, int BY, int OX, int OY>
bool launch_tiled2d(image_view<const In> src, image_view<Out> dst, const geometry& g, const std::vector<float>& taps,
                    int ax, int ay, bool tile_class, gpu::stream_t stream) {
  const int r = centred_radius(g.kw, g.kh, ax, ay);
  const bool launched = with_static_radius(r, [&](auto R) {
    constexpr int n = (2 * R + 1) * (2 * R + 1);
    tiled2d_kernel<In, Out, R, BX, BY, OX, OY><<<tiled_grid<BX, BY, OX, OY>(g.width, g.height), dim3(BX, BY), 0, stream>>>(
        src, dst, g, pack_taps<n>(taps.data(), taps.size()), tile_class);
  }, static_radii_tiled{});
  if (launched) gpu::check_launch("tiled2d_kernel");
  return launched;
}

/// Separable filter, register-blocked with shared horizontal results. Returns false
/// unless the filter is square, centred, of a radius in static_radii_tiled, and its
/// shared rows fit smem_limit.
template <class In, class Out, int BX, int BY, int OX, int OY>
bool launch_tiled_sep(image_view<const In> src, image_view<Out> dst, const geometry& g, const std::vector<float>& row,
                      const std::vector<float>& col, int ax, int ay, bool tile_class, gpu::stream_t stream) {
  constexpr int C = pixel_traits<In>::channels;
  const int r = centred_radius(g.kw, g.kh, ax, ay);
  if (r < 0 || tiled_sep_bytes<C, BX, BY, OX, OY>(r) > smem_limit) return false;
  const bool launched = with_static_radius(r, [&](auto R) {
    separable_taps<2 * R + 1> t{};
    std::memcpy(t.row, row.data(), row.size() * sizeof(float));
    std::memcpy(t.col, col.data(), col.size() * sizeof(float));
    tiled_sep_kernel<In, Out, R, BX, BY, OX, OY>
        <<<tiled_grid<BX, BY, OX, OY>(g.width, g.height), dim3(BX, BY), tiled_sep_bytes<C, BX, BY, OX, OY>(R), stream>>>(
            src, dst, g, t, tile_class);
  }, static_radii_tiled{});
  if (launched) gpu::check_launch("tiled_sep_kernel");
  return launched;
}

// ------------------------------------------------------------------------------ streaming

/// Output rows per strip of the streaming kernel when the caller leaves the choice to us:
/// 24 at radius 1, 32 beyond (the 2R halo rows each strip reads again weigh more at larger
/// radii). Measured on the H200 with 16, 24, 32 and 64 rows: at radius 1, 24 rows beat 32
/// by 2-8% (float, u8, float4); at radius 2 and 4, 32 beat 24 by 3-12%; 64 lost everywhere.
constexpr int stream_default_strip_rows(int radius) { return radius <= 1 ? 24 : 32; }

/// True when the streaming kernel of radius R can run this problem: the own vectors of
/// its lanes are aligned (the source ROI's first column and the target ROI's first column
/// at multiples of the vector size in bytes, pitches multiples of it too).
template <class In, class Out, int R>
bool streaming_aligned(const image_view<const In>& src, const image_view<Out>& dst, const geometry& g) {
  using S = stream_shape<In, Out, R>;
  const std::size_t lb = std::size_t(S::load_bytes), sb = std::size_t(std::min(16, S::store_bytes));
  const auto s = reinterpret_cast<std::uintptr_t>(src.data) + std::uintptr_t(g.src_x0 + R) * sizeof(In);
  const auto d = reinterpret_cast<std::uintptr_t>(dst.data) + std::uintptr_t(g.dst_x0) * sizeof(Out);
  return s % lb == 0 && src.pitch_bytes % lb == 0 && d % sb == 0 && dst.pitch_bytes % sb == 0;
}

/// True when launch_streaming would run (not fall back) for this problem: a square
/// centred filter of a compiled radius (static_radii_streaming_dense or _separable),
/// and aligned vectors.
template <class In, class Out>
bool streaming_fits(const image_view<const In>& src, const image_view<Out>& dst, const geometry& g, int ax, int ay,
                    bool separable) {
  bool aligned = false;
  auto check = [&](auto R) { aligned = streaming_aligned<In, Out, R>(src, dst, g); };
  const int r = centred_radius(g.kw, g.kh, ax, ay);
  if (separable) with_static_radius(r, check, static_radii_streaming_separable{});
  else with_static_radius(r, check, static_radii_streaming_dense{});
  return aligned;
}

/// Launches the streaming kernel of radius R with tile-class dispatch by block column:
/// the block columns whose every lane is free (whole vectors inside the domain, V
/// outputs inside the ROI) run the Interior instantiation, the others (at most a few at
/// each edge; all of them under per_access) the general one.
template <class In, class Out, int R, bool Separable, class Taps>
void launch_streaming_radius(const image_view<const In>& src, const image_view<Out>& dst, const geometry& g,
                             const Taps& taps, int strip_rows, bool tile_class, gpu::stream_t stream) {
  constexpr int V = stream_shape<In, Out, R>::v, K = (R + V - 1) / V;  // K: neighbour vectors per side
  const int rows = strip_rows > 0 ? strip_rows : stream_default_strip_rows(R);
  const int span = stream_block * V;  // output columns per block column
  const int columns = (g.width + span - 1) / span;
  const unsigned strips = unsigned(std::min((g.height + rows - 1) / rows, 65535));
  const column_range cols = stream_load_columns(g, R);
  const int lo = cols.lo, hi = cols.hi;
  // Block column b is interior when its first lane's leftmost vector starts at or after
  // lo and its last lane's rightmost vector and last output end inside hi and the ROI.
  int first = columns, end = columns;
  if (tile_class) {
    const long long a = (long long)lo - (g.src_x0 + R) + (long long)K * V;
    const long long lim = std::min<long long>(g.width, (long long)hi - (g.src_x0 + R) - (long long)K * V);
    first = int(a <= 0 ? 0 : (a + span - 1) / span);
    end = int(lim >= span ? lim / span : 0);
    if (first >= end) first = end = columns;
  }
  const int interior = end - first, edge = columns - interior;
  // The edge block columns first, then the interior ones as its dependent: on a GPU that
  // can overlap them (gpu::launch_dependent) the few edge blocks no longer run alone
  // after the interior grid has drained.
  if (edge > 0)
    streaming_kernel<In, Out, R, Separable, false, Taps><<<dim3(unsigned(edge), strips), dim3(stream_block), 0, stream>>>(
        src, dst, g, taps, rows, tile_class, first, interior);
  if (interior > 0)
    gpu::launch_dependent(&streaming_kernel<In, Out, R, Separable, true, Taps>, dim3(unsigned(interior), strips),
                          dim3(stream_block), stream, stream_overlap && edge > 0 && gpu::overlap_supported(), src, dst,
                          g, taps, rows, tile_class, 0, first);
  gpu::check_launch("streaming_kernel");
}

/// Dense filter, register streaming. Returns false (nothing launched) unless
/// streaming_fits. `strip_rows` <= 0: the default.
template <class In, class Out>
bool launch_streaming2d(const image_view<const In>& src, const image_view<Out>& dst, const geometry& g,
                        const std::vector<float>& taps, int ax, int ay, int strip_rows, bool tile_class,
                        gpu::stream_t stream) {
  if (!streaming_fits(src, dst, g, ax, ay, false)) return false;
  return with_static_radius(centred_radius(g.kw, g.kh, ax, ay), [&](auto R) {
    constexpr int n = (2 * R + 1) * (2 * R + 1);
    launch_streaming_radius<In, Out, R, false>(src, dst, g, pack_taps<n>(taps.data(), taps.size()), strip_rows,
                                               tile_class, stream);
  }, static_radii_streaming_dense{});
}

/// Separable filter, register streaming. Returns false (nothing launched) unless
/// streaming_fits.
template <class In, class Out>
bool launch_streaming_sep(const image_view<const In>& src, const image_view<Out>& dst, const geometry& g,
                          const std::vector<float>& row, const std::vector<float>& col, int ax, int ay,
                          int strip_rows, bool tile_class, gpu::stream_t stream) {
  if (!streaming_fits(src, dst, g, ax, ay, true)) return false;
  return with_static_radius(centred_radius(g.kw, g.kh, ax, ay), [&](auto R) {
    separable_taps<2 * R + 1> t{};
    std::memcpy(t.row, row.data(), row.size() * sizeof(float));
    std::memcpy(t.col, col.data(), col.size() * sizeof(float));
    launch_streaming_radius<In, Out, R, true>(src, dst, g, t, strip_rows, tile_class, stream);
  }, static_radii_streaming_separable{});
}

// ------------------------------------------------------------------------------- two_pass

/// Workspace of two_pass for a width x height ROI and a filter kh taps tall: W rows of
/// (height + kh - 1) float (or float4) pixels, rows padded to 256 bytes.
template <int C>
struct two_pass_layout {
  std::size_t pitch, bytes;
  two_pass_layout(int width, int height, int kh) {
    pitch = (std::size_t(height + kh - 1) * sizeof(work_pixel<C>) + 255) / 256 * 256;
    bytes = pitch * std::size_t(width);
  }
};

template <class In, class Out>
void launch_row_pass(image_view<const In> src, image_view<Out> out, const row_pass& p, const std::vector<float>& taps,
                     bool tile_class, gpu::stream_t stream) {
  constexpr int C = pixel_traits<In>::channels;
  const dim3 block(smem_tile<C>::block_x, smem_tile<C>::block_y), grid = tile_grid<C>(p.cols, p.rows);
  const std::size_t smem = row_pass_bytes<C>(p.n);
  const int r = int(taps.size()) / 2;
  const bool launched = with_static_radius(r, [&](auto R) {
    constexpr int n = 2 * R + 1;
    row_transpose_kernel<In, Out, R, n>
        <<<grid, block, smem, stream>>>(src, out, p, pack_taps<n>(taps.data(), taps.size()), tile_class);
  }, static_radii_separable{});
  if (!launched)
    row_transpose_kernel<In, Out, -1, separable_capacity><<<grid, block, smem, stream>>>(
        src, out, p, pack_taps<separable_capacity>(taps.data(), taps.size()), tile_class);
  gpu::check_launch("row_transpose_kernel");
}

/// True when two_pass can run this filter (taps per axis and shared memory).
template <int C>
bool two_pass_fits(int kw, int kh) {
  return std::max(kw, kh) <= separable_capacity && row_pass_bytes<C>(std::max(kw, kh)) <= smem_limit;
}

/// Two passes through `work` (two_pass_layout bytes). Anchors: the row taps are applied
/// with the geometry's src_x0 (anchor folded in), the column taps from window row 0.
template <class In, class Out>
void launch_two_pass(image_view<const In> src, image_view<Out> dst, const geometry& g, const std::vector<float>& row,
                     const std::vector<float>& col, bool tile_class, void* work, gpu::stream_t stream) {
  constexpr int C = pixel_traits<In>::channels;
  using P = work_pixel<C>;
  const two_pass_layout<C> layout(g.width, g.height, g.kh);
  const image_view<P> w(static_cast<P*>(work), g.height + g.kh - 1, g.width, layout.pitch);
  row_pass p1{};
  p1.rows = g.height + g.kh - 1, p1.cols = g.width, p1.n = g.kw;
  p1.x0 = g.src_x0, p1.y0 = g.src_y0, p1.mapped = true, p1.skip_check = false, p1.g = g;
  p1.out_x0 = 0, p1.out_y0 = 0;
  launch_row_pass<In, P>(src, w, p1, row, tile_class, stream);
  row_pass p2{};
  p2.rows = g.width, p2.cols = g.height, p2.n = g.kh;
  p2.x0 = 0, p2.y0 = 0, p2.mapped = false, p2.skip_check = g.border.rule == border::kind::skip, p2.g = g;
  p2.out_x0 = g.dst_x0, p2.out_y0 = g.dst_y0;
  launch_row_pass<P, Out>(image_view<const P>(w), dst, p2, col, tile_class, stream);
}

}  // namespace detail
}  // namespace hipstencil
#endif
