// Standalone prototype behind algo::packed (not built by CMake): u8 dense 3x3 and 5x5 on an
// interior-only (caller-padded) image, register streaming with 8 outputs a thread, in float
// (bit conversions) and in packed half2; prints time per strip length and block width.
// Build and run on an NVIDIA GPU: nvcc -O3 -arch=sm_90 -std=c++17 packed_prototype.cu && ./a.out
// Output of one run on the H200: bench/results/2026-11-23-packed/prototype.txt.
#include <cuda_fp16.h>
#include <cstdio>
#include <cstdint>
#include <cmath>
#include <vector>
#include <algorithm>
#include <random>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(e)); exit(1);} } while (0)

constexpr int RMAX = 2;
struct taps_h { __half2 k[(2 * RMAX + 1) * (2 * RMAX + 1)]; };
struct taps_f { float k[(2 * RMAX + 1) * (2 * RMAX + 1)]; };

__device__ __forceinline__ __half2 pair_of(unsigned w, unsigned sel) {
  unsigned b = __byte_perm(w, 0x64646464u, sel);
  return __hsub2(*reinterpret_cast<__half2*>(&b), __half2half2(__ushort_as_half(0x6480)));  // 1152
}
__device__ __forceinline__ __half2 odd_of(__half2 a, __half2 b) {
  unsigned ua = *reinterpret_cast<unsigned*>(&a), ub = *reinterpret_cast<unsigned*>(&b);
  unsigned r = __byte_perm(ua, ub, 0x5432);
  return *reinterpret_cast<__half2*>(&r);
}

// 8 outputs at x0..x0+7; words: L = bytes x0-4..x0-1, C0 x0..x0+3, C1 x0+4..x0+7, Rw x0+8..x0+11.
template <int R>
__global__ void __launch_bounds__(128) conv_h2(const uint8_t* __restrict__ in, int ip, uint8_t* __restrict__ out, int op,
                                               int W, int H, int S, taps_h t, __half2 init, __half2 cadd) {
  constexpr int K = 2 * R + 1;
  const int x0 = (blockIdx.x * blockDim.x + threadIdx.x) * 8;
  const int y0 = blockIdx.y * S;
  if (x0 >= W) return;
  __half2 acc[K][4];
#pragma unroll
  for (int s = 0; s < K; ++s)
#pragma unroll
    for (int p = 0; p < 4; ++p) acc[s][p] = init;
  const int yend = min(y0 + S, H);
  for (int r = y0 - R; r < yend + R; ++r) {
    const uint8_t* row = in + (long)r * ip + x0;
    const unsigned L = *reinterpret_cast<const unsigned*>(row - 4);
    const uint2 C = *reinterpret_cast<const uint2*>(row);
    const unsigned Rw = *reinterpret_cast<const unsigned*>(row + 8);
    // even pairs E[m] = bytes (2m, 2m+1) relative to x0, m = -2..5 -> index m+2
    __half2 E[8], O[7];
    E[0] = pair_of(L, 0x4140); E[1] = pair_of(L, 0x4342);
    E[2] = pair_of(C.x, 0x4140); E[3] = pair_of(C.x, 0x4342);
    E[4] = pair_of(C.y, 0x4140); E[5] = pair_of(C.y, 0x4342);
    E[6] = pair_of(Rw, 0x4140); E[7] = pair_of(Rw, 0x4342);
#pragma unroll
    for (int m = 0; m < 7; ++m) O[m] = odd_of(E[m], E[m + 1]);  // bytes (2m+1, 2m+2), index m+2
#pragma unroll
    for (int s = 0; s < K; ++s) {
      const int j = 2 * R - s;  // filter row for slot s
#pragma unroll
      for (int i = 0; i < K; ++i) {
        const int d = i - R;
        const __half2 k = t.k[j * K + i];
#pragma unroll
        for (int p = 0; p < 4; ++p) {
          // pair (x0+2p+d, x0+2p+d+1)
          const int e = 2 * p + d;  // even or odd start
          const __half2 v = (e % 2 == 0) ? E[(e >> 1) + 2] : O[((e - 1) >> 1) + 2];
          acc[s][p] = __hfma2(k, v, acc[s][p]);
        }
      }
    }
    const int y = r - R;
    if (y >= y0 && y < yend) {
      unsigned w[4];
#pragma unroll
      for (int p = 0; p < 4; ++p) {
        __half2 v = __hadd2(acc[0][p], cadd);
        v = __hmin2(__hmax2(v, __half2half2(__ushort_as_half(0x6400))), __half2half2(__ushort_as_half(0x64FF)));
        w[p] = *reinterpret_cast<unsigned*>(&v);
      }
      uint2 o;
      o.x = __byte_perm(w[0], w[1], 0x6420);
      o.y = __byte_perm(w[2], w[3], 0x6420);
      *reinterpret_cast<uint2*>(out + (long)y * op + x0) = o;
    }
#pragma unroll
    for (int s = 0; s < K - 1; ++s)
#pragma unroll
      for (int p = 0; p < 4; ++p) acc[s][p] = acc[s + 1][p];
#pragma unroll
    for (int p = 0; p < 4; ++p) acc[K - 1][p] = init;
  }
}

__device__ __forceinline__ float bf(unsigned w, int k) {
  return __fsub_rn(__uint_as_float(__byte_perm(w, 0x4B000000u, 0x7540u | unsigned(k))), 8388608.0f);
}

template <int R>
__global__ void __launch_bounds__(128) conv_f(const uint8_t* __restrict__ in, int ip, uint8_t* __restrict__ out, int op,
                                              int W, int H, int S, taps_f t) {
  constexpr int K = 2 * R + 1;
  const int x0 = (blockIdx.x * blockDim.x + threadIdx.x) * 8;
  const int y0 = blockIdx.y * S;
  if (x0 >= W) return;
  float acc[K][8];
#pragma unroll
  for (int s = 0; s < K; ++s)
#pragma unroll
    for (int p = 0; p < 8; ++p) acc[s][p] = 0.f;
  const int yend = min(y0 + S, H);
  for (int r = y0 - R; r < yend + R; ++r) {
    const uint8_t* row = in + (long)r * ip + x0;
    const unsigned L = *reinterpret_cast<const unsigned*>(row - 4);
    const uint2 C = *reinterpret_cast<const uint2*>(row);
    const unsigned Rw = *reinterpret_cast<const unsigned*>(row + 8);
    float v[16];  // bytes -4..11
    const unsigned ws[4] = {L, C.x, C.y, Rw};
#pragma unroll
    for (int q = 0; q < 16; ++q) v[q] = bf(ws[q / 4], q % 4);
#pragma unroll
    for (int s = 0; s < K; ++s) {
      const int j = 2 * R - s;
#pragma unroll
      for (int i = 0; i < K; ++i) {
        const float k = t.k[j * K + i];
#pragma unroll
        for (int p = 0; p < 8; ++p) acc[s][p] = fmaf(k, v[p + i - R + 4], acc[s][p]);
      }
    }
    const int y = r - R;
    if (y >= y0 && y < yend) {
      unsigned w[8];
#pragma unroll
      for (int p = 0; p < 8; ++p) {
        float c = fminf(fmaxf(acc[0][p], 0.f), 255.f);
        w[p] = __float_as_uint(__fadd_rn(c, 12582912.0f));
      }
      uint2 o;
      o.x = __byte_perm(__byte_perm(w[0], w[1], 0x0040), __byte_perm(w[2], w[3], 0x0040), 0x5410);
      o.y = __byte_perm(__byte_perm(w[4], w[5], 0x0040), __byte_perm(w[6], w[7], 0x0040), 0x5410);
      *reinterpret_cast<uint2*>(out + (long)y * op + x0) = o;
    }
#pragma unroll
    for (int s = 0; s < K - 1; ++s)
#pragma unroll
      for (int p = 0; p < 8; ++p) acc[s][p] = acc[s + 1][p];
#pragma unroll
    for (int p = 0; p < 8; ++p) acc[K - 1][p] = 0.f;
  }
}

template <class F>
float time_it(F f, int runs = 30) {
  cudaEvent_t a, b;
  cudaEventCreate(&a); cudaEventCreate(&b);
  f(); f();
  std::vector<float> ts;
  for (int i = 0; i < runs; ++i) {
    cudaEventRecord(a); f(); cudaEventRecord(b); cudaEventSynchronize(b);
    float ms; cudaEventElapsedTime(&ms, a, b); ts.push_back(ms * 1000.f);
  }
  CK(cudaGetLastError());
  std::sort(ts.begin(), ts.end());
  return ts[ts.size() / 2];
}

template <int R>
void run_size(int W, int H) {
  constexpr int K = 2 * R + 1;
  const int pad = 16, ip = ((W + 2 * pad + 127) / 128) * 128, op = ip;
  const int rows = H + 2 * R;
  std::vector<uint8_t> h((size_t)ip * rows);
  std::mt19937 g(7);
  for (auto& b : h) b = g() & 255;
  uint8_t *din, *dout;
  CK(cudaMalloc(&din, h.size())); CK(cudaMalloc(&dout, (size_t)op * H));
  CK(cudaMemcpy(din, h.data(), h.size(), cudaMemcpyHostToDevice));
  const uint8_t* in0 = din + (size_t)R * ip + pad;
  // Gaussian sigma 0.4 + 0.6 R, outer product
  double sig = 0.4 + 0.6 * R, s1 = 0; double g1[K];
  for (int i = 0; i < K; ++i) s1 += g1[i] = std::exp(-0.5 * (i - R) * (i - R) / (sig * sig));
  float kf[K * K]; taps_f tf{}; taps_h th{};
  double hsum = 0;
  for (int j = 0; j < K; ++j) for (int i = 0; i < K; ++i) {
    kf[j * K + i] = float(g1[j] / s1 * g1[i] / s1);
    tf.k[j * K + i] = kf[j * K + i];
    __half hk = __float2half_rn(kf[j * K + i]);
    th.k[j * K + i] = __half2half2(hk);
    hsum += __half2float(hk);
  }
  double c = 128.0 * hsum, ci = std::floor(c), cfr = c - ci;
  __half2 init = __half2half2(__float2half_rn(float(cfr)));
  __half2 cadd = __half2half2(__float2half_rn(float(1024.0 + ci)));
  std::vector<uint8_t> o1((size_t)op * H), o2((size_t)op * H);
  for (int S : {16, 8, 32, 64}) {
    for (int bx : {64, 32, 128}) {
      dim3 grid((W / 8 + bx - 1) / bx, (H + S - 1) / S), block(bx);
      float th2 = time_it([&] { conv_h2<R><<<grid, block>>>(in0, ip, dout, op, W, H, S, th, init, cadd); });
      CK(cudaMemcpy(o1.data(), dout, o1.size(), cudaMemcpyDeviceToHost));
      float tff = time_it([&] { conv_f<R><<<grid, block>>>(in0, ip, dout, op, W, H, S, tf); });
      CK(cudaMemcpy(o2.data(), dout, o2.size(), cudaMemcpyDeviceToHost));
      // check a few rows against double
      int maxd_h = 0, maxd_f = 0;
      for (int y = 0; y < H; y += std::max(1, H / 37))
        for (int x = 0; x < W; ++x) {
          double a = 0;
          for (int j = 0; j < K; ++j) for (int i = 0; i < K; ++i)
            a += double(kf[j * K + i]) * h[(size_t)(y + j) * ip + pad + x + i - R];
          int ref = (int)std::nearbyint(std::min(255.0, std::max(0.0, a)));
          maxd_h = std::max(maxd_h, std::abs(ref - int(o1[(size_t)y * op + x])));
          maxd_f = std::max(maxd_f, std::abs(ref - int(o2[(size_t)y * op + x])));
        }
      printf("R=%d %5dx%-5d S=%2d bx=%3d  half2 %8.2f us (maxdiff %d)  float %8.2f us (maxdiff %d)  ratio %.2f\n", R, W, H,
             S, bx, th2, maxd_h, tff, maxd_f, tff / th2);
    }
  }
  float tc = time_it([&] { cudaMemcpyAsync(dout, din, (size_t)op * H, cudaMemcpyDeviceToDevice); });
  printf("R=%d %5dx%-5d copy %.2f us\n", R, W, H, tc);
  cudaFree(din); cudaFree(dout);
}

int main() {
  for (auto wh : std::vector<std::pair<int, int>>{{8192, 8192}, {3840, 2160}, {1920, 1080}, {512, 512}}) {
    run_size<1>(wh.first, wh.second);
    run_size<2>(wh.first, wh.second);
  }
}
