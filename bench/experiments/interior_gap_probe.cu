// Standalone probe (not built by CMake): why tiled's interior instance
// (tiled2d_interior_kernel, kernels/tiled_interior.hpp) runs float 15x15 at 8192x8192 a few
// percent slower than dense_fma_probe.cu's prototype with the same 4 x 2 outputs a thread.
// Times, on a caller-padded source (no frame), in one run:
//   lib       the library call under padded (the launcher: interior grid only)
//   kBXxBY    tiled2d_interior_kernel launched directly, blocks of BX x BY threads
//   flat      the same loads (load_span) and sums (add_window_row) in a kernel of one tile
//             a block, rows addressed by pointer steps, no loop, no dependent-launch wait
//   proto     dense_fma_probe.cu's block_dense (__ldg float4 loads, 128 threads)
// Each line: radius, variant, time (us), multiple of the FP32 FMA floor at the FMA rate
// measured in the same run, and the output's hash (equal hashes: equal outputs).
//   nvcc -std=c++17 -O3 -arch=sm_90 --expt-relaxed-constexpr -Iinclude \
//        -I/usr/include/eigen3 interior_gap_probe.cu -lcufft -o probe && ./probe
#include "ab_common.hpp"
#include "dense_prototype.hpp"
#include <cstdio>
#include <vector>
namespace hs = hipstencil;
namespace hd = hipstencil::detail;

// The interior kernel's loads and sums, one tile a block, no loop: src at the window's
// first pixel of output (0, 0); pitches in bytes.
template <int R, int B, int OX, int OY>
__global__ void __launch_bounds__(B) flat_dense(const float* src, std::size_t sp, float* dst, std::size_t dp,
                                                hd::inline_taps<(2 * R + 1) * (2 * R + 1)> taps, int width) {
  const int x0 = (int(blockIdx.x) * B + int(threadIdx.x)) * OX;
  if (x0 >= width) return;
  const int y0 = int(blockIdx.y) * OY;
  const char* row = reinterpret_cast<const char*>(src + x0) + std::size_t(y0) * sp;
  using A = hs::accum<float, 1>;
  A acc[OY][OX];
  for (int y = 0; y < OY; ++y)
    for (int x = 0; x < OX; ++x) hd::zero(acc[y][x]);
  hd::static_loop<OY + 2 * R, true>([&](int t) {
    A v[OX + 2 * R];
    hd::load_span<16, R>(v, reinterpret_cast<const float*>(row + std::size_t(t) * sp));
    hd::add_window_row<R>(acc, v, t, taps);
  });
  for (int y = 0; y < OY; ++y)
    hd::store_span<16>(reinterpret_cast<float*>(reinterpret_cast<char*>(dst + x0) + std::size_t(y0 + y) * dp), acc[y]);
}

int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::atoi(argv[1]) : 25;
  const double tfma = fma_rate_tfma();
  std::printf("fma peak %.2f TFMA/s\n", tfma);
  const int w = 8192, h = 8192, P = 8;
  hs::device_image<float> padded(w + 2 * P, h + 2 * P), out(w, h);
  unsigned s = 99;
  fill_random(padded.data(), padded.pitch_bytes(), std::size_t(w + 2 * P) * 4, h + 2 * P, s);
  const std::size_t sp = padded.pitch_bytes(), dp = out.pitch_bytes();
  auto each_radius = [&](auto RC) {
    constexpr int R = decltype(RC)::value, D = 2 * R + 1;
    const hs::filter2d f = ab_dense_filter(R);
    const double floor_us = double(D * D) * w * h / (tfma * 1e12) * 1e6;
    const auto taps = hd::pack_taps<D * D>(f.coefficients());
    taps_t<D * D> pt;
    for (int i = 0; i < D * D; ++i) pt.v[i] = f.coefficients()[i];
    auto report = [&](const char* name, auto go) {
      out.fill_bytes(0xA5);
      go();
      const cudaError_t e = cudaDeviceSynchronize();
      const unsigned long long hash = hash_rows(out.data(), dp, w, h, 1, 0, 4);
      const double us = time_us(go, runs);
      std::printf("r%d %-8s %.1f us %.3fx floor %016llx %s\n", R, name, us, us / floor_us, hash, cudaGetErrorString(e));
    };
    report("lib", [&] {
      hs::convolve(padded.view(), hs::rect{P, P, w, h}, out.view(), hs::rect{0, 0, w, h}, f, hs::border::padded{},
                   hs::algo::tiled<>{});
    });
    hd::geometry g{};
    g.src_x0 = P - R, g.src_y0 = P - R, g.width = w, g.height = h, g.kw = g.kh = D;
    const hs::image_view<const float> sv = padded.view();
    const hs::image_view<float> dv = out.view();
    constexpr int OY = R >= 5 ? 2 : 4;
    auto direct = [&](const char* name, auto BXc, auto BYc) {
      constexpr int BX = decltype(BXc)::value, BY = decltype(BYc)::value;
      const dim3 grid(w / (BX * 4), h / (BY * OY));
      report(name, [&] { hd::tiled2d_interior_kernel<float, float, R, BX, BY, 4, OY><<<grid, dim3(BX, BY)>>>(sv, dv, g, taps, 0, 0, w, h); });
    };
    direct("k32x2", std::integral_constant<int, 32>{}, std::integral_constant<int, 2>{});
    direct("k128x1", std::integral_constant<int, 128>{}, std::integral_constant<int, 1>{});
    direct("k32x4", std::integral_constant<int, 32>{}, std::integral_constant<int, 4>{});
    const float* s0 = padded.data() + (P - R) * (sp / 4) + (P - R);
    report("flat64", [&] { flat_dense<R, 64, 4, OY><<<dim3(w / 256, h / OY), 64>>>(s0, sp, out.data(), dp, taps, w); });
    report("flat128", [&] { flat_dense<R, 128, 4, OY><<<dim3(w / 512, h / OY), 128>>>(s0, sp, out.data(), dp, taps, w); });
    const float* c0 = padded.data() + P * (sp / 4) + P;
    report("proto", [&] { block_dense<R, 4, OY><<<dim3(w / 512, h / OY), 128>>>(c0, long(sp / 4), out.data(), long(dp / 4), w, pt); });
  };
  each_radius(std::integral_constant<int, 7>{});
  each_radius(std::integral_constant<int, 4>{});
  std::printf("last error: %s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
