// Standalone probe (not built by CMake): the instructions of direct2d_kernel's border
// blocks. On a 128x128 image every block of the direct family is a border block, and
// Nsight Compute gave its float 3x3 kernel (32 x 8 threads, 2 outputs each) 4,256 active
// cycles and 322 warp instructions a warp, against 2,170 cycles and 166 for a bare kernel
// of the same shape mapping through the same run-time rule (bench/results/2026-11-26-lean/
// ncu-128.txt, 2026-11-28/ncu-*.csv; NPP's Gaussian: 1,919 cycles, 108 a warp). This times,
// on one call each, held, best of two, copies of direct2d_kernel whose border path differs:
//   copy    the library's kernel as it is (a check that the copy times as the library)
//   flat    the run-time rule, every load unconditional: columns and rows mapped through
//           border::map_index once, a column or row outside the domain (the constant rule)
//           read at the domain's first and replaced by the constant after the load
//   rep     the border path compiled for replicate (min / max), launched when the read
//           geometry's rule is replicate (also skip and padded, which read as replicate)
//   flat1   flat with one output a thread at radius 1 (one channel of 2 or 4 bytes)
// beside algo::direct<> (the library), and checks that every output is byte-identical to it.
// Its run (bench/results/2026-11-28-clamp/direct-border-1.txt, ncu-probe.csv) was taken on
// the library before direct2d_kernel had its replicate instance, which is `rep` (since then
// `lib` runs it under replicate). cuobjdump counted 1,344 SASS instructions in copy's float
// 3x3 kernel, 1,312 in flat's and 280 in rep's.
//   nvcc -std=c++17 -O3 -arch=sm_90 --expt-relaxed-constexpr -I<tree>/include \
//        -I/usr/include/eigen3 direct_border_ab.cu -lcufft -o direct_border_ab
// `direct_border_ab ncu` runs 128x128 float 3x3 separable, replicate, once a variant (for
// Nsight Compute).
#include "ab_common.hpp"
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
namespace hs = hipstencil;

namespace hipstencil {
namespace detail {

enum probe_variant { v_copy, v_flat, v_rep };

template <class In, class Out, int R, int BX, int BY, int OX, int V>
__global__ void __launch_bounds__(BX* BY)
    direct2d_probe(image_view<const In> src, image_view<Out> dst, geometry g, geometry gr,
                   inline_taps<(2 * R + 1) * (2 * R + 1)> taps, bool tile_class) {
  constexpr int C = pixel_traits<In>::channels, K = 2 * R + 1, N = OX + 2 * R, TW = BX * OX;
  using A = accum<float, C>;
  const int x_end = g.src_x0 + g.width + K - 1, y_end = g.src_y0 + g.height + K - 1;
  const int tx0 = blockIdx.x * TW;
  for (int ty0 = blockIdx.y * BY; ty0 < g.height; ty0 += gridDim.y * BY) {
    const tile_class_info tc = classify_tile(g, tx0, ty0, TW, BY, K, K, tile_class);
    const int x0 = tx0 + threadIdx.x * OX, y = ty0 + threadIdx.y;
    if (x0 >= g.width || y >= g.height) continue;
    int px = g.src_x0 + x0;
    const int py = g.src_y0 + y;
    A acc[1][OX];
    HIPSTENCIL_UNROLL
    for (int x = 0; x < OX; ++x) zero(acc[0][x]);
    if (tc.free_read && tc.full) {
      const char* s0 = reinterpret_cast<const char*>(src.row(py) + px);
      static_loop<K, true>([&](int t) {
        const In* s = reinterpret_cast<const In*>(s0 + std::size_t(t) * src.pitch_bytes);
        A v[N];
        HIPSTENCIL_UNROLL
        for (int u = 0; u < N; ++u) v[u] = to_accum_cvt<float>(s[u]);
        add_window_row<R>(acc, v, t, taps);
      });
    } else {
      asm volatile("" : "+r"(px));
      if constexpr (V == v_copy) {
        int sx[N];
        HIPSTENCIL_UNROLL
        for (int u = 0; u < N; ++u) sx[u] = gr.map_x(min(px + u, x_end - 1));
        const A outside_value = constant_accum<C>(gr);
        const bordered<In> b{src, gr};
        static_loop<K, true>([&](int t) {
          const In* p = b.row(min(py + t, y_end - 1)).p;
          A v[N];
          HIPSTENCIL_UNROLL
          for (int u = 0; u < N; ++u) v[u] = p && sx[u] != outside ? to_accum<float>(p[sx[u]]) : outside_value;
          add_window_row<R>(acc, v, t, taps);
        });
      } else if constexpr (V == v_rep) {
        const int xl = gr.domain.x, xh = gr.domain.x + gr.domain.width - 1;
        const int yl = gr.domain.y, yh = gr.domain.y + gr.domain.height - 1;
        int sx[N];
        HIPSTENCIL_UNROLL
        for (int u = 0; u < N; ++u) sx[u] = min(max(px + u, xl), xh);
        static_loop<K, true>([&](int t) {
          const In* p = src.row(min(max(py + t, yl), yh));
          A v[N];
          HIPSTENCIL_UNROLL
          for (int u = 0; u < N; ++u) v[u] = to_accum<float>(p[sx[u]]);
          add_window_row<R>(acc, v, t, taps);
        });
      } else {
        const border::kind rule = gr.border.rule;
        int sx[N];
        bool inx[N];
        HIPSTENCIL_UNROLL
        for (int u = 0; u < N; ++u) {
          const int q = border::map_index(rule, min(px + u, x_end - 1) - gr.domain.x, gr.domain.width);
          inx[u] = q >= 0;
          sx[u] = gr.domain.x + (q >= 0 ? q : 0);
        }
        const A outside_value = constant_accum<C>(gr);
        static_loop<K, true>([&](int t) {
          const int q = border::map_index(rule, min(py + t, y_end - 1) - gr.domain.y, gr.domain.height);
          const In* p = src.row(gr.domain.y + (q >= 0 ? q : 0));
          A v[N];
          HIPSTENCIL_UNROLL
          for (int u = 0; u < N; ++u) {
            const A x = to_accum<float>(p[sx[u]]);
            v[u] = q >= 0 && inx[u] ? x : outside_value;
          }
          add_window_row<R>(acc, v, t, taps);
        });
      }
    }
    store_block<Out, OX, 1>(dst, g, acc, x0, y, tc.free_write);
  }
}

}  // namespace detail
}  // namespace hipstencil

namespace hd = hipstencil::detail;

/// Launches variant V of the probe kernel for a w x h image, radius R, with the
/// library's direct_policy shape (OX1: one output a thread for one-channel pixels).
template <int V, bool OX1, int R, class T>
void launch(const hs::device_image<T>& a, hs::device_image<T>& b, const std::vector<float>& k, hs::border::any rule) {
  using P = hs::tuning::direct_policy<>;
  constexpr int C = hs::pixel_traits<T>::channels, CB = int(sizeof(T)) / C;
  constexpr int BX = P::block_x, BY = P::template block_y_for<C, CB>;
  constexpr int OX = OX1 ? 1 : P::template out_x_for<C, CB, R>;
  constexpr int K = 2 * R + 1;
  const int w = a.width(), h = a.height();
  const hs::rect full{0, 0, w, h};
  const hd::geometry g = hd::make_geometry(full, full, full, K, K, R, R, rule, hs::halo::isolated);
  hd::inline_taps<K * K> t;
  for (int i = 0; i < K * K; ++i) t.v[i] = k[i];
  const dim3 grid = hd::tile_grid(w, h, BX * OX, BY, 1), block(BX, BY);
  const bool rep = g.for_reads().border.rule == hs::border::kind::replicate;
  if (V == hd::v_rep && rep)
    hd::direct2d_probe<T, T, R, BX, BY, OX, hd::v_rep><<<grid, block>>>(a.view(), b.view(), g, g.for_reads(), t, true);
  else
    hd::direct2d_probe<T, T, R, BX, BY, OX, V == hd::v_rep ? hd::v_copy : V>
        <<<grid, block>>>(a.view(), b.view(), g, g.for_reads(), t, true);
}

template <class T>
void run_type(const char* type, bool ncu) {
  const std::pair<int, int> sizes[] = {{128, 128}, {256, 256}, {512, 512}, {1024, 1024}, {1920, 1080}};
  constexpr bool narrow = hs::pixel_traits<T>::channels == 1 && sizeof(T) >= 2;
  unsigned seed = 4242u;
  for (auto sz : sizes) {
    const int w = sz.first, h = sz.second;
    if (ncu && w != 128) break;
    hs::device_image<T> a(w, h), b(w, h);
    fill_random_pixels(a, seed);
    ab_for_each_case([&](int r, const char* rule_name, bool dense, auto call) {
      if (ncu && (r != 1 || dense || std::strcmp(rule_name, "replicate"))) return;
      call([&](const auto& filter, auto border) {
        const int K = 2 * r + 1;
        std::vector<float> k(K * K);
        if constexpr (std::is_same<std::decay_t<decltype(filter)>, hs::filter2d>::value) {
          for (int i = 0; i < K * K; ++i) k[i] = filter.coefficients()[i];
        } else {
          for (int j = 0; j < K; ++j)
            for (int i = 0; i < K; ++i) k[j * K + i] = filter.column()[j] * filter.row()[i];
        }
        auto with_r = [&](auto f) {
          if (r == 1) f(std::integral_constant<int, 1>{});
          else f(std::integral_constant<int, 2>{});
        };
        auto lib = [&] { hs::convolve(a.view(), b.view(), filter, border, hs::algo::direct<>{}); };
        auto var = [&](auto v, auto ox1) {
          return [&, v, ox1] {
            with_r([&](auto R) { launch<decltype(v)::value, decltype(ox1)::value, decltype(R)::value>(a, b, k, border); });
          };
        };
        using I0 = std::integral_constant<int, hd::v_copy>;
        using I1 = std::integral_constant<int, hd::v_flat>;
        using I2 = std::integral_constant<int, hd::v_rep>;
        using F = std::false_type;
        using Tr = std::true_type;
        if (ncu) {
          for (auto f : {std::function<void()>(lib), std::function<void()>(var(I0{}, F{})), std::function<void()>(var(I1{}, F{})),
                         std::function<void()>(var(I2{}, F{})), std::function<void()>(var(I1{}, Tr{}))}) {
            f();
            cudaDeviceSynchronize();
          }
          return;
        }
        const int nv = narrow && r == 1 ? 5 : 4;
        double t[5][2];
        unsigned long long hash[5];
        for (int rep = 0; rep < 2; ++rep) {
          t[0][rep] = hashed_time_us(b, lib, hash[0], 60, true);
          t[1][rep] = hashed_time_us(b, var(I0{}, F{}), hash[1], 60, true);
          t[2][rep] = hashed_time_us(b, var(I1{}, F{}), hash[2], 60, true);
          t[3][rep] = hashed_time_us(b, var(I2{}, F{}), hash[3], 60, true);
          if (nv == 5) t[4][rep] = hashed_time_us(b, var(I1{}, Tr{}), hash[4], 60, true);
        }
        double best[5];
        bool same = true;
        for (int i = 0; i < nv; ++i) {
          best[i] = std::min(t[i][0], t[i][1]);
          same = same && hash[i] == hash[0];
        }
        std::printf("%-6s %4dx%-4d %-10s %-9s %dx%d  lib %6.2f  copy %6.2f (%.2f)  flat %6.2f (%.2f)  rep %6.2f (%.2f)", type,
                    w, h, rule_name, dense ? "dense" : "separable", K, K, best[0], best[1], best[1] / best[0], best[2],
                    best[2] / best[0], best[3], best[3] / best[0]);
        if (nv == 5) std::printf("  flat1 %6.2f (%.2f)", best[4], best[4] / best[0]);
        std::printf("  %s\n", same ? "identical" : "OUTPUTS DIFFER");
      });
    });
  }
}

int main(int argc, char** argv) {
  const bool ncu = argc > 1 && !std::strcmp(argv[1], "ncu");
  cudaFree(nullptr);
  run_type<float>("float", ncu);
  if (ncu) return 0;
  run_type<std::uint16_t>("u16", false);
  run_type<uchar4>("uchar4", false);
  run_type<std::uint8_t>("u8", false);
  const cudaError_t e = cudaGetLastError();
  std::printf("last error: %s\n", cudaGetErrorString(e));
  return e == cudaSuccess ? 0 : 1;
}
