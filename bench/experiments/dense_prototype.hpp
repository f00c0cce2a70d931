// Shared by dense_fma_probe.cu and interior_gap_probe.cu (standalone probes, not built by
// CMake): the prototype register-blocked dense kernel both time against tiled's interior
// instance, and an FP32 FMA microkernel whose rate is the probes' floor (fma_rate_tfma). CUDA only.
#pragma once
#include <cuda_runtime.h>

#include "ab_common.hpp"

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

/// The FP32 FMA rate of this GPU in TFMA/s: fma_peak on 8 blocks of 256 threads a
/// multiprocessor, median of 10 timings (time_us).
inline double fma_rate_tfma() {
  float* o;
  cudaMalloc(&o, 4);
  int sms;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  const int n = 1 << 16, blocks = sms * 8, threads = 256;
  const double us = time_us([&] { fma_peak<<<blocks, threads>>>(o, n); }, 10);
  cudaFree(o);
  return double(blocks) * threads * n * 8 / (us * 1e-6) / 1e12;
}
