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
#include "dense_prototype.hpp"
#include <hipstencil/hipstencil.hpp>
#include <cuda_runtime.h>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <vector>
namespace hs = hipstencil;

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
  tfma = fma_rate_tfma();
  std::printf("fma peak %.2f TFMA/s\n", tfma);
  const int w = 8192, h = 8192, P = 8;
  hs::device_image<float> padded(w + 2 * P, h + 2 * P), out(w, h), ref(w, h);
  unsigned s = 99;
  fill_random_pixels(padded, s);
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
