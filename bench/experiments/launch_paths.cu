// Standalone probe (not built by CMake): what one kernel launch costs the host by each way
// the CUDA runtime and driver offer, next to NPP's Gaussian on a 128x128 u8 image and a
// hipstencil call of the same size. At 128x128 a call's device-event time is its host's
// enqueue time (host_overhead.cu: an empty <<<>>> launch 4.4 us a call on the H200's host,
// a hipstencil call 4.6 to 4.9), so the cheapest way to launch sets the floor there.
// Each line: the host's wall time per call over 4000 calls queued without a sync, and the
// median device-event time of one call (ab_common.hpp's time_us).
//   nvcc -std=c++17 -O3 -arch=sm_90 --expt-relaxed-constexpr -I<tree>/include \
//        -I/usr/include/eigen3 launch_paths.cu -lcuda -lnppif -lnppc -lcufft -o launch_paths
#include "ab_common.hpp"
#include "npp_context.hpp"
#include <hipstencil/hipstencil.hpp>
#include <cuda.h>
#include <cuda_runtime.h>
#include <nppi_filtering_functions.h>
#include <chrono>
#include <cstdio>
#include <vector>
namespace hs = hipstencil;

__global__ void empty_kernel() {}
/// Parameters of the size a hipstencil kernel takes (two views, a geometry, 25 taps).
struct fat_params {
  float taps[25];
  long long words[12];
  int ints[16];
};
__global__ void fat_kernel(fat_params p, float* out) {
  if (threadIdx.x == 0 && blockIdx.x == 0 && p.ints[0] == 12345) out[0] = p.taps[0];
}

template <class F>
void line(const char* what, F f) {
  f();
  cudaDeviceSynchronize();
  const int n = 4000;
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < n; ++i) f();
  const auto t1 = std::chrono::steady_clock::now();
  cudaDeviceSynchronize();
  const double host = std::chrono::duration<double, std::micro>(t1 - t0).count() / n;
  const double ev = time_us(f, 80);
  std::printf("%-52s host %6.2f us/call   events %6.2f us\n", what, host, ev);
}

int main() {
  cudaFree(nullptr);
  float* out = nullptr;
  cudaMalloc(&out, 64);
  fat_params fp{};
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);

  line("empty <<<1,32>>> default stream", [] { empty_kernel<<<1, 32>>>(); });
  line("empty <<<1,32>>> created stream", [&] { empty_kernel<<<1, 32, 0, s>>>(); });
  line("fat params <<<32,128>>>", [&] { fat_kernel<<<32, 128>>>(fp, out); });
  line("fat params <<<32,128>>> + cudaGetLastError", [&] {
    fat_kernel<<<32, 128>>>(fp, out);
    (void)cudaGetLastError();
  });
  line("fat params cudaLaunchKernel", [&] {
    void* args[] = {&fp, &out};
    cudaLaunchKernel((const void*)fat_kernel, dim3(32), dim3(128), args, 0, nullptr);
  });
  line("fat params cudaLaunchKernelEx (no attributes)", [&] {
    cudaLaunchConfig_t c{};
    c.gridDim = dim3(32);
    c.blockDim = dim3(128);
    cudaLaunchKernelEx(&c, fat_kernel, fp, out);
  });
  line("fat params cudaLaunchKernelEx (PDL attribute)", [&] {
    cudaLaunchAttribute a[1];
    a[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    a[0].val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t c{};
    c.gridDim = dim3(32);
    c.blockDim = dim3(128);
    c.attrs = a;
    c.numAttrs = 1;
    cudaLaunchKernelEx(&c, fat_kernel, fp, out);
  });
  cudaFunction_t fn = nullptr;
  cudaGetFuncBySymbol(&fn, (const void*)fat_kernel);
  line("fat params cuLaunchKernel (cudaGetFuncBySymbol)", [&] {
    void* args[] = {&fp, &out};
    cuLaunchKernel((CUfunction)fn, 32, 1, 1, 128, 1, 1, 0, nullptr, args, nullptr);
  });
  cudaFunction_t efn = nullptr;
  cudaGetFuncBySymbol(&efn, (const void*)empty_kernel);
  line("empty cuLaunchKernel", [&] { cuLaunchKernel((CUfunction)efn, 1, 1, 1, 32, 1, 1, 0, nullptr, nullptr, nullptr); });
  int dev = 0;
  line("cudaGetDevice alone", [&] { cudaGetDevice(&dev); });
  line("cudaGetLastError alone", [&] { (void)cudaGetLastError(); });

  // A graph of one launch, replayed.
  cudaGraph_t g;
  cudaGraphExec_t ge;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
  fat_kernel<<<32, 128, 0, s>>>(fp, out);
  cudaStreamEndCapture(s, &g);
  cudaGraphInstantiate(&ge, g, 0);
  line("fat params graph of one launch, cudaGraphLaunch", [&] { cudaGraphLaunch(ge, s); });

  // NPP and hipstencil at 128x128 u8, 5x5 Gaussian and separable 5x5, replicate.
  const int w = 128, h = 128;
  hs::device_image<std::uint8_t> a(w, h), b(w, h);
  unsigned seed = 7;
  fill_random_pixels(a, seed);
  const NppStreamContext ctx = npp_context();
  line("NPP FilterGaussBorder 8u C1R 5x5 128x128", [&] {
    nppiFilterGaussBorder_8u_C1R_Ctx(a.data(), int(a.pitch_bytes()), NppiSize{w, h}, NppiPoint{0, 0}, b.data(),
                                     int(b.pitch_bytes()), NppiSize{w, h}, NPP_MASK_SIZE_5_X_5, NPP_BORDER_REPLICATE,
                                     ctx);
  });
  line("NPP FilterGaussBorder 8u C1R 3x3 128x128", [&] {
    nppiFilterGaussBorder_8u_C1R_Ctx(a.data(), int(a.pitch_bytes()), NppiSize{w, h}, NppiPoint{0, 0}, b.data(),
                                     int(b.pitch_bytes()), NppiSize{w, h}, NPP_MASK_SIZE_3_X_3, NPP_BORDER_REPLICATE,
                                     ctx);
  });
  const auto g5 = hs::filters::gaussian_taps(1.0, 2);
  const hs::separable_filter sep(g5, g5);
  line("hipstencil separable 5x5 automatic 128x128", [&] { hs::convolve(a.view(), b.view(), sep, hs::border::replicate{}); });
  line("hipstencil separable 5x5 direct 128x128",
       [&] { hs::convolve(a.view(), b.view(), sep, hs::border::replicate{}, hs::algo::direct<>{}); });
  line("hipstencil separable 5x5 packed 128x128",
       [&] { hs::convolve(a.view(), b.view(), sep, hs::border::replicate{}, hs::algo::packed<>{}); });
  std::printf("last error: %s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
