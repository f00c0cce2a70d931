// bench/bench.hpp
// Shared vocabulary of the benchmark: what a case is, how one is timed, what a result
// holds, and the entry points each translation unit provides. The benchmark is split by
// pixel type (suite_u8.cpp, suite_u16.cpp, suite_s16.cpp, suite_float.cpp,
// suite_uchar4.cpp) so that nvcc and hipcc compile the five sets in parallel; everything
// else is host logic.
#pragma once

#include <algorithm>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include <hipstencil/hipstencil.hpp>

namespace bench {

namespace hs = hipstencil;
namespace gpu = hipstencil::gpu;

// ------------------------------------------------------------------------------ the cases

/// Pixel types measured: the (In, Out) pairs u8->u8, u16->u16 (std::uint16_t), s16->s16
/// (std::int16_t), float->float, uchar4->uchar4, ushort4->ushort4 (rgba16), half->half
/// (f16), bfloat16->bfloat16 (bf16), uchar3->uchar3 (rgb8), ushort3->ushort3 (rgb16),
/// float3->float3 (rgb32f), half4->half4 (rgba16f), bfloat16x4->bfloat16x4 (rgba16bf) only. Each
/// pair runs every kernel family, so each must be a pair of detail/instance_list.inc
/// (precompiled for every family) that tests/gpu/test_algos_*.cpp tests for every family
/// (each costs compile time in CI).
enum class pixel { u8, u16, s16, f32, rgba8, rgba16, f16, bf16, rgb8, rgb16, rgb32f, rgba16f, rgba16bf };
/// Every pixel type, in table order (the command line's names: name(pixel)).
const std::vector<pixel>& all_pixels();
/// The pixel types --batch runs: u8, f32, rgba8, the pairs whose batched kernels
/// detail/batch_instance_list.inc precompiles (suite.hpp's batch_pixel says the same at
/// compile time, so that no other suite instantiates them).
const std::vector<pixel>& batch_pixels();
/// An algorithm the benchmark can time: the tag of every kernel family in the library's
/// list (hs::algo::for_each_family, detail/families.hpp), in that order, then
/// hs::algo::automatic. Cases name their algorithm by `name` (Tag::name).
struct algorithm {
  std::string name;
  bool dense = true;      ///< takes a dense filter2d (hs::algo::takes_dense)
  bool separable = true;  ///< takes a separable_filter (hs::algo::takes_separable)
};
/// The algorithms in the order the table prints them (common.cpp).
const std::vector<algorithm>& algorithms();
/// The name of hs::algo::automatic, the one algorithm that is not a family.
inline const char* automatic_name() { return hs::algo::automatic::name; }
/// With --batch N: automatic called once per image (a loop of N convolve calls), the way
/// to filter a batch without convolve_batch.
inline const char* loop_name() { return "loop"; }
/// With --batch N: the same images as a variable-shape batch (convolve_batch over a list
/// of varshape_image, one kernel for any sizes and filters).
inline const char* varshape_name() { return "varshape"; }
/// How a batch case runs its images: one convolve_batch call, a loop of convolve calls, or
/// one variable-shape convolve_batch call.
enum class batch_form { call, loop, varshape };

/// Border rules are the library's: hs::border::kind, named by hs::border::name, any rule of
/// hs::border::all_rules. `padded` is the no-check baseline: the source is the interior of
/// a larger allocation whose halo holds real pixels, and the rule is border::padded.
/// `constant` pads with 0. `skip` writes only the outputs whose window lies inside the
/// image (the spot check compares those only).

const char* name(pixel p);
/// Bytes of one pixel, and its channel count.
std::size_t pixel_bytes(pixel p);
int pixel_channels(pixel p);

/// One timed configuration: a pixel type, a filter (separable or dense, of a radius), a
/// border rule and an algorithm, on a width x height image.
struct bench_case {
  pixel type;
  bool separable;
  int radius;
  hs::border::kind border;
  std::string algo;    ///< an algorithms() name: a family's Tag::name, or "automatic"
  int strip_rows = 0;  ///< algo::streaming's and algo::packed's strip height (0: the library's choice)
  bool rank_one = false;  ///< dense: the separable Gaussian's outer product, not random taps
  bool log = false;       ///< dense: a Laplacian of Gaussian (rank two), not random taps
};
/// The filter column of the table and the CSV: "separable", "dense", "dense-rank1", "dense-log".
inline const char* filter_name(const bench_case& c) {
  return c.separable ? "separable" : c.rank_one ? "dense-rank1" : c.log ? "dense-log" : "dense";
}

/// The filter coefficients of a (separable, radius) pair, the same for hipstencil and the
/// peers. Separable: the Gaussian NPP's FilterGaussBorder uses for that mask size (sigma
/// = 0.4 + 0.6 r), so the fixed-mask peer computes the same filter. Dense: positive random
/// coefficients summing to 1 (so uint8 outputs stay in range), seeded by the radius; or,
/// with `rank_one`, the separable Gaussian's outer product (a filter2d that algo::automatic
/// runs as its separable factors, and NPP as the dense filter it is); with `log`, the
/// Laplacian of Gaussian of sigma 0.3 + r / 3 (filters::laplacian_of_gaussian: rank two,
/// which algo::automatic runs as two separable terms where its table says so).
struct filter_set {
  int radius;
  std::vector<float> row, column;  ///< separable taps (2r + 1 each)
  std::vector<float> dense;        ///< (2r + 1)^2 taps, row-major
};
filter_set make_filters(int radius, bool rank_one = false, bool log = false);

/// FMAs per output channel: kw * kh for a dense filter, kw + kh for a separable one.
inline double taps_per_output(bool separable, int radius) {
  const double k = 2.0 * radius + 1.0;
  return separable ? 2.0 * k : k * k;
}

// ------------------------------------------------------------------------------- timing

/// Median, minimum and maximum of the timed runs, in milliseconds.
struct timing {
  double median_ms = 0, min_ms = 0, max_ms = 0;
  int runs = 0;
};
/// Summarises per-run times (median of an even count: mean of the two middle values).
timing summarize(std::vector<double> ms);

/// Holds `stream` for about `us` microseconds: a one-thread kernel that spins on its
/// multiprocessor's clock (counted at 2 GHz, about the H200's boost clock; a slower clock
/// holds longer). Work queued behind it waits on the device, not on the host.
void hold_stream(gpu::stream_t stream, double us);

/// Times work queued on one stream with device events: one untimed run
/// (writes every output once, loads the module, creates any handle) followed by a host
/// synchronisation, `warmup` more untimed runs, then `runs` runs each bracketed by its own
/// pair of events. Nothing synchronises the host between the warm-up and the last event.
/// The events are created once and reused.
/// With `hold` (hipstencil-bench --hold), hold_stream first, for longer than the host takes
/// to queue the rest: the device then runs the whole queue back to back and no interval
/// can hold host time (nvbench holds its stream with a blocking kernel for this). Without
/// it, a call shorter on the device than on the host (small images) finds the device idle,
/// and an interval may hold the host's time between the launches of the call. Measured
/// on the H200, 128x128 to 1920x1080, u8, uchar4 and float, 3x3 and 5x5, replicate (bench/
/// results/2026-11-26-ci-o0/hold-*.csv against nohold-1.csv), held rows took more, NPP's
/// and ours alike: medians 0.5 us more at 128x128 and 512x512, 0.2 at 1920x1080; but NPP's
/// fixed-tap Gaussians at 128x128 took less (float 3x3 4.1 us against 5.0). Held,
/// automatic over the fastest hipstencil row stayed within 1.06; unheld it reached 1.30
/// (u8 512x512 separable 3x3: the same kernel). The default stays unheld, as every earlier
/// figure of bench/RESULTS.md was taken.
class run_timer {
 public:
  run_timer(gpu::stream_t stream, int runs, int warmup, bool hold = false);
  ~run_timer();
  run_timer(const run_timer&) = delete;
  run_timer& operator=(const run_timer&) = delete;

  template <class Launch>
  timing time(Launch&& launch) {
    launch();
    gpu::stream_synchronize(stream_);
    // 50 us of host time a call, far more than any call here takes to queue, and at least 0.5 ms.
    if (hold_) hold_stream(stream_, 500.0 + 50.0 * (warmup_ + runs_));
    for (int i = 0; i < warmup_; ++i) launch();
    for (int i = 0; i < runs_; ++i) {
      gpu::event_record(events_[2 * i], stream_);
      launch();
      gpu::event_record(events_[2 * i + 1], stream_);
    }
    return collect();
  }
  gpu::stream_t stream() const { return stream_; }
  int runs() const { return runs_; }

 private:
  timing collect();
  gpu::stream_t stream_;
  int runs_, warmup_;
  bool hold_;
  std::vector<gpu::event_t> events_;
};

// ------------------------------------------------------------------------------ ceilings

/// The two ceilings, measured in the same run as the cases.
struct ceilings {
  double copy_gbps = 0;     ///< device-to-device copy: (bytes read + bytes written) / time
  double fma_per_s = 0;     ///< FP32 FMAs per second of the microkernel
  std::size_t copy_bytes = 0;
  timing copy, fma;
  double fma_count = 0;     ///< FMAs of one microkernel launch
  int multiprocessors = 0;
};
ceilings measure_ceilings(run_timer& timer);

/// Multiprocessors (compute units) of the current device.
int multiprocessor_count();

// ------------------------------------------------------------------------------- results

/// Outcome of the spot check of one case against the host reference.
struct check_result {
  bool ran = false;
  bool ok = true;
  double max_error = 0;  ///< largest |gpu - reference| over the checked channels
};

/// One measured implementation of one case: hipstencil (impl "hipstencil", variant = the
/// algorithm) or a peer (impl "npp", variant = the function family).
struct measurement {
  std::string impl, variant;
  timing t;
  check_result check;
  std::string error;  ///< non-empty when the case could not run (the message)
  /// hipstencil only: what the call actually ran, hs::resolved_algorithm(...).str() for the
  /// same arguments ("streaming r=1 separable tile_class sm_90"); empty for a peer.
  std::string resolved;
};

/// The device memory a peer needs for one pixel type: the unpadded source and the output;
/// with --batch, `images` of each, the strides apart (a peer calls once per image).
struct device_images {
  const void* src = nullptr;
  std::size_t src_pitch = 0;
  void* dst = nullptr;
  std::size_t dst_pitch = 0;
  int width = 0, height = 0;
  int images = 1;
  std::size_t src_image_bytes = 0, dst_image_bytes = 0;
};

/// All the cases of one pixel type over one set of device images. Created per type so that
/// only one type's images are resident at a time.
class suite {
 public:
  virtual ~suite() = default;
  /// Times hipstencil on `c` (c.type must be this suite's) and spot-checks its output.
  virtual measurement run(const bench_case& c, const filter_set& f, bool check) = 0;
  virtual device_images images() = 0;
};
/// Factories, one per translation unit. `max_radius` sizes the halo of the padded source;
/// `images` > 1: the cases filter batches of that many images (convolve_batch).
std::unique_ptr<suite> make_suite_u8(int width, int height, int images, int max_radius, run_timer& timer);
std::unique_ptr<suite> make_suite_u16(int width, int height, int images, int max_radius, run_timer& timer);
std::unique_ptr<suite> make_suite_s16(int width, int height, int images, int max_radius, run_timer& timer);
std::unique_ptr<suite> make_suite_f32(int width, int height, int images, int max_radius, run_timer& timer);
std::unique_ptr<suite> make_suite_rgba8(int width, int height, int images, int max_radius, run_timer& timer);
std::unique_ptr<suite> make_suite_rgba16(int width, int height, int images, int max_radius, run_timer& timer);
std::unique_ptr<suite> make_suite_f16(int width, int height, int images, int max_radius, run_timer& timer);
std::unique_ptr<suite> make_suite_bf16(int width, int height, int images, int max_radius, run_timer& timer);
std::unique_ptr<suite> make_suite_rgb8(int width, int height, int images, int max_radius, run_timer& timer);
std::unique_ptr<suite> make_suite_rgb16(int width, int height, int images, int max_radius, run_timer& timer);
std::unique_ptr<suite> make_suite_rgb32f(int width, int height, int images, int max_radius, run_timer& timer);
std::unique_ptr<suite> make_suite_rgba16f(int width, int height, int images, int max_radius, run_timer& timer);
std::unique_ptr<suite> make_suite_rgba16bf(int width, int height, int images, int max_radius, run_timer& timer);

/// NPP, the peer (npp_peer.cpp; CUDA backend with NPP found at configure time only).
/// Times every NPP function family that computes case (type, separable, radius, border)
/// and returns one measurement each; a family NPP rejects comes back with `error` set to
/// its status. Empty for borders NPP has no rule for (all but replicate and constant).
std::vector<measurement> time_npp(pixel type, bool separable, const filter_set& f, hs::border::kind border,
                                  const device_images& im, run_timer& timer);
/// "NPP <major>.<minor>.<build>" of the library linked, or why there is none.
std::string npp_description();
bool npp_linked();

}  // namespace bench
