// Event-timed floor: an empty kernel, and a copy kernel of 1080p u8, timed like the bench
#include <cstdio>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
__global__ void empty_k() {}
__global__ void copy_u8(const unsigned* s, unsigned* d, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) d[i] = s[i]; }

// A plain 3x3 u8 (replicate) with 4 outputs per thread, one 32-bit store: what a simple kernel reaches
__global__ void box3_u8(const unsigned char* s, unsigned char* d, int w, int h) {
  int x0 = (blockIdx.x * blockDim.x + threadIdx.x) * 4, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x0 >= w || y >= h) return;
  float acc[4] = {0, 0, 0, 0};
  for (int dy = -1; dy <= 1; ++dy) {
    int yy = min(max(y + dy, 0), h - 1);
    const unsigned char* row = s + (size_t)yy * w;
    float v[6];
    for (int i = 0; i < 6; ++i) { int xx = min(max(x0 - 1 + i, 0), w - 1); v[i] = row[xx]; }
    for (int o = 0; o < 4; ++o) acc[o] += 0.25f * v[o] + 0.5f * v[o + 1] + 0.25f * v[o + 2];
  }
  unsigned out = 0;
  for (int o = 0; o < 4; ++o) out |= (unsigned)min(max(__float2int_rn(acc[o] * (1.f / 4)), 0), 255) << (8 * o);
  *(unsigned*)(d + (size_t)y * w + x0) = out;
}
template <class F> float med(F f) {
  std::vector<cudaEvent_t> e(200); for (auto& x : e) cudaEventCreate(&x);
  f(); cudaDeviceSynchronize();
  for (int i = 0; i < 100; ++i) { cudaEventRecord(e[2*i]); f(); cudaEventRecord(e[2*i+1]); }
  cudaEventSynchronize(e.back()); std::vector<float> ms(100);
  for (int i = 0; i < 100; ++i) cudaEventElapsedTime(&ms[i], e[2*i], e[2*i+1]);
  std::sort(ms.begin(), ms.end()); return ms[50] * 1000;
}
int main() {
  printf("empty kernel 1 block: %.2f us\n", med([] { empty_k<<<1, 32>>>(); }));
  printf("empty kernel 8160 blocks of 256: %.2f us\n", med([] { empty_k<<<8160, 256>>>(); }));
  for (int n : {512 * 512, 1920 * 1080, 3840 * 2160}) {
    unsigned *a, *b; int w = n / 4; cudaMalloc(&a, n); cudaMalloc(&b, n); cudaMemset(a, 1, n);
    printf("copy u8 %d px (4 px/thread): %.2f us; cudaMemcpyAsync d2d: %.2f us\n", n,
           med([&] { copy_u8<<<(w + 255) / 256, 256>>>(a, b, w); }),
           med([&] { cudaMemcpyAsync(b, a, n, cudaMemcpyDeviceToDevice); }));
    int W = n == 512 * 512 ? 512 : n == 1920 * 1080 ? 1920 : 3840, H = n / W;
    for (int by : {1, 2, 4, 8})
      printf("  box3 u8 %dx%d, block 32x%d, 4 px/thread: %.2f us\n", W, H, by,
             med([&] { box3_u8<<<dim3((W / 4 + 31) / 32, (H + by - 1) / by), dim3(32, by)>>>((const unsigned char*)a, (unsigned char*)b, W, H); }));
    cudaFree(a); cudaFree(b);
  }
}
