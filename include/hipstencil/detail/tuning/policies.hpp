// hipstencil/detail/tuning/policies.hpp
// One policy type per kernel family: every number that shapes a family's kernels (tile
// shape, strip rows, vector width, ring depth, compiled radii, shared-memory budget) in
// one place, as compile-time constants with defaults (CUB's and rocPRIM's policy types).
// A policy reaches the kernels as a template parameter (algo::streaming<Strategy, Policy>
// and the like); tables.hpp says which policy each architecture uses by default.
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

namespace hipstencil {
namespace tuning {

/// Dynamic shared memory every target grants a block without opting in, in bytes.
constexpr std::size_t shared_memory_budget = 48 * 1024;

/// A list of compiled radii.
template <int... R>
using radii = std::integer_sequence<int, R...>;

namespace detail {
template <int Lo, int... I>
std::integer_sequence<int, (Lo + I)...> shift(std::integer_sequence<int, I...>);
}  // namespace detail
/// The radii Lo, Lo + 1, ..., Hi.
template <int Lo, int Hi>
using radii_range = decltype(detail::shift<Lo>(std::make_integer_sequence<int, Hi - Lo + 1>{}));

/// True when r is one of the radii of a list (a policy's dense_radii or separable_radii):
/// whether the family has a kernel compiled for that radius.
template <int... Rs>
constexpr bool compiled(int r, std::integer_sequence<int, Rs...>) {
  return ((r == Rs) || ...);
}

/// algo::naive: one thread per output. `block_x` x `block_y` threads, a multiple of both
/// wave sizes (32 and 64).
template <int BlockX = 32, int BlockY = 8>
struct naive_policy {
  static constexpr int block_x = BlockX, block_y = BlockY;
  using dense_radii = radii<>;  ///< none: every filter runs with a run-time size
  using separable_radii = radii<>;
};

/// The output tile of the shared-memory families (shared_mem and the row pass of
/// two_pass): `width` x `height` outputs for `block_x` x `block_y` threads.
template <int BlockX, int BlockY, int Width, int Height>
struct smem_tile_shape {
  static constexpr int block_x = BlockX, block_y = BlockY, width = Width, height = Height;
  static constexpr int rows_per_thread = Height / BlockY;
  static_assert(Width == BlockX && Height % BlockY == 0, "one column per thread, whole rows per thread");
};

/// algo::shared_mem: 32 x 32 output tiles for one channel, 32 x 16 for four (the float
/// staging of a four-channel tile is four times larger), 32 x 8 threads.
///   DenseRadii, SeparableRadii: radii compiled as templates (unrolled tap loops, taps
///     as immediates); other square centred filters, and every other filter, run the
///     same kernels with a run-time size.
///   separable_tile<Channels, Radius>: the tile of a separable filter of a compiled
///     radius. One channel from radius 8 takes 32 x 64: the row pass computes the tile's
///     rows plus 2R halo rows, 1.94x the outputs at radius 15 in a 32-row tile and 1.47x
///     in a 64-row one. Measured on the H200 (nvcc 13): float 31x31 at 8192x8192 took
///     0.85x the time of 32-row tiles, 17x17 0.88x; at 3840x2160 radius 8 to 11 took up
///     to 1.04x under replicate and constant (fewer, taller tiles meet the border more).
///   separable_tile_pixels: calls of fewer pixels take `tile` instead: below, the taller
///     tile's grid has too few blocks (512x512 u8 17x17: 23.3 us, where 15x15 in 32-row
///     tiles took 13.4; 1920x1080 36.6 against 27.2; bench/results/2026-11-24-rows/
///     tried-tiled-inside/sep-sweep.csv).
template <class DenseRadii = radii_range<1, 16>, class SeparableRadii = radii_range<1, 16>,
          std::size_t SharedBytes = shared_memory_budget>
struct shared_mem_policy {
  template <int Channels>
  using tile = smem_tile_shape<32, 8, 32, Channels == 1 ? 32 : 16>;
  template <int Channels, int Radius>
  using separable_tile = smem_tile_shape<32, 8, 32, Channels == 1 ? (Radius >= 8 ? 64 : 32) : 16>;
  static constexpr long long separable_tile_pixels = 1LL << 24;
  using dense_radii = DenseRadii;
  using separable_radii = SeparableRadii;
  static constexpr std::size_t shared_bytes = SharedBytes;  ///< most a block may take
};

/// algo::two_pass: the row pass tiles as shared_mem does; `Radii` compiled per pass, from
/// radius 3: automatic's table never runs two_pass at radius 1 or 2 (packed, direct, tiled,
/// streaming and shared_mem lead there), so those run the run-time-size kernels and save
/// every pixel pair's build two kernels a radius.
template <class Radii = radii_range<3, 16>, std::size_t SharedBytes = shared_memory_budget>
struct two_pass_policy {
  template <int Channels>
  using tile = smem_tile_shape<32, 8, 32, Channels == 1 ? 32 : 16>;
  using dense_radii = radii<>;  ///< none: two_pass takes separable filters only
  using separable_radii = Radii;
  static constexpr std::size_t shared_bytes = SharedBytes;
};

/// algo::tiled, after "Tiled Convolution" (AMD): BlockX x BlockY threads, each computing
/// OutX x OutY outputs (the paper's 8 x 8 and 4 x 4: a 32 x 32 tile). Compile-time radius
/// only (register arrays of OutX + 2R pixels need constant indices).
///   DenseMinBlocks5x5  blocks per multiprocessor asked of the register allocator (the
///     second argument of __launch_bounds__) by the dense kernel at radius 2 for
///     one-channel float pixels; 0 asks nothing. Unasked, nvcc 13 gives that kernel 96
///     registers on sm_90 (10 blocks of 64 threads per multiprocessor) and it ran 1.13 to
///     1.21x the time of the kernels before the policy types (80 registers); asked for 12
///     it takes 80 with no spill and runs 0.88 to 0.99x their time at 8192x8192 on the
///     H200 (bench/RESULTS.md). Every other kernel asks nothing: an explicit 1 is not
///     the same as no request (nvcc then gave radius 1 111 registers instead of 72).
///   The interior instance of dense filters (kernels/tiled_interior.hpp), for one-channel
///   4-byte pixels (dense_interior) on single-image ROIs of InteriorMinPixels or more
///   (2^20: on the H200, with the frame as its own grid of cells, it ran float dense
///   radius 1 to 8 at 0.27 to 0.93 times tiled2d_kernel's time at 1920x1080 and 0.28 to
///   0.79 at 3840x2160, bench/results/2026-11-25-cells/; when the frame was
///   tiled2d_kernel's tiles it lost there, 1.18 to 1.71 times at 1920x1080. Not measured
///   below 2^20):
///     InteriorBlockX x InteriorBlockY threads, a warp's lanes side by side along a row
///     (each load instruction of a warp then reads one run of the row; with 8 x 8 threads
///     it read four runs of 32 pixels), each computing OutX x interior_out_y outputs:
///     OutY rows up to radius 4, InteriorWideOutY from radius 5, where OutY rows made the
///     unrolled body 3600 FMAs at 15x15 (on the H200 at 8192x8192, 15x15 in an interior
///     kernel of 4 x 2 outputs a thread took 565 us, of 4 x 4 584 us, of 4 x 8 668 us).
///   FrameFirstMinPixels: the interior instance's frame grid goes first, the interior's
///     grid beside it as its dependent, on ROIs of this many pixels or more; below, the
///     interior's grid goes first and the frame's in its tail (frame_first). The second
///     grid's launch costs the host a few microseconds, on the critical path where the
///     first grid is short. Interior first against frame first on the H200, float,
///     replicate and reflect101, best of two (bench/results/2026-11-26-direct/
///     tiled-order.txt): 1920x1080 3x3 0.89x to 0.96x the time (dense 3x3 replicate 8.35
///     us against 8.70), 5x5 0.98x to 1.01x; 1024x1024 0.97x to 1.04x; from 2560x1440 on
///     0.99x to 1.15x (3840x2160 reflect101 5x5 27.8 us against 24.2). 2^21: 1920x1080
///     (2073600 pixels) below, 2560x1440 above.
///   Small images, separable filters of radius 1 and 2 on one-channel pixels of 2 or 4
///   bytes, single images: up to OneOutputMaxPixels, 32 x 8 threads of 1 x 1 outputs; up to
///   TwoOutputMaxPixels, 16 x 8 threads of 2 x 2 (small_shape). The 8 x 8 threads of 4 x 4
///   outputs give such images few blocks (16 at 128x128, for the H200's 132
///   multiprocessors), most of them on the border, where every read is mapped.
///   Against them on the H200, float and u16, best of two alternating runs, two runs
///   (bench/results/2026-11-26-mends/tiled-small*.txt): 128x128 to 362x362, 1 x 1 took
///   0.44x to 0.87x their time under reflect101 and constant (separable 5x5 reflect101
///   128x128: 6.7 us against 13.7), 0.62x to 1.02x under replicate; 512x512 to 1024x1024,
///   2 x 2 took 0.60x to 0.92x under reflect101 and constant, 0.74x to 1.04x under
///   replicate. Outputs byte-identical in every case. Dense filters gained as much there
///   but keep the policy's shape: automatic runs direct and shared_mem for them, and two
///   more kernels a radius in every such pair would be built for explicit calls only.
///   8-bit pixels (packed's) and more channels were not measured.
///   InteriorNarrowMaxRadius: one-channel 2-byte pixels (u16, s16, half, bfloat16) take the
///   interior instance up to this radius, dense and (from the same sizes as float)
///   separable; beyond it, and at 0, tiled2d_kernel alone. Their rows are read as 8-byte
///   pieces and their outputs stored as whole words. On the H200, held, replicate, best of
///   two (bench/results/2026-11-28/interior-u16-1.txt), u16 and s16, dense 3x3 and 5x5 and
///   separable 3x3 from 2560x1440 and separable 5x5 from 3840x2160 (below 2^22 pixels it
///   keeps tiled_sep_kernel) to 8192x8192, took 0.39 to 0.64 times the time of the tiled
///   kernels they replace and 0.42 to 0.74 times that of the fastest other family
///   (3840x2160 dense 3x3: 12.4 us, streaming 28.6, direct 30.3); at 1920x1080 0.74 to
///   0.86 and 0.79 to 0.87; at 1024x1024 (2^20 pixels) 1.00 to 1.03 times the fastest
///   other family. half took the same path at the same cost (2026-11-28/rules-hold.csv:
///   3840x2160 dense 3x3 11.1 us); bfloat16, which differs only in its conversion, was
///   tested, not timed. From radius 3 automatic runs tensor_core or tiled2d_kernel on such
///   pixels; not measured here.
///   NarrowFrameFirstMinPixels: FrameFirstMinPixels for 2-byte pixels up to radius
///   NarrowFrameFirstMaxRadius, whose interior grid is short beside float's: with the frame
///   first they took 0.77 to 0.99 times the time of the interior first from 1024x1024 to
///   2560x1440 (u16, held, best of two, replicate, constant and reflect101; 1920x1080
///   dense 3x3 9.1 us against 10.2), where float took 0.98 to 1.05 below 2^21 pixels
///   (bench/results/2026-11-28/tiled-order-u16.txt). Beyond that radius they take
///   FrameFirstMinPixels, as float: since SmallFrameCellRows, the interior first with the
///   frame's one-row cells took u16 5x5 below 2^21 pixels 0.79 to 0.87 times the time of
///   the frame first with 4-row cells under constant and reflect101 (dense, 1024x1024 and
///   1920x1080; 1920x1080 constant 10.53 us against 12.54) and 0.95 to 0.98 under
///   replicate (dense and separable, 724x724 to 1920x1080), where 3x3 took 1.03 to 1.16
///   under constant and reflect101 at 1024x1024 and 1920x1080 (held, best of two;
///   bench/experiments/packed_upfront_ab.cu's u16 mode, bench/results/2026-11-28-upfront/
///   u16-frame-1.txt; again in interior_rules_ab.cu's run, interior-rules-1.txt there).
///   FrameClampMaxRadius: up to this radius the frame grid has an instance compiled for
///     replicate (tiled2d_frame_kernel's Clamp: reads clamped with min / max), which runs
///     where the reads are replicate (replicate, skip, padded). Its run-time rule maps each
///     window column and row through a switch; at 1920x1080 float dense 3x3 Nsight Compute
///     gave that grid 628 warp instructions a warp and 6.7 to 6.9 us alone, longer than
///     the interior grid's 6.2. Against the same policy without the instance, held, best
///     of two, replicate (bench/experiments/frame_clamp_ab.cu, bench/results/
///     2026-11-28-frame/frame-clamp-1.txt): float dense 3x3 0.87 to 0.96 times the time
///     from 1024x1024 to 2560x1440 (1920x1080: 8.03 us against 8.86), dense 5x5 0.80 to
///     0.90; u16 dense 3x3 0.77 to 0.86, 5x5 0.67 to 0.89; 0.98 to 1.01 from 3840x2160,
///     where the frame goes first and runs beside a longer interior grid. Outputs
///     byte-identical. Beyond radius 2 not measured, and not compiled.
///   ClampInteriorMinPixels: where that instance runs, the interior instance runs from the
///     smaller of this and InteriorMinPixels (interior_from). Held, best of two, replicate,
///     against automatic's choice before (frame-clamp-small-1.txt there: direct, tiled's
///     separable kernel or shared_mem): float and u16 dense 5x5 0.67 to 0.84 times the
///     time from 724x724 to 1280x720 and 0.93 to 0.98 at 512x512; 3x3 0.92 to 0.98 from
///     1024x768 but 1.03 to 1.23 from 512x512 to 960x540 (automatic keeps direct there,
///     tables.hpp); separable 5x5 as the outer product, from four times as many pixels,
///     0.76 and 0.85 at 1024x1024 (since SmallFrameCellRows, from as many pixels as 3x3:
///     separable_interior_min_pixels).
///   SmallRadiusInteriorMinPixels: up to small_frame_max_radius, under every rule, the
///     interior instance runs from the smaller of this and InteriorMinPixels (and of
///     ClampInteriorMinPixels where that applies): 3 * 2^17, between 512x512 and 724x724.
///     With the frame's one-row cells (small_frame), held, best of two, constant and
///     reflect101, float and u16, dense and separable (bench/experiments/
///     interior_rules_ab.cu's small mode, bench/results/2026-11-28-upfront/
///     interior-small-1.txt), against the fastest of automatic, direct, shared_mem and
///     tiled's kernels below 2^20 pixels: float 0.72 to 0.99 times the time from 724x724
///     to 1280x720 (1024x768 dense 5x5 constant 7.62 us against 10.43), u16 0.78 to 0.99
///     there but for separable 5x5 under constant at 724x724 and 960x540 (1.02 and 1.00);
///     at 512x512 3x3 lost (1.03 to 1.09) and 5x5 went either way (0.86 to 1.06). Beyond
///     radius 2 not measured.
///   FrameCellRows, SmallFrameCellRows, SmallFrameMaxPixels: a thread of the frame grid
///     computes a cell of FrameCellRows outputs of one column, so that each window row it
///     loads serves every one of them (on the H200 at 8192x8192 float 15x15, replicate, the
///     frame grid took 59 us with cells of 1 row, 42 of 2, 25 of 4 and 35 of 8: Nsight
///     Compute; 8 rows: 168 registers), or of SmallFrameCellRows
///     below SmallFrameMaxPixels at radius 1, and at radius 2 where the interior's grid
///     goes first (small_frame). There the frame grid runs in the interior's tail, and a
///     thread's chain of loads sets its time: at 512x512 float dense 5x5, Nsight Compute
///     gave the frame grid of 4-row cells 4.9 to 5.1 us beside the interior grid's 4.3.
///     Held, best of two, replicate (bench/experiments/interior_shape_ab.cu; bench/results/
///     2026-11-28-frame-rows/interior-shape-1.txt), 1-row cells against 4-row ones:
///     float dense 3x3 0.89 to 0.94 times the time from 512x512 to 1920x1080 (1920x1080:
///     7.62 us against 8.29), dense 5x5 0.90 to 0.98 (512x512: 5.98 against 6.62); from
///     2^21 pixels, where the frame goes first, 1.00 to 1.05 (2560x1440 dense 5x5 11.74
///     against 11.20). u16, whose frame went first at every size then: 3x3 0.90 to 0.97
///     from 512x512 to 1920x1080, 5x5 1.00 to 1.04 (its 5x5 now goes the other way below
///     2^21 pixels, NarrowFrameFirstMaxRadius). 2-row cells lost to both at 5x5 below
///     2^21 (512x512: 6.91 us). The interior's threads of 4 x 2 and 4 x 1 outputs lost at
///     every size from 512x512 (1920x1080 float dense 3x3: 10.21 and 15.23 us with 1-row
///     cells), and keep OutY.
///   ClampSeparableMaxPixels, ClampSeparableWideMaxPixels, ClampSeparableSmallMaxPixels:
///     separable 3x3 and 5x5 on one image whose reads are replicate run
///     tiled_sep_clamp_kernel (kernels/tiled_sep_clamp.hpp) up to ClampSeparableMaxPixels
///     for one channel of any width and ClampSeparableWideMaxPixels for uchar4
///     (clamp_separable_for): ahead of the separable kernel, the small shapes and the
///     interior instance. Its small shape (clamp_separable_small) up to
///     ClampSeparableSmallMaxPixels, the pixel's own above (clamp_separable_out_x and _y).
///     Held, best of two, against the fastest of direct, packed, shared_mem and tiled
///     without it, 128x128 to 1920x1080 (bench/experiments/sep_clamp_ab.cu, bench/results/
///     2026-11-28-sep-clamp/sep-clamp-1.txt; outputs byte-identical to tiled_sep_kernel's
///     where that ran, and between shapes), the shapes taken: u8 0.79 to 1.02 times the
///     time to 1280x720 (128x128 5x5: 4.22 us, direct 5.34), 1.10 and 1.12 at 1920x1080;
///     float 0.83 to 1.00 to 1280x720 (362x362 5x5: 4.80 us, direct 5.76), 1.04 and 1.07
///     at 1920x1080; u16 0.82 to 1.01, then 1.06 and 1.12; uchar4 0.78 to 1.02 to 960x540
///     (128x128 5x5: 4.67 us, packed 6.02), 1.08 and 1.19 at 1024x768. Shapes there: to
///     256x256 one output a thread, 32 x 8 threads (32 x 4 for one channel at 5x5: 0.96
///     to 0.98 times the time of 32 x 8 at 128x128 and 181x181, even at 256x256; uchar4
///     1.00 to 1.03); above, 32 x 8 threads of u8 4 x 2 outputs (0.96 to 1.03 times the
///     time of 4 x 1 at 362x362 and 512x512, 0.95 to 0.99 from 724x724), float and u16
///     2 x 2, uchar4 1 x 2 (1 x 1 took 1.01 to 1.14 times its time from 512x512). At
///     128x128 NPP's Gaussian took 4.51 us (u8 5x5), 4.70 (uchar4) and 4.13 (float) in the
///     prototype's run (sep-small-1.txt, bench/experiments/sep_small_probe.cu).
///   ClampSeparableWide16MaxPixels, ClampSeparableWide32MaxPixels: the same kernel for four
///     channels of 16 bits (ushort4, half4, bfloat16x4) and of 32 (float4). Held, best of
///     two, against the fastest of direct, shared_mem and tiled without it, 128x128 to
///     1920x1080 (2026-11-28-dense16/sep16-wide-1.txt, bench/experiments/sep_clamp_ab.cu's
///     wide mode; every shape's outputs byte-identical): the shapes taken 0.69 to 1.00
///     times the time (ushort4 128x128 5x5: 4.64 us, shared_mem 6.56; float4 362x362 5x5
///     1.00); ushort4 at 2560x1440 and 3840x2160 0.76 to 0.91 times automatic's time, at
///     8192x8192 1.14 and 1.26 (so to 3840x2160's pixels; 128x65536, a few more, was not
///     timed); float4 at 2560x1440 0.70 and 0.85, at 3840x2160 5x5 1.08 (so to 2^22).
///     Shapes: the small one as uchar4's, rows upfront; above, at 3x3 one output a thread
///     in x and 2 in y with rows upfront, at 5x5 1 x 4 row after row
///     (clamp_separable_out_y, clamp_separable_upfront); over the 96 cases to 3840x2160
///     these took 1.00 to 1.14 times the fastest of six shapes (mean 1.018; the worst
///     bfloat16x4 362x362 5x5).
///   ClampDenseMaxPixels, ClampDenseWideMaxPixels, ClampDenseWide5MaxPixels: dense 3x3
///     and 5x5 on one image whose reads are replicate run tiled_dense_clamp_kernel
///     (kernels/tiled_dense_clamp.hpp) up to ClampDenseMaxPixels for one channel, and
///     for uchar4 up to ClampDenseWideMaxPixels at 3x3 and ClampDenseWide5MaxPixels at 5x5
///     (clamp_dense_for, clamp_dense_max_pixels): ahead of tiled2d_kernel and the interior
///     instance. Held, best of two alternating runs, two runs (bench/experiments/
///     dense_clamp_ab.cu, bench/results/2026-11-28-dense-clamp/dense-clamp-1.txt and -2.txt;
///     outputs byte-identical to direct's), the shapes taken against the fastest of
///     direct, packed, shared_mem and tiled: float 0.81 to 1.00 times the time from 128x128
///     to 1280x720 (512x512 5x5: 4.83 us, tiled 5.79), 1.05 to 1.11 at 1920x1080; u8 0.78
///     to 0.99 to 1280x720 (512x512 5x5: 4.70 us, direct 5.86), at 1920x1080 3x3 1.08 and
///     1.10, 5x5 0.89 and 0.91 (packed keeps both: larger u8 images were not timed);
///     uchar4 3x3 0.86 to 0.91 to 512x512, 1.07 and 1.08 at 724x724 and 960x540; 5x5 0.71
///     to 0.88 to 960x540 (128x128: 4.38 us, direct 6.21), 1.20 and 1.21 at 1024x768.
///     Shapes: 32 x 8 threads of float 2 x 2 outputs at every size, u8 2 x 2 up to
///     ClampSeparableSmallMaxPixels and 4 x 2 above (4 x 2 took 0.99 to 1.08 times the
///     time of 2 x 2 to 256x256, 0.95 to 1.03 from 362x362 to 1280x720); uchar4 up to
///     ClampSeparableSmallMaxPixels one output a thread in 32 x 8 threads at 3x3 and 32 x 4
///     at 5x5 (128x128 5x5: 4.38 and 4.61 us against 32 x 8's 4.77 and 4.96), 1 x 2
///     outputs in 32 x 8 above at 3x3 and 1 x 4 at 5x5 (clamp_dense_out_x, _out_y and
///     _rows). 1 x 4 in a fourth run (dense-clamp-4.txt, 256x256 to 960x540, float and
///     uchar4 in more shapes): uchar4 5x5 0.91 to 0.94 times the time of 1 x 2 from 512x512
///     to 960x540 (512x512: 6.94 us against 7.42), 1.03 at 362x362; 3x3 1.04 and 1.00 at
///     362x362 and 512x512. No float shape there took less than 0.97 times 2 x 2's time
///     (960x540 5x5, 2 x 4: 5.63 us against 5.82).
///   ClampDenseWide16MaxPixels, ClampDenseWide32MaxPixels: the same kernel for four
///     channels of 16 bits (ushort4, half4, bfloat16x4) and of 32 (float4), and one of 16
///     (u16, s16, half, bfloat16) up to ClampDenseMaxPixels. Held, best of two, against the
///     fastest of direct, shared_mem and tiled (bench/results/2026-11-28-dense16/; outputs
///     byte-identical to direct's in every case), the shapes taken: one 16-bit channel in
///     float's 2 x 2 outputs, 0.79 to 1.01 times the time from 128x128 to 1280x720 (u16
///     512x512 5x5: 4.80 us, tiled 6.02), 1.13 to 1.20 at 1920x1080; four channels 0.57
///     to 0.87 times the fastest's from 128x128 to 1920x1080 (ushort4 1920x1080 5x5: 22.62
///     us, shared_mem 38.85; float4 1280x720 5x5: 14.46, where automatic ran
///     tiled2d_kernel in 45.02); ushort4 and half4 at 2560x1440 and 3840x2160 0.65 to 0.96
///     times automatic's time (3840x2160 3x3: ushort4 62.98 us against 69.09, half4 60.99
///     against 63.84), at 8192x8192 3x3 1.16 and 1.27 (ushort4 448.6 us against 386.3),
///     so to 3840x2160's pixels (128x65536, a few more, was not timed). bfloat16x4 and
///     float4 were timed to 1920x1080; float4 stops there (2^21). Four channels of 16 and
///     32 bits in 1 x 4 outputs above the small shape, 32 x 4 threads at 3x3 (0.93 to 1.01
///     times 32 x 8's time from 724x724 on, 0.95 to 1.03 at 362x362 and 512x512) and 32 x 8
///     at 5x5; in the small shape one output a thread as uchar4 (32 x 4 threads at 5x5:
///     4.45 to 4.54 us at 128x128 against 32 x 8's 4.54 to 4.86).
///   ClampThreeMaxPixels: both kernels for three channels (uchar3, ushort3, float3;
///     clamp_separable_for, clamp_dense_for). Held, best of two runs, in four channels'
///     shapes of the same channel width, against the faster of direct and shared_mem
///     (automatic's earlier rows for these pixels), 128x128 to 8192x8192 and 128x65536
///     (bench/results/2026-12-04-three/three-1.csv and -2.csv): separable 0.66 to 0.97
///     times the time at every size (float3 3840x2160 3x3: 61.15 us, shared_mem 66.21);
///     dense ushort3 and float3 0.55 to 0.83 (ushort3 1920x1080 5x5: 21.22 us, direct
///     33.50), uchar3 5x5 0.60 to 0.96, uchar3 3x3 in 1 x 2 outputs 0.83 to 0.95 to
///     724x724, 1.03 to 1.20 from 1280x720 to 8192x8192 (8192x8192: 398.1 us, direct
///     330.5). Dense shapes then (dense3-1.txt, bench/experiments/dense_clamp_ab.cu's three
///     mode, held, best of two, 512x512 to 8192x8192, outputs byte-identical to direct's):
///     uchar3 in 2 x 2 outputs took 0.78 to 0.97 times 1 x 2's time at 3x3 (8192x8192:
///     309.4 us, direct 330.2; 1920x1080 14.21, direct 14.75) and 0.91 to 1.00 times 1 x
///     4's at 5x5, so 3x3 too runs the kernel at every size; ushort3 and float3 5x5 in 32 x
///     4 threads 0.91 to 1.00 times 32 x 8's time (float3 724x724: 8.80 us against 9.66),
///     but ushort3 at 512x512, 1.03. So to 8192x8192's pixels, the largest timed. Separable
///     shapes (sep3-1.txt, sep_clamp_ab.cu's three mode): four channels' took 0.99 to 1.12
///     times the best of six; 1 x 4 outputs in 32 x 4 threads took 0.92 to 1.00 times their
///     time for uchar3, and ushort3 3x3, from 1280x720, but 1.00 to 1.07 at 512x512 and
///     724x724: a third shape by size, then not taken.
///   ClampThreeSeparableLargeMinPixels: that third shape (clamp_separable_large), 1 x 4
///     outputs in 32 x 4 threads row after row, from this many pixels for uchar3, ushort3
///     at radius 1 and float3 at radius 2; below it ushort3 and float3 at radius 2 in 1 x 2
///     outputs, rows upfront (clamp_separable_rows, _out_y, _upfront). Held, best of two,
///     against the shapes before, tiled_sep_clamp_kernel in each (bench/experiments/
///     dense_vec_ab.cu, bench/results/2026-12-05/dense-vec-*.txt): uchar3 1 x 4 0.90 to
///     0.97 times 1 x 2's time from 1280x720 to 8192x8192 and at 128x65536, 1.00 to 1.06 at
///     512x512 and 724x724; ushort3 3x3 0.93 to 0.98 from 1280x720, 1.00 and 1.07 below;
///     float3 5x5 0.92 to 1.00 from 1280x720; ushort3 and float3 5x5 in 1 x 2 rows upfront
///     0.88 to 0.95 times 1 x 4's time at 512x512 and 724x724 (float3 512x512: 6.34 us
///     against 7.23), ushort3 1.01 to 1.12 from 1280x720. 724x724 (524,176 pixels) is the
///     largest size timed below the limit, 1280x720 (921,600) the smallest above.
///   ClampDenseStagedBytes: ushort3 dense filters above the small shape run
///     tiled_dense_staged_kernel (kernels/tiled_staged.hpp) in tiled_dense_clamp_kernel's
///     shape, its window staged in loads of this many bytes (four pixels in three loads),
///     where the source's data and pitch allow (clamp_dense_staged_bytes); 0: never. Held,
///     best of two, against tiled_dense_clamp_kernel in the same shape (bench/experiments/
///     dense_vec_ab.cu, bench/results/2026-12-05/dense-vec-ushort3.txt; outputs
///     byte-identical to direct's): 0.86 to 0.99 times its time from 512x512 to 8192x8192
///     (8192x8192 5x5: 451.7 us against 526.2; 1920x1080 3x3 14.08 against 15.81), 0.97 at
///     128x65536. Not for float3 (0.92 to 1.03, slower at 724x724 and 1280x720 3x3) nor
///     uchar3, nor in 16-byte loads (ushort3 0.95 to 1.23 times automatic's time,
///     2026-12-05/three-staged.csv).
///   ClampNarrowMaxWidth: float ROIs at most this many pixels wide run both kernels
///     whatever their pixel count (clamp_narrow), where the interior instance's frame
///     columns are a large share of the image. Held, best of two, at 128x65536 against
///     automatic's choice before (the interior instance; bench/experiments/dense_vec_ab.cu,
///     bench/results/2026-12-05/dense-vec-float.txt; the dense kernel's outputs
///     byte-identical to direct's): dense 3x3 24.10 us against 28.51, 5x5 28.67 against
///     30.85, separable 3x3 23.46 against 28.26, 5x5 27.90 against 30.94. On an H100
///     (2026-12-05-h100-shapes/dv1-narrow.txt), dense in 32 x 8 threads of 2 x 2 outputs
///     against the interior instance: 0.78 to 0.90 times its time at 160x52429, 192x43690,
///     256x32768 and 256x65536 (256x32768 3x3: 27.39 us against 31.58), so 256 wide;
///     separable in 32 x 8 threads of 2 x 2 (2026-12-05-h100-fused/dv1-sep-narrow.txt)
///     0.75 to 0.96 there. At 384 to 768 wide (dv1-wider.txt) dense 3x3 and separable 3x3
///     took 0.91 to 0.95 times the two grids' time but 5x5 0.95 to 1.07; other pixels were
///     not timed.
///   ClampThreeSeparableStagedMinPixels: float3 separable filters from this many pixels run
///     tiled_sep_staged_kernel (kernels/tiled_staged.hpp) in the large shape, its window
///     staged in loads of 8 bytes at radius 1 and 16 at radius 2
///     (clamp_separable_staged_bytes), where the source's data and pitch allow. Held, best
///     of two, on an H100 against tiled_sep_clamp_kernel in the same shape
///     (bench/experiments/dense_vec_ab.cu's w variants, bench/results/
///     2026-12-05-h100-shapes/dv6-sep.txt; outputs checked identical): 3x3 in 8-byte loads
///     0.91 and 0.93 times its time at 1920x1080, 2560x1440 and 3840x2160 (3840x2160: 71.52
///     us against 78.46), 5x5 in 16-byte loads 0.86 to 0.93 (76.13 against 88.16), but 1.11
///     and 1.06 at 1280x720 (10.18 us against 9.18; 11.68 against 11.01), hence 1920x1080.
///     Other three-channel pixels were not timed in this kernel. In the library, held, on an
///     H100 (bench/results/2026-12-05-h100-staged/ab-*.csv): automatic's float3 separable
///     under replicate 0.85 to 0.94 times the time of the kernel before it from 1920x1080 to
///     8192x8192 and at 128x65536 (8192x8192 5x5: 559.8 us against 655.6), 1.00 to 1.01 at
///     724x724 and 1280x720, which it does not reach.
///   FusedFrameCellRows: where not 0, the interior instance and its frame run as one grid
///     (tiled2d_fused_kernel, the frame's blocks first, its cells this many rows) at radius
///     1 and 2 (fused_frame_max_radius) where the frame runs its replicate instance
///     (replicate, skip and padded) and, under the other rules, from SmallFrameMaxPixels
///     (fused_frame_rule_min_pixels); two grids elsewhere, and everywhere for 0. The one
///     grid's blocks are the interior's, so it needs InteriorBlockX * InteriorBlockY == 64,
///     the frame's block (a static_assert says so). Held, best of two, replicate, on an
///     H100 against the library's tiled (bench/experiments/fused_frame_ab.cu,
///     bench/results/2026-12-05-h100-shapes/ff*.txt; outputs byte-identical to direct's;
///     the two grids beyond 2^20 pixels, the replicate kernels up to it): with the frame's
///     cells 4 rows and its blocks first, float dense 3x3 0.90 to 0.99 times their time
///     from 1920x1080 to 8192x8192 (1920x1080: 7.55 us against 8.22), 5x5 0.91 to 1.00;
///     float separable (its outer product) 0.91 to 1.00; u16 dense 0.87 to 0.99 (1920x1080
///     3x3: 6.37 against 7.33); u16 256x32768 0.92 and 0.96. Cells of one row: 0.99 to 1.03
///     times four rows' time there, 1.31 at u16 256x32768 5x5 (25.38 us against 19.36).
///     Under reflect101, automatic's whole calls in one grid everywhere
///     (2026-12-05-h100-fused/fused.csv, float, u16 and half) took 1.08 to 1.39 times the
///     two grids' time in the run before (2026-12-05-h100-shapes/wide.csv, also an H100) at
///     724x724, 1280x720 and 1920x1080, where the two grids' frame has cells of one row
///     (small_frame), 0.86 to 1.00 at 2560x1440 and 3840x2160 and 0.95 to 1.03 at
///     8192x8192, hence SmallFrameMaxPixels for the run-time rule. Wider radii were not
///     timed and keep two grids.
template <int BlockX = 8, int BlockY = 8, int OutX = 4, int OutY = 4, class Radii = radii_range<1, 8>,
          std::size_t SharedBytes = shared_memory_budget, int DenseMinBlocks5x5 = 12, int InteriorBlockX = 32,
          int InteriorBlockY = 2, int InteriorWideOutY = 2, long long InteriorMinPixels = 1LL << 20,
          long long FrameFirstMinPixels = 1LL << 21, long long OneOutputMaxPixels = 1LL << 17,
          long long TwoOutputMaxPixels = 1LL << 20, int InteriorNarrowMaxRadius = 2,
          long long NarrowFrameFirstMinPixels = 0, int FrameClampMaxRadius = 2,
          long long ClampInteriorMinPixels = 1LL << 18, int FrameCellRows = 4, int SmallFrameCellRows = 1,
          long long SmallFrameMaxPixels = 1LL << 21, int NarrowFrameFirstMaxRadius = 1,
          long long SmallRadiusInteriorMinPixels = 3LL << 17, long long ClampSeparableMaxPixels = 1LL << 20,
          long long ClampSeparableWideMaxPixels = 1LL << 19, long long ClampSeparableSmallMaxPixels = 1LL << 16,
          long long ClampDenseMaxPixels = 1LL << 20, long long ClampDenseWideMaxPixels = 1LL << 18,
          long long ClampDenseWide5MaxPixels = 1LL << 19, long long ClampDenseWide16MaxPixels = 3840LL * 2160,
          long long ClampDenseWide32MaxPixels = 1LL << 21, long long ClampSeparableWide16MaxPixels = 3840LL * 2160,
          long long ClampSeparableWide32MaxPixels = 1LL << 22, long long ClampThreeMaxPixels = 8192LL * 8192,
          int ClampNarrowMaxWidth = 256, long long ClampThreeSeparableLargeMinPixels = 3LL << 18,
          int ClampDenseStagedBytes = 8, int FusedFrameCellRows = 4,
          long long ClampThreeSeparableStagedMinPixels = 1920LL * 1080>
struct tiled_policy {
  static constexpr int block_x = BlockX, block_y = BlockY, out_x = OutX, out_y = OutY;
  static constexpr int interior_block_x = InteriorBlockX, interior_block_y = InteriorBlockY;
  static constexpr long long interior_min_pixels = InteriorMinPixels;
  /// Output rows of a cell of the interior instance's frame grid (tiled2d_frame_kernel):
  /// FrameCellRows, or SmallFrameCellRows where small_frame holds.
  static constexpr int frame_rows = FrameCellRows, small_frame_rows = SmallFrameCellRows;
  /// Output rows of a cell of the frame where the interior instance and its frame run as
  /// one grid (tiled2d_fused_kernel); 0: they run as two.
  static constexpr int fused_frame_rows = FusedFrameCellRows;
  /// The largest radius at which they run as one grid where fused_frame_rows is not 0: 2,
  /// where it was measured. The launcher compiles the one grid's instances up to it only.
  static constexpr int fused_frame_max_radius = 2;
  /// The fewest pixels from which they run as one grid where the frame runs the border
  /// rule at run time (not its replicate instance): SmallFrameMaxPixels, below which the
  /// two grids' frame takes cells of one row and was faster.
  static constexpr long long fused_frame_rule_min_pixels = SmallFrameMaxPixels;
  /// The largest radius whose frame takes SmallFrameCellRows rows (small_frame): 2, where it
  /// was measured. The launcher compiles those cells' instances up to it only.
  static constexpr int small_frame_max_radius = 2;
  /// Whether the frame of a ROI of `pixels` pixels at radius r takes cells of
  /// SmallFrameCellRows rows: below SmallFrameMaxPixels at radius 1 and up to
  /// small_frame_max_radius, beyond radius 1 only where the interior's grid goes first
  /// (`frame_first` false), as the frame grid then runs in its tail.
  static constexpr bool small_frame(long long pixels, int r, bool frame_first) {
    return SmallFrameCellRows != FrameCellRows && r >= 1 && r <= small_frame_max_radius &&
           pixels < SmallFrameMaxPixels && (r == 1 || !frame_first);
  }
  /// The fewest pixels from which dense filters of radius r run the interior instance:
  /// InteriorMinPixels; up to small_frame_max_radius the smaller of that and
  /// SmallRadiusInteriorMinPixels; and where the frame runs its replicate instance
  /// (`clamp_frame`: frame_clamp at the radius and reads that are replicate), the smaller of
  /// that and ClampInteriorMinPixels.
  static constexpr long long interior_from(bool clamp_frame, int r) {
    long long from = InteriorMinPixels;
    if (r >= 1 && r <= small_frame_max_radius && SmallRadiusInteriorMinPixels < from)
      from = SmallRadiusInteriorMinPixels;
    if (clamp_frame && ClampInteriorMinPixels < from) from = ClampInteriorMinPixels;
    return from;
  }
  /// Whether the frame's grid goes first on a ROI of `pixels` pixels of channels of
  /// `channel_bytes` bytes at radius r (NarrowFrameFirstMinPixels for 2 bytes up to
  /// NarrowFrameFirstMaxRadius).
  static constexpr bool frame_first(long long pixels, int channel_bytes, int r) {
    return pixels >= (channel_bytes == 2 && r <= NarrowFrameFirstMaxRadius ? NarrowFrameFirstMinPixels
                                                                           : FrameFirstMinPixels);
  }
  /// Whether the frame grid at radius r has the replicate instance (FrameClampMaxRadius);
  /// a run-time argument so that automatic's table asks what the launcher does.
  static constexpr bool frame_clamp_for(int r) { return r <= FrameClampMaxRadius; }
  template <int R>
  static constexpr bool frame_clamp = frame_clamp_for(R);
  /// Blocks per multiprocessor the dense kernel asks for at radius R, for pixels of
  /// Channels channels of ChannelBytes bytes each (0: no request).
  template <int Channels, int ChannelBytes, int R>
  static constexpr int dense_min_blocks = Channels == 1 && ChannelBytes == 4 && R == 2 ? DenseMinBlocks5x5 : 0;
  /// Whether one-channel pixels of ChannelBytes bytes at radius r take the interior
  /// instance: 4-byte pixels at every radius, 2-byte ones up to InteriorNarrowMaxRadius.
  static constexpr bool interior_pixels(int channel_bytes, int r) {
    return channel_bytes == 4 || (channel_bytes == 2 && r <= InteriorNarrowMaxRadius);
  }
  /// Whether dense filters of radius R on such pixels run the interior instance.
  template <int Channels, int ChannelBytes, int R>
  static constexpr bool dense_interior = Channels == 1 && interior_pixels(ChannelBytes, R);
  /// Output rows per thread of the interior instance.
  template <int R>
  static constexpr int interior_out_y = R >= 5 ? InteriorWideOutY : OutY;
  /// The fewest pixels from which a separable filter of radius r on such pixels runs as
  /// its outer product in the interior instance; -1: never. Radius 1 and 2, from
  /// interior_from(clamp_frame, r), as dense filters (`clamp_frame` as interior_from's).
  /// One-channel float 3x3 from InteriorMinPixels: on the H200, whole calls under replicate
  /// (bench/experiments/interior_small_probe.cu) took 144 us at 8192x8192 against 155 for
  /// automatic's separable choice (streaming), 25.3 against 31.1 at 3840x2160, 9.8
  /// against 10.5 at 1920x1080. 5x5 began at four times as many pixels (there 1920x1080
  /// took 11.7 us against 10.9: 25 products a pixel, not 10) until the frame's replicate
  /// instance and its cells of one row (small_frame), with which the outer product ran
  /// separable 5x5 as fast as dense 5x5 from 2^18 pixels under replicate
  /// (bench/experiments/interior_shape_ab.cu, held: float 1280x720 6.98 us against 8.32
  /// for automatic's separable 5x5 then; u16 7.20 against 8.93), and under constant and
  /// reflect101 from 2^20 (bench/experiments/interior_rules_ab.cu, bench/results/
  /// 2026-11-28-upfront/interior-rules-1.txt, held, best of two): from 1024x1024 to
  /// 2560x1440, 0.62 to 0.83 times the time of tiled's separable kernel for float
  /// (1920x1080 reflect101 10.85 us against 16.90) and 0.54 to 0.90 for u16 (2560x1440
  /// reflect101 14.88 against 27.71).
  static constexpr long long separable_interior_min_pixels(int channels, int channel_bytes, int r,
                                                           bool clamp_frame = false) {
    return channels == 1 && interior_pixels(channel_bytes, r) && r >= 1 && r <= 2 ? interior_from(clamp_frame, r)
                                                                                    : -1;
  }
  /// Whether separable filters of radius r on single images of pixels of `channels`
  /// channels of `channel_bytes` bytes take the small shapes below (small_shape). Run-time
  /// arguments so that automatic's table asks the same question the launcher does.
  static constexpr bool small_shapes_for(int channels, int channel_bytes, int r) {
    return channels == 1 && channel_bytes >= 2 && r >= 1 && r <= 2;
  }
  /// small_shapes_for, as the launcher's compile-time test (the kernels it names are
  /// compiled only where it holds).
  template <int Channels, int ChannelBytes, int R>
  static constexpr bool small_shapes = small_shapes_for(Channels, ChannelBytes, R);
  /// The separable kernel's shape for a ROI of `pixels` pixels where small_shapes holds:
  /// outputs a thread a side (1 or 2), or 0 for the policy's own shape.
  static constexpr int small_shape(long long pixels) {
    return pixels <= OneOutputMaxPixels ? 1 : pixels <= TwoOutputMaxPixels ? 2 : 0;
  }
  /// Whether separable filters of radius r on pixels of `channels` channels of
  /// `channel_bytes` bytes have tiled_sep_clamp_kernel: radius 1 and 2, one channel, and
  /// three and four of 8, 16 and 32 bits (uchar3, ushort3, float3, uchar4, ushort4, half4,
  /// bfloat16x4, float4), where it was measured. Run-time arguments so that automatic's
  /// table asks the launcher's question.
  static constexpr bool clamp_separable_for(int channels, int channel_bytes, int r) {
    return r >= 1 && r <= 2 && (channels == 1 || ((channels == 3 || channels == 4) && channel_bytes <= 4));
  }
  template <int Channels, int ChannelBytes, int R>
  static constexpr bool clamp_separable = clamp_separable_for(Channels, ChannelBytes, R);
  /// The largest ROI, in pixels, on which one image's separable filter whose reads are
  /// replicate runs tiled_sep_clamp_kernel where clamp_separable_for holds:
  /// ClampSeparableMaxPixels for one channel; ClampThreeMaxPixels for three; for four
  /// ClampSeparableWideMaxPixels (8 bits), ClampSeparableWide16MaxPixels (16) and
  /// ClampSeparableWide32MaxPixels (32).
  static constexpr long long clamp_separable_max_pixels(int channels, int channel_bytes) {
    if (channels == 1) return ClampSeparableMaxPixels;
    if (channels == 3) return ClampThreeMaxPixels;
    if (channel_bytes == 1) return ClampSeparableWideMaxPixels;
    return channel_bytes == 2 ? ClampSeparableWide16MaxPixels : ClampSeparableWide32MaxPixels;
  }
  /// Whether a ROI `width` pixels wide of pixels of `channels` channels of `channel_bytes`
  /// bytes runs both replicate kernels whatever its pixel count, beyond
  /// clamp_separable_max_pixels and clamp_dense_max_pixels: float (one channel of 4 bytes)
  /// up to ClampNarrowMaxWidth pixels wide.
  static constexpr bool clamp_narrow(int channels, int channel_bytes, int width) {
    return channels == 1 && channel_bytes == 4 && width <= ClampNarrowMaxWidth;
  }
  /// Whether a ROI `width` pixels wide of `pixels` pixels is within the sizes the separable
  /// replicate kernel runs (where clamp_separable_for holds): up to
  /// clamp_separable_max_pixels, or narrow (clamp_narrow) at any size. The launcher and
  /// automatic's row ask this one question.
  static constexpr bool clamp_separable_size(int channels, int channel_bytes, int width, long long pixels) {
    return pixels <= clamp_separable_max_pixels(channels, channel_bytes) ||
           clamp_narrow(channels, channel_bytes, width);
  }
  /// The same for the dense replicate kernel at radius r: up to clamp_dense_max_pixels, or
  /// narrow at any size.
  static constexpr bool clamp_dense_size(int channels, int channel_bytes, int r, int width, long long pixels) {
    return pixels <= clamp_dense_max_pixels(channels, channel_bytes, r) ||
           clamp_narrow(channels, channel_bytes, width);
  }
  /// Whether tiled_sep_clamp_kernel takes its small shape (32 threads wide, one output
  /// each, clamp_separable_small_rows rows of them) on a ROI of `pixels` pixels: up to
  /// ClampSeparableSmallMaxPixels.
  static constexpr bool clamp_separable_small(long long pixels) { return pixels <= ClampSeparableSmallMaxPixels; }
  /// Thread rows of the small shape: 4 for one channel at radius 2, else 8.
  template <int Channels, int R>
  static constexpr int clamp_separable_small_rows = Channels == 1 && R == 2 ? 4 : 8;
  /// Whether a ROI of `pixels` pixels of `channels` channels takes the shape for large
  /// three-channel ROIs above the small one (the Large argument below): three channels
  /// from ClampThreeSeparableLargeMinPixels.
  static constexpr bool clamp_separable_large(int channels, long long pixels) {
    return channels == 3 && pixels >= ClampThreeSeparableLargeMinPixels;
  }
  /// Bytes a load of tiled_sep_staged_kernel, which replaces tiled_sep_clamp_kernel in the
  /// large shape (clamp_separable_large) for pixels of `channels` channels of
  /// `channel_bytes` bytes at radius r: float3 8 at radius 1 (32 x 8 threads of 1 x 2
  /// outputs) and 16 at radius 2 (32 x 4 of 1 x 4), where clamp_separable_staged_size
  /// holds; 0 (tiled_sep_clamp_kernel) elsewhere.
  static constexpr int clamp_separable_staged_bytes(int channels, int channel_bytes, int r) {
    return channels == 3 && channel_bytes == 4 ? (r == 1 ? 8 : r == 2 ? 16 : 0) : 0;
  }
  template <int Channels, int ChannelBytes, int R>
  static constexpr int clamp_separable_staged = clamp_separable_staged_bytes(Channels, ChannelBytes, R);
  /// Whether a ROI of `pixels` pixels runs tiled_sep_staged_kernel where
  /// clamp_separable_staged is not 0: from ClampThreeSeparableStagedMinPixels.
  static constexpr bool clamp_separable_staged_size(long long pixels) {
    return pixels >= ClampThreeSeparableStagedMinPixels;
  }
  /// Whether that shape is 1 x 4 outputs in 32 x 4 threads (clamp_separable_rows,
  /// _out_y): uchar3, ushort3 at radius 1 and float3 at radius 2, where that measured
  /// faster; the other three-channel pixels keep their medium shape's rows and outputs.
  static constexpr bool clamp_separable_rows4(int channels, int channel_bytes, int r, bool large) {
    return large && channels == 3 &&
           (channel_bytes == 1 || (channel_bytes == 2 && r == 1) || (channel_bytes == 4 && r == 2));
  }
  /// The shape above the small one, 32 x clamp_separable_rows threads (8, but 4 where
  /// clamp_separable_rows4): outputs a thread in x (u8 4, a word of a row; other
  /// one-channel pixels 2; three and four channels 1) and in y (2, but 4 for four channels
  /// of 16 and 32 bits at radius 2, for three of them at radius 2 in the large shape, and
  /// where clamp_separable_rows4).
  template <int Channels, int ChannelBytes, int R, bool Large = false>
  static constexpr int clamp_separable_rows = clamp_separable_rows4(Channels, ChannelBytes, R, Large) ? 4 : 8;
  template <int Channels, int ChannelBytes>
  static constexpr int clamp_separable_out_x = Channels == 1 ? (ChannelBytes == 1 ? 4 : 2) : 1;
  template <int Channels, int ChannelBytes, int R, bool Large = false>
  static constexpr int clamp_separable_out_y =
      clamp_separable_rows4(Channels, ChannelBytes, R, Large) ||
              (ChannelBytes > 1 && R == 2 && (Channels == 4 || (Channels == 3 && Large)))
          ? 4
          : 2;
  /// Whether its threads load every window row of pass 1 before filtering the first
  /// (tiled_sep_clamp_kernel's UpfrontRows) for pixels of `channels` channels of
  /// `channel_bytes` bytes at radius r, in the small shape (`small`), the large one
  /// (`large`, clamp_separable_large) or the medium: one channel in all; three and four
  /// in the small one; 16 and 32 bits at radius 1 in the others too, but not where
  /// clamp_separable_rows4; three channels of 16 and 32 bits at radius 2 in the medium one.
  static constexpr bool clamp_separable_upfront(int channels, int channel_bytes, int r, bool small,
                                                bool large = false) {
    if (channels == 1 || small) return true;
    if (clamp_separable_rows4(channels, channel_bytes, r, large)) return false;
    return channel_bytes > 1 && (r == 1 || (channels == 3 && !large));
  }
  /// Whether dense filters of radius r on pixels of `channels` channels of `channel_bytes`
  /// bytes have tiled_dense_clamp_kernel: radius 1 and 2; one channel of 1, 2 or 4 bytes
  /// (u8, u16, s16, half, bfloat16, float), three (uchar3, ushort3, float3) and four
  /// (uchar4, ushort4, half4, bfloat16x4, float4), where it was measured. Run-time
  /// arguments so that automatic's table asks the launcher's question.
  static constexpr bool clamp_dense_for(int channels, int channel_bytes, int r) {
    return r >= 1 && r <= 2 && (channels == 1 || channels == 3 || channels == 4) && channel_bytes <= 4;
  }
  template <int Channels, int ChannelBytes, int R>
  static constexpr bool clamp_dense = clamp_dense_for(Channels, ChannelBytes, R);
  /// The largest ROI, in pixels, on which one image's dense filter of radius r whose reads
  /// are replicate runs tiled_dense_clamp_kernel where clamp_dense_for holds:
  /// ClampDenseMaxPixels for one channel; ClampThreeMaxPixels for three; for four of 8
  /// bits ClampDenseWideMaxPixels at radius 1 and ClampDenseWide5MaxPixels at 2, of 16
  /// bits ClampDenseWide16MaxPixels, of 32 ClampDenseWide32MaxPixels.
  static constexpr long long clamp_dense_max_pixels(int channels, int channel_bytes, int r) {
    if (channels == 1) return ClampDenseMaxPixels;
    if (channels == 3) return ClampThreeMaxPixels;
    if (channel_bytes == 1) return r == 1 ? ClampDenseWideMaxPixels : ClampDenseWide5MaxPixels;
    return channel_bytes == 2 ? ClampDenseWide16MaxPixels : ClampDenseWide32MaxPixels;
  }
  /// Its shape, 32 x clamp_dense_rows threads of clamp_dense_out_x x clamp_dense_out_y
  /// outputs, on a ROI of up to ClampSeparableSmallMaxPixels pixels (Small:
  /// clamp_separable_small) or more: u8 2 x 2 then 4 x 2; 16-bit and float 2 x 2; three
  /// and four channels 1 x 1, then uchar3 2 x 2, the others 1 x 4, but uchar4 at radius 1
  /// 1 x 2; 8 rows of threads but 4 for three and four channels at radius 2 in the small
  /// shape and in the other for three 16- and 32-bit channels and for four at radius 1.
  template <int Channels, int ChannelBytes, bool Small>
  static constexpr int clamp_dense_out_x =
      Channels == 1 ? (ChannelBytes == 1 && !Small ? 4 : 2) : Channels == 3 && ChannelBytes == 1 && !Small ? 2 : 1;
  template <int Channels, int ChannelBytes, int R, bool Small>
  static constexpr int clamp_dense_out_y = Channels == 1 ? 2
                                           : Small       ? 1
                                           : Channels == 3 ? (ChannelBytes == 1 ? 2 : 4)
                                                           : (R == 2 || ChannelBytes > 1 ? 4 : 2);
  template <int Channels, int ChannelBytes, int R, bool Small>
  static constexpr int clamp_dense_rows =
      Small ? (Channels != 1 && R == 2 ? 4 : 8)
            : (ChannelBytes > 1 && (Channels == 3 || (Channels == 4 && R == 1)) ? 4 : 8);
  /// Bytes a load of tiled_dense_staged_kernel, which replaces tiled_dense_clamp_kernel in
  /// its shape, for pixels of `channels` channels of `channel_bytes` bytes at radius r in
  /// the small shape (`small`) or the other: ClampDenseStagedBytes for ushort3 (three
  /// channels of 2 bytes) at radius 1 and 2 in the other; 0 (tiled_dense_clamp_kernel)
  /// elsewhere.
  static constexpr int clamp_dense_staged_bytes(int channels, int channel_bytes, int r, bool small) {
    return channels == 3 && channel_bytes == 2 && r >= 1 && r <= 2 && !small ? ClampDenseStagedBytes : 0;
  }
  template <int Channels, int ChannelBytes, int R, bool Small>
  static constexpr int clamp_dense_staged = clamp_dense_staged_bytes(Channels, ChannelBytes, R, Small);
  using dense_radii = Radii;
  using separable_radii = Radii;
  static constexpr std::size_t shared_bytes = SharedBytes;
  /// The largest radius whose dense kernel unrolls its window rows as well as its taps
  /// (tiled2d_kernel's UnrollRows); larger radii loop over the rows. 2: at radius 3 and 4
  /// the rolled loop ran 0.68 to 0.97 times the unrolled kernel's time for u8, u16 and
  /// uchar4 (float 0.79 to 1.00) from 512x512 to 3840x2160 on the H200
  /// (bench/results/2026-11-26-ci/radii-ab.txt), and it is a tenth of the code: float
  /// radius 3 and 4 took 36 and 41 KB of sm_90 code instead of 285 and 403, and nvcc 13
  /// compiled the float kernel-instance unit in 47 s instead of 61 (the unrolled radii
  /// were 12.7 of the 88 MB of sm_90 code of all those units). Radius 2 and below stay
  /// unrolled (taps.hpp: a run-time row index put small tap arrays in local memory).
  static constexpr int unrolled_rows_max_radius = 2;
};

/// algo::direct: BlockX x block_y_for threads, each computing out_x_for consecutive
/// outputs of one row from global memory (no shared memory). Compile-time radius only:
/// Radii for dense filters and for separable ones (run as their outer product).
///   One channel of 2 or 4 bytes: BlockX x BlockYNarrow threads, OutX1 outputs a thread at
///   radius 1 and OutX2 at radius 2. A kernel of that shape which maps a border block's
///   columns once (direct2d_kernel's) took, float, replicate, with the stream held, at
///   128x128 3x3 4.19 us with 1 output a thread (2: 4.35, 4 in 32 x 4 threads: 4.58; NPP's
///   Gaussian 4.16), at 512x512 3x3 4.77 with 2 (1: 5.02, 4: 5.22), at 1920x1080 3x3 8.74
///   with 2 (1: 9.38, 4: 10.91); 5x5 with 1 within 3.5% of the best shape from 128x128 to
///   1920x1080 (1920x1080: 13.6 us, 2: 14.1, 4: 17.0; bench/results/2026-11-26-lean/
///   probe-*.txt). The family's kernel does not reach the probe's there: held, float 5x5
///   took 19.6 us at 1920x1080 against 18.6 to 18.8 for the kernel before it (4 outputs a
///   thread), and 457 us at 8192x8192 against 399 (matrix-hold*.csv against
///   2026-11-26-ci-o0/matrix-hold.csv), where automatic runs tiled (10.6 and 141 us); at
///   3x3 and at 128x128 to 512x512 it took 0.79 to 0.98 times the earlier kernel's time
///   (but 1.04 at 128x65536 3x3).
///   16-bit takes the same shape (direct-f-u16.csv).
///   Other pixels: BlockX x BlockY threads of OutX outputs, OutXUchar4 for four 8-bit
///   channels. uchar4's window of 4 + 2R pixels a row is 16 + 8R bytes of registers per
///   window row; with 2 outputs a thread, against 4, the H200 took 0.77x to 0.92x the time
///   from 256x256 to 1920x1080 and 0.91x to 0.98x at 128x128 (replicate, 3x3 and 5x5, dense
///   and separable, best of two, two runs; 1920x1080 dense 3x3 20.5 us against 26.5;
///   bench/results/2026-11-26-direct/direct-shape*.txt, with the kernel before
///   direct2d_kernel).
///   NarrowMinBlocks: blocks per multiprocessor asked of the register allocator (NVIDIA)
///   for the one-channel shape; 0 asks nothing. Unasked, nvcc 13 gives its 256-thread
///   kernels 32 registers at radius 1 and 2 (-Xptxas -v, sm_90), and at 5x5 the SASS of a
///   block inside the image issues 13 of its 25 window loads before the first FMA waits
///   on one; 6 gives 40 registers, 5 48, 4 64. On the H200, held, float and u16
///   (bench/results/2026-11-28/direct-regs-1.txt): 6 took 0.94 to 1.00 times the
///   unasked kernel's time from 128x128 to 512x512, 0.99 to 1.02 at 1024x1024 and
///   1920x1080, and 1.02 to 1.14 at 3840x2160; 5 and 4 gained less and lost more. Where
///   automatic runs this shape (up to 2^19 pixels, and 16-bit 3x3 to 2^21 and beyond 2^23)
///   the large images lose what the small ones gain, so nothing is asked.
///   ClampKernel: one-channel pixels whose reads are replicate (replicate, skip, padded)
///   run a second instance of the kernel whose border blocks clamp with min / max instead
///   of the run-time rule's switch. On the H200, held, best of two, outputs byte-identical
///   (bench/results/2026-11-28-clamp/direct-border-1.txt): float and u16 took 0.83 to 0.92 times
///   the time from 128x128 to 512x512, 0.88 to 0.92 at 1024x1024 and 0.92 to 0.95 at
///   1920x1080 (float 128x128 separable 3x3: 4.38 us against 5.06; 512x512 dense 5x5 6.82
///   against 8.13); u8 0.84 to 0.93. uchar4 gained nothing (0.96 to 1.05), so pixels of
///   several channels keep one kernel. Each instance costs a kernel per radius to compile.
template <int BlockX = 32, int BlockY = 4, int OutX = 4, class Radii = radii_range<1, 2>, int OutXUchar4 = 2,
          int BlockYNarrow = 8, int OutX1 = 2, int OutX2 = 1, int NarrowMinBlocks = 0, bool ClampKernel = true>
struct direct_policy {
  static constexpr int block_x = BlockX;
  /// Whether pixels of Channels channels of ChannelBytes bytes each take the one-channel shape.
  template <int Channels, int ChannelBytes>
  static constexpr bool narrow = Channels == 1 && ChannelBytes >= 2;
  /// Threads a block in y for such pixels.
  template <int Channels, int ChannelBytes>
  static constexpr int block_y_for = narrow<Channels, ChannelBytes> ? BlockYNarrow : BlockY;
  /// Outputs a thread for such pixels at radius R.
  template <int Channels, int ChannelBytes, int R>
  static constexpr int out_x_for = narrow<Channels, ChannelBytes>      ? (R <= 1 ? OutX1 : OutX2)
                                   : Channels == 4 && ChannelBytes == 1 ? OutXUchar4
                                                                        : OutX;
  /// Blocks per multiprocessor asked of the register allocator for such pixels (0: none).
  template <int Channels, int ChannelBytes>
  static constexpr int min_blocks_for = narrow<Channels, ChannelBytes> ? NarrowMinBlocks : 0;
  /// Whether such pixels have the replicate instance (ClampKernel).
  template <int Channels, int ChannelBytes>
  static constexpr bool clamp_kernel_for = ClampKernel && Channels == 1;
  using dense_radii = Radii;
  using separable_radii = Radii;
};

/// algo::packed: BlockX x BlockY threads, each owning 8 output pixels (4 of four channels)
/// of a strip of StripRows1 rows at radius 1 and StripRows beyond, halved (down to
/// MinStripRows) while the grid has fewer than TargetThreads threads; where StripRows are
/// kept, SeparableWalkRows for separable filters in packed_kernel's walk (walk_rows).
/// Compile-time radius only. Measured on the H200 (bench/results/2026-11-23-packed/,
/// strip-*.csv and try-unrolled-strip-*.csv): 8 and 16 rows at 3840x2160 and 8192x8192; at
/// 1920x1080 u8 4 rows (9.1 to 13.5 us) beat 2 (9.1 to 15.0) and 8 (12.0 to 15.5), which a
/// target of 32768 threads gives, and 65536 did not. Down to one row: where two-row strips
/// leave the grid short of the target (u8 to 512x512, uchar4 to 256x256) one-row strips
/// took 0.89x to 0.97x their time, best of two runs, but 1.02x at 512x512 u8 dense 5x5
/// (128x128 uchar4 dense 5x5: 6.0 us against 6.8; u8 separable 5x5 4.6 against 5.0); from
/// 724x724, where the rule keeps two rows or more, they lost (uchar4 1024x1024 dense 5x5:
/// 20.1 us against 12.5; bench/results/2026-11-26-small/strips-*.csv, strips-0 the
/// library's choice).
/// Three channels (uchar3; packed_three_kernel, kernels/packed_three.hpp): BlockX x
/// ThreeBlockY threads of 2 x ThreeOutY outputs. Held, best of two, on an H100
/// (bench/experiments/packed3_ab.cu, bench/results/2026-12-05-h100-packed3/p3.txt), 32 x 4
/// threads of 2 x 4 took 0.89 to 1.00 times the time of 32 x 8 of 2 x 2 (the shape of
/// tiled's replicate kernels for uchar3) from 1280x720 to 8192x8192 (0.89 and 0.90 at
/// 8192x8192); 32 x 8 of 2 x 4 took 1.00 to 1.06 times its time there, of 2 x 1 1.10 to
/// 1.45, of 4 x 1 and 4 x 2 1.26 to 1.84. At 512x512 all but the 4-wide shapes within 3%.
/// Four channels (uchar4) on one image whose reads are replicate, small and medium images
/// (packed_four_kernel, kernels/packed_four.hpp): BlockX x FourBlockY threads of 1 x
/// FourOutYSmall outputs up to FourSmallMaxPixels, of 1 x FourOutY above, up to
/// FourMaxPixels (dense 5x5: FourDense5MaxPixels); beyond, the strip walk. Held, better
/// of two taken in turn, on an H100 (bench/experiments/packed3_ab.cu, mode four;
/// bench/results/2026-12-06-h100-four/four.txt; outputs within 1 of tiled's), against
/// automatic's choice then (tiled's replicate kernels to 512x512, the strip walk from
/// 724x724): 32 x 4 of 1 x 2 took 0.79 to 0.97 times its time from 128x128 to 512x512
/// (512x512 dense 3x3 5.18 us against 6.02), but 1.01 at 128x128 separable 3x3 (4.38
/// against 4.35), within 3% of the fastest of six shapes there; 32 x 4 of 1 x 4 0.74 to
/// 0.95 from 724x724 to 1280x720 (1280x720 dense 5x5 9.15 against 11.78), within 1% of the
/// fastest shape. At 1920x1080 it took 0.91 times the strip walk's time at dense 5x5, 1.01
/// at dense 3x3 and 1.09 and 1.16 at separable 3x3 and 5x5, which keep the strip walk from
/// there; larger images were not timed, so dense 5x5 stops there too.
/// One channel (u8) at radius 1 on one image whose ROI is at least WideMinWidth pixels wide
/// (and a multiple of 16; kernels/packed_wide.hpp, packed_wide_fit): packed_wide_kernel,
/// each thread 16 outputs of a row, in strips of 1 row up to WideOneRowMaxPixels, 2 up to
/// WideTwoRowsMaxPixels and 4 above (wide_rows). Held, better of two, on an H100
/// (bench/experiments/packed_row16_ab.cu; bench/results/2026-12-06-h100-main/row16*.txt;
/// outputs byte-identical to the library's), dense and separable 3x3 against the
/// library's packed then (the strip kernel, and the interior instance at 8192x8192): 1 row
/// 0.89 to 0.94 times its time from 256x256 to 1280x720 (2 and 4 rows 0.92 to 1.00 there);
/// 2 rows 0.83 to 0.91 from 1600x900 to 2560x1440 (1920x1080: 6.11 and 5.95 us against
/// 6.72 and 6.53; 1 and 4 rows within 5% of 2 there); 4 rows 0.67 to 0.97 from 3200x1800 to
/// 8192x8192 (5760x3240 separable: 15.46 us against 23.14; 8192x8192 50.43 against 58.91),
/// where 1 row took up to 1.19 times the library's time (3840x2160 separable). The kernel
/// as landed, on another H100 (row16-wide.txt): 1920x1080 6.18 us dense and 5.98
/// separable, 8192x8192 55.14 and 50.43, within 5% of the probe's fastest shape at each
/// size. Narrower ROIs keep the strip kernel, a limit set when all of packed_wide_kernel's
/// block rows were 512 pixels (kernels/packed_wide.hpp, packed_wide_block); automatic runs
/// tiled's kernels there.
template <int BlockX = 32, int BlockY = 4, int StripRows1 = 8, int StripRows = 16, int MinStripRows = 1,
          int TargetThreads = 32768, class Radii = radii_range<1, 2>, int ThreeBlockY = 4, int ThreeOutY = 4,
          int FourBlockY = 4, int FourOutYSmall = 2, int FourOutY = 4, long long FourSmallMaxPixels = 1LL << 18,
          long long FourMaxPixels = 1280LL * 720, long long FourDense5MaxPixels = 1920LL * 1080,
          int SeparableWalkRows = 12, int WideMinWidth = 512, long long WideOneRowMaxPixels = 1LL << 20,
          long long WideTwoRowsMaxPixels = 1LL << 22>
struct packed_policy {
  static constexpr int block_x = BlockX, block_y = BlockY, min_strip_rows = MinStripRows;
  static constexpr int three_block_y = ThreeBlockY, three_out_y = ThreeOutY;
  static constexpr int four_block_y = FourBlockY, four_out_y_small = FourOutYSmall, four_out_y_large = FourOutY;
  /// packed_four_kernel's outputs a thread in y on an image of `pixels` pixels (uchar4, one
  /// image whose reads are replicate), or 0 where the strip walk runs it instead.
  static constexpr int four_out_y(long long pixels, int radius, bool separable) {
    return pixels > (radius == 2 && !separable ? FourDense5MaxPixels : FourMaxPixels) ? 0
           : pixels <= FourSmallMaxPixels                                            ? FourOutYSmall
                                                                                     : FourOutY;
  }
  static constexpr int target_threads = TargetThreads;
  static constexpr int strip_rows(int radius) { return radius <= 1 ? StripRows1 : StripRows; }
  /// The strip a thread walks where the image kept strip_rows' longest strip (`rows`, after
  /// packed_strip_rows' halving): SeparableWalkRows for a separable filter beyond radius 1
  /// in packed_kernel's walk on one image (`separable_walk`: not the strip kernel, not a
  /// batch), `rows` everywhere else. Held, better of two alternating runs, on the H200
  /// (bench/experiments/packed_strips_ab.cu, modes long-u8 and long-uchar4;
  /// bench/results/2026-12-06-h200-strips/long*.txt), separable 5x5 in 12-row strips took
  /// 0.79 to 1.04 times the time of 16-row ones on uchar4 from 1920x1200 to 8192x8192
  /// (geometric mean of 12 sizes 0.95; 1920x1200 13.57 us against 17.25, 8192x8192 171.5
  /// against 174.3, 3440x1440 22.18 against 21.34), and on u8 beyond 2^24 pixels 0.92 to
  /// 1.03 (7680x4320 40.51 against 44.06, 6144x4096 34.30 against 33.22). 8-row strips
  /// gained about as much on the smaller sizes but lost at 8192x8192 (uchar4 183.8 us, u8
  /// 63.7 against 62.0). An H100 (bench/results/2026-12-06-h100-long/) gave 12 rows 0.87 to
  /// 1.00, but 1.12 at 3440x1440. Only where 16 rows were kept: with 12 in place of the
  /// halving's 8 at 1920x1080, uchar4 separable 5x5 took 14.11 us in an H100's matrix where
  /// three other H100 matrices took 13.02 to 13.73 with 8. Dense 5x5 and u8's strip kernel
  /// showed no consistent gain and keep StripRows (on that H100, u8 3840x2160 separable 5x5
  /// in the strip kernel: 8 rows 12.93 us, 12 11.62, 16 11.49).
  static constexpr int walk_rows(int rows, int radius, bool separable_walk) {
    return separable_walk && radius > 1 && rows == StripRows ? SeparableWalkRows : rows;
  }
  /// The narrowest ROI (pixels) packed_wide_kernel runs on.
  static constexpr int wide_min_width = WideMinWidth;
  /// packed_wide_kernel's strip (rows a thread) on an image of `pixels` pixels.
  static constexpr int wide_rows(long long pixels) {
    return pixels <= WideOneRowMaxPixels ? 1 : pixels <= WideTwoRowsMaxPixels ? 2 : 4;
  }
  /// Whether a thread issues the next input row's loads before the current row's
  /// arithmetic: four channels at radius 2 only. Measured on the H200 against the kernel
  /// without it, same run (bench/results/2026-11-23-varshape/prefetch/): uchar4 5x5 0.81x
  /// to 1.00x the time at every size (8192x8192 dense 321 -> 280 us), while u8 went up to
  /// 1.11x (4096 images of 128x128, separable 5x5) and uchar4 3x3 ranged 0.96x to 1.07x.
  static constexpr bool prefetch(int channels, int radius) { return channels == 4 && radius == 2; }
  /// The same for the interior strips (kernels/packed_rows.hpp), which test nothing per
  /// row: four channels at every radius. Against no prefetch there, same run on the H200
  /// (bench/results/2026-11-25-packed/): uchar4 3x3 at 8192x8192 0.94x (separable) and
  /// 0.96x (dense) the time, and at 3840x2160 0.94x; u8 ranged 0.96x to 1.06x.
  static constexpr bool interior_prefetch(int channels, int radius) { return (void)radius, channels == 4; }
  /// Whether the interior instance's edge blocks take the fast edge paths (one channel's
  /// words by byte permute; rows inside read with no map): four channels always, one
  /// channel on images of at most interior_edges_max_pixels. Where the grid is one wave
  /// its edge blocks set the time; where it is many, the registers the paths add cost
  /// occupancy. Against the interior instance without them, same run on the H200
  /// (bench/results/2026-11-25-words/interior-edges/, geometric mean of 12 cases, two
  /// runs): u8 1920x1080 0.80x and 0.83x the time, 3840x2160 0.81x, 8192x8192 1.07x
  /// (separable 5x5 71 to 83 us: registers 71 to 90); uchar4 1920x1080 0.94x, 3840x2160
  /// 0.95x, 8192x8192 0.99x. The limit lies between the two largest sizes measured.
  static constexpr bool interior_edges_always(int channels) { return channels == 4; }
  static constexpr long long interior_edges_max_pixels = 1LL << 24;
  /// Whether a one-channel launch where every thread can walk its strip
  /// (kernels/packed_strips.hpp) runs the strip kernel: a batch (`batched`) always, one
  /// image of `pixels` pixels up to strip_kernel_max_pixels. Against packed_kernel, same
  /// call on the H200 (bench/results/2026-11-25-strips/, geometric means over 3 rules,
  /// best of 2 runs): u8 3x3 0.79x to 1.00x the time from 1280x720 to 3840x2160 (0.87x to
  /// 0.94x from 128x128 to 512x512, where runs move more than that), 128x65536 0.77x and
  /// 0.85x, batches of 64x64 to 200x120 images 0.76x to 0.88x; 5x5 0.77x to 0.99x, except
  /// on 4096 images of 128x128 (separable 1.08x, dense 1.09x; with the batches' settings
  /// below 0.96x and 1.10x). At 8192x8192, where most blocks take the interior instance's
  /// strips, 1.06x to 1.13x.
  static constexpr long long strip_kernel_max_pixels = 1LL << 24;
  static constexpr bool strip_kernel(long long pixels, bool batched) {
    return batched || pixels <= strip_kernel_max_pixels;
  }
  /// The strip kernel's blocks a multiprocessor, asked of the register allocator, and
  /// whether each row's loads go out before the row above is added (prefetch). Single
  /// images: at radius 1 eight blocks (64 registers, from the 80 nvcc chose), separable
  /// 5x5 six (80, from 96), dense 5x5 four (as many as it takes), no prefetch. Batches:
  /// nine at separable 3x3, eight at dense 3x3 and separable 5x5, five at dense 5x5, with
  /// the prefetch (not dense 5x5, below), which needs fewer registers (radius 1: 63 with
  /// eight blocks, 56 with nine, a few bytes spilled; dense 5x5 95 with it, 96 and 60 bytes
  /// spilled without). Dense 3x3 batches went from nine to eight with the taps held in
  /// registers (taps_in_registers): at nine they spilled 68 bytes and took 1.01x the time
  /// of the taps re-read (an H100), at eight (64 registers) 0.87x on 4096 images of
  /// 128x128 and 0.82x on 2048 of 200x120 (the H200; bench/results/2026-11-26-taps/).
  /// Same call on the H200
  /// (bench/results/2026-11-25-strips/): radius 1 with 80 registers took 1.06x main's time
  /// on 4096 images of 128x128 and 0.89x with 64 (dense 5x5 held to 64 spilled: 1.8x);
  /// the batches' settings against the single images' took 0.89x to 0.97x on those
  /// images (dense 5x5 1.00x), and 0.88x to 1.04x on 64x64 and 200x120 ones, while on
  /// single images they ranged 0.82x to 1.11x.
  static constexpr int strip_min_blocks(int radius, bool separable, bool batched) {
    return radius == 1 ? (batched && separable ? 9 : 8) : separable ? (batched ? 8 : 6) : (batched ? 5 : 4);
  }
  /// Batches of dense 5x5 filters leave the prefetch out: without it (and with the L2
  /// prefetch below) they took 0.84x the time with it on 4096 images of 128x128 and 2048
  /// of 200x120, and 0.92x on 2048 of 64x64; radius 1 and separable 5x5 keep it (without
  /// it, 1.00x to 1.40x their time; bench/results/2026-11-25-l2/).
  static constexpr bool strip_prefetch(int radius, bool separable, bool batched) {
    return batched && (separable || radius == 1);
  }
  /// Whether the threads ask L2 for their strips' input rows before they walk them
  /// (gpu::prefetch_l2, each thread its share: packed_prefetch_rows; the strip kernel on
  /// batches and the interior instance's strips):
  /// where the call's input and output bytes (`bytes`) exceed one and a half times the L2
  /// cache (`l2_bytes`), so that its input comes from DRAM. There a thread's loads alone
  /// have one row in flight; the hints have them all. Where the data fits in L2 they are
  /// instructions spent for nothing. Against the same kernels without it on the H200
  /// (bench/results/2026-11-25-l2/, geometric means over 3 rules, best of 2 runs):
  /// 4096 u8 images of 128x128 (134 MB moved) 0.86x (separable 3x3) to 0.93x; 2048 of
  /// 200x120 (98 MB) 0.87x to 0.95x; 2048 of 64x64 (17 MB) 0.99x to 1.04x. One image, the
  /// interior instance: 8192x8192 u8 0.88x to 0.94x, uchar4 0.89x to 0.99x; uchar4
  /// 4096x4096 and 5760x3240 0.90x to 1.01x; uchar4 3840x2160 (66 MB) 0.98x to 1.05x and
  /// u8 5760x3240 (37 MB) 1.02x to 1.03x, which the limit leaves out.
  static constexpr bool l2_prefetch(long long bytes, long long l2_bytes) { return 2 * bytes > 3 * l2_bytes; }
  using radii = Radii;
  using dense_radii = Radii;
  using separable_radii = Radii;
};

/// algo::streaming (register streaming down column strips).
///   Block         threads per block: one row of lanes, a multiple of every wave size
///   PrefetchRows  rows ahead of its loads a lane asks L2 to fetch (0: none)
///   MinBlocks     blocks per multiprocessor asked of the register allocator
///   AsyncRows     rows of the interior block columns' shared-memory ring (copies that
///                 hold no registers: cp.async on NVIDIA) where async_rows_for says so:
///                 one-channel 4-byte pixels at radius 1; 0: the register ring everywhere
///   StripRows1    output rows per strip at radius 1; StripRows beyond: the most, taken
///                 where the image gives the grid enough blocks
///   MinStripRows  the fewest output rows per strip: an image too small to fill the GPU
///                 with full strips gets shorter ones, down to this (stream_strip_rows)
///   Overlap       launch the interior grid as a dependent of the edge grid where the GPU
///                 can overlap them (platform/overlap.hpp)
/// Per pixel type: rows_in_flight<Channels> (input rows loaded ahead into registers) and
/// accum_budget<In> (floats of partial sums per thread, which bounds the vector width V).
template <int Block = 128, int PrefetchRows = 4, int MinBlocks = 1, int AsyncRows = 0, int StripRows1 = 24,
          int StripRows = 32, bool Overlap = true, int MinStripRows = 4>
struct streaming_policy {
  static constexpr int block = Block, prefetch_rows = PrefetchRows, min_blocks = MinBlocks, async_rows = AsyncRows;
  static constexpr int min_strip_rows = MinStripRows;
  static constexpr bool overlap = Overlap;
  static constexpr std::size_t shared_bytes = shared_memory_budget;  ///< the ring's limit
  template <int Channels>
  static constexpr int rows_in_flight = Channels == 4 ? 1 : 2;
  template <class In>
  static constexpr int accum_budget = sizeof(In) == 1 ? 32 : 64;
  template <int Channels, int PixelBytes, int R>
  static constexpr int async_rows_for = Channels == 1 && PixelBytes == 4 && R == 1 ? AsyncRows : 0;
  static constexpr int strip_rows(int radius) { return radius <= 1 ? StripRows1 : StripRows; }
  using dense_radii = radii_range<1, 5>;
  using separable_radii = radii_range<1, 4>;
};

/// algo::fft: transforms of N x N, N a power of two up to MaxSize chosen per call
/// (kernels/fft.hpp, fft_size; a filter takes at most half a transform a side), and at
/// most ChunkBytes of planes and spectra per batch of transforms.
template <int MaxSize = 1024, std::size_t ChunkBytes = std::size_t(256) << 20>
struct fft_policy {
  static constexpr int max_size = MaxSize;
  static constexpr std::size_t chunk_bytes = ChunkBytes;
  using dense_radii = radii<>;  ///< none: any size runs the same kernels
  using separable_radii = radii<>;
};

/// algo::tensor_core: nothing to tune yet; its tile (64 x 64 outputs, 8 warps) is fixed by
/// the fragment layout (kernels/tensor_core.hpp), and its kernels take any filter size up
/// to 25 taps a side, instantiated per depth steps rather than per radius.
struct tensor_core_policy {
  using dense_radii = radii<>;
  using separable_radii = radii<>;
};

/// algo::sliding: Threads threads a block; each thread of the column pass computes out_y
/// sums down one column, each of the row pass out_x outputs along one row, both with
/// register windows of twice that many pixels: Out1 for one-channel pixels, OutN for more
/// (four float channels a pixel make the windows four times larger). Tiles Width1 outputs
/// wide for one channel and WidthN for more, with as many rows (a multiple of out_y, at
/// most MaxRows) as the column sums of a filter's width leave room for in SharedBytes.
/// MinBlocks blocks per multiprocessor asked of the register allocator (NVIDIA): unasked,
/// nvcc 13 held the one-channel kernels at 64 registers with spills; asked for 2, uchar4
/// took 99 and Nsight Compute saw 2 blocks (25% occupancy) at 8192x8192 15x15; asked for 3,
/// 76 to 80 (no spills but float3's 8 bytes), 3 blocks, 37% (the same step also loaded
/// uchar4 as one word: 1260 to 939 us; bench/results/2026-11-24-sliding/development/).
/// Run-time filter size.
template <int Threads = 256, int Out1 = 8, int OutN = 4, int Width1 = 128, int WidthN = 64, int MaxRows = 64,
          std::size_t SharedBytes = shared_memory_budget, int MinBlocks = 3>
struct sliding_policy {
  static constexpr int threads = Threads, max_rows = MaxRows, min_blocks = MinBlocks;
  template <int Channels>
  static constexpr int out_x = Channels == 1 ? Out1 : OutN;
  template <int Channels>
  static constexpr int out_y = Channels == 1 ? Out1 : OutN;
  template <int Channels>
  static constexpr int width = Channels == 1 ? Width1 : WidthN;
  static_assert((Out1 & (Out1 - 1)) == 0 && (OutN & (OutN - 1)) == 0, "padding by shifts");
  static_assert(Width1 % Out1 == 0 && WidthN % OutN == 0, "whole items a row");
  using dense_radii = radii<>;  ///< none: separable filters of any size, one kernel
  using separable_radii = radii<>;
  static constexpr std::size_t shared_bytes = SharedBytes;
};

/// Policy P for the kernels of a uniform batch (convolve_batch): each block first moves its
/// views to image blockIdx.z. A kernel instantiation of its own, so that single-image
/// kernels carry no image offset: held in registers for the kernel's life, it cost
/// single-image calls up to 18% on the H200 (u8 streaming 3x3 went from 70 to 74
/// registers, its edge kernel from 79 to 90; float tiled dense 3x3 from 72 to 80).
template <class P>
struct batched : P {};

/// True for batched<P>.
template <class P>
struct is_batched : std::false_type {};
template <class P>
struct is_batched<batched<P>> : std::true_type {};

/// P, or batched<P> when Batch.
template <class P, bool Batch>
using batched_if = std::conditional_t<Batch, batched<P>, P>;

/// Tag for an algorithm's Policy parameter: take the policy of the table of the device the
/// call runs on (tables.hpp). The default.
struct by_device {};

}  // namespace tuning
}  // namespace hipstencil
