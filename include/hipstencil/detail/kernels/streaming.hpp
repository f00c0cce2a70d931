// hipstencil/detail/kernels/streaming.hpp
// The streaming family (algo::streaming), register streaming: each thread owns V adjacent output
// columns and walks down a strip of output rows, reading every input row of the strip
// exactly once with one vector load (16 bytes where its accumulators fit) and keeping
// the partial sums of the 2R + 1 output rows that row touches in registers (a sliding
// window down the column, as in 2.5D blocking for stencils). The R columns of halo on
// either side come from the neighbouring lanes through warp shuffles of 32-bit words;
// only the lanes at a warp's edges load them from memory. No barriers. Loads run
// rows_in_flight rows ahead of the arithmetic (a ring of registers, unrolled so that no
// register with a load in flight is ever moved), and an L2 prefetch runs prefetch_rows
// further ahead; where the policy asks for it (async_rows) the interior block columns
// instead copy that many rows ahead into a ring in shared memory (cp.async), each lane
// into its own slots. The numbers: tuning::streaming_policy and streaming_shape.hpp.
//
// Border handling: tile-class dispatch by block column ("Tiled Convolution"): the
// launcher runs the block columns whose lanes all read whole vectors inside the domain
// and write whole vectors inside the ROI with the Interior instantiation, which has no
// border code at all; the few at the edges run the general one, as a second grid that
// overlaps the first where the GPU allows (platform/overlap.hpp). In it, border handling
// is per lane (the tile-class idea at the finest grain): a lane whose
// vectors all lie inside the border domain uses them as they are; a lane near an edge
// replaces just the window pixels whose vector lies outside by mapped loads (a branch a
// warp enters only when one of its lanes needs it: the warps at the left and right
// edges). Rows are mapped
// once per row (uniform across the block), and only in strips that reach the top or
// bottom of the domain. strategy::per_access maps every pixel.
//
// Dense filters: input row t adds filter row (2R - k) times its window to the partial
// sum of output row t - 2R + k, k = 0..2R. Separable filters: the row taps first give V
// horizontal results, then the column taps add them into the same 2R + 1 partial sums.
// Preconditions (checked by streaming_family::fits): square centred filter of
// compile-time radius R, and the own vectors aligned: the source ROI's first column and
// the target ROI's first column at multiples of the vector size in bytes, pitches too.
#pragma once

#include "../../platform/config.hpp"
#if HIPSTENCIL_HAS_GPU
#include <algorithm>
#include <cstdint>

#include "../../algorithm.hpp"
#include "../../platform/async_copy.hpp"
#include "../../platform/overlap.hpp"
#include "../../platform/prefetch.hpp"
#include "../../platform/warp.hpp"
#include "../bordered.hpp"
#include "../family.hpp"
#include "accumulate.hpp"
#include "batch_image.hpp"
#include "shared_mem.hpp"
#include "streaming_io.hpp"
#include "streaming_shape.hpp"
#include "taps.hpp"

namespace hipstencil {
namespace detail {

/// Dense (`Separable` false: Taps = inline_taps<(2R+1)^2>) or separable (Taps =
/// separable_taps<2R+1>) filter of radius R. Grid: x covers block columns of
/// Cfg::block lanes of V output columns, block column = blockIdx.x, plus `block_skip`
/// from blockIdx.x = `block_split` on; y strides over strips of `strip_rows` output rows.
/// `gr` is g.for_reads(), computed once on the host: derived per thread it took registers
/// across the unrolled loops (u8 3x3: 77 instead of 70, nvcc 13 -Xptxas -v for sm_90).
/// `Interior`: the launcher guarantees that every lane of these block columns reads only
/// whole vectors inside the domain and writes V outputs inside the ROI, so the kernel
/// carries no mapping and no partial stores (fewer registers: 66 instead of the general
/// kernel's 80 for float separable 3x3, nvcc -Xptxas -v for sm_90); the block columns at
/// the left and right edges run the general kernel.
template <class In, class Out, int R, bool Separable, bool Interior, class Taps, class Cfg, bool Batch>
__global__ void HIPSTENCIL_LAUNCH_BOUNDS(Cfg::block, Cfg::min_blocks)
    streaming_kernel(image_view<const In> src, image_view<Out> dst, geometry g, geometry gr, Taps taps,
                     int strip_rows, bool tile_class, int block_split, int block_skip, image_strides strides) {
  if constexpr (Batch) select_image(src, dst, strides);
  using S = stream_shape<In, Out, R, Cfg>;
  constexpr int C = S::channels, D = S::taps, V = S::v, W = S::words, HW = S::halo_words, E = S::window;
  constexpr int U = Cfg::rows_in_flight, block = Cfg::block, prefetch_rows = Cfg::prefetch_rows;
  using A = accum<float, C>;
  using slot = stream_slot<W, HW>;

  if constexpr (!Interior) gpu::allow_dependents();  // the interior grid may start beside this one
  const int lane = warp::lane(), lanes = warp::size();
  const int bx = int(blockIdx.x) + (int(blockIdx.x) >= block_split ? block_skip : 0);
  const int x0 = (bx * block + int(threadIdx.x)) * V;  // first output column (ROI)
  // A warp wholly right of the ROI has nothing to write and no neighbour to pass halo to
  // (shuffles stay within a warp; this path has no barrier): it leaves. In a narrow
  // image most of the one block column's warps are such.
  if (!Interior && (bx * block + int(threadIdx.x) - lane) * V >= g.width) return;  // the warp's first lane
  const int cx = g.src_x0 + R + x0;  // parent column of the first pixel of the own vector
  const rect rr = gr.domain;  // g.read_rect(): pixels that whole-vector loads may touch
  const int lo = rr.x, hi = rr.x + rr.width;
  auto vector_ok = [&](int k) {  // the vector k places to the right of the own one is loaded
    const int c = cx + k * V;
    return Interior || (tile_class && c >= lo && c + V <= hi);
  };
  // Window pixels whose vector is not loaded take a mapped load (bit m: window pixel m).
  unsigned need_map = 0;
  // Outputs this lane writes (bit v: column x0 + v): inside the ROI, and written in x
  // (geometry::writes_x: under skip, windows inside the domain).
  unsigned write_mask = S::all_columns;
  if constexpr (!Interior) {
    HIPSTENCIL_UNROLL
    for (int m = 0; m < E; ++m) {
      const int b = (m - R) * int(sizeof(In));
      const int k = b >= 0 ? b / S::load_bytes : -((S::load_bytes - 1 - b) / S::load_bytes);
      if (!vector_ok(k)) need_map |= 1u << m;
    }
    write_mask = 0;
    HIPSTENCIL_UNROLL
    for (int v = 0; v < V; ++v) {
      if (x0 + v < g.width && g.writes_x(x0 + v, D)) write_mask |= 1u << v;
    }
  }
  const bool own_ok = vector_ok(0);
  const bool write_all = Interior || write_mask == S::all_columns;
  const A cval = constant_accum<C>(g);

  const int strips = (g.height + strip_rows - 1) / strip_rows;
  for (int strip = int(blockIdx.y); strip < strips; strip += int(gridDim.y)) {
    const int y0 = strip * strip_rows;
    const int ny = min(strip_rows, g.height - y0);  // output rows of this strip
    const int rows_in = ny + 2 * R;                 // input rows it reads
    const int row0 = g.src_y0 + y0;                 // parent row of input row 0
    const bool rows_free = tile_class && row0 >= rr.y && row0 + rows_in <= rr.y + rr.height;

    // Input row t of the strip, mapped; null for a row outside the domain (constant rule).
    auto source_row = [&](int t) -> const In* {
      const int py = row0 + t;
      const int sy = rows_free ? py : gr.map_y(py);
      return sy == outside ? nullptr : src.row(sy);
    };

    auto fetch = [&](slot& s, int t) {
      const int py = row0 + t;
      s.row = source_row(t);
      HIPSTENCIL_UNROLL
      for (int i = 0; i < W; ++i) s.own[i] = 0u;
      HIPSTENCIL_UNROLL
      for (int q = 0; q < HW; ++q) s.left[q] = s.right[q] = 0u;
      if (s.row) {
        const unsigned* p = reinterpret_cast<const unsigned*>(static_cast<const In*>(s.row) + cx);
        if (own_ok) {
          load_words<W>(p, s.own);
          if (prefetch_rows > 0 && rows_free && t + prefetch_rows < rows_in)
            gpu::prefetch_l2(src.row(py + prefetch_rows) + cx);
        }
        HIPSTENCIL_UNROLL
        for (int q = 1; q <= HW; ++q) {
          const int k = (q - 1) / W + 1;  // the halo word q places out comes from the vector k lanes away
          if (lane < k && vector_ok(-k)) s.left[q - 1] = p[-q];
          if (lane >= lanes - k && vector_ok(k)) s.right[q - 1] = p[W + q - 1];
        }
      }
    };

    // The window of E pixels of one row, as float channels.
    auto window = [&](const slot& s, A (&win)[E]) {
      if (!s.row) {  // a row outside the domain under the constant rule (uniform)
        HIPSTENCIL_UNROLL
        for (int m = 0; m < E; ++m) win[m] = cval;
        return;
      }
      unsigned w[W + 2 * HW];
      HIPSTENCIL_UNROLL
      for (int i = 0; i < W; ++i) w[HW + i] = s.own[i];
      HIPSTENCIL_UNROLL
      for (int q = 1; q <= HW; ++q) {
        const int k = (q - 1) / W + 1;
        const unsigned up = warp::shfl_up(s.own[W - 1 - (q - 1) % W], k);
        const unsigned down = warp::shfl_down(s.own[(q - 1) % W], k);
        w[HW - q] = lane >= k ? up : s.left[q - 1];
        w[HW + W - 1 + q] = lane + k < lanes ? down : s.right[q - 1];
      }
      HIPSTENCIL_UNROLL
      for (int m = 0; m < E; ++m) win[m] = unpack_pixel<In>(w, HW * 4 + (m - R) * int(sizeof(In)));
      if (need_map) {  // lanes near the left or right edge of the domain, or per_access
        const typename bordered<In>::row_ref row{static_cast<const In*>(s.row), gr};
        HIPSTENCIL_UNROLL
        for (int m = 0; m < E; ++m)
          if ((need_map >> m) & 1u) win[m] = row.at(cx - R + m);
      }
    };

    A acc[D][V];  // acc[k][v]: partial sum of output row (t - 2R + k), column x0 + v
    HIPSTENCIL_UNROLL
    for (int k = 0; k < D; ++k)
      HIPSTENCIL_UNROLL
      for (int v = 0; v < V; ++v) zero(acc[k][v]);

    // Input row t adds into the partial sums of the outputs o = t - 2R + k in [0, ny).
    auto consume = [&](const A (&win)[E], int t) {
      if constexpr (Separable) {
        A h[V];
        HIPSTENCIL_UNROLL
        for (int v = 0; v < V; ++v) {
          zero(h[v]);
          HIPSTENCIL_UNROLL
          for (int i = 0; i < D; ++i) fma_acc(h[v], taps.row[i], win[v + i]);
        }
        HIPSTENCIL_UNROLL
        for (int k = 0; k < D; ++k) {
          const int o = t - 2 * R + k;
          if (o >= 0 && o < ny)
            HIPSTENCIL_UNROLL
            for (int v = 0; v < V; ++v) fma_acc(acc[k][v], taps.col[2 * R - k], h[v]);
        }
      } else {
        HIPSTENCIL_UNROLL
        for (int k = 0; k < D; ++k) {
          const int o = t - 2 * R + k;
          if (o >= 0 && o < ny)
            HIPSTENCIL_UNROLL
            for (int i = 0; i < D; ++i)
              HIPSTENCIL_UNROLL
              for (int v = 0; v < V; ++v) fma_acc(acc[k][v], taps[(2 * R - k) * D + i], win[v + i]);
        }
      }
    };

    // Output row o of the strip is complete in acc[0].
    auto store = [&](int o) {
      const int y = y0 + o;
      if (!g.writes_y(y, D)) return;
      Out* out = dst.row(g.dst_y0 + y) + g.dst_x0 + x0;
      if (write_all) {
        unsigned w[S::store_bytes / 4];
        HIPSTENCIL_UNROLL
        for (int i = 0; i < S::store_bytes / 4; ++i) w[i] = 0u;
        HIPSTENCIL_UNROLL
        for (int v = 0; v < V; ++v) pack_pixel<Out>(w, v * int(sizeof(Out)), from_accum<Out>(acc[0][v]));
        store_words<S::store_bytes / 4>(out, w);
      } else {
        HIPSTENCIL_UNROLL
        for (int v = 0; v < V; ++v)
          if ((write_mask >> v) & 1u) out[v] = from_accum<Out>(acc[0][v]);
      }
    };

    // Row t done: its output row (if any) is complete, the partial sums move up one row.
    auto advance = [&](int t) {
      if (t >= 2 * R) store(t - 2 * R);
      HIPSTENCIL_UNROLL
      for (int k = 0; k + 1 < D; ++k)
        HIPSTENCIL_UNROLL
        for (int v = 0; v < V; ++v) acc[k][v] = acc[k + 1][v];
      HIPSTENCIL_UNROLL
      for (int v = 0; v < V; ++v) zero(acc[D - 1][v]);
    };

    if constexpr (Interior && S::async_rows > 0) {
      // Interior block columns: a ring of Q rows in shared memory, each thread's own slots
      // (and the halo words of the lanes at warp edges) filled by its own asynchronous
      // copies, so a thread reads only what it copied and needs no barrier.
      constexpr int Q = S::async_rows, K = S::halo_lanes;
      __shared__ __align__(16) unsigned own_ring[Q][block * W];
      __shared__ unsigned halo_ring[Q][block / 32][2 * K][HW];
      const int wid = int(threadIdx.x) / lanes;
      auto issue = [&](int t) {  // copies of input row t into slot t % Q, one group per row
        const In* r = t < rows_in ? source_row(t) : nullptr;
        if (r) {
          const unsigned* p = reinterpret_cast<const unsigned*>(r + cx);
          const int q0 = t % Q;
          async_copy::copy<S::load_bytes>(&own_ring[q0][threadIdx.x * W], p);
          HIPSTENCIL_UNROLL
          for (int q = 1; q <= HW; ++q) {
            const int k = (q - 1) / W + 1;
            if (lane < k) async_copy::copy<4>(&halo_ring[q0][wid][lane][q - 1], p - q);
            if (lane >= lanes - k) async_copy::copy<4>(&halo_ring[q0][wid][K + lane - (lanes - K)][q - 1], p + W + q - 1);
          }
          if (prefetch_rows > 0 && rows_free && t + prefetch_rows < rows_in)
            gpu::prefetch_l2(src.row(row0 + t + prefetch_rows) + cx);
        }
        async_copy::commit();
      };
      for (int u = 0; u + 1 < Q; ++u) issue(u);
      for (int t = 0; t < rows_in; ++t) {
        issue(t + Q - 1);  // into the slot row t - 1 was read from
        async_copy::wait<Q - 1>();  // row t has landed
        slot s;
        s.row = source_row(t);
        const int q0 = t % Q;
        HIPSTENCIL_UNROLL
        for (int q = 1; q <= HW; ++q) {
          const int k = (q - 1) / W + 1;
          s.left[q - 1] = lane < k ? halo_ring[q0][wid][lane][q - 1] : 0u;
          s.right[q - 1] = lane >= lanes - k ? halo_ring[q0][wid][K + lane - (lanes - K)][q - 1] : 0u;
        }
        load_words<W>(&own_ring[q0][threadIdx.x * W], s.own);
        A win[E];
        window(s, win);
        consume(win, t);
        advance(t);
      }
    } else {
      slot ring[U];
      HIPSTENCIL_UNROLL
      for (int u = 0; u < U; ++u)
        if (u < rows_in) fetch(ring[u], u);
      for (int t = 0; t < rows_in; t += U) {
        HIPSTENCIL_UNROLL
        for (int u = 0; u < U; ++u) {
          const int tt = t + u;
          if (tt < rows_in) {
            A win[E];
            window(ring[u], win);
            if (tt + U < rows_in) fetch(ring[u], tt + U);  // the slot is free again: refill it
            consume(win, tt);
            advance(tt);
          }
        }
      }
    }
  }
  if constexpr (Interior) gpu::wait_for_primary();  // end after the edge grid (overlap.hpp)
}

struct streaming_family {
  static constexpr const char* name = "streaming";
  static constexpr bool dense = true, separable = true;
  static constexpr tuning::choice automatic_id = tuning::choice::streaming;
  using default_policy = tuning::streaming_policy<>;
  using fallback = shared_mem_family;

  /// True when the kernel of radius R can run this problem: the own vectors of its lanes
  /// are aligned (the source ROI's first column and the target ROI's first column at
  /// multiples of the vector size in bytes, pitches and a batch's image strides multiples
  /// of it too).
  template <class P, int R, class In, class Out>
  static bool aligned(const problem<In, Out>& p) {
    using S = stream_shape<In, Out, R, stream_config_of<P, In, R>>;
    const std::size_t lb = std::size_t(S::load_bytes), sb = std::size_t(std::min(16, S::store_bytes));
    const auto s = reinterpret_cast<std::uintptr_t>(p.src.data) + std::uintptr_t(p.g.src_x0 + R) * sizeof(In);
    const auto d = reinterpret_cast<std::uintptr_t>(p.dst.data) + std::uintptr_t(p.g.dst_x0) * sizeof(Out);
    return s % lb == 0 && p.src.pitch_bytes % lb == 0 && d % sb == 0 && p.dst.pitch_bytes % sb == 0 &&
           p.strides.src_bytes % (long long)lb == 0 && p.strides.dst_bytes % (long long)sb == 0;
  }

  /// True when a lane's 16-byte vectors hold whole pixels of In and Out (1, 2, 4, 8 or 16
  /// bytes). Three-channel pixels (3, 6, 12 bytes) do not: those problems run shared_mem,
  /// and no streaming kernel is compiled for them.
  template <class In, class Out>
  static constexpr bool whole_pixels = 16 % sizeof(In) == 0 && 16 % sizeof(Out) == 0;

  /// Square centred filters of a compiled radius, with aligned vectors.
  template <class P, class In, class Out>
  static fit fits(const problem<In, Out>& p) {
    if constexpr (!whole_pixels<In, Out>) {
      return no_fit;
    } else {
      bool ok = false;
      auto check = [&](auto R) { ok = aligned<P, decltype(R)::value>(p); };
      if (p.dense) with_static_radius(p.radius, check, typename P::dense_radii{});
      else with_static_radius(p.radius, check, typename P::separable_radii{});
      return ok ? fit{true, p.radius} : no_fit;
    }
  }

  /// Runs what fits() accepted (so nothing for pixels that are not whole_pixels).
  template <class P, class In, class Out>
  static void launch(const problem<In, Out>& p) {
    if constexpr (whole_pixels<In, Out>) {
      if (p.dense)
        with_static_radius(p.radius, [&](auto R) {
          constexpr int n = (2 * R + 1) * (2 * R + 1);
          launch_radius<P, decltype(R)::value, false>(p, pack_taps<n>(p.dense->coefficients()));
        }, typename P::dense_radii{});
      else
        with_static_radius(p.radius, [&](auto R) {
          launch_radius<P, decltype(R)::value, true>(p, pack_separable<2 * R + 1>(*p.separable));
        }, typename P::separable_radii{});
    }
  }

 private:
  /// Launches the kernel of radius R with tile-class dispatch by block column: the block
  /// columns whose every lane is free (whole vectors inside the read rectangle, V outputs
  /// inside the ROI) run the Interior instantiation, the others (at most a few at each
  /// edge; all of them under per_access) the general one.
  template <class P, int R, bool Separable, class In, class Out, class Taps>
  static void launch_radius(const problem<In, Out>& p, const Taps& taps) {
    using Cfg = stream_config_of<P, In, R>;
    using S = stream_shape<In, Out, R, Cfg>;
    constexpr int V = S::v, K = (R + V - 1) / V;  // K: neighbour vectors per side
    constexpr bool B = tuning::is_batched<P>::value;
    const geometry& g = p.g;
    const int span = S::block * V;  // output columns per block column
    const int columns = (g.width + span - 1) / span;
    // Blocks of the interior kernel one multiprocessor holds (the occupancy calculator,
    // asked once per device): with the multiprocessor count, what one wave of the grid is.
    // Only this family sizes its grid by them, so only its launches ask (cached per device).
    const int per_mp = tuning::detail::per_device([](int) {
      return gpu::blocks_per_multiprocessor(&streaming_kernel<In, Out, R, Separable, true, Taps, Cfg, B>, S::block, 0);
    });
    const long long resident = (long long)per_mp * tuning::multiprocessors();
    const int rows = p.strip_rows > 0
                         ? p.strip_rows
                         : stream_strip_rows(g.height, (long long)columns * p.images, resident, P::min_strip_rows,
                                             P::strip_rows(R));
    const unsigned strips = unsigned(std::min((g.height + rows - 1) / rows, 65535));
    const rect rr = g.read_rect();
    const int lo = rr.x, hi = rr.x + rr.width;
    // Block column b is interior when its first lane's leftmost vector starts at or after
    // lo and its last lane's rightmost vector and last output end inside hi and the ROI.
    int first = columns, end = columns;
    if (p.tile_class) {
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
    const unsigned images = unsigned(p.images);
    if (edge > 0)
      streaming_kernel<In, Out, R, Separable, false, Taps, Cfg, B>
          <<<dim3(unsigned(edge), strips, images), dim3(S::block), 0, p.stream>>>(p.src, p.dst, g, g.for_reads(), taps,
                                                                                  rows, p.tile_class, first, interior,
                                                                                  p.strides);
    if (interior > 0) {
      // Whether the device can overlap the two grids, asked of the runtime once per device.
      const bool overlap =
          P::overlap && edge > 0 && tuning::detail::per_device([](int) { return int(gpu::overlap_supported()); }) != 0;
      gpu::launch_dependent(&streaming_kernel<In, Out, R, Separable, true, Taps, Cfg, B>,
                            dim3(unsigned(interior), strips, images), dim3(S::block), p.stream, overlap, p.src, p.dst,
                            g, g.for_reads(), taps, rows, p.tile_class, 0, first, p.strides);
    }
    gpu::check_launch("streaming_kernel");
  }
};

}  // namespace detail
}  // namespace hipstencil
#endif
