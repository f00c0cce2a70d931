// Standalone A/B driver (not built by CMake): uchar3 dense 3x3 and 5x5 under replicate in
// packed half-precision lanes (the packed family's arithmetic, kernels/packed_lanes.hpp,
// and its plan, detail/packed_plan.hpp) against the library. Question: is uchar3 bound by
// its arithmetic? Automatic runs tiled_dense_clamp_kernel there, which converts each
// channel to float and sums it with one FMA a tap: at 1920x1080 dense 3x3 it took 13.95 us
// on an H100 where uchar4, a third more channels, took 10.91 in the packed family
// (bench/results/2026-12-05-h100-staged/wide.csv), and NPP 13.41 to 16.96 in two runs.
// The kernel here is tiled_dense_clamp_kernel's staging (the tile's window in shared
// memory, every read clamped, one pixel a thread a load) with the window held as halves,
// one plane a channel, centred at 128; each thread sums PX adjacent pixels (PX / 2 lanes
// of two neighbours, the odd tap columns by one byte permute of two lanes, as packed's one
// channel) of OY rows, every tap one __hfma2 for two outputs.
// Variants, held, median of 40, better of two taken in turn (ab_time_kernel_case):
//   auto, direct       the library;
//   pBYxPXxOY          the kernel below, 32 x BY threads of PX x OY outputs.
// Its outputs are within 1 of automatic's (what the packed family promises for a filter
// its plan accepts): the line ends with the largest difference and how many differ.
// Mode dense: ab_dense_filter; mode sep: a Gaussian, the library on its separable form and
// the kernel on its outer product.
//   nvcc -std=c++17 -O3 -arch=sm_90 --expt-relaxed-constexpr -I<tree>/include \
//        -I/usr/include/eigen3 packed3_ab.cu -lcufft -o packed3_ab
//   ./packed3_ab [dense|sep|all] [WxH,WxH,...]
#include "ab_common.hpp"
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>
namespace hs = hipstencil;
namespace hd = hipstencil::detail;

namespace hipstencil {
namespace detail {

template <int R, int BY, int PX, int OY>
__global__ void __launch_bounds__(32 * BY)
    packed3_dense_kernel(image_view<const uchar3> src, image_view<uchar3> dst, geometry g, geometry gr,
                         packed_taps<(2 * R + 1) * (2 * R + 1)> taps) {
  static_assert(PX % 2 == 0, "lanes of two neighbours");
  constexpr int BX = 32, K = 2 * R + 1, TW = BX * PX, TH = BY * OY;
  constexpr int HW = TW + 2 * R, HR = TH + 2 * R, HWW = (HW + 1) / 2;  // window; its words a row
  constexpr int NC = (HW + BX - 1) / BX, Q = (HR + BY - 1) / BY;
  constexpr int PAIRS = PX / 2, NW = (PX + 2 * R) / 2;  // a thread's lanes and words a row
  __shared__ unsigned s[3][HR][HWW];
  const int tx = int(threadIdx.x), ty = int(threadIdx.y);
  const int bx0 = int(blockIdx.x) * TW, by0 = int(blockIdx.y) * TH;
  const clamped<uchar3> c(src, gr);
  auto has_column = [&](int k) { return (k + 1) * BX <= HW || tx + k * BX < HW; };
  auto has_row = [&](int q) { return (q + 1) * BY <= HR || ty + q * BY < HR; };
  int sx[NC];
  HIPSTENCIL_UNROLL
  for (int k = 0; k < NC; ++k) sx[k] = c.x(g.src_x0 + bx0 + tx + k * BX);
  unsigned v[Q][NC];
  HIPSTENCIL_UNROLL
  for (int q = 0; q < Q; ++q)
    if (has_row(q)) {
      const uchar3* p = c.row(g.src_y0 + by0 + ty + q * BY);
      HIPSTENCIL_UNROLL
      for (int k = 0; k < NC; ++k)
        if (has_column(k)) {
          const uchar3 px = p[sx[k]];
          v[q][k] = unsigned(px.x) | (unsigned(px.y) << 8) | (unsigned(px.z) << 16);
        }
    }
  __half* h = reinterpret_cast<__half*>(&s[0][0][0]);
  HIPSTENCIL_UNROLL
  for (int q = 0; q < Q; ++q)
    if (has_row(q))
      HIPSTENCIL_UNROLL
      for (int k = 0; k < NC; ++k)
        if (has_column(k)) {
          const __half2 rg = centred_pair(v[q][k], 0x4140u), b = centred_pair(v[q][k], 0x4342u);
          const int at = (ty + q * BY) * 2 * HWW + tx + k * BX;
          h[at] = __low2half(rg);
          h[HR * 2 * HWW + at] = __high2half(rg);
          h[2 * HR * 2 * HWW + at] = __low2half(b);
        }
  __syncthreads();
  const __half2 init = word_as_half2(taps.init), add = word_as_half2(taps.add);
  __half2 acc[OY][3][PAIRS];
  HIPSTENCIL_UNROLL
  for (int y = 0; y < OY; ++y)
    HIPSTENCIL_UNROLL
    for (int ch = 0; ch < 3; ++ch)
      HIPSTENCIL_UNROLL
      for (int m = 0; m < PAIRS; ++m) acc[y][ch][m] = init;
  HIPSTENCIL_UNROLL
  for (int t = 0; t < OY + 2 * R; ++t)
    HIPSTENCIL_UNROLL
    for (int ch = 0; ch < 3; ++ch) {
      __half2 P[NW], S[NW - 1];
      HIPSTENCIL_UNROLL
      for (int u = 0; u < NW; ++u) P[u] = word_as_half2(s[ch][ty * OY + t][tx * PAIRS + u]);
      HIPSTENCIL_UNROLL
      for (int u = 0; u + 1 < NW; ++u) S[u] = straddle(P[u], P[u + 1]);
      HIPSTENCIL_UNROLL
      for (int y = 0; y < OY; ++y) {
        const int fy = t - y;
        if (fy < 0 || fy >= K) continue;
        HIPSTENCIL_UNROLL
        for (int i = 0; i < K; ++i)
          HIPSTENCIL_UNROLL
          for (int m = 0; m < PAIRS; ++m) {
            const int e = 2 * m + i;
            const __half2 lane = (e & 1) == 0 ? P[e >> 1] : S[e >> 1];
            acc[y][ch][m] = __hfma2(word_as_half2(taps.k[fy * K + i]), lane, acc[y][ch][m]);
          }
      }
    }
  HIPSTENCIL_UNROLL
  for (int y = 0; y < OY; ++y) {
    const int oy = by0 + ty * OY + y;
    if (oy >= g.height) continue;
    uchar3* out = dst.row(g.dst_y0 + oy) + g.dst_x0;
    HIPSTENCIL_UNROLL
    for (int m = 0; m < PAIRS; ++m) {
      const int x = bx0 + tx * PX + 2 * m;
      unsigned b[3];
      HIPSTENCIL_UNROLL
      for (int ch = 0; ch < 3; ++ch) b[ch] = clamp_pair(__hadd2(acc[y][ch][m], add));
      // Lane 0 (pixel x) in bytes 0, lane 1 (pixel x + 1) in bytes 2 of each word.
      if (x < g.width) out[x] = make_uchar3((unsigned char)b[0], (unsigned char)b[1], (unsigned char)b[2]);
      if (x + 1 < g.width)
        out[x + 1] =
            make_uchar3((unsigned char)(b[0] >> 16), (unsigned char)(b[1] >> 16), (unsigned char)(b[2] >> 16));
    }
  }
}

template <int R, int BY, int PX, int OY>
void launch_packed3(const problem<uchar3, uchar3>& p, const geometry& gr, const packed_plan& pl) {
  constexpr int K = 2 * R + 1;
  packed_taps<K * K> t{};
  for (int i = 0; i < K * K; ++i) t.k[i] = pl.k[i] * 0x10001u;
  t.init = pl.init * 0x10001u;
  t.add = pl.add * 0x10001u;
  const dim3 grid(unsigned((p.g.width + 32 * PX - 1) / (32 * PX)), unsigned((p.g.height + BY * OY - 1) / (BY * OY)));
  packed3_dense_kernel<R, BY, PX, OY><<<grid, dim3(32, BY), 0, p.stream>>>(p.src, p.dst, p.g, gr, t);
}

}  // namespace detail
}  // namespace hipstencil

/// Largest difference between two device images of uchar3 and how many channels differ.
static std::pair<int, long long> compare(const hs::device_image<uchar3>& a, const hs::device_image<uchar3>& b) {
  const int w = a.width(), h = a.height();
  std::vector<unsigned char> x(std::size_t(w) * 3 * h), y(x.size());
  cudaMemcpy2D(x.data(), std::size_t(w) * 3, a.data(), a.pitch_bytes(), std::size_t(w) * 3, h, cudaMemcpyDeviceToHost);
  cudaMemcpy2D(y.data(), std::size_t(w) * 3, b.data(), b.pitch_bytes(), std::size_t(w) * 3, h, cudaMemcpyDeviceToHost);
  int most = 0;
  long long n = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const int d = std::abs(int(x[i]) - int(y[i]));
    most = std::max(most, d);
    n += d != 0;
  }
  return {most, n};
}

template <bool Dense>
void probe(const ab_sizes& sizes) {
  ab_for_each_problem<uchar3, Dense>(sizes, [&](int w, int h, int r, hs::image_view<const uchar3> src,
                                                hs::device_image<uchar3>& out, const auto& f, const auto& p,
                                                const hd::geometry& gr) {
    std::vector<float> k;
    if constexpr (Dense) {
      k = f.coefficients();
    } else {
      const int n = 2 * r + 1;
      k.resize(std::size_t(n) * n);
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) k[std::size_t(j) * n + i] = f.column()[j] * f.row()[i];
    }
    const hd::packed_plan pl = hd::plan_packed_dense(k);
    char label[96];
    std::snprintf(label, sizeof label, "uchar3 %5dx%-5d %s %dx%d", w, h, Dense ? "dense" : "sep  ", 2 * r + 1,
                  2 * r + 1);
    if (!pl.ok) {
      std::printf("%s  packed plan refuses: %s\n", label, pl.why);
      return;
    }
    std::vector<ab_variant> v;
    ab_add_library_firsts(v, src, out, f);
    v.resize(2);  // auto and direct (no packed for uchar3)
    const int first = int(v.size());
    auto add = [&](const char* name, auto launch) { v.push_back({name, [&p, &gr, &pl, launch] { launch(p, gr, pl); }}); };
    if (r == 1) {
      add("p8x2x2", hd::launch_packed3<1, 8, 2, 2>);
      add("p8x2x1", hd::launch_packed3<1, 8, 2, 1>);
      add("p4x2x4", hd::launch_packed3<1, 4, 2, 4>);
      add("p8x4x1", hd::launch_packed3<1, 8, 4, 1>);
      add("p8x4x2", hd::launch_packed3<1, 8, 4, 2>);
      add("p8x2x4", hd::launch_packed3<1, 8, 2, 4>);
    } else {
      add("p8x2x2", hd::launch_packed3<2, 8, 2, 2>);
      add("p8x2x1", hd::launch_packed3<2, 8, 2, 1>);
      add("p4x2x4", hd::launch_packed3<2, 4, 2, 4>);
      add("p8x4x1", hd::launch_packed3<2, 8, 4, 1>);
      add("p8x4x2", hd::launch_packed3<2, 8, 4, 2>);
      add("p8x2x4", hd::launch_packed3<2, 8, 2, 4>);
    }
    ab_time_kernel_case(label, out, v, first);
    // Each kernel's output against automatic's.
    hs::device_image<uchar3> ref(w, h);
    v[0].second();
    cudaMemcpy2D(ref.data(), ref.pitch_bytes(), out.data(), out.pitch_bytes(), std::size_t(w) * 3, h,
                 cudaMemcpyDeviceToDevice);
    int most = 0;
    long long differ = 0;
    for (int k2 = first; k2 < int(v.size()); ++k2) {
      out.fill_bytes(0xA5);
      v[k2].second();
      cudaDeviceSynchronize();
      const auto d = compare(ref, out);
      most = std::max(most, d.first);
      differ = std::max(differ, d.second);
    }
    std::printf(" vs auto: max diff %d, %lld channels differ%s\n", most, differ, most <= 1 ? "" : "  WRONG");
    std::fflush(stdout);
  });
}

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "all";
  const ab_sizes sizes = ab_parse_sizes("packed3_ab", argc > 2 ? argv[2] : nullptr,
                                        {{512, 512}, {1280, 720}, {1920, 1080}, {2560, 1440}, {3840, 2160}, {8192, 8192}});
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  std::printf("packed3_ab: %s\n", prop.name);
  if (mode == "dense" || mode == "all") probe<true>(sizes);
  if (mode == "sep" || mode == "all") probe<false>(sizes);
  const cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) std::printf("CUDA error: %s\n", cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}
