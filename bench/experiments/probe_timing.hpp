// Shared by the standalone probes here (tag_probe.cu, border_probe.cu): a pitched device
// image filled with one byte value, and the median of 31 timed calls with device events
// (after one call and three warm-ups), in microseconds. CUDA only; not built by CMake.
#pragma once
#include <cuda_runtime.h>
#include <algorithm>
#include <cstddef>
#include <vector>

template <class T> struct img { T* p; size_t pitch; };
template <class T> img<T> alloc(int w, int h) {
  img<T> m; cudaMallocPitch((void**)&m.p, &m.pitch, w * sizeof(T), h);
  cudaMemset2D(m.p, m.pitch, 0x37, w * sizeof(T), h); return m;
}
template <class F> double time_it(F&& f) {
  f(); cudaDeviceSynchronize();
  for (int i = 0; i < 3; ++i) f();
  const int n = 31; std::vector<cudaEvent_t> e(2 * n);
  for (auto& x : e) cudaEventCreate(&x);
  for (int i = 0; i < n; ++i) { cudaEventRecord(e[2*i]); f(); cudaEventRecord(e[2*i+1]); }
  cudaDeviceSynchronize();
  std::vector<float> ms(n);
  for (int i = 0; i < n; ++i) cudaEventElapsedTime(&ms[i], e[2*i], e[2*i+1]);
  for (auto& x : e) cudaEventDestroy(x);
  std::sort(ms.begin(), ms.end()); return ms[n/2] * 1000.0;
}
