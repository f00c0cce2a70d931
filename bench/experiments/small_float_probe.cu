// Standalone probe (not built by CMake): what a one-channel float filter of radius 1 or 2
// costs on a small image, and where direct's time goes there. Nsight Compute put NPP's
// Gaussian at 128x128 at 2.8 us (64 blocks of 256 threads, one output each) and direct at
// 4.8 (32 blocks of 128, four outputs each), whose blocks all touch the border at that
// size and map every read through the run-time rule (bench/RESULTS.md, thirty-third run).
// This times, on one call, with the stream held (the device runs the calls back to back)
// and without:
//   auto, direct     the library's automatic and algo::direct;
//   leanO_BX_BY      a minimal kernel of BX x BY threads of O outputs of a row, reading
//                    from global memory through __ldg; blocks inside the image read with no map; border
//                    blocks map their O + 2R columns once and each window row once,
//                    through border::map_index (the run-time rule, as the library does);
//   leanrep          lean1 with replicate as min / max at compile time;
//   plainO_32x8      leanO_32x8 with plain loads (ld.global) instead of __ldg (ld.global.nc);
//   npp              nppiFilterGaussBorder_32f_C1R (separable rows) or
//                    nppiFilterBorder_32f_C1R (dense rows; its 32f taps).
// The lean kernels' outputs are checked against direct's (max |difference|).
//   nvcc -std=c++17 -O3 -arch=sm_90 --expt-relaxed-constexpr -I<tree>/include \
//        -I/usr/include/eigen3 small_float_probe.cu -lnppif -lnppc -lcufft -o small_float_probe
#include "ab_common.hpp"
#include <nppi_filtering_functions.h>
#include "npp_context.hpp"
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
namespace hs = hipstencil;

template <int N>
struct taps_t {
  float k[N];
};

__device__ __forceinline__ int map_rep(int p, int n) { return min(max(p, 0), n - 1); }

template <bool NC>
__device__ __forceinline__ float ld(const float* p) {
  if constexpr (NC) return __ldg(p);
  else return *p;
}

template <int R, int OX, int BX, int BY, bool Rep, bool NC = true>
__global__ void __launch_bounds__(BX* BY)
    lean_kernel(const float* src, int sp, float* dst, int dp, int w, int h,
                taps_t<(2 * R + 1) * (2 * R + 1)> t, hs::border::kind rule) {
  constexpr int K = 2 * R + 1, N = OX + 2 * R;
  const int bx0 = blockIdx.x * BX * OX, by0 = blockIdx.y * BY;
  const int x0 = bx0 + threadIdx.x * OX, y = by0 + threadIdx.y;
  if (x0 >= w || y >= h) return;
  const bool inside = bx0 >= R && by0 >= R && bx0 + BX * OX + R <= w && by0 + BY + R <= h;
  float acc[OX];
#pragma unroll
  for (int x = 0; x < OX; ++x) acc[x] = 0.f;
  if (inside) {
#pragma unroll
    for (int j = 0; j < K; ++j) {
      const float* s = src + (y - R + j) * sp + x0 - R;
      float v[N];
#pragma unroll
      for (int u = 0; u < N; ++u) v[u] = ld<NC>(s + u);
#pragma unroll
      for (int x = 0; x < OX; ++x)
#pragma unroll
        for (int i = 0; i < K; ++i) acc[x] = fmaf(t.k[j * K + i], v[x + i], acc[x]);
    }
  } else {
    int cols[N];
#pragma unroll
    for (int u = 0; u < N; ++u)
      cols[u] = Rep ? map_rep(x0 - R + u, w) : hs::border::map_index(rule, min(x0 - R + u, w - 1 + R), w);
#pragma unroll
    for (int j = 0; j < K; ++j) {
      const int ry = Rep ? map_rep(y - R + j, h) : hs::border::map_index(rule, y - R + j, h);
      const float* s = src + ry * sp;
      float v[N];
#pragma unroll
      for (int u = 0; u < N; ++u) v[u] = ld<NC>(s + cols[u]);
#pragma unroll
      for (int x = 0; x < OX; ++x)
#pragma unroll
        for (int i = 0; i < K; ++i) acc[x] = fmaf(t.k[j * K + i], v[x + i], acc[x]);
    }
  }
#pragma unroll
  for (int x = 0; x < OX; ++x)
    if (x0 + x < w) dst[y * dp + x0 + x] = acc[x];
}

template <int R, int OX, int BX, int BY, bool Rep, bool NC = true>
void lean(const hs::device_image<float>& a, hs::device_image<float>& b, const std::vector<float>& k,
          hs::border::kind rule) {
  constexpr int K = 2 * R + 1;
  taps_t<K * K> t;
  for (int i = 0; i < K * K; ++i) t.k[i] = k[i];
  const int w = a.width(), h = a.height();
  const dim3 grid((w + BX * OX - 1) / (BX * OX), (h + BY - 1) / BY), block(BX, BY);
  lean_kernel<R, OX, BX, BY, Rep, NC><<<grid, block>>>(a.data(), int(a.pitch_bytes() / 4), b.data(),
                                                    int(b.pitch_bytes() / 4), w, h, t, rule);
}

float max_diff(const hs::device_image<float>& x, const hs::device_image<float>& y) {
  const int w = x.width(), h = x.height();
  std::vector<float> a(std::size_t(w) * h), b(a.size());
  cudaMemcpy2D(a.data(), w * 4, x.data(), x.pitch_bytes(), w * 4, h, cudaMemcpyDeviceToHost);
  cudaMemcpy2D(b.data(), w * 4, y.data(), y.pitch_bytes(), w * 4, h, cudaMemcpyDeviceToHost);
  float m = 0;
  for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, std::fabs(a[i] - b[i]));
  return m;
}

int main(int argc, char** argv) {
  // "ncu": 128x128 separable 3x3 once a variant; "ncu1080": 1920x1080 separable 5x5.
  const bool ncu = argc > 1 && !std::strcmp(argv[1], "ncu");
  const bool ncu1080 = argc > 1 && !std::strcmp(argv[1], "ncu1080");
  cudaFree(nullptr);
  const NppStreamContext ctx = npp_context();
  float* kdev = nullptr;  // NPP's dense taps
  cudaMalloc(&kdev, 25 * sizeof(float));
  const std::pair<int, int> sizes[] = {{128, 128}, {256, 256}, {512, 512}, {1024, 1024}, {1920, 1080}, {3840, 2160}};
  std::printf("%-10s %-10s %-9s %-3s %-8s %8s %8s  %s\n", "size", "rule", "case", "", "variant", "held", "unheld",
              "max|diff| to direct");
  unsigned seed = 99;
  for (auto sz : sizes) {
    const int w = sz.first, h = sz.second;
    if (ncu && w != 128) break;
    if (ncu1080 && w != 1920) continue;
    hs::device_image<float> a(w, h), b(w, h), ref(w, h);
    fill_random_pixels(a, seed);
    for (int rule = 0; rule < 2; ++rule) {
      if ((ncu || ncu1080) && rule) break;
      const hs::border::kind kind = rule ? hs::border::kind::reflect101 : hs::border::kind::replicate;
      const NppiBorderType nb = NPP_BORDER_REPLICATE;  // NPP's filters take replicate only
      for (int r : {1, 2}) {
        for (int dn = 0; dn < 2; ++dn) {
          if (ncu && (r != 1 || dn)) break;
          if (ncu1080 && (r != 2 || dn)) break;
          const int K = 2 * r + 1;
          const auto g = hs::filters::gaussian_taps(0.4 + 0.6 * r, r);
          const hs::separable_filter sep(g, g);
          const hs::filter2d dense = ab_dense_filter(r);
          std::vector<float> k(K * K);
          for (int j = 0; j < K; ++j)
            for (int i = 0; i < K; ++i) k[j * K + i] = dn ? dense.coefficients()[j * K + i] : g[j] * g[i];
          cudaMemcpy(kdev, k.data(), k.size() * 4, cudaMemcpyHostToDevice);
          auto lib = [&](auto algo) {
            if (dn) {
              if (rule) hs::convolve(a.view(), b.view(), dense, hs::border::reflect101{}, algo);
              else hs::convolve(a.view(), b.view(), dense, hs::border::replicate{}, algo);
            } else {
              if (rule) hs::convolve(a.view(), b.view(), sep, hs::border::reflect101{}, algo);
              else hs::convolve(a.view(), b.view(), sep, hs::border::replicate{}, algo);
            }
          };
          auto with_r = [&](auto f) {
            if (r == 1) f(std::integral_constant<int, 1>{});
            else f(std::integral_constant<int, 2>{});
          };
          std::vector<std::pair<const char*, std::function<void()>>> v;
          auto add = [&](const char* name, auto launch) { v.push_back({name, [&, launch] { with_r(launch); }}); };
          v.push_back({"auto", [&] { lib(hs::algo::automatic{}); }});
          v.push_back({"direct", [&] { lib(hs::algo::direct<>{}); }});
          add("lean1_32x8", [&](auto R) { lean<R(), 1, 32, 8, false, true>(a, b, k, kind); });
          add("lean1_64x4", [&](auto R) { lean<R(), 1, 64, 4, false, true>(a, b, k, kind); });
          add("lean2_32x8", [&](auto R) { lean<R(), 2, 32, 8, false, true>(a, b, k, kind); });
          add("lean4_32x4", [&](auto R) { lean<R(), 4, 32, 4, false, true>(a, b, k, kind); });
          add("plain1_32x8", [&](auto R) { lean<R(), 1, 32, 8, false, false>(a, b, k, kind); });
          add("plain2_32x8", [&](auto R) { lean<R(), 2, 32, 8, false, false>(a, b, k, kind); });
          if (!rule) add("leanrep1", [&](auto R) { lean<R(), 1, 32, 8, true, true>(a, b, k, kind); });
          if (!rule) {
            const NppiMaskSize m = r == 1 ? NPP_MASK_SIZE_3_X_3 : NPP_MASK_SIZE_5_X_5;
            if (dn)
              v.push_back({"npp", [&, K] {
                             nppiFilterBorder_32f_C1R_Ctx(a.data(), int(a.pitch_bytes()), NppiSize{w, h},
                                                          NppiPoint{0, 0}, b.data(), int(b.pitch_bytes()),
                                                          NppiSize{w, h}, kdev, NppiSize{K, K}, NppiPoint{r, r},
                                                          nb, ctx);
                           }});
            if (!dn)
              v.push_back({"npp", [&, m] {
                             nppiFilterGaussBorder_32f_C1R_Ctx(a.data(), int(a.pitch_bytes()), NppiSize{w, h},
                                                               NppiPoint{0, 0}, b.data(), int(b.pitch_bytes()),
                                                               NppiSize{w, h}, m, nb, ctx);
                           }});
          }
          // The reference: direct's output.
          lib(hs::algo::direct<>{});
          cudaDeviceSynchronize();
          cudaMemcpy2D(ref.data(), ref.pitch_bytes(), b.data(), b.pitch_bytes(), std::size_t(w) * 4, h,
                       cudaMemcpyDeviceToDevice);
          for (auto& e : v) {
            if (ncu || ncu1080) { e.second(); cudaDeviceSynchronize(); continue; }
            b.fill_bytes(0xA5);
            e.second();
            cudaDeviceSynchronize();
            const float d = std::strcmp(e.first, "npp") ? max_diff(b, ref) : 0.f;
            const double th = time_us(e.second, 41, true), tu = time_us(e.second, 41, false);
            std::printf("%4dx%-5d %-10s %-9s %dx%d %-10s %8.2f %8.2f  %s\n", w, h, rule ? "reflect101" : "replicate",
                        dn ? "dense" : "separable", K, K, e.first, th, tu,
                        std::strcmp(e.first, "npp") ? (d < 1e-5f ? "ok" : "DIFFERS") : "-");
          }
        }
      }
    }
  }
  std::printf("last error: %s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
