// Standalone probe (not built by CMake): where the time between tiled's split dense call
// (the interior instance and its frame, tiled_interior.hpp) and its interior alone goes, on
// float 8192x8192 under replicate at radius 1 and 2. Launches the two grids the way
// tiled_family::launch_interior does and in other arrangements:
//   call        the library's call (convolve, algo::tiled)
//   split       frame, then interior as its dependent (the launcher's arrangement, by hand)
//   plain       frame, then interior as an ordinary launch (no overlap: their sum)
//   interior    the interior grid alone, its warps' rows of outputs on 128-byte lines
//               (interior_lead, as the launcher runs it)
//   unaligned   the same grid started at the rectangle's first column (ox columns in)
//   frame       the frame grid alone
//   whole       the interior kernel over the whole image read from a caller-padded source
//               (what the padded rule runs: the rectangle starts at column 0)
// Median of 40 calls with device events (ab_common.hpp). Run on the H200 before and after
// interior_lead: bench/results/2026-11-26-ci/split-before.txt and split.txt (split-before.txt
// comes from the first version of this probe, without the unaligned arrangement). Build and
// run on an NVIDIA GPU:
//   nvcc -std=c++17 -O3 -arch=sm_90 --expt-relaxed-constexpr -I<tree>/include \
//        -I/usr/include/eigen3 interior_frame_split.cu -lcufft -o split && ./split
#include "ab_common.hpp"
#include <cstdio>
#include <vector>
namespace hs = hipstencil;
namespace hd = hipstencil::detail;

template <int R>
void run(hs::device_image<float>& src, hs::device_image<float>& padded, hs::device_image<float>& out) {
  using P = hs::tuning::tiled_policy<>;
  constexpr int OX = P::out_x, IX = P::interior_block_x, IY = P::interior_block_y;
  constexpr int IOY = P::template interior_out_y<R>, n = (2 * R + 1) * (2 * R + 1);
  constexpr int FrameRows = P::frame_rows;  // the frame's cells at 8192x8192 (not small_frame's)
  const hs::filter2d f = ab_dense_filter(R);
  const int w = src.width(), h = src.height();
  auto problem_for = [&](hs::image_view<const float> s, hs::rect src_roi, auto border, hs::halo halo) {
    return hd::make_problem("probe", hs::algo::tiled<>{}, s, src_roi, out.view(), out.view().bounds(), &f, nullptr,
                            hs::border::any(border), halo, nullptr, nullptr);
  };
  const auto taps = hd::pack_taps<n>(f.coefficients());
  using reads = hd::span_reads<hd::span_alignment<float, OX>(), R, OX + 2 * R, int(sizeof(float))>;
  struct split {
    hd::interior_rect in;
    hd::frame_bands frame;
    long long frame_blocks;
    dim3 grid;
    int cols, rows;
  };
  auto grids = [&](const hd::problem<float, float>& p) {
    const hd::interior_rect in = hd::tiled_interior(p.g, R, OX, IOY, p.src.width, reads::left, reads::right);
    const hd::frame_bands frame = hd::make_frame(p.g, in, FrameRows);
    const long long frame_blocks = (frame.first[4] + hd::frame_threads - 1) / hd::frame_threads;
    const int cols = in.x1 - in.x0, rows = in.y1 - in.y0, tiles_y = (rows + IY * IOY - 1) / (IY * IOY);
    const dim3 grid(unsigned((cols + IX * OX - 1) / (IX * OX)), unsigned(std::min(tiles_y, 65535)),
                    unsigned((tiles_y + 65534) / 65535));
    return split{in, frame, frame_blocks, grid, cols, rows};
  };
  const auto p = problem_for(src.view(), src.view().bounds(), hs::border::replicate{}, hs::halo::from_parent);
  const split sp = grids(p);
  const hd::interior_rect in = sp.in;
  const hd::frame_bands frame = sp.frame;
  const long long frame_blocks = sp.frame_blocks;
  const dim3 grid = sp.grid;
  const int cols = sp.cols, rows = sp.rows;
  const int pad = (padded.width() - w) / 2;
  const hs::rect roi{pad, pad, w, h};  // the padded source's interior: a halo of pad >= R pixels a side
  const auto q = problem_for(padded.view(), roi, hs::border::padded{}, hs::halo::from_parent);
  const split qs = grids(q);
  const hd::interior_rect qin = qs.in;
  const hd::frame_bands qframe = qs.frame;
  const dim3 qgrid = qs.grid;
  const int qcols = qs.cols, qrows = qs.rows;
  auto frame_launch = [&] {
    hd::tiled2d_frame_kernel<float, float, R, false, FrameRows><<<unsigned(frame_blocks), hd::frame_threads>>>(p.src, p.dst, p.g,
                                                                                              p.g.for_reads(), taps, frame, true);
  };
  const int lead = hd::interior_lead(p.dst, p.g, in.x0, in.y0, OX);
  auto interior = [&, lead](bool dependent, bool aligned = true) {
    const int l = aligned ? lead : 0;
    const dim3 g2(unsigned((l + cols + IX * OX - 1) / (IX * OX)), grid.y, grid.z);
    hs::gpu::launch_dependent(&hd::tiled2d_interior_kernel<float, float, R, IX, IY, OX, IOY>, g2, dim3(IX, IY),
                              nullptr, dependent, p.src, p.dst, p.g, taps, in.x0, in.y0, cols, rows, l, true);
  };
  const double t_call = time_us([&] { hs::convolve(src.view(), out.view(), f, hs::border::replicate{}, hs::algo::tiled<>{}); });
  const double t_split = time_us([&] { frame_launch(); interior(true); });
  const double t_plain = time_us([&] { frame_launch(); interior(false); });
  const double t_interior = time_us([&] { interior(false); });
  const double t_unaligned = time_us([&] { interior(false, false); });
  const double t_frame = time_us([&] { frame_launch(); });
  const double t_whole = time_us([&] {
    hd::tiled2d_interior_kernel<float, float, R, IX, IY, OX, IOY><<<qgrid, dim3(IX, IY)>>>(q.src, q.dst, q.g, taps, qin.x0,
                                                                                        qin.y0, qcols, qrows, 0, true);
  });
  std::printf("r%d interior [%d,%d)x[%d,%d) of %dx%d, lead %d, frame %lld blocks; padded interior [%d,%d)x[%d,%d), "
              "frame cells %lld\n",
              R, in.x0, in.x1, in.y0, in.y1, w, h, lead, frame_blocks, qin.x0, qin.x1, qin.y0, qin.y1, qframe.first[4]);
  std::printf("r%d call %.1f split %.1f plain %.1f interior %.1f unaligned %.1f frame %.1f whole %.1f us\n", R, t_call,
              t_split, t_plain, t_interior, t_unaligned, t_frame, t_whole);
}

int main() {
  const int w = 8192, h = 8192, pad = 8;
  hs::device_image<float> src(w, h), padded(w + 2 * pad, h + 2 * pad), out(w, h);
  unsigned s = 4242;
  for (auto* im : {&src, &padded}) fill_random_pixels(*im, s);
  run<1>(src, padded, out);
  run<2>(src, padded, out);
  std::printf("last error: %s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
