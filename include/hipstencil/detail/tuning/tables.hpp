// hipstencil/detail/tuning/tables.hpp
// Per-architecture tuning tables (as rocPRIM keeps device/detail/config/ per target): for
// each family the policy its kernels use when the caller leaves the choice to the library
// (tuning::by_device), and algo::automatic's choice of family. Chosen at run time from
// the device a call runs on (arch.hpp).
//
// Measured: sm_90, on an NVIDIA H200 (bench/RESULTS.md has every run). gfx90a, gfx942,
// gfx1030 and every other device take the generic table until they are measured.
#pragma once

#include <utility>

#include "arch.hpp"
#include "factor_tables.hpp"  // factor_table and low_rank_table, for those who include this header
#include "policies.hpp"
#include "shape.hpp"

namespace hipstencil {
namespace tuning {

/// The policy a family uses on architecture A, given the family's default policy. The
/// primary template is the generic table: the default itself.
template <arch A, class DefaultPolicy>
struct policy_for {
  using type = DefaultPolicy;
};

/// sm_90 (H200): the streaming knobs measured there (bench/RESULTS.md, "streaming"):
///   prefetch 4 rows ahead: best of 0, 4, 8, 12 and 16 (float and 8-bit, 3x3 and 15x15);
///   1 block per SM asked of the allocator: forcing 6 or 8 (80 or 64 registers) spilled
///     and lost everywhere but float 3x3;
///   a 16-row cp.async ring in the interior block columns for one-channel 4-byte pixels at
///     radius 1: float separable 3x3 from 79.6% to 81.5% of the copy rate (4 and 8 rows
///     gained less); elsewhere it measured no faster (float radius 2 even, radius 4 5%
///     slower, float4 16% slower, 8-bit even to 6% slower);
///   strips of 24 output rows at radius 1 (2-8% ahead of 32 for float, u8, float4), 32
///     beyond (3-12% ahead of 24 at radius 2 and 4; 64 lost everywhere);
///   2 input rows in flight for one channel, 1 for four (3 to 6 were slower); 32 floats of
///     partial sums for 8-bit pixels (V = 8 at radius 1: a shorter body and more warps beat
///     16-byte loads), 64 for wider ones.
template <>
struct policy_for<arch::sm_90, streaming_policy<>> {
  using type = streaming_policy<128, 4, 1, 16, 24, 32, true>;
};

/// The generic table (every architecture until measured): the sm_90 choices, the only
/// measured ones, which follow from the families' shapes more than from that chip.
template <arch A>
struct automatic_table {
  /// tiled's policy on A: its interior instance's and small shapes' limits, which the
  /// rows below ask rather than repeat.
  using tiled_tuned = typename policy_for<A, tiled_policy<>>::type;

  /// sm_90 (H200; 128x128 to 8192x8192, 128x65536 and 65536x128; radii 1, 2, 4, 7; u8,
  /// float, uchar4, and for ushort4 bench/results/2026-11-23-ushort4.csv, for uchar3, u16
  /// and bfloat16 bench/results/2026-11-23-types/, for ushort3 and float3
  /// 2026-11-23-three-channel/, for half4 and bfloat16x4 (which take ushort4's rows:
  /// automatic within 2.6% of the fastest family at 512x512, 1920x1080 and 8192x8192)
  /// 2026-11-23-half4/; replicate;
  /// bench/RESULTS.md, "Every image size users filter"). A family's
  /// cost has two parts: the walk of one thread's work, which no amount of GPU hides when
  /// the grid is small, and the bytes, which dominate once it is large. So:
  ///   first, uchar4 3x3 and 5x5 on one image under clamp to 1280x720 (dense 5x5 to
  ///     1920x1080): packed (packed_four); uchar3 3x3 and 5x5 there, 3x3 from 1280x720
  ///     and 5x5 from 512x512: packed (packed_three); u8 3x3 there beyond 2^18 pixels
  ///     where packed's wide kernel runs (packed_wide);
  ///   then separable 3x3 and 5x5 on one image under clamp, one channel to 2^20 pixels,
  ///     three channels to 8192x8192, uchar4 to 2^19, four 16-bit channels to 3840x2160
  ///     and float4 to 2^22: tiled's replicate separable kernel (clamp_separable); and
  ///     dense 3x3 and 5x5 there, one channel to 2^20 pixels, three to 8192x8192, uchar4
  ///     to 2^18 (3x3) and 2^19 (5x5), four 16-bit channels to 3840x2160 and float4 to
  ///     2^21: tiled's replicate dense kernel (clamp_dense);
  ///   then at radius 1 and 2, packed for u8 and uchar4 at every size (choose()), but
  ///     for uchar4 below 2^16 pixels under clamp direct leads (3x3, dense 5x5); then
  ///     direct for one channel up to 2^19 pixels (16-bit and float under every rule, 5x5
  ///     dense to 2^16 and separable in tiled's small shapes), 8- and 16-bit
  ///     3x3 and separable 5x5 up to 2^21 (1920x1080), float separable 3x3 below 2^23
  ///     (wide images), uchar4 up to 2^16 but dense 5x5, uchar3 3x3 at every size,
  ///     ushort3 and float3 3x3 to 2^16 (bench/results/2026-11-23-direct/,
  ///     2026-11-23-types/ and 2026-11-26-lean/);
  ///   up to 2^16 pixels (256x256): one output per thread wins: naive for separable
  ///     filters up to radius 7, shared_mem for dense ones (tiled from radius 6 for wide
  ///     channels other than one-channel float);
  ///   up to 2^19 (724x724): shared_mem, tiled for the longer walks (wide filters, and
  ///     separable filters past 3x3 on one channel);
  ///   up to 2^19, separable from radius 4: two_pass into a caller's workspace first
  ///     (11.6 to 12.9 us at 128x128 and 512x512 where the others took 16 to 49);
  ///   up to 2^25 (5792x5792): tiled for dense one-channel filters under replicate from
  ///     2^20 pixels, shared_mem under the other rules and below (2026-11-24-rows/; 16-bit
  ///     3x3 beyond 2^21 pixels: streaming, beyond 2^23 direct); for one-channel separable
  ///     ones tiled from 5x5 to 17x17 (one_channel_separable: by border cost, two_pass
  ///     first where it leads), streaming at 3x3 beyond 2^21 pixels for 8- and 16-bit
  ///     (3840x2160 u16: 26.8 us, tiled 38.6), two_pass from 19x19; and
  ///     four-channel 3x3 and 5x5 (5x5 beyond 2^21 pixels dense, 2^22 separable: tiled and shared_mem below;
  ///     four-channel dense 3x3 too narrow for streaming: shared_mem, 81 us at 128x65536
  ///     where tiled took 90); shared_mem for the rest;
  ///   beyond: streaming up to radius 5 dense (1 to 4 separable, 2 for four channels),
  ///     tiled 6 to 8 dense, shared_mem beyond, two_pass past radius 10 into a caller's
  ///     workspace (automatic never allocates); tiled where streaming's lanes would idle.
  /// A batch (convolve_batch) counts the pixels of all its images: its grid is that large.
  /// Measured for batches: 4096 images of 128x128 u8 and 64 of 1920x1080 uchar4, 3x3 and
  /// 5x5 (bench/results/2026-11-23-batch.csv).
  /// Streaming needs 1024 columns: a narrower image leaves most lanes of its one block
  /// column idle (128x65536 u8 3x3: 250 us, tiled 32 us); it falls to the next choice.
  static constexpr preference choose(const problem_shape& s) {
    const preference list = choose_list(s);
    return packed_four(s) ? promote(choice::packed, list) : list;
  }

  /// packed first for uchar4 3x3 and 5x5, dense and separable, on one image whose reads
  /// are replicate, where its launcher runs packed_four_kernel (kernels/packed_four.hpp;
  /// packed_policy's four_out_y: to 1280x720 pixels, dense 5x5 to 1920x1080), ahead of
  /// what choose_list gives, which runs the filters its plan refuses. Held, better of two,
  /// on an H100 (bench/results/2026-12-06-h100-four/four.txt), in the policy's shapes 0.74
  /// to 0.97 times the time of automatic's choice before (tiled's replicate kernels to
  /// 512x512, packed's strip walk above; 512x512 dense 3x3: 5.18 us against 6.02; 1280x720
  /// dense 5x5: 9.15 against 11.78), but 1.01 at 128x128 separable 3x3 (4.38 against 4.35).
  /// On the H200 through automatic (bench/results/2026-12-06-h200-four/four.csv): 0.80 to
  /// 1.00 times tiled's time to 512x512, 0.37 to 0.87 above.
  static constexpr bool packed_four(const problem_shape& s) {
    using packed_tuned = typename policy_for<A, packed_policy<>>::type;
    return s.channels == 4 && s.channel_bytes == 1 && s.radius >= 1 && s.radius <= 2 &&
           s.border == border_cost::clamp && s.images == 1 &&
           packed_tuned::four_out_y(s.pixels(), s.radius, s.separable) > 0;
  }

  /// choose() but for its first row (packed_four).
  static constexpr preference choose_list(const problem_shape& s) {
    // packed (8-bit in half-precision lanes) first at radius 1 and 2
    // (bench/results/2026-11-23-packed/u8-uchar4.csv):
    //   one channel beyond 2^20 pixels: 1920x1080 u8 dense 3x3 9.5 us (direct 11.2),
    //     separable 5x5 12.1 (direct 17.0); 8192x8192 dense 5x5 102 (streaming 201); and
    //     since its strip kernel, at smaller sizes too (below).
    //     At any width since its narrow blocks (bench/results/2026-11-23-varshape/packed-
    //     narrow.csv): 128x65536 separable 3x3 17.6 us (tiled 30.5), 512x4096 11.9 (tiled
    //     12.2), 4096 images of 128x128 108 (tiled 227); at 1024x2048 separable 3x3 it
    //     trails direct by 4% (12.2 against 11.7 us);
    //   four channels beyond 2^16 pixels, any width: 512x512 uchar4 separable 5x5 6.9 us
    //     (shared_mem 10.5), 8192x8192 dense 3x3 194 (streaming 274), 128x65536 separable
    //     3x3 29.3 (shared_mem 82.1); and since its one-row strips at smaller sizes (below).
    // Filters its plan refuses fall to the rest of the list.
    const preference rest = choose_family(s);
    // fft for dense filters from radius 9 where the direct sums cost more than 1.4e8
    // tap-pixels (bench/results/2026-11-24-fft/crossover/, random dense filters, u8, float,
    // uchar4; the family's first version): its cost hardly grows with the filter
    // (8192x8192 float 2.26 ms at radius 4, 2.32 at 15), at least 44 us a call (512x512).
    // At radius 9 it ran 1.44 to 2.6 times faster than the best direct family from
    // 1920x1080 (0.72 to 0.84 at 512x512, 9.5e7 tap-pixels); at 512x512 radius 12 (1.6e8)
    // 1.15 to 1.38; at radius 7 and below the direct families' compiled kernels win (0.19
    // to 0.74). Not measured below 512x512: at 128x128 the rule takes it from 93x93. Where
    // it cannot run (no FFT library, integer kernels) the rest of the list does.
    const long long taps = (2LL * s.radius + 1) * (2LL * s.radius + 1);
    const bool fft = !s.separable && s.radius >= 9 && double(s.pixels()) * double(taps) > 1.4e8;
    // tiled first for one-channel float dense filters of radius 1 to 8 where its interior
    // instance runs (kernels/tiled_interior.hpp; tiled_policy's limits), and separable 3x3
    // and 5x5 where it runs them as their outer product: the fastest family in all 36 dense
    // cases of bench/results/2026-11-25-cells/float-dense-large.csv (1920x1080 to 8192x8192,
    // replicate and reflect101; 8192x8192 5x5: 149.7 us, streaming 203.6); separable
    // 8192x8192 3x3 143 us, streaming 154. One image only: a batch runs tiled2d_kernel (the
    // launcher's rule) and keeps earlier choices. Under the constant rule at radius 1 and 2
    // too (bench/results/2026-11-26-ci/constant.csv and float-rules.csv, float, 3x3 and 5x5,
    // dense and separable: 8192x8192 dense 3x3 135.6 us, streaming 157.4; 3840x2160 dense
    // 5x5 24.0, shared_mem 44.5; 1920x1080 dense 3x3 11.9, shared_mem 12.8); beyond radius 2
    // the constant rule was not measured and keeps the earlier choices.
    if (packed_three(s) || packed_wide(s)) return ahead(choice::packed, promote(choice::tiled, rest));
    if (clamp_separable(s) || clamp_dense(s)) return promote(choice::tiled, rest);
    if (clamp_direct(s)) return promote(choice::direct, s.channel_bytes == 1 ? ahead(choice::packed, rest) : rest);
    const long long tiled_from = interior_from(s);
    if (s.channels == 1 && s.channel_bytes == 4 && s.radius >= 1 && s.radius <= 8 && s.images == 1 &&
        (s.border != border_cost::constant || s.radius <= 2) && tiled_from >= 0 && s.pixels() >= tiled_from)
      return promote(choice::tiled, tensor_core_first(s) ? ahead(choice::tensor_core, rest) : rest);
    // And one-channel 2-byte pixels at radius 1 and 2 (tiled_policy's InteriorNarrowMaxRadius)
    // from 2^20 pixels (bench/results/2026-11-28/interior-u16-1.txt, u16 and s16, held,
    // replicate: 1920x1080 dense 3x3 10.3 us, 9.1 with its frame grid first (tiled-order-
    // u16.txt), direct 11.8; 3840x2160 12.4, streaming 28.6;
    // 8192x8192 77.6, streaming 123; separable as the outer product, 3x3 from 2^20 pixels
    // and 5x5 then from 2^22, where separable 5x5 already ran tiled's separable kernel, now
    // from 2^20 too (tiled_policy::separable_interior_min_pixels); at 1024x1024 it was 1.00
    // to 1.03 times the fastest other family, which kept those rows until the frame's
    // one-row cells, below).
    // Under every rule (2026-11-28/rules-hold.csv: u16, s16 and half, replicate, reflect101
    // and constant, 1024x1024 to 8192x8192, each of the 126 cases this row decides): tiled
    // took 0.40 to 0.95 times the time of the fastest of direct, shared_mem and streaming,
    // and automatic was within 2% of the fastest family timed.
    // Under clamp, where the frame's replicate instance runs, from interior_from's sizes
    // (1024x1024 u16 dense 5x5: 7.1 us, shared_mem 11.1). Under the other rules from 2^20
    // itself since the frame's one-row cells at radius 1 (tiled_policy's small_frame;
    // bench/results/2026-11-28-frame-rows/interior-rules-1.txt, held: 1024x1024 u16
    // reflect101 dense 3x3 7.78 us against automatic's 10.53 then, constant separable 3x3
    // 6.98 against 8.83; dense 5x5 13.06 against 14.14 and 11.74 against 11.68), and from
    // interior_from's 3 * 2^17 since the launcher runs the interior there under every rule
    // (tiled_policy's SmallRadiusInteriorMinPixels: 1280x720 u16 reflect101 dense 3x3 7.74
    // us against automatic's 9.95).
    if (s.channels == 1 && s.channel_bytes == 2 && tiled_tuned::interior_pixels(2, s.radius) && s.radius >= 1 &&
        s.images == 1 && tiled_from >= 0 && s.pixels() >= tiled_from)
      return promote(choice::tiled, rest);
    if (tensor_core_first(s)) {
      // Float at radius 12 beyond 2^24 pixels: the FFT first (8192x8192: fft 1.60 ms,
      // tensor_core 1.70; radius 11: 1.60 against 1.58; 3840x2160 radius 12: tensor_core
      // 230 us, fft 266).
      if (fft && s.channel_bytes == 4 && s.radius >= 12 && s.pixels() > (1LL << 24))
        return ahead(choice::fft, ahead(choice::tensor_core, rest));
      return ahead(choice::tensor_core, fft ? ahead(choice::fft, rest) : rest);
    }
    if (fft) return ahead(choice::fft, rest);
    // Smaller images too (bench/results/2026-11-26-small/, 128x128 to 1024x1024, best of
    // two runs; since packed's strip kernel and its one-row strips): one channel and four
    // at every size, under every rule (u8 128x128 dense 3x3: 4.3 us, direct 5.25; separable
    // 5x5 4.8 against 6.9; reflect101 5x5 5.1 to 5.3 against direct's 16.5 and shared_mem's
    // 9.2 to 12.3; 512x512 separable 3x3 4.5, direct 5.9; uchar4 128x128 reflect101 dense
    // 3x3: 5.8 us, direct 10.3, shared_mem 7.4; with one-row strips, one-row-small-*.csv,
    // replicate dense 3x3 4.9, direct 5.6; dense 5x5 6.1, shared_mem 6.7).
    const bool packs = s.channel_bytes == 1 && s.radius >= 1 && s.radius <= 2 && (s.channels == 1 || s.channels == 4);
    // But uchar4 below 2^16 pixels under clamp, 3x3 and dense 5x5: direct first since
    // direct2d_kernel (held, 128x128, three runs, bench/results/2026-11-26-lean/: separable
    // 3x3 5.1 to 5.2 us, packed 5.3 to 5.6; dense 3x3 5.1 to 5.2 against 5.5 to 5.6; dense
    // 5x5 6.2 to 6.3 against 6.6 to 6.7; at 256x256 within 4% either way; under reflect101
    // packed leads, 5.8 us against 6.2 at 128x128 separable 3x3).
    if (packs && s.channels == 4 && s.border == border_cost::clamp && s.pixels() < (1LL << 16) &&
        (s.radius == 1 || !s.separable))
      return promote(choice::direct, ahead(choice::packed, rest));
    if (packs) return ahead(choice::packed, rest);
    return rest;
  }

  /// packed first for uchar3 3x3 and 5x5, dense and separable, on one image whose reads
  /// are replicate (packed_three_kernel, kernels/packed_three.hpp), ahead of tiled's
  /// replicate kernels: 3x3 from 1280x720 pixels, 5x5 from 512x512. Held, best of two, on
  /// an H100 (bench/results/2026-12-05-h100-packed3/p3.txt), 0.78 to 0.93 times their time at
  /// dense 3x3 from 1280x720 to 8192x8192, 0.73 to 0.87 at dense 5x5, 0.85 to 0.97 and 0.79
  /// to 0.89 at separable 3x3 and 5x5. Below 1280x720, in its policy's shape against
  /// tiled's kernels in one process (p3-small.txt): at 5x5 0.94 (dense) and 0.97
  /// (separable) at 512x512, 0.90 and 0.97 at 724x724, 0.89 and 0.90 at 1024x720, but 1.02
  /// to 1.15 at 128x128 and 256x256; at 3x3 0.97 to 1.04 at 724x724 and 1024x720, 1.04 to
  /// 1.19 from 128x128 to 512x512, so 3x3 keeps tiled below 1280x720. Filters its plan
  /// refuses run tiled.
  static constexpr bool packed_three(const problem_shape& s) {
    return s.channels == 3 && s.channel_bytes == 1 && s.radius >= 1 && s.radius <= 2 &&
           s.border == border_cost::clamp && s.images == 1 &&
           s.pixels() >= (s.radius == 1 ? 1280LL * 720 : 512LL * 512);
  }

  /// packed first for u8 3x3, dense and separable, on one image whose reads are
  /// replicate, where its launcher runs the wide kernel (packed_wide_kernel,
  /// kernels/packed_wide.hpp: rows aligned to 16 bytes, a width that is a multiple of 16
  /// and at least packed_policy's wide_min_width), beyond 2^18 pixels; ahead of tiled's
  /// replicate kernels, which the clamp rows keep to 2^20 pixels otherwise and which run
  /// next where the plan refuses the filter. Held, through the bench (median of 51), two
  /// runs on an H100 (bench/results/2026-12-06-h100-auto/sweep-*.csv): against tiled 0.99
  /// to 1.01 times its time at 512x512 and 640x480, 0.94 to 1.01 at 768x768, 800x600 and
  /// 960x540, 0.90 to 0.97 at 1024x768, 1280x720 and 1024x1024 (1280x720 dense 3x3: 5.28
  /// us, tiled 5.79); so from 640x480 up, where it is level or ahead (narrower, packed's
  /// strip walk took 1.09 to 1.15 times tiled's time at 256x256 and 384x384). A ROI whose
  /// read rectangle's edges are not on the kernel's words (packed_wide_fit) runs packed's
  /// strip walk instead.
  static constexpr bool packed_wide(const problem_shape& s) {
    using packed_tuned = typename policy_for<A, packed_policy<>>::type;
    return s.channels == 1 && s.channel_bytes == 1 && s.radius == 1 && s.border == border_cost::clamp &&
           s.images == 1 && s.rows_aligned_16 && s.width % 16 == 0 && s.width >= packed_tuned::wide_min_width &&
           s.pixels() > (1LL << 18);
  }

  /// tiled first for separable 3x3 and 5x5 on one image whose reads are replicate where
  /// its launcher runs tiled_sep_clamp_kernel (tiled_policy's clamp_separable_for and
  /// clamp_separable_max_pixels: one channel to 2^20 pixels, uchar3, ushort3 and float3
  /// to 8192x8192, uchar4 to 2^19, ushort4, half4 and bfloat16x4 to 3840x2160, float4 to
  /// 2^22), ahead of direct, packed, shared_mem, streaming and the interior instance
  /// there: held, best of two (bench/results/2026-11-28-sep-clamp/sep-clamp-1.txt), its
  /// shapes took 0.78 to 1.02 times the time of the fastest other family from 128x128 to
  /// 1280x720 (uchar4 to 960x540; 512x512 u8 5x5: 4.99 us, packed 5.79), 1.01 to 1.52
  /// beyond. In that run's final matrix (matrix-hold-final.csv), NPP's Gaussian over
  /// automatic at separable 5x5: 128x128 u8 1.05 and uchar4 1.06 (0.88 and 0.77 before),
  /// 512x512 u8 1.37 (1.11). Four 16- and 32-bit channels (2026-11-28-dense16/sep16-wide-
  /// 1.txt) 0.69 to 1.00 to 1920x1080, ushort4 0.76 to 0.91 times automatic's time at
  /// 2560x1440 and 3840x2160; three channels (2026-12-04-three/three-*.csv) 0.66 to 0.97
  /// times the faster of direct and shared_mem from 128x128 to 8192x8192 and at
  /// 128x65536. Float ROIs up to 256 pixels wide at any size (tiled_policy's clamp_narrow):
  /// 0.83 and 0.90 times automatic's time before at 128x65536, 3x3 and 5x5
  /// (2026-12-05/dense-vec-float.txt), 0.75 to 0.96 from 160 to 256 wide on an H100
  /// (2026-12-05-h100-fused/dv1-sep-narrow.txt). Batches were not measured (the kernel
  /// runs one image) and keep the other rows.
  static constexpr bool clamp_separable(const problem_shape& s) {
    return s.separable && s.border == border_cost::clamp && s.images == 1 && s.height <= 8 * 65535 &&
           tiled_tuned::clamp_separable_for(s.channels, s.channel_bytes, s.radius) &&
           tiled_tuned::clamp_separable_size(s.channels, s.channel_bytes, s.width, s.pixels());
  }

  /// tiled first for dense 3x3 and 5x5 on one image whose reads are replicate where its
  /// launcher runs tiled_dense_clamp_kernel (tiled_policy's clamp_dense_for and
  /// clamp_dense_max_pixels: one channel of 1, 2 and 4 bytes to 2^20 pixels, uchar3,
  /// ushort3 and float3 to 8192x8192, uchar4 3x3 to 2^18 and 5x5 to 2^19, ushort4, half4
  /// and bfloat16x4 to 3840x2160, float4 to 2^21), ahead of direct, packed, shared_mem,
  /// streaming and the interior instance there: held, best of two
  /// (bench/results/2026-11-28-dense-clamp/dense-clamp-1.txt and -2.txt;
  /// 2026-11-28-dense16/dense16-*.txt), its shapes took 0.71 to 1.01 times the time of the
  /// fastest other family from 128x128 to 1280x720 (512x512 float 5x5: 4.83 us, tiled 5.79;
  /// uchar4 128x128 5x5: 4.38, direct 6.21; u16 362x362 5x5: 4.70, direct 5.92), four 16-
  /// and 32-bit channels 0.57 to 0.87 to 1920x1080 (ushort4 5x5: 22.62 us, shared_mem
  /// 38.85) and ushort4 and half4 0.65 to 0.96 times automatic's time at 2560x1440 and
  /// 3840x2160; beyond, 1.05 to 1.27 but for u8 5x5 at 1920x1080 (0.89 and 0.91; larger u8
  /// images were not timed); three channels (2026-12-04-three/three-*.csv, dense3-1.txt)
  /// 0.55 to 0.96 times the faster of direct and shared_mem from 128x128 to 8192x8192,
  /// uchar3 3x3 in its 2 x 2 outputs 0.92 to 0.96 from 512x512 (8192x8192: 309.4 us, direct
  /// 330.2). Float ROIs up to 256 pixels wide at any size (clamp_narrow): 0.85 and 0.93
  /// times automatic's time before at 128x65536, 3x3 and 5x5
  /// (2026-12-05/dense-vec-float.txt), 0.78 to 0.90 from 160 to 256 wide on an H100
  /// (2026-12-05-h100-shapes/dv1-narrow.txt). The grid's height test as clamp_separable's
  /// (tiles of 4 rows and more; the small shape's 4 only to 2^16 pixels). Batches keep the
  /// other rows.
  static constexpr bool clamp_dense(const problem_shape& s) {
    return !s.separable && s.border == border_cost::clamp && s.images == 1 && s.height <= 8 * 65535 &&
           tiled_tuned::clamp_dense_for(s.channels, s.channel_bytes, s.radius) &&
           tiled_tuned::clamp_dense_size(s.channels, s.channel_bytes, s.radius, s.width, s.pixels());
  }

  /// Whether tiled's interior instance would run its frame's replicate instance on s: one
  /// image under clamp at a radius the policy compiles it for (tiled_policy's
  /// FrameClampMaxRadius).
  static constexpr bool clamp_frame(const problem_shape& s) {
    return s.border == border_cost::clamp && s.images == 1 && tiled_tuned::frame_clamp_for(s.radius);
  }

  /// The fewest pixels from which tiled leads where its interior instance runs (the float
  /// and 16-bit rows of choose()); -1 where it never runs. The launcher's limits
  /// (tiled_policy::interior_from, separable_interior_min_pixels), but with the frame's
  /// replicate instance 3x3 from 3 * 2^17 pixels, between 512x512 and 724x724: with the
  /// frame's cells of one row (tiled_policy's small_frame), held, best of two, replicate
  /// (bench/results/2026-11-28-frame-rows/interior-shape-1.txt), tiled took 0.92 to 0.94
  /// times direct's time at 724x724, float and u16, dense and separable (float dense 3x3
  /// 5.89 us against 6.27), and 1.06 to 1.11 at 512x512 (5.63 against 5.15). Before those
  /// cells it began at 786432 pixels (2026-11-28-frame/frame-clamp-small-1.txt).
  static constexpr long long interior_from(const problem_shape& s) {
    const bool c = clamp_frame(s);
    const long long from = s.separable
                               ? tiled_tuned::separable_interior_min_pixels(s.channels, s.channel_bytes, s.radius, c)
                               : tiled_tuned::interior_from(c, s.radius);
    return c && s.radius == 1 && from >= 0 && from < (3LL << 17) ? (3LL << 17) : from;
  }

  /// direct first for one image of one channel under clamp, where its replicate instance
  /// runs (direct_policy's ClampKernel). Held, against the fastest other family:
  ///   16-bit and float (bench/results/2026-11-28-clamp/families-hold.csv): 3x3 float to 2^20
  ///     pixels, dense 5x5 to 2^19 and separable 5x5 to 2^17, now up to where tiled's
  ///     interior instance leads (interior_from: 3x3 below 3 * 2^17 pixels, dense 5x5
  ///     below 2^18). Separable 5x5 0.88 to 0.93 times tiled's time from 128x128 to
  ///     362x362 (362x362 float: 5.79 us, tiled 6.43), 1.05 at 512x512; dense 5x5 0.78
  ///     and 0.80 times shared_mem's at 362x362, 0.85 and 0.86 at 512x512, 0.95 and 1.01
  ///     at 724x724; float 3x3 0.81 (dense) and 0.91 (separable) times tiled's at
  ///     1280x720, 0.91 at 1024x1024, 1.11 and 1.12 at 1920x1080 (tiled before its frame's
  ///     replicate instance).
  ///   u8, ahead of packed (2026-11-28-clamp/u8-small-*.csv, two runs, best of each): 3x3 to 2^18
  ///     pixels, 0.93 to 0.98 times packed's time at 128x128, 256x256 and 512x512; where the
  ///     width is not a multiple of packed's 8 outputs a thread, so that its strip kernel
  ///     cannot run, 3x3 and dense 5x5 to 2^19 and separable 5x5 to 2^18 (181x181 and
  ///     362x362: 0.70 to 0.76; 362x362 dense 5x5 5.63 us, packed 8.00; 724x724 in one
  ///     run, u8-small-final.csv: 0.90 to 0.94, separable 5x5 1.06); not 5x5 where it can
  ///     (128x128 to 512x512: 0.94 to 1.07). Under reflect101 packed keeps them (direct
  ///     0.97 to 1.68).
  /// Batches were not measured and keep the other rows. Since tiled's replicate kernels
  /// (clamp_separable and clamp_dense, which choose() asks first) cover these sizes, this
  /// row decides only where theirs do not hold: images taller than their grids (over
  /// 524,280 rows) and dense filters on one channel wider than 4 bytes.
  static constexpr bool clamp_direct(const problem_shape& s) {
    if (s.border != border_cost::clamp || s.images != 1 || s.channels != 1) return false;
    const long long px = s.pixels();
    if (s.radius < 1 || s.radius > 2) return false;
    if (s.channel_bytes == 1) {
      if (s.width % 8 == 0) return s.radius == 1 && px <= (1LL << 18);  // packed's strip kernel can run
      return px <= (s.radius == 2 && s.separable ? (1LL << 18) : (1LL << 19));
    }
    // Up to tiled's rows (interior_from: 3x3 from 3 * 2^17 pixels, dense 5x5 from
    // 2^18), or where the interior instance never runs to the limits above.
    const long long tiled = interior_from(s);
    if (s.radius == 1) return s.channel_bytes == 4 && (tiled >= 0 ? px < tiled : px <= (1LL << 20));
    return s.separable ? px <= (1LL << 17) : (tiled >= 0 ? px < tiled : px <= (1LL << 19));
  }

  /// tensor_core first (bench/results/2026-11-24-tensor-core/, random dense filters,
  /// replicate, against the best other family): one-channel dense filters of 8-bit, 16-bit
  /// and float pixels up to radius 12 (its 25 x 25 taps),
  ///   u8 from radius 3 beyond 2^20 pixels (8192x8192 radius 3: 267 us, streaming 297;
  ///     radius 7: 424 us, tiled 1335; 1920x1080 radius 3: 17.7 us, tiled 20.2), from
  ///     radius 7 at 2^18 (512x512 radius 7: 18.3 us, streaming 22.4; radius 5: 17.1,
  ///     shared_mem 15.6);
  ///   float from radius 7 beyond 2^20 pixels (8192x8192: 854 us, tiled 1284; radius 5:
  ///     664, streaming 599; 1920x1080 radius 7: 38.2, tiled 48.0; radius 5: 31.4, tiled
  ///     27.7), from radius 9 at 2^18 (512x512 radius 9: 27.2 us, shared_mem 31.9; radius
  ///     7: 20.5, tiled 16.7), and radius 4 and 5 beyond 2^22 up to 2^25 (3840x2160 radius
  ///     4: 70.1 us, tiled 73.5; radius 5: 95.8 against 97.6; radius 3: 61.8 against 58.7;
  ///     8192x8192 radius 4: 458 against streaming's 436).
  /// Then (bench/results/2026-11-24-rows/dense.csv, replicate, constant, reflect101, 512x512
  /// to 5760x3240):
  ///   u8 from radius 5 at 1280x720 (11x11 and up) but not 15x15 at 512x512 (shared_mem:
  ///     tensor_core 1.26 to 1.42x);
  ///   u16 below 2^25 pixels: radius 3 beyond 2^21 pixels under constant and fold rules
  ///     (under clamp 7x7 stays tiled: 5760x3240 tensor_core 1.24x), radius 4 beyond 2^20
  ///     (but 11x11 under clamp beyond 2^22 stays tiled: tensor_core 1.06 to 1.11x),
  ///     radius 7 beyond 2^19 (3840x2160 15x15: shared_mem 1.9 to 2.1x, tiled 1.2 to 1.8x);
  ///   float 15x15 from 1280x720 (tiled 1.20x, shared_mem 1.25x), 9x9 beyond 2^20 pixels
  ///     (1920x1080: tiled 1.11x), and under constant and fold rules from radius 4 beyond
  ///     2^20 pixels and radius 3 beyond 2^22 (1920x1080 float 9x9 constant: shared_mem
  ///     1.13x, tiled 2.66x); 11x11 under clamp stays tiled (3840x2160: tensor_core 1.13x).
  /// Images below 512x512 were not measured. Integer kernels, which the direct families sum
  /// exactly, fall to the rest of the list (its fits()).
  static constexpr bool tensor_core_first(const problem_shape& s) {
    if (s.separable || s.channels != 1 || s.radius < 1 || s.radius > 12) return false;
    const long long px = s.pixels();
    const int r = s.radius;
    if (s.channel_bytes == 1) return (px > (1LL << 20) && r >= 3) || (px > (1LL << 19) && r >= 5);
    const bool clamp = s.border == border_cost::clamp;
    if (s.channel_bytes == 2) {
      if (px >= (1LL << 25)) return false;
      return (px > (1LL << 19) && r >= 7) || (px > (1LL << 21) && r == 3 && !clamp) ||
             (px > (1LL << 20) && r >= 4 && !(clamp && r == 5 && px > (1LL << 22)));
    }
    return (px > (1LL << 19) && r >= 7) || (px >= (1LL << 18) && r >= 9) ||
           (px > (1LL << 20) && px < (1LL << 25) && (r == 4 || (!clamp && r >= 4))) ||
           (px > (1LL << 22) && px < (1LL << 25) && r == 3 && !clamp);
  }

  /// One-channel separable filters below 2^25 pixels, where tiled's separable kernel (its
  /// taps read in place since 7ef9e2d) leads, by border cost (bench/results/2026-11-24-
  /// rows/sep.csv: u8, u16, float, radius 1 to 8, 256x256 to 5760x3240, replicate,
  /// constant and reflect101, every family); an empty preference where the rows below
  /// decide. Radius 2 to 8 (tiled's compiled radii) from 2^18 pixels:
  ///   clamp: tiled (1920x1080 u8 15x15: 18.3 us, shared_mem 27.1, two_pass 28.5; 512x512
  ///     u16 9x9 within 3% of the best);
  ///   constant: tiled beyond 2^20 pixels (1920x1080 float 9x9: shared_mem 1.40x, two_pass
  ///     1.93x);
  ///     below, to radius 4 tiled for float and shared_mem for 8- and 16-bit (1280x720
  ///     u16 5x5: tiled 1.12x), two_pass first beyond (1280x720 u8 15x15: tiled 1.31x);
  ///   fold: tiled beyond 2^22 pixels (3840x2160 u8 17x17 within 1%); beyond 2^20 two_pass
  ///     first from radius 6 (1920x1080 u16 17x17: tiled 1.47x; 2560x1440 1.29x), tiled
  ///     below; 2^20 pixels and below: shared_mem at radius 2 (1280x720 u16 5x5: tiled
  ///     1.15x, before its small-image shapes), two_pass first beyond (512x512 u8 9x9:
  ///     tiled 1.67x).
  /// Float 3x3 beyond 2^19 pixels to 2^23: tiled, but shared_mem under fold rules beyond
  /// 2^22 pixels (and for batches of 2^20 pixels and below); on one image choose()'s tiled
  /// row comes first from 3 * 2^17 pixels (its interior instance).
  /// Before all these, 16-bit and float 5x5 on one image of 2^20 pixels and below: tiled,
  /// in its small-image shapes (tiled_policy::small_shape). Other 3x3 filters there run
  /// direct (choose_family).
  static constexpr preference one_channel_separable(const problem_shape& s) {
    constexpr choice tiled = choice::tiled, smem = choice::shared_mem, two_pass = choice::two_pass;
    const int r = s.radius;
    const long long px = s.pixels();
    const bool fold = s.border == border_cost::fold;
    // 16-bit and float 3x3 and 5x5 on one image of up to 2^20 pixels: tiled, whose shorter
    // tiles there (tiled_policy's small_shape) beat shared_mem and direct under constant and
    // fold rules, and at 5x5 under clamp (bench/results/2026-11-26-mends/: in
    // tiled-small*.txt, float and u16, two runs, their time over automatic's before was
    // 0.53 to 0.98 under constant and reflect101 up to 2^17 pixels, 0.67 to 0.93 to 2^20 but
    // float 3x3 reflect101 at 1024x1024, 1.20 and 0.91; under replicate 5x5 0.76 to 1.02
    // from 362x362. In small-rules.csv, one run with the table before clamp's 5x5 below
    // 2^16, 128x128 to 1280x720, each of the 51 choices it changed took 0.56 to 1.00 times
    // the row of the family it replaced: float 128x128 separable 5x5 reflect101 6.75 us,
    // shared_mem 11.97). Clamp 5x5 at 128x128 and 256x256, over direct and shared_mem,
    // across four runs (smem-rows*.txt, tiled-small*.txt, small-rules.csv,
    // matrix-final.csv): float 0.79 to 1.06 (means 0.93 and 0.86), u16 0.64 to 1.03 (0.79
    // and 0.86). Clamp 3x3 keeps direct (float 128x128: 0.96 to 1.11), and since
    // direct2d_kernel 3x3 runs direct up to 2^19 pixels under every rule (held, float and
    // u16, 128x128 to 512x512, bench/results/2026-11-26-lean/direct-f-u16.csv: direct
    // 0.80 to 0.99 times tiled's time under constant and reflect101; 512x512 float
    // separable 3x3 reflect101 7.0 us, tiled 8.7), 16-bit to 2^20 (1024x1024 u16
    // reflect101: direct 10.4 us, tiled 11.4; direct-f-u16-ldg.csv, an earlier build, 11.0
    // and 11.5; float 10.0 against 9.3); on one image choose()'s tiled rows come first from
    // 3 * 2^17 pixels (the interior instance, interior_from).
    if (tiled_tuned::small_shapes_for(s.channels, s.channel_bytes, r) && s.images == 1 &&
        tiled_tuned::small_shape(px) != 0) {
      if (r == 2 || (s.border != border_cost::clamp && px > (1LL << 19) && s.channel_bytes == 4))
        return {{tiled, smem}};
    }
    if (r == 1) {
      if (s.channel_bytes != 4 || px <= (1LL << 19) || px > (1LL << 23)) return {};
      return fold && (px <= (1LL << 20) || px > (1LL << 22)) ? preference{{smem}} : preference{{tiled, smem}};
    }
    if (r > 8 || px < (1LL << 18)) return {};
    const preference t{{tiled, smem}}, two{{two_pass, tiled, smem}};
    switch (s.border) {
      case border_cost::clamp: return t;
      case border_cost::constant:
        if (px > (1LL << 20)) return t;
        return r <= 4 ? (s.channel_bytes == 4 ? t : preference{{smem}}) : two;
      default:
        if (px > (1LL << 22)) return t;
        if (px > (1LL << 20)) return r >= 6 ? two : t;
        return r == 2 ? preference{{smem}} : preference{{two_pass, smem}};
    }
  }

  /// The choice among the float families (every pixel type).
  static constexpr preference choose_family(const problem_shape& s) {
    constexpr choice none = choice::none, stream = choice::streaming, tiled = choice::tiled,
                     smem = choice::shared_mem, two_pass = choice::two_pass, direct = choice::direct,
                     sliding = choice::sliding;
    const int r = s.radius;
    const long long px = s.pixels();
    const bool one = s.channels == 1, wide_channel = s.channel_bytes > 1;
    // Streaming where its lanes are busy, and never for three channels: its 16-byte vectors
    // hold no whole pixel of them (it would fall to the next choice anyway).
    const choice st = s.width >= 1024 && s.channels != 3 ? stream : none;
    if (r < 1) return {{smem}};
    if (one && s.separable && px < (1LL << 25)) {
      const preference p = one_channel_separable(s);
      if (p.order[0] != none) return p;
    }
    // direct, at radius 1 and 2 (bench/results/2026-11-23-direct/ and -types/):
    //   one channel up to 2^19 pixels (512x512 u8 separable 5x5: 7.2 us, tiled 10.3; float
    //     dense 3x3: 5.2, tiled 6.3; u16 separable 3x3: 5.8, shared_mem 7.5);
    //   8- and 16-bit 3x3 and separable 5x5 up to 2^21 pixels (1920x1080 u8 dense 3x3:
    //     11.1 us, tiled 12.1; separable 5x5: 16.7, shared_mem 18.9; u16 dense 3x3: 11.0,
    //     tiled 12.6; dense 5x5 stays tiled, u8 14.6 against 16.7);
    //   (float separable 3x3 beyond 2^19 pixels: one_channel_separable's tiled);
    //   uchar4 up to 2^16 pixels, separable and dense 3x3 (128x128 separable 5x5: 7.6 us,
    //     naive 8.3; dense 3x3 5.3, shared_mem 5.7; dense 5x5 stays shared_mem, 6.4
    //     against 7.6); from 512x512 shared_mem wins;
    //   uchar3 at every size for 3x3 (8192x8192 dense: 354 us, shared_mem 553; 128x128:
    //     4.9, shared_mem 5.6), dense 5x5 beyond 2^19 pixels (1920x1080: 26.3 us,
    //     shared_mem 33.8; 512x512 shared_mem 8.7 against 9.2), separable 5x5 up to 2^19
    //     (512x512: 9.2, shared_mem 10.0; 1920x1080 shared_mem 25.1 against 26.2).
    //   ushort3 dense 5x5 beyond 2^21 pixels (8192x8192: 894 us, shared_mem 1004; 1920x1080
    //     even at 35.0). Elsewhere ushort3 and float3 run shared_mem, the fastest or within 1%
    //     of it at 512x512, 1920x1080 and 8192x8192 (bench/results/2026-11-23-three-channel/).
    //   (Three channels of one image under clamp at 3x3 and 5x5 run tiled's replicate
    //     kernels first, clamp_separable and clamp_dense, up to their limits.)
    if (r <= 2) {
      if (one) {
        // 16-bit and float under every rule since direct2d_kernel maps a border block's
        // columns once (bench/results/2026-11-26-lean/direct-f-u16.csv, held, 128x128 to
        // 512x512: 3x3, and dense 5x5 to 2^16 pixels, direct took 0.66 to 1.00 times the
        // time of the better of shared_mem and tiled; float 128x128 dense 3x3 reflect101
        // 5.8 us, shared_mem 8.9; u16 256x256 dense 5x5 constant 6.1, shared_mem 7.5), but
        // not 5x5 beyond 2^16 pixels, where it gains nothing (512x512 dense 5x5: direct
        // 0.96 to 1.06 times shared_mem's time).
        const bool not_direct = s.channel_bytes > 1 && r == 2 && px > (1LL << 16);
        if (px <= (1LL << 19)) return not_direct ? preference{{smem}} : preference{{direct, smem}};
        if (s.channel_bytes <= 2 && px <= (1LL << 21) && (r == 1 || s.separable)) return {{direct, smem}};
      } else if (s.channels == 4 && s.channel_bytes == 1 && px <= (1LL << 16) && (s.separable || r == 1)) {
        return {{direct, smem}};
      } else if (s.channels == 3) {
        if (s.channel_bytes == 1 && (r == 1 || (s.separable ? px <= (1LL << 19) : px > (1LL << 19))))
          return {{direct, smem}};
        if (s.channel_bytes == 2 && !s.separable && r == 2 && px > (1LL << 21)) return {{direct, smem}};
        // ushort3 and float3 3x3 up to 2^16 pixels since direct2d_kernel (held, 128x128 and
        // 256x256, replicate and reflect101, bench/results/2026-11-26-lean/direct-wide.csv:
        // direct 0.89 to 1.02 times shared_mem's time; float3 128x128 dense 3x3 5.3 us,
        // shared_mem 6.0); from 512x512 shared_mem (float3 3x3: direct 1.18 to 1.56x).
        if (r == 1 && px <= (1LL << 16)) return {{direct, smem}};
        return {{smem}};
      }
    }
    // sliding, separable u8, float and uchar4 filters (bench/results/2026-11-24-sliding/,
    // replicate, against every other family and NPP in the same run):
    //   beyond 2^21 pixels from radius 5 (8192x8192 11x11 to 31x31: float 322 to 584 us,
    //     the best other family 408 to 957; u8 341 to 597 against 427 to 952; uchar4 763
    //     to 1637 against 1266 to 2751), not at radius 2 and 3 (streaming: 8192x8192 float
    //     7x7 215 against 306); but one channel below 2^25 runs tiled to radius 8
    //     (one_channel_separable) and two_pass first beyond (bench/results/2026-11-24-bands/,
    //     replicate and reflect101: 3840x2160 31x31 110 and 113 us, sliding 135 and 215;
    //     5760x3240 31x31 234 and 236 against 211 and 303);
    //   uchar4 from radius 3 below 2^25 pixels (3840x2160 7x7: 95.9 us, streaming 98.4,
    //     shared_mem 107; 1920x1080: 31.3 against 34.3; radius 4, between 3 and 5 where
    //     sliding led, not measured), and at radius 3 beyond, after streaming (8192x8192
    //     7x7: streaming 571, sliding 645, shared_mem 767; radius 4 keeps shared_mem);
    //   at 2^19 pixels and below, where its tiles are cut short so that the grid fills a
    //     wave (small-*.csv): radius 3 for float and uchar4 (128x128 float 7x7: 7.8 us,
    //     naive 9.5; uchar4 9.1 against 11.0) and, beyond 2^16 pixels, u8 (512x512: 10.8
    //     against 13.4; from 2^18 pixels one_channel_separable's rows); float to radius 7
    //     beyond 2^16 (512x512 15x15: 12.4, two_pass 13.5; from 2^18 tiled, 9.2 against
    //     sliding's 12.5 in 2026-11-24-rows/sep.csv); radius 5 and up otherwise stays two_pass.
    //   Batches count all their pixels: 64 frames of 1920x1080 run sliding (u8 15x15: 1216
    //     us, shared_mem 1989, two_pass 1659), batches of narrow images below.
    const bool sliding_measured = one ? s.channel_bytes != 2 : s.channels == 4 && s.channel_bytes == 1;
    if (s.separable && sliding_measured && px <= (1LL << 19)) {
      const bool float_one = one && s.channel_bytes == 4;
      if (r == 3 && (float_one || !one || px > (1LL << 16))) return {{sliding, smem}};
      if (float_one && r >= 3 && r <= 7 && px > (1LL << 16)) return {{sliding, smem}};
    }
    if (s.separable && sliding_measured && px > (1LL << 19)) {
      if (!one && r == 3 && px >= (1LL << 25) && st != none) return {{stream, sliding, smem}};
      if (px > (1LL << 21) && r >= 5) {
        if (st != none && one && px < (1LL << 25)) return {{two_pass, sliding, smem}};  // radius 9 and up
        if (st != none) return {{sliding, smem}};
        // Narrow images, measured as a batch of 4096 of 128x128 (one image under 1024 columns
        // taken to behave alike, not measured): two_pass into a caller's workspace
        // leads but for float to radius 7 (u8 15x15: 994 us, sliding 1350, tiled 2155;
        // float: sliding 854 against 994), and tiled beats sliding for four channels to
        // radius 8 (uchar4 15x15: 2620 against 3418).
        if (!one) return r <= 8 ? preference{{two_pass, tiled, smem}} : preference{{two_pass, sliding, smem}};
        return s.channel_bytes == 4 && r <= 7 ? preference{{sliding, two_pass, smem}}
                                              : preference{{two_pass, sliding, smem}};
      }
      if (!one && r >= 3 && px < (1LL << 25)) return {{sliding, smem}};
    }
    // Four 16-bit channels (ushort4), dense 5x5 to 17x17: tiled's 4 x 4 outputs of four
    // channels lose to shared_mem up to radius 4 (1920x1080 5x5: 51.5 us against 39.3;
    // 3840x2160 9x9: streaming 290, shared_mem 354, tiled 411) and on small images.
    if (!one && s.channel_bytes == 2 && !s.separable && r >= 2 && r <= 8) {
      if (r <= 4) return px > (1LL << 21) && st != none ? preference{{stream, smem}} : preference{{smem}};
      return px > (1LL << 19) ? preference{{tiled, smem}} : preference{{smem}};
    }
    if (px <= (1LL << 16)) {
      if (s.separable) return r <= 3 ? preference{} : preference{{two_pass, r <= 7 ? none : smem}};
      // Not one-channel float, as at 2^19 below (128x128 and 256x256 float dense 15x15:
      // tiled 21.8 and 21.9 us, shared_mem 11.4 and 11.5 under replicate, 92.1 and 96.0
      // against 13.8 and 14.0 under reflect101; bench/results/2026-11-25-frame/).
      if (wide_channel && r >= 6 && r <= 8 && !(one && s.channel_bytes == 4)) return {{tiled, smem}};
      return {{smem}};
    }
    if (px <= (1LL << 19)) {
      if (s.separable) {
        const choice first = r >= 4 ? two_pass : none;
        if (r > 8) return {{first, smem}};
        return r >= 2 && (one || r >= 5) ? preference{{first, tiled, smem}} : preference{{first, smem}};
      }
      if (r > 8) return {{smem}};
      // One channel at radius 6 to 8: shared_mem (512x512 15x15: tiled 1.45 to 1.84x under
      // replicate, 2026-11-24-rows/dense.csv).
      if ((r >= 6 && !one) || (one && s.channel_bytes == 4 && r <= 2)) return {{tiled, smem}};
      return {{smem}};
    }
    if (px < (1LL << 25)) {
      // One-channel 16-bit 3x3 beyond 2^23 pixels, separable or dense: direct (5760x3240:
      // streaming 1.24 to 1.86x separable, 1.31 to 1.79x dense; 2026-11-24-rows/).
      if (one && s.channel_bytes == 2 && r == 1 && px > (1LL << 23)) return {{direct, smem}};
      if (s.separable) {
        if (r > 10) return {{two_pass, smem}};
        if (!one) {  // four channels: streaming for 3x3, and 5x5 beyond 2^22 pixels; shared_mem
          // Too narrow to stream: tiled for 5x5, but for 16-bit channels (128x65536 ushort4:
          // shared_mem 124 us, tiled 153; half4 119 against 152; uchar4 tiled 111, shared_mem 122).
          if (st == none) return r == 2 && s.channel_bytes != 2 ? preference{{tiled, smem}} : preference{{smem}};
          return r == 1 || (r == 2 && px > (1LL << 22)) ? preference{{stream, smem}} : preference{{smem}};
        }
        // One channel at radius 1 but float to 2^23 pixels, and from radius 9
        // (one_channel_separable takes the rest), from bench/results/2026-11-24-bands/:
        // 5760x3240 float 3x3 shared_mem 58.0 and 63.0 us (replicate, reflect101), streaming
        // 65.0 and 72.6.
        if (r == 1) {
          if (s.channel_bytes == 4 && st != none) return {{smem}};
          const long long from = 1LL << (s.channel_bytes == 4 ? 23 : 21);  // streaming beyond, tiled below
          return px > from ? preference{{st, tiled, smem}} : preference{{tiled, smem}};
        }
        return {{smem}};
      }
      if (r > 8) return {{smem}};
      // One channel under constant and fold rules: shared_mem (2^21 pixels and below at
      // radius 1), where tiled's perimeter tiles set the time (2026-11-24-rows/borders.csv
      // and dense.csv, constant and reflect101: 1280x720 float 5x5 10.0 and 12.2 us, tiled
      // 22.4 and 29.4; 1920x1080 float 3x3 12.4 and 14.8 against 13.5 and 18.3; 5760x3240
      // float 5x5 tiled 1.06 and 1.12x; 3840x2160 float 3x3 tiled 33.7 and 38.7 against
      // 38.9 and 41.0).
      if (one && s.border != border_cost::clamp && (r >= 2 || px <= (1LL << 21))) return {{smem}};
      // One channel to 2^20 pixels from radius 2 under clamp too (1280x720 u16 9x9: tiled
      // 1.50x shared_mem; u8 7x7 1.22x; float 5x5 within 1%; dense.csv).
      if (one && r >= 2 && px <= (1LL << 20)) return {{smem}};
      if (!one && r == 1) return st == none ? preference{{smem}} : preference{{st, tiled, smem}};
      if (!one && r == 2) {  // streaming beyond 2^21 pixels, tiled below; shared_mem if narrow
        if (st == none) return {{smem}};
        return px > (1LL << 21) ? preference{{stream, tiled, smem}} : preference{{tiled, smem}};
      }
      // 16-bit 3x3 beyond 2^21 pixels to 2^23: streaming (u16 28.3 us at 3840x2160, tiled
      // 30.8; 2560x1440 within 4% of direct, tiled 1.28 to 1.52x); beyond, direct (above).
      if (s.channel_bytes == 2 && r == 1 && st != none && px > (1LL << 21)) return {{stream, tiled, smem}};
      // uchar4 9x9 beyond 2^22 pixels: streaming (replicate and reflect101, 3840x2160: 258
      // and 282 us, tiled 255 and 336; 5760x3240: 528 and 552 against 543 and 641).
      if (!one && s.channel_bytes == 1 && r == 4 && st != none && px > (1LL << 22)) return {{stream, tiled, smem}};
      return {{tiled, smem}};
    }
    if (s.separable) {  // ushort4 streams to radius 4 too (8192x8192 9x9: 1275 us, shared_mem 1394)
      // Too narrow to stream (batches of small images): tiled, as below 2^25 pixels (4096
      // images of 128x128 u8, 3x3: tiled 226 us, shared_mem 466).
      if (st == none && r <= 8) return {{tiled, smem}};
      if (r <= (one || s.channel_bytes == 2 ? 4 : 2)) return {{st, smem}};
      if (r <= 10) return {{smem}};
      return {{two_pass, smem}};
    }
    if (r <= 5) return {{st, tiled, smem}};
    if (r <= 8) return {{tiled, smem}};
    return {{smem}};
  }
};

/// The architectures whose tables a build can use: each is compiled in only where it is a
/// target of the backend (the generic table always).
#if defined(HIPSTENCIL_BACKEND_HIP)
using compiled_archs = std::integer_sequence<int, int(arch::generic), int(arch::gfx90a), int(arch::gfx942),
                                             int(arch::gfx1030)>;
#else
using compiled_archs = std::integer_sequence<int, int(arch::generic), int(arch::sm_90)>;
#endif

/// Calls fn(std::integral_constant<arch, A>{}) for the compiled architecture A == a (the
/// generic table for any other).
template <class Fn, int... A>
decltype(auto) with_arch(arch a, Fn&& fn, std::integer_sequence<int, A...>) {
  using R = decltype(fn(std::integral_constant<arch, arch::generic>{}));
  if constexpr (std::is_void<R>::value) {
    bool done = false;
    ((!done && int(a) == A ? (fn(std::integral_constant<arch, arch(A)>{}), done = true) : false), ...);
    if (!done) fn(std::integral_constant<arch, arch::generic>{});
  } else {
    R r{};
    bool done = false;
    ((!done && int(a) == A ? (r = fn(std::integral_constant<arch, arch(A)>{}), done = true) : false), ...);
    if (!done) r = fn(std::integral_constant<arch, arch::generic>{});
    return r;
  }
}
template <class Fn>
decltype(auto) with_arch(arch a, Fn&& fn) {
  return with_arch(a, static_cast<Fn&&>(fn), compiled_archs{});
}

}  // namespace tuning
}  // namespace hipstencil
