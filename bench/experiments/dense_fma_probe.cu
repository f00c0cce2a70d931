// Standalone probe (not built by CMake): how close can a direct FP32 kernel come to the
// FMA floor on wide dense float filters (9x9, 15x15)? Times, at 8192x8192 float:
//  - an FMA microkernel (the ceiling, TFMA/s),
//  - the library's streaming (9x9), tiled and tensor_core families under replicate and
//    under padded,
//  - prototype register-blocked kernels: each thread owns V columns x M rows of outputs,
//    walks the M + 2R input rows of its block once (float4 loads through L1, no shuffles,
//    no ring to rotate), and applies each row to every output row it touches with the
//    taps as constant-bank operands. Interior only (the source is padded by the caller).
// Prints time, x the FMA floor, and the prototype's largest difference from tiled.
//   nvcc -std=c++17 -O3 -arch=sm_90 --expt-relaxed-constexpr -Iinclude \
//        -I/usr/include/eigen3 dense_fma_probe.cu -lcufft -o probe && ./probe
#include "ab_common.hpp"
#include <hipstencil/hipstencil.hpp>
#include <cuda_runtime.h>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <vector>
namespace hs = hipstencil;

template <int N>
struct taps_t { float v[N]; };

// Each thread: V columns (x0 = V * global x), M rows (y0 = M * blockIdx.y).
// src: parent pixel of output (0, 0)'s centre; spitch, dpitch in floats.
template <int R, int V, int M>
__global__ void __launch_bounds__(128) block_dense(const float* __restrict__ src, long spitch, float* __restrict__ dst,
                                                   long dpitch, int width, taps_t<(2 * R + 1) * (2 * R + 1)> taps) {
  constexpr int D = 2 * R + 1, A = (R + 3) / 4 * 4, L = V + 2 * A;  // L: floats loaded a row
  const int x0 = (int(blockIdx.x) * int(blockDim.x) + int(threadIdx.x)) * V;
  if (x0 >= width) return;
  const int y0 = int(blockIdx.y) * M;
  const float* base = src + (long)(y0 - R) * spitch + x0 - A;
  float acc[M][V];
#pragma unroll
  for (int m = 0; m < M; ++m)
#pragma unroll
    for (int v = 0; v < V; ++v) acc[m][v] = 0.f;
#pragma unroll
  for (int r = 0; r < M + 2 * R; ++r) {
    float w[L];
    const float4* p = reinterpret_cast<const float4*>(base + r * spitch);
#pragma unroll
    for (int q = 0; q < L / 4; ++q) {
      const float4 f = __ldg(p + q);
      w[4 * q] = f.x, w[4 * q + 1] = f.y, w[4 * q + 2] = f.z, w[4 * q + 3] = f.w;
    }
#pragma unroll
    for (int m = 0; m < M; ++m) {
      const int ky = r - m;
      if (ky >= 0 && ky < D) {
#pragma unroll
        for (int kx = 0; kx < D; ++kx)
#pragma unroll
          for (int v = 0; v < V; ++v) acc[m][v] = fmaf(taps.v[ky * D + kx], w[v + kx - R + A], acc[m][v]);
      }
    }
  }
#pragma unroll
  for (int m = 0; m < M; ++m) {
    float* o = dst + (long)(y0 + m) * dpitch + x0;
#pragma unroll
    for (int v = 0; v < V; v += 4) *reinterpret_cast<float4*>(o + v) = make_float4(acc[m][v], acc[m][v + 1], acc[m][v + 2], acc[m][v + 3]);
  }
}

__global__ void fma_peak(float* out, int n) {
  float a[8];
#pragma unroll
  for (int i = 0; i < 8; ++i) a[i] = threadIdx.x * 0.001f + i;
  const float b = 0.9999f, c = 0.0001f;
  for (int k = 0; k < n; ++k)
#pragma unroll
    for (int i = 0; i < 8; ++i) a[i] = fmaf(a[i], b, c);
  float s = 0;
#pragma unroll
  for (int i = 0; i < 8; ++i) s += a[i];
  if (s == 1234.5f) out[0] = s;
}

static double tfma = 0;
static double floor_us(int r, int w, int h) { return double((2 * r + 1) * (2 * r + 1)) * w * h / (tfma * 1e12) * 1e6; }

template <int R, int V, int M>
void proto(const float* src, long spitch, float* dst, long dpitch, int w, int h, const hs::filter2d& f,
           const hs::device_image<float>& ref) {
  constexpr int D = 2 * R + 1;
  taps_t<D * D> t;
  const auto c = f.coefficients();
  for (int i = 0; i < D * D; ++i) t.v[i] = c[i];
  constexpr int B = 128;
  dim3 grid((w / V + B - 1) / B, h / M);
  auto go = [&] { block_dense<R, V, M><<<grid, B>>>(src, spitch, dst, dpitch, w, t); };
  cudaMemset2D(dst, dpitch * 4, 0xff, w * 4, h);
  go();
  cudaError_t e = cudaDeviceSynchronize();
  std::vector<float> a(std::size_t(w) * h), b(std::size_t(w) * h);
  cudaMemcpy2D(a.data(), w * 4, dst, dpitch * 4, w * 4, h, cudaMemcpyDeviceToHost);
  cudaMemcpy2D(b.data(), w * 4, ref.data(), ref.pitch_bytes(), w * 4, h, cudaMemcpyDeviceToHost);
  double md = 0;
  for (std::size_t i = 0; i < a.size(); ++i) md = std::max(md, (double)std::fabs(a[i] - b[i]));
  const double us = time_us(go, 20);
  std::printf("%dx%d proto V%d M%d %.1f us %.2fx floor maxdiff %.3g %s\n", D, D, V, M, us, us / floor_us(R, w, h), md,
              cudaGetErrorString(e));
}

template <class Tag>
void lib(const char* name, const hs::device_image<float>& padded, int r, int w, int h, const hs::filter2d& f,
         hs::device_image<float>& out) {
  const int P = 8;
  auto go_rep = [&] {
    hs::convolve(padded.view(), hs::rect{P, P, w, h}, out.view(), hs::rect{0, 0, w, h}, f, hs::border::replicate{}, Tag{});
  };
  auto go_pad = [&] {
    hs::convolve(padded.view(), hs::rect{P, P, w, h}, out.view(), hs::rect{0, 0, w, h}, f, hs::border::padded{}, Tag{});
  };
  const double a = time_us(go_rep, 20), b = time_us(go_pad, 20);
  std::printf("%dx%d %s replicate %.1f us %.2fx floor, padded %.1f us %.2fx\n", 2 * r + 1, 2 * r + 1, name, a,
              a / floor_us(r, w, h), b, b / floor_us(r, w, h));
}

int main() {
  {
    float* o;
    cudaMalloc(&o, 4);
    int sms;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    const int n = 1 << 16, blocks = sms * 8, threads = 256;
    const double us = time_us([&] { fma_peak<<<blocks, threads>>>(o, n); }, 10);
    tfma = double(blocks) * threads * n * 8 / (us * 1e-6) / 1e12;
    std::printf("fma peak %.2f TFMA/s\n", tfma);
  }
  const int w = 8192, h = 8192, P = 8;
  hs::device_image<float> padded(w + 2 * P, h + 2 * P), out(w, h), ref(w, h);
  {
    std::vector<float> hsrc(std::size_t(w + 2 * P) * (h + 2 * P));
    unsigned s = 99;
    for (auto& v : hsrc) { s = s * 1664525u + 1013904223u; v = (s >> 8) / 16777216.f; }
    cudaMemcpy2D(padded.data(), padded.pitch_bytes(), hsrc.data(), (w + 2 * P) * 4, (w + 2 * P) * 4, h + 2 * P,
                 cudaMemcpyHostToDevice);
  }
  const float* src0 = padded.data() + P * (padded.pitch_bytes() / 4) + P;
  const long sp = long(padded.pitch_bytes() / 4), dp = long(out.pitch_bytes() / 4);
  const bool only4 = std::getenv("ONLY_R4") != nullptr;
  for (int r : {4, 7}) {
    if (only4 && r != 4) continue;
    const hs::filter2d f = ab_dense_filter(r);
    hs::convolve(padded.view(), hs::rect{P, P, w, h}, ref.view(), hs::rect{0, 0, w, h}, f, hs::border::padded{},
                 hs::algo::tiled<>{});
    cudaDeviceSynchronize();
    if (r == 4) lib<hs::algo::streaming<>>("streaming", padded, r, w, h, f, out);
    lib<hs::algo::tiled<>>("tiled", padded, r, w, h, f, out);
    lib<hs::algo::tensor_core<>>("tensor_core", padded, r, w, h, f, out);
    lib<hs::algo::automatic>("automatic", padded, r, w, h, f, out);
    if (r == 4) {
      proto<4, 4, 4>(src0, sp, out.data(), dp, w, h, f, ref);
      proto<4, 4, 8>(src0, sp, out.data(), dp, w, h, f, ref);
      proto<4, 8, 4>(src0, sp, out.data(), dp, w, h, f, ref);
      proto<4, 8, 2>(src0, sp, out.data(), dp, w, h, f, ref);
      proto<4, 4, 16>(src0, sp, out.data(), dp, w, h, f, ref);
    } else {
      proto<7, 4, 2>(src0, sp, out.data(), dp, w, h, f, ref);
      proto<7, 4, 4>(src0, sp, out.data(), dp, w, h, f, ref);
      proto<7, 8, 2>(src0, sp, out.data(), dp, w, h, f, ref);
      proto<7, 4, 8>(src0, sp, out.data(), dp, w, h, f, ref);
    }
  }
  std::printf("last error: %s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
