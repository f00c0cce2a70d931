// hipstencil/detail/kernels/fft.hpp
// The fft family: correlation by the FFT, overlap-save in square tiles (the classic
// "fast convolution" of Stockham, 1966; cuDNN's FFT_TILING algorithm does the same). An
// output tile of Vx x Vy pixels, Vx = N - kw + 1 and Vy = N - kh + 1, needs the N x N
// window region that starts at its first output's tap (0, 0); the circular correlation of
// that region with the filter zero-padded to N x N,
//   IFFT(FFT(region) * conj(FFT(filter))) / N^2,
// equals the linear one on those Vx x Vy outputs (their windows never wrap). Per call:
//   1. the filter, zero-padded, and its spectrum (one R2C);
//   2. per chunk of tiles: fft_gather_kernel reads each tile's region through the border
//      rule (bordered<In>: every rule, both halo modes) into float planes, one per channel;
//      R2C; fft_multiply_kernel; C2R; fft_scatter_kernel writes the valid outputs (the
//      skip rule's writes() test included), rounded and saturated as every family.
// Work: about 5 N^2 log2(N^2) flops a plane each way, a few hundred per output at N = 256,
// whatever the filter's size; direct sums cost 2 kw kh. The planes and spectra live in one
// stream-ordered allocation on the call's stream (MallocAsync/FreeAsync), chunked so that
// it stays within the policy's chunk_bytes. Float arithmetic throughout, rounded
// differently from direct sums (an error of a few units in the last place of the largest
// values of the tile), so integer kernels that the direct families compute exactly are
// left to them (fits()). Needs a GPU FFT library (platform/fft.hpp): cuFFT on NVIDIA;
// elsewhere fits() refuses every problem and the fallback runs.
#pragma once

#include "../../platform/config.hpp"
#if HIPSTENCIL_HAS_GPU
#include <algorithm>
#include <cstdint>
#include <vector>

#include "../../algorithm.hpp"
#include "../../platform/fft.hpp"
#include "../bordered.hpp"
#include "../factor.hpp"
#include "../family.hpp"
#include "shared_mem.hpp"

namespace hipstencil {
namespace detail {

/// How one call splits into tiles and chunks: transform size n, valid outputs vx x vy per
/// tile, tiles_x x tiles_y tiles an image, `chunk` tiles per batch of transforms.
struct fft_plan {
  int n = 0, vx = 0, vy = 0, tiles_x = 0, tiles_y = 0;
  long long tiles = 0;  ///< of the whole call (every image of a batch)
  int chunk = 0;
  /// Bytes of one plane's spectrum: n x (n / 2 + 1) complex floats.
  std::size_t spectrum_bytes() const { return std::size_t(n) * std::size_t(n / 2 + 1) * 2 * sizeof(float); }
};

/// The transform size for a kw x kh filter on a w x h ROI (of `images` images) under
/// policy P: the power of two from twice the filter (so that a tile's outputs are at least
/// a quarter of its region) to P::max_size whose tiles cost least, counted as tiles x
/// N^2 log2 N (the transforms' work; the passes over the planes are N^2 each). On the H200
/// that picks 256 for a 31 x 31 filter on 1920x1080 and 512 on 8192x8192 (1369 tiles of
/// 226 x 226 outputs against 289 of 482 x 482). 0: the filter is too large for P::max_size.
template <class P>
int fft_size(int kw, int kh, int w, int h) {
  const int k = std::max(kw, kh);
  int n = 32;  // the kernels' blocks cover 32 columns
  while (n < 2 * k) n *= 2;
  if (n > P::max_size) return 0;
  int best = n, log_n = 5;
  while ((1 << log_n) < n) ++log_n;
  double best_cost = -1;
  for (; n <= P::max_size; n *= 2, ++log_n) {
    const double tiles = double((w + n - kw) / (n - kw + 1)) * double((h + n - kh) / (n - kh + 1));
    const double cost = tiles * double(n) * double(n) * log_n;
    if (best_cost < 0 || cost < best_cost) best_cost = cost, best = n;
  }
  return best;
}

/// Tile (t of the call) -> image, and the tile's first output in it.
struct fft_tile {
  int image, ox, oy;
};
HIPSTENCIL_HOST_DEVICE inline fft_tile locate_tile(long long t, int tiles_x, int tiles_y, int vx, int vy) {
  const long long per_image = (long long)tiles_x * tiles_y;
  const int image = int(t / per_image), k = int(t % per_image);
  return fft_tile{image, (k % tiles_x) * vx, (k / tiles_x) * vy};
}

#if HIPSTENCIL_HAS_FFT
/// Rows of a plane one block of the gather and scatter kernels covers (32 x 8 threads,
/// 8 rows each): a thread's tile lookup (64-bit divisions) and geometry are paid once for
/// 8 pixels. One pixel a thread ran the two kernels at 1.0 and 1.4 TB/s (Nsight Compute,
/// 8192x8192 float 31x31: 245 and 170 us of the 950 a batch of 127 planes took).
constexpr int fft_block_rows = 64;

/// Region of tiles chunk0 + blockIdx.z, channel c, into plane (blockIdx.z * C + c) of
/// `planes` (n x n floats each). Positions past what the tile's outputs read, and tiles
/// past the call's last, are zero (they reach only outputs that are not written). Tiles
/// whose region lies in the read rectangle read in place, with no border arithmetic.
/// `nonfinite[t]` is set for a tile t whose region holds an infinity or a NaN: the
/// transform would spread it over every output of the tile, so fft_scatter_kernel sums
/// those tiles' windows directly instead.
template <class In, class Out>
__global__ void __launch_bounds__(256)
    fft_gather_kernel(image_view<const In> src, geometry g, image_strides strides, fft_plan fp, long long chunk0,
                      float* planes, unsigned* nonfinite) {
  constexpr int C = pixel_traits<In>::channels;
  const int x = blockIdx.x * 32 + threadIdx.x, n = fp.n;
  const int y0 = blockIdx.y * fft_block_rows, y1 = min(n, y0 + fft_block_rows);
  const long long t = chunk0 + blockIdx.z;
  float* plane = planes + std::size_t(blockIdx.z) * C * std::size_t(n) * n + x;
  int ow = 0, oh = 0, px = 0, py = 0;
  if (t < fp.tiles) {
    const fft_tile tl = locate_tile(t, fp.tiles_x, fp.tiles_y, fp.vx, fp.vy);
    ow = min(fp.vx, g.width - tl.ox), oh = min(fp.vy, g.height - tl.oy);
    px = g.src_x0 + tl.ox, py = g.src_y0 + tl.oy;
    src.data = reinterpret_cast<const In*>(reinterpret_cast<const char*>(src.data) + tl.image * strides.src_bytes);
  }
  const int rw = t < fp.tiles ? ow + g.kw - 1 : 0, rh = t < fp.tiles ? oh + g.kh - 1 : 0;  // the region read
  const bool inside = g.reads_inside(px, py, rw, rh);
  const bordered<In> b{src, g.for_reads()};
  for (int y = y0 + threadIdx.y; y < y1; y += 8) {
    accum<float, C> v;
    zero(v);
    if (x < rw && y < rh) v = inside ? to_accum<float>(src.row(py + y)[px + x]) : b(px + x, py + y);
    if constexpr (is_float_channel<typename pixel_traits<In>::channel_type>) {
      bool bad = false;
      HIPSTENCIL_UNROLL
      for (int c = 0; c < C; ++c) bad |= !isfinite(v.v[c]);
      if (bad) nonfinite[t] = 1u;  // (only tiles of the call read pixels)
    }
    HIPSTENCIL_UNROLL
    for (int c = 0; c < C; ++c) plane[(std::size_t(c) * n + y) * n] = v.v[c];
  }
}

/// spectra[s][f] *= conj(filter[f]) * scale, for `planes` planes of `per_plane` values. (A
/// template, as the two below, so that every translation unit may define it.)
template <int = 0>
__global__ void __launch_bounds__(256)
    fft_multiply_kernel(gpu::fft::complex* spectra, const gpu::fft::complex* filter, long long planes, int per_plane,
                        float scale) {
  const long long total = planes * per_plane;
  for (long long i = blockIdx.x * 256LL + threadIdx.x; i < total; i += 256LL * gridDim.x) {
    const gpu::fft::complex a = spectra[i], k = filter[i % per_plane];
    // a * conj(k): the spectrum of the correlation, not of the convolution.
    spectra[i] = gpu::fft::complex{(a.x * k.x + a.y * k.y) * scale, (a.y * k.x - a.x * k.y) * scale};
  }
}

/// The zero-padded filter: plane[j][i] = taps[j * kw + i] for i < kw, j < kh, else 0.
template <int = 0>
__global__ void __launch_bounds__(256) fft_filter_kernel(const float* taps, int kw, int kh, int n, float* plane) {
  const int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 8 + threadIdx.y;
  plane[std::size_t(y) * n + x] = x < kw && y < kh ? taps[y * kw + x] : 0.0f;
}

/// The valid outputs of tile chunk0 + blockIdx.z from its planes into dst; of a tile that
/// holds an infinity or a NaN (`nonfinite`), window sums of src with the `taps` instead
/// (as naive sums them: each window's own pixels only).
template <class In, class Out>
__global__ void __launch_bounds__(256)
    fft_scatter_kernel(image_view<const In> src, image_view<Out> dst, geometry g, image_strides strides, fft_plan fp,
                       long long chunk0, const float* planes, const float* taps, const unsigned* nonfinite) {
  constexpr int C = pixel_traits<In>::channels;
  const int x = blockIdx.x * 32 + threadIdx.x, n = fp.n;
  const int y0 = blockIdx.y * fft_block_rows, y1 = min(n, y0 + fft_block_rows);
  const long long t = chunk0 + blockIdx.z;
  if (t >= fp.tiles || x >= fp.vx) return;
  const fft_tile tl = locate_tile(t, fp.tiles_x, fp.tiles_y, fp.vx, fp.vy);
  const int ox = tl.ox + x;
  if (ox >= g.width || !g.writes_x(ox)) return;
  const float* plane = planes + std::size_t(blockIdx.z) * C * std::size_t(n) * n + x;
  dst.data = reinterpret_cast<Out*>(reinterpret_cast<char*>(dst.data) + tl.image * strides.dst_bytes);
  src.data = reinterpret_cast<const In*>(reinterpret_cast<const char*>(src.data) + tl.image * strides.src_bytes);
  const bool direct = nonfinite[t] != 0;
  for (int y = y0 + threadIdx.y; y < y1 && y < fp.vy; y += 8) {
    const int oy = tl.oy + y;
    if (oy >= g.height) break;
    if (!g.writes_y(oy)) continue;
    accum<float, C> v;
    if (direct) {
      v = window_sum<float>(src, g, global_taps{taps}, ox, oy);
    } else {
      HIPSTENCIL_UNROLL
      for (int c = 0; c < C; ++c) v.v[c] = plane[(std::size_t(c) * n + y) * n];
    }
    dst(g.dst_x0 + ox, g.dst_y0 + oy) = from_accum<Out>(v);
  }
}
#endif

/// The problem's taps as a dense kw x kh window (a separable filter's outer product).
template <class In, class Out>
std::vector<float> fft_window_taps(const problem<In, Out>& p) {
  if (p.dense) return p.dense->coefficients();
  return p.separable->to_2d().coefficients();
}

struct fft_family {
  static constexpr const char* name = "fft";
  static constexpr bool dense = true, separable = true;
  static constexpr bool outer_product = true;  // a separable filter runs as its outer product
  static constexpr bool tile_classes = false;  // every read mapped (the gather)
  static constexpr tuning::choice automatic_id = tuning::choice::fft;
  using default_policy = tuning::fft_policy<>;
  using fallback = shared_mem_family;

  /// Filters up to P::max_size / 2 taps a side, where a GPU FFT library is wired in, and
  /// not integer kernels over a power of two with sum |m| < 2^24 (coefficients m 2^-p):
  /// the direct families compute those exactly (filters::integer_kernel_exact).
  template <class P, class In, class Out>
  static fit fits(const problem<In, Out>& p) {
    if (!HIPSTENCIL_HAS_FFT) return no_fit;
    const geometry& g = p.g;
    if (fft_size<P>(g.kw, g.kh, g.width, g.height) == 0) return no_fit;
    // Cached per filter2d: walking 16129 taps on every call cost 0.3 ms a call at 127x127.
    if (p.dense ? small_integer_kernel(*p.dense) : small_integer_kernel(*p.separable)) return no_fit;
    return fit{true, -1};
  }

  template <class P, class In, class Out>
  static void launch(const problem<In, Out>& p) {
#if HIPSTENCIL_HAS_FFT
    constexpr int C = pixel_traits<In>::channels;
    const geometry& g = p.g;
    fft_plan fp;
    fp.n = fft_size<P>(g.kw, g.kh, g.width, g.height);
    fp.vx = fp.n - g.kw + 1, fp.vy = fp.n - g.kh + 1;
    fp.tiles_x = (g.width + fp.vx - 1) / fp.vx, fp.tiles_y = (g.height + fp.vy - 1) / fp.vy;
    fp.tiles = (long long)fp.tiles_x * fp.tiles_y * p.images;
    const std::size_t n2 = std::size_t(fp.n) * fp.n, plane_bytes = n2 * sizeof(float) + fp.spectrum_bytes();
    // Chunks of equal size: a short last chunk padded to the plans' batch spent a quarter
    // of the transforms on zeros (8192x8192 31x31: 289 tiles in chunks of 127).
    const long long fit_chunk = std::min<long long>(65535, std::max<long long>(1, P::chunk_bytes / (plane_bytes * C)));
    const long long chunks = (fp.tiles + fit_chunk - 1) / fit_chunk;
    fp.chunk = int((fp.tiles + chunks - 1) / chunks);
    const gpu::fft::plans& batch = gpu::fft::plans_for(fp.n, fp.chunk * C);
    const gpu::fft::plans& single = gpu::fft::plans_for(fp.n, 1);
    const std::vector<float> taps = fft_window_taps(p);
    // One allocation: filter spectrum | taps | non-finite flags, one a tile | planes (real)
    // | spectra | cuFFT's work area.
    const auto align = [](std::size_t b) { return (b + 255) / 256 * 256; };
    const std::size_t at_taps = align(fp.spectrum_bytes()), at_flags = at_taps + align(taps.size() * sizeof(float));
    const std::size_t flag_bytes = std::size_t(fp.tiles) * sizeof(unsigned), at_planes = at_flags + align(flag_bytes);
    const std::size_t at_spectra = at_planes + align(n2 * sizeof(float) * fp.chunk * C);
    const std::size_t at_work = at_spectra + align(fp.spectrum_bytes() * fp.chunk * C);
    const std::size_t bytes = at_work + std::max(batch.work_bytes, single.work_bytes);
    char* ws = static_cast<char*>(gpu::malloc_async(bytes, p.stream));
    try {
      auto* kspec = reinterpret_cast<gpu::fft::complex*>(ws);
      auto* dtaps = reinterpret_cast<float*>(ws + at_taps);
      auto* flags = reinterpret_cast<unsigned*>(ws + at_flags);
      gpu::memset_2d(flags, flag_bytes, 0, flag_bytes, 1, p.stream);
      auto* planes = reinterpret_cast<float*>(ws + at_planes);
      auto* spectra = reinterpret_cast<gpu::fft::complex*>(ws + at_spectra);
      void* work = ws + at_work;
      gpu::memcpy(dtaps, taps.data(), taps.size() * sizeof(float), gpu::copy_kind::host_to_device, p.stream);
      const dim3 block(32, 8), plane_grid(unsigned(fp.n / 32), unsigned(fp.n / 8));
      const dim3 strip_grid(unsigned(fp.n / 32), unsigned((fp.n + fft_block_rows - 1) / fft_block_rows));
      fft_filter_kernel<><<<plane_grid, block, 0, p.stream>>>(dtaps, g.kw, g.kh, fp.n, planes);
      gpu::check_launch("fft_filter_kernel");
      gpu::fft::forward(single, planes, kspec, work, p.stream);
      const int per_plane = fp.n * (fp.n / 2 + 1);
      const float scale = 1.0f / float(n2);
      for (long long chunk0 = 0; chunk0 < fp.tiles; chunk0 += fp.chunk) {
        const dim3 grid(strip_grid.x, strip_grid.y, unsigned(fp.chunk));
        fft_gather_kernel<In, Out><<<grid, block, 0, p.stream>>>(p.src, g, p.strides, fp, chunk0, planes, flags);
        gpu::check_launch("fft_gather_kernel");
        gpu::fft::forward(batch, planes, spectra, work, p.stream);
        const long long count = (long long)fp.chunk * C;
        const unsigned blocks = unsigned(std::min<long long>((count * per_plane + 255) / 256, 65535LL * 8));
        fft_multiply_kernel<><<<blocks, 256, 0, p.stream>>>(spectra, kspec, count, per_plane, scale);
        gpu::check_launch("fft_multiply_kernel");
        gpu::fft::inverse(batch, spectra, planes, work, p.stream);
        fft_scatter_kernel<In, Out><<<grid, block, 0, p.stream>>>(p.src, p.dst, g, p.strides, fp, chunk0, planes,
                                                                  dtaps, flags);
        gpu::check_launch("fft_scatter_kernel");
      }
    } catch (...) {
      gpu::free_async(ws, p.stream);
      throw;
    }
    gpu::free_async(ws, p.stream);
#else
    (void)p;
#endif
  }
};

}  // namespace detail
}  // namespace hipstencil
#endif
