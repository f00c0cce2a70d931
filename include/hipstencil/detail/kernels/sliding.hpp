// hipstencil/detail/kernels/sliding.hpp
// The sliding family: separable filters of any size (up to separable_capacity taps a
// side), column pass first, each thread sliding a window of registers along its outputs
// so that every source pixel is read and converted once per thread rather than once per
// tap. For wide separable filters, where the shared-memory families read (and convert)
// each input kw times in the row pass and each row result kh times from shared memory.
//
// A block of P::threads threads computes a tile of TW x rows outputs (TW per channel count
// from the policy, rows chosen on the host to fill the shared-memory budget):
//   1. Column pass, straight from global memory (one source column a thread, so a warp's
//      loads are coalesced): OY vertical sums of the tile's TW + kw - 1 columns, into
//      shared memory (row pitch `pitch`, one padding element after every OX columns so
//      that the row pass's strided reads fall in distinct banks).
//   2. Row pass from shared memory: OX consecutive outputs a thread.
//   3. The outputs go back into the rows they were computed from (row y of the outputs
//      needs row y of the sums only) as Out pixels, and the block stores them in whole
//      coalesced rows.
// The windows slide with a run-time filter size (slide): taps in blocks of OX (or OY) over
// two register chunks of that many pixels that swap roles a block at a time, and a
// uniform test for the taps past the filter's end in the last block (a zero tap times an
// infinity would make NaN of a sum whose window does not hold it). Reads past a thread's
// last input feed only outputs it does not store: the column pass repeats its last row
// (or, deep inside the image, reads on), the row pass reads the allocation's slack. One
// instantiation per pixel pair: no compiled radii.
#pragma once

#include "../../platform/config.hpp"
#if HIPSTENCIL_HAS_GPU
#include <algorithm>

#include "../../algorithm.hpp"
#include "../family.hpp"
#include "batch_image.hpp"
#include "shared_mem.hpp"
#include "staging.hpp"
#include "streaming_io.hpp"
#include "taps.hpp"

namespace hipstencil {
namespace detail {

/// Shape of one sliding tile: `rows` output rows (a multiple of the policy's out_y),
/// `pitch` accumulators per shared row, `bytes` of dynamic shared memory.
struct sliding_layout {
  int rows = 0, pitch = 0;
  std::size_t bytes = 0;
};

/// Shared column of logical column c: one padding element after every OX columns.
template <int OX>
HIPSTENCIL_HOST_DEVICE HIPSTENCIL_FORCEINLINE int sliding_column(int c) {
  return c + c / OX;
}

/// The layout for a kw-wide filter on an image `height` rows tall, for pixels of C
/// channels (float accumulators of C floats); rows 0 when not even out_y rows fit the
/// policy's shared memory.
/// The pitch is an odd multiple of half a 128-byte bank line (for 4-, 8- and 16-byte
/// accumulators): the row pass's threads of one warp then read distinct banks across the
/// two rows a warp spans (worked out for the policy's shapes: 16 threads a row of 4-byte
/// sums, 16 of 16-byte ones, whose 8-thread phases then read 5q + i mod 8, distinct).
template <class P, int C>
sliding_layout sliding_layout_for(int kw, int height) {
  constexpr int tw = P::template width<C>, oy = P::template out_y<C>;
  constexpr int accum_bytes = int(sizeof(accum<float, C>));
  sliding_layout l;
  int pitch = sliding_column<P::template out_x<C>>(tw + kw - 2) + 1;
  if (128 % accum_bytes == 0) {
    const int line = 128 / accum_bytes, half = line / 2;
    pitch += ((half - pitch % line) + line) % line;
  }
  // The row pass reads whole chunks, up to a chunk past its inputs (slide): from the last
  // row's last item that may run past the row's pitch, so the allocation has that slack.
  constexpr int ox = P::template out_x<C>;
  const int last = sliding_column<ox>(tw - ox) + ((kw + ox - 1) / ox + 1) * (ox + 1);
  const std::size_t slack = std::size_t(std::max(0, last - pitch));
  const std::size_t elements = P::shared_bytes / accum_bytes;
  if (elements <= slack) return l;
  int rows = int(std::min<std::size_t>(P::max_rows, (elements - slack) / std::size_t(pitch))) / oy * oy;
  rows = std::min(rows, (height + oy - 1) / oy * oy);
  if (rows < oy) return l;
  l.rows = rows;
  l.pitch = pitch;
  l.bytes = (std::size_t(rows) * std::size_t(pitch) + slack) * accum_bytes;
  return l;
}

/// `l` with fewer rows (down to out_y) where the grid would have fewer than `blocks` blocks:
/// a block runs its column pass, row pass and stores one after the other, so a small
/// image's few blocks left the GPU waiting on each (some 25 us a call at 512x512 with 64
/// rows, whatever the filter); shorter tiles trade vertical halo work for more of them.
template <class P, int C>
sliding_layout sliding_rows_for_grid(sliding_layout l, int width, int height, int images, long long blocks) {
  constexpr int tw = P::template width<C>, oy = P::template out_y<C>;
  const long long across = (long long)((width + tw - 1) / tw) * images;
  const int rows = l.rows;
  while (l.rows > oy && across * ((height + l.rows - 1) / l.rows) < blocks) l.rows -= oy;
  l.bytes -= std::size_t(rows - l.rows) * std::size_t(l.pitch) * sizeof(accum<float, C>);
  return l;
}

/// Shared-memory accumulators of 4 floats (16-byte aligned here: the storage is float4)
/// as one vector access; accum itself is only float-aligned, which made nvcc split each
/// into four scalar accesses.
template <int C>
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE accum<float, C> load_sum(const accum<float, C>* p) {
  if constexpr (C == 4) {
    const float4 v = *reinterpret_cast<const float4*>(p);
    return accum<float, 4>{{v.x, v.y, v.z, v.w}};
  } else {
    return *p;
  }
}
template <int C>
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE void store_sum(accum<float, C>* p, const accum<float, C>& a) {
  if constexpr (C == 4) *reinterpret_cast<float4*>(p) = make_float4(a.v[0], a.v[1], a.v[2], a.v[3]);
  else *p = a;
}

/// acc[k] += sum_j w(j) v(k + j) for k in [0, N), j in [0, n). The window slides in
/// blocks of N taps over two register chunks of N inputs, unrolled two blocks at a time
/// so that the chunks swap roles instead of being copied; only the last, partial block
/// tests each tap against n (a uniform test). v(i, k) is called once for each input i in
/// [0, N (blocks + 1)), in order (so the caller may step a pointer), with k = i % N a
/// compile-time constant. Inputs past i = N - 1 + n - 1 reach only acc[k] for the k whose
/// own inputs run past the end (outputs the caller does not store), so the caller may give
/// any finite or infinite value there, e.g. its last input again, and need not test.
template <int N, class A, class W, class V>
HIPSTENCIL_DEVICE HIPSTENCIL_FORCEINLINE void slide(A (&acc)[N], int n, W&& w, V&& v) {
  A a[N], b[N];
  int i = 0;
  auto load = [&](A(&chunk)[N]) {
    HIPSTENCIL_UNROLL
    for (int k = 0; k < N; ++k) chunk[k] = v(i + k, k);
    i += N;
  };
  auto block = [&](const A(&lo)[N], const A(&hi)[N], int jb, bool partial) {
    HIPSTENCIL_UNROLL
    for (int u = 0; u < N; ++u) {
      if (partial && jb + u >= n) break;
      const float t = w(jb + u);
      HIPSTENCIL_UNROLL
      for (int k = 0; k < N; ++k) fma_acc(acc[k], t, k + u < N ? lo[k + u] : hi[k + u - N]);
    }
  };
  load(a);
  int jb = 0;
  for (; jb + 2 * N <= n; jb += 2 * N) {
    load(b);
    block(a, b, jb, false);
    load(a);
    block(b, a, jb + N, false);
  }
  if (jb + N <= n) {
    load(b);
    block(a, b, jb, false);
    if (jb + N < n) {
      load(a);
      block(b, a, jb + N, true);
    }
  } else if (jb < n) {
    load(b);
    block(a, b, jb, true);
  }
}

template <class In, class Out, class P, bool Batch>
__global__ void HIPSTENCIL_LAUNCH_BOUNDS(P::threads, P::min_blocks)
    sliding_sep_kernel(image_view<const In> src, image_view<Out> dst, geometry g, separable_taps<separable_capacity> taps,
                       sliding_layout lay, bool tile_class, image_strides strides) {
  if constexpr (Batch) select_image(src, dst, strides);
  constexpr int C = pixel_traits<In>::channels, OX = P::template out_x<C>, OY = P::template out_y<C>;
  constexpr int NT = P::threads;
  constexpr int TW = P::template width<C>, QN = TW / OX;
  using A = accum<float, C>;
  extern __shared__ float4 sliding_storage[];
  A* sums = reinterpret_cast<A*>(sliding_storage);
  const int kw = g.kw, kh = g.kh, th = lay.rows, pitch = lay.pitch;
  const bordered<In> mapped{src, g.for_reads()};
  const int tx0 = blockIdx.x * TW;
  for (int ty0 = blockIdx.y * th; ty0 < g.height; ty0 += gridDim.y * th) {
    const tile_class_info tc = classify_tile(g, tx0, ty0, TW, th, kw, kh, tile_class);
    const int ow = tc.ow, oh = tc.oh, px = tc.px, py = tc.py;
    // Whether the column pass may read up to 2 OY - 2 rows past the tile's windows (slide's
    // last chunk) in place, with no test a row: the read rectangle holds them.
    const bool deep = tc.free_read && g.reads_inside(px, py, ow + kw - 1, oh + kh - 1 + 2 * OY);
    // 1. Column pass: column c of the tile's window columns, OY sums from row y0.
    const int ncols = ow + kw - 1, n_col_items = ncols * ((oh + OY - 1) / OY);
    for (int item = threadIdx.x; item < n_col_items; item += NT) {
      const int c = item % ncols, y0 = item / ncols * OY;
      const int n_in = min(OY, oh - y0) + kh - 1;  // rows this thread's sums read
      A acc[OY];
      HIPSTENCIL_UNROLL
      for (int k = 0; k < OY; ++k) zero(acc[k]);
      if (tc.free_read) {
        const char* s = reinterpret_cast<const char*>(src.row(py + y0) + px + c);  // steps a row a call
        const std::size_t step = src.pitch_bytes;
        if (deep) {
          slide<OY>(acc, kh, [&](int j) { return taps.col[j]; }, [&](int, int) {
            const A a = load_pixel(reinterpret_cast<const In*>(s));
            s += step;
            return a;
          });
        } else {
          slide<OY>(acc, kh, [&](int j) { return taps.col[j]; }, [&](int i, int) {
            const A a = load_pixel(reinterpret_cast<const In*>(s));
            if (i + 1 < n_in) s += step;  // past the last row this thread may read, repeat it
            return a;
          });
        }
      } else {
        slide<OY>(acc, kh, [&](int j) { return taps.col[j]; },
                  [&](int i, int) { return mapped(px + c, py + y0 + min(i, n_in - 1)); });
      }
      A* out = sums + y0 * pitch + sliding_column<OX>(c);
      HIPSTENCIL_UNROLL
      for (int k = 0; k < OY; ++k) store_sum(out + k * pitch, acc[k]);
    }
    __syncthreads();
    // 2. Row pass, in rounds of one item (OX outputs of a row) a thread; 3. each round's
    // outputs overwrite the sums of their own rows once every thread of it has read them.
    const int n_row_items = QN * oh;
    for (int base = 0; base < n_row_items; base += NT) {
      const int item = base + int(threadIdx.x), q = item % QN, row = item / QN, x0 = q * OX;
      const bool active = item < n_row_items && x0 < ow;
      A acc[OX];
      HIPSTENCIL_UNROLL
      for (int k = 0; k < OX; ++k) zero(acc[k]);
      if (active) {
        // Inputs come in whole chunks of OX (x0 is a chunk's first column): the padding
        // element after each is skipped once a chunk.
        const A* r = sums + row * pitch + sliding_column<OX>(x0);
        slide<OX>(acc, kw, [&](int j) { return taps.row[j]; }, [&](int, int k) {
          const A a = load_sum(r + k);  // past the item's inputs: unused, in sliding_layout's slack
          if (k == OX - 1) r += OX + 1;
          return a;
        });
      }
      __syncthreads();
      if (active) {
        Out* o = reinterpret_cast<Out*>(sums + row * pitch);
        HIPSTENCIL_UNROLL
        for (int k = 0; k < OX; ++k) o[sliding_column<OX>(x0 + k)] = from_accum<Out>(acc[k]);
      }
    }
    __syncthreads();
    // Whole rows a warp (a wave of 32 lanes; wider waves take two rows at once).
    const bool free_write = tc.free_write;
    for (int y = threadIdx.x / 32; y < oh; y += NT / 32) {
      const Out* o = reinterpret_cast<const Out*>(sums + y * pitch);
      Out* d = dst.row(g.dst_y0 + ty0 + y) + g.dst_x0 + tx0;
      for (int x = threadIdx.x % 32; x < ow; x += 32)
        if (free_write || g.writes(tx0 + x, ty0 + y)) d[x] = o[sliding_column<OX>(x)];
    }
    __syncthreads();
  }
}

struct sliding_family {
  static constexpr const char* name = "sliding";
  static constexpr bool dense = false, separable = true;
  static constexpr tuning::choice automatic_id = tuning::choice::sliding;
  using default_policy = tuning::sliding_policy<>;
  using fallback = shared_mem_family;

  /// Separable filters up to separable_capacity taps a side whose tile of out_y rows
  /// fits the policy's shared memory.
  template <class P, class In, class Out>
  static fit fits(const problem<In, Out>& p) {
    if (!p.separable || p.low_rank) return no_fit;
    if (std::max(p.g.kw, p.g.kh) > separable_capacity) return no_fit;
    return fit{sliding_layout_for<P, pixel_traits<In>::channels>(p.g.kw, p.g.height).rows > 0, -1};
  }

  template <class P, class In, class Out>
  static void launch(const problem<In, Out>& p) {
    constexpr int C = pixel_traits<In>::channels;
    constexpr bool B = tuning::is_batched<P>::value;
    const geometry& g = p.g;
    const long long wanted = (long long)P::min_blocks * tuning::multiprocessors();  // one full wave
    const sliding_layout lay =
        sliding_rows_for_grid<P, C>(sliding_layout_for<P, C>(g.kw, g.height), g.width, g.height, p.images, wanted);
    const dim3 grid = tile_grid(g.width, g.height, P::template width<C>, lay.rows, p.images);
    sliding_sep_kernel<In, Out, P, B><<<grid, dim3(P::threads), lay.bytes, p.stream>>>(
        p.src, p.dst, g, pack_separable<separable_capacity>(*p.separable), lay, p.tile_class, p.strides);
    gpu::check_launch("sliding_sep_kernel");
  }
};

}  // namespace detail
}  // namespace hipstencil
#endif
