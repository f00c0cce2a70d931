// Standalone probe (not built by CMake): separable 3x3 and 5x5 on small images under
// replicate, the case where NPP's fixed-tap Gaussians (nppiFilterGaussBorder: one output a
// thread, 64 blocks of 256 threads at 128x128, rows then columns through shared memory)
// led automatic in the thirty-ninth run's matrix (128x128 u8, uchar4 and float separable
// 5x5, float separable 3x3; 512x512 u8, uchar4 and float separable 5x5). Nsight Compute
// there: NPP's u8 5x5 at 128x128 2.75 us, 188 warp instructions a warp; packed's strip
// kernel 4.00 us, 516 a warp in 16 blocks; tiled's separable kernel of one output a thread
// (the run-time rule on every read, rolled loops) 3.84 us and 343 a warp for float 5x5.
// This times, held (the device runs the calls back to back), median of 41:
//   auto              the library's automatic;
//   sBYxOXxOY         a lean two-pass kernel of 32 x BY threads of OX x OY outputs:
//                     pass 1 filters the tile's BY * OY + 2R rows horizontally into shared
//                     memory (each thread OX outputs of a row, its OX + 2R columns clamped
//                     once with min / max, every row clamped the same way), pass 2 each
//                     thread's OY outputs of OX columns vertically; every loop unrolled,
//                     every tap index a constant;
//   npp               nppiFilterGaussBorder_<type> (replicate) with the 3x3 or 5x5 mask.
// The lean kernels' outputs are checked against automatic's (max |difference| over the
// image: float within 1e-5, 8-bit within 1 for a rounding tie decided the other way).
//   nvcc -std=c++17 -O3 -arch=sm_90 --expt-relaxed-constexpr -I<tree>/include \
//        -I/usr/include/eigen3 -DPROBE_NPP sep_small_probe.cu -lnppif -lnppc -lcufft -o sep_small_probe
#include "ab_common.hpp"
#if defined(PROBE_NPP)
#include <nppi_filtering_functions.h>
#include "npp_context.hpp"
#endif
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
namespace hs = hipstencil;
namespace hd = hipstencil::detail;

template <class T, int R, int BX, int BY, int OX, int OY>
__global__ void __launch_bounds__(BX* BY)
    sep_small(const T* src, std::size_t sp, T* dst, std::size_t dp, int w, int h,
              const __grid_constant__ hd::separable_taps<2 * R + 1> k) {
  using A = hipstencil::accum<float, hs::pixel_traits<T>::channels>;
  constexpr int K = 2 * R + 1, TW = BX * OX, TH = BY * OY, HR = TH + 2 * R, N = OX + 2 * R;
  __shared__ A hrow[HR][TW];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x0 = blockIdx.x * TW + tx * OX, y0 = blockIdx.y * TH;
  int sx[N];
#pragma unroll
  for (int u = 0; u < N; ++u) sx[u] = min(max(x0 - R + u, 0), w - 1);
#pragma unroll
  for (int q = 0; q < (HR + BY - 1) / BY; ++q) {
    const int t = ty + q * BY;
    if ((q + 1) * BY <= HR || t < HR) {
      const T* p = reinterpret_cast<const T*>(reinterpret_cast<const char*>(src) +
                                              std::size_t(min(max(y0 - R + t, 0), h - 1)) * sp);
      A v[N];
#pragma unroll
      for (int u = 0; u < N; ++u) v[u] = hipstencil::to_accum_cvt<float>(p[sx[u]]);
#pragma unroll
      for (int x = 0; x < OX; ++x) {
        A s;
        hd::zero(s);
#pragma unroll
        for (int i = 0; i < K; ++i) hd::fma_acc(s, k.row[i], v[x + i]);
        hrow[t][tx * OX + x] = s;
      }
    }
  }
  __syncthreads();
  A acc[OY][OX];
#pragma unroll
  for (int y = 0; y < OY; ++y)
#pragma unroll
    for (int x = 0; x < OX; ++x) hd::zero(acc[y][x]);
#pragma unroll
  for (int t = 0; t < OY + 2 * R; ++t) {
    A v[OX];
#pragma unroll
    for (int x = 0; x < OX; ++x) v[x] = hrow[ty * OY + t][tx * OX + x];
#pragma unroll
    for (int y = 0; y < OY; ++y)
      if (t - y >= 0 && t - y < K)
#pragma unroll
        for (int x = 0; x < OX; ++x) hd::fma_acc(acc[y][x], k.col[t - y], v[x]);
  }
#pragma unroll
  for (int y = 0; y < OY; ++y) {
    const int yy = y0 + ty * OY + y;
    if (yy >= h) break;
    T* d = reinterpret_cast<T*>(reinterpret_cast<char*>(dst) + std::size_t(yy) * dp);
#pragma unroll
    for (int x = 0; x < OX; ++x)
      if (x0 + x < w) d[x0 + x] = hipstencil::from_accum<T>(acc[y][x]);
  }
}

template <class T, int R, int BY, int OX, int OY>
void run_small(const hs::device_image<T>& a, hs::device_image<T>& b, const hs::separable_filter& f) {
  constexpr int BX = 32;
  hd::separable_taps<2 * R + 1> k;
  for (int i = 0; i < 2 * R + 1; ++i) k.row[i] = f.row()[i], k.col[i] = f.column()[i];
  const dim3 grid((a.width() + BX * OX - 1) / (BX * OX), (a.height() + BY * OY - 1) / (BY * OY));
  sep_small<T, R, BX, BY, OX, OY><<<grid, dim3(BX, BY)>>>(a.data(), a.pitch_bytes(), b.data(), b.pitch_bytes(),
                                                         a.width(), a.height(), k);
}

/// Max |difference| per channel between two images of T.
template <class T>
double max_diff(const hs::device_image<T>& x, const hs::device_image<T>& y) {
  constexpr int C = hs::pixel_traits<T>::channels;
  const std::size_t n = std::size_t(x.width()) * x.height();
  std::vector<T> hx(n), hy(n);
  cudaMemcpy2D(hx.data(), x.width() * sizeof(T), x.data(), x.pitch_bytes(), x.width() * sizeof(T), x.height(),
               cudaMemcpyDeviceToHost);
  cudaMemcpy2D(hy.data(), y.width() * sizeof(T), y.data(), y.pitch_bytes(), y.width() * sizeof(T), y.height(),
               cudaMemcpyDeviceToHost);
  double d = 0;
  for (std::size_t i = 0; i < n; ++i)
    for (int c = 0; c < C; ++c)
      d = std::max(d, std::fabs(double(hs::pixel_traits<T>::get(hx[i], c)) - double(hs::pixel_traits<T>::get(hy[i], c))));
  return d;
}

using variant = std::pair<std::string, std::function<void()>>;

template <class T>
void probe(const char* type, std::initializer_list<std::pair<int, int>> sizes) {
  for (auto sz : sizes) {
    const int w = sz.first, h = sz.second;
    hs::device_image<T> a(w, h), b(w, h), ref(w, h);
    unsigned seed = 12345u;
    fill_random_pixels(a, seed);
    for (int r : {1, 2}) {
      const auto gt = hs::filters::gaussian_taps(0.4 + 0.6 * r, r);
      const hs::separable_filter f(gt, gt);
      std::vector<variant> v;
      v.push_back({"auto", [&] { hs::convolve(a.view(), b.view(), f, hs::border::replicate{}); }});
      auto add = [&](const char* name, auto go) {
        v.push_back({name, [&, go] {
                       if (r == 1) go(std::integral_constant<int, 1>{});
                       else go(std::integral_constant<int, 2>{});
                     }});
      };
      add("s8x1x1", [&](auto R) { run_small<T, R(), 8, 1, 1>(a, b, f); });
      add("s4x1x1", [&](auto R) { run_small<T, R(), 4, 1, 1>(a, b, f); });
      add("s8x2x1", [&](auto R) { run_small<T, R(), 8, 2, 1>(a, b, f); });
      add("s8x1x2", [&](auto R) { run_small<T, R(), 8, 1, 2>(a, b, f); });
      add("s8x2x2", [&](auto R) { run_small<T, R(), 8, 2, 2>(a, b, f); });
      if (sizeof(T) == 1) add("s8x4x1", [&](auto R) { run_small<T, R(), 8, 4, 1>(a, b, f); });
      if (sizeof(T) == 1) add("s8x4x2", [&](auto R) { run_small<T, R(), 8, 4, 2>(a, b, f); });
#if defined(PROBE_NPP)
      const NppStreamContext ctx = npp_context();
      const NppiMaskSize m = r == 1 ? NPP_MASK_SIZE_3_X_3 : NPP_MASK_SIZE_5_X_5;
      v.push_back({"npp", [&, m] {
                     const NppiSize sz{w, h};
                     const NppiPoint o{0, 0};
                     const int sp = int(a.pitch_bytes()), dp = int(b.pitch_bytes());
                     if constexpr (std::is_same<T, float>::value)
                       nppiFilterGaussBorder_32f_C1R_Ctx(a.data(), sp, sz, o, b.data(), dp, sz, m, NPP_BORDER_REPLICATE, ctx);
                     else if constexpr (std::is_same<T, unsigned char>::value)
                       nppiFilterGaussBorder_8u_C1R_Ctx(a.data(), sp, sz, o, b.data(), dp, sz, m, NPP_BORDER_REPLICATE, ctx);
                     else
                       nppiFilterGaussBorder_8u_C4R_Ctx(reinterpret_cast<const Npp8u*>(a.data()), sp, sz, o,
                                                        reinterpret_cast<Npp8u*>(b.data()), dp, sz, m,
                                                        NPP_BORDER_REPLICATE, ctx);
                   }});
#endif
      hs::convolve(a.view(), ref.view(), f, hs::border::replicate{});
      cudaDeviceSynchronize();
      std::printf("%-6s %4dx%-4d sep %dx%d", type, w, h, 2 * r + 1, 2 * r + 1);
      double best = 1e9, t_auto = 0, t_npp = 0;
      std::string bname;
      bool ok = true;
      for (auto& e : v) {
        b.fill_bytes(0xA5);
        e.second();
        cudaDeviceSynchronize();
        if (e.first != "npp" && max_diff(b, ref) > (std::is_same<T, float>::value ? 1e-5 : 1.0)) ok = false;
        const double t = std::min(time_us(e.second, 41, true), time_us(e.second, 41, true));
        std::printf(" %s %5.2f", e.first.c_str(), t);
        if (e.first == "auto") t_auto = t;
        else if (e.first == "npp") t_npp = t;
        else if (t < best) best = t, bname = e.first;
      }
      std::printf("  | best %s npp/auto %.2f npp/best %.2f %s\n", bname.c_str(), t_auto > 0 ? t_npp / t_auto : 0,
                  t_npp / best, ok ? "ok" : "OUTPUTS DIFFER");
      std::fflush(stdout);
    }
  }
}

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "all";
  auto sizes = {std::pair<int, int>{128, 128}, {256, 256}, {512, 512}, {724, 724}, {1024, 768}, {1920, 1080}};
  if (mode == "all" || mode == "u8") probe<unsigned char>("u8", sizes);
  if (mode == "all" || mode == "uchar4") probe<uchar4>("uchar4", sizes);
  if (mode == "all" || mode == "float") probe<float>("float", sizes);
  std::printf("last error: %s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
