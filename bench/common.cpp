// bench/common.cpp
// Names, filters, statistics and the event timer shared by every part of the benchmark.
#include "bench.hpp"

#include <cstdint>
#include <numeric>

#include "random.hpp"

namespace bench {

const char* name(pixel p) {
  switch (p) {
    case pixel::u8: return "u8";
    case pixel::u16: return "u16";
    case pixel::s16: return "s16";
    case pixel::f32: return "float";
    case pixel::rgba8: return "uchar4";
    case pixel::rgba16: return "ushort4";
    case pixel::f16: return "half";
    case pixel::bf16: return "bfloat16";
    case pixel::rgb8: return "uchar3";
    case pixel::rgb16: return "ushort3";
    case pixel::rgb32f: return "float3";
    case pixel::rgba16f: return "half4";
    case pixel::rgba16bf: return "bfloat16x4";
  }
  return "?";
}
const std::vector<algorithm>& algorithms() {
  static const std::vector<algorithm> list = [] {
    std::vector<algorithm> v;
    hs::algo::for_each_family([&](auto tag) {
      using Tag = decltype(tag);
      v.push_back(algorithm{Tag::name, hs::algo::takes_dense<Tag>, hs::algo::takes_separable<Tag>});
    });
    v.push_back(algorithm{hs::algo::automatic::name, true, true});
    return v;
  }();
  return list;
}
const std::vector<pixel>& all_pixels() {
  static const std::vector<pixel> list{pixel::u8,    pixel::u16,    pixel::s16, pixel::f32,
                                         pixel::rgba8, pixel::rgba16, pixel::f16, pixel::bf16, pixel::rgb8,
                                         pixel::rgb16, pixel::rgb32f, pixel::rgba16f, pixel::rgba16bf};
  return list;
}
const std::vector<pixel>& batch_pixels() {
  static const std::vector<pixel> list{pixel::u8, pixel::f32, pixel::rgba8};
  return list;
}
std::size_t pixel_bytes(pixel p) {
  switch (p) {
    case pixel::u8: return 1;
    case pixel::u16:
    case pixel::f16:
    case pixel::bf16:
    case pixel::s16: return 2;
    case pixel::rgb8: return 3;
    case pixel::rgb16: return 6;
    case pixel::rgb32f: return 12;
    case pixel::f32:
    case pixel::rgba8: return 4;
    case pixel::rgba16:
    case pixel::rgba16f:
    case pixel::rgba16bf: return 8;
  }
  return 0;
}
int pixel_channels(pixel p) {
  if (p == pixel::rgba8 || p == pixel::rgba16 || p == pixel::rgba16f || p == pixel::rgba16bf) return 4;
  return p == pixel::rgb8 || p == pixel::rgb16 || p == pixel::rgb32f ? 3 : 1;
}

filter_set make_filters(int radius, bool rank_one, bool log) {
  filter_set f;
  f.radius = radius;
  f.row = hs::filters::gaussian_taps(0.4 + 0.6 * radius, radius);
  f.column = f.row;
  const int k = 2 * radius + 1;
  splitmix64 rng(0x9e3779b97f4a7c15ull ^ std::uint64_t(radius));
  f.dense.resize(std::size_t(k) * k);
  for (float& c : f.dense) c = 0.05f + rng.unit_float();  // positive, never zero
  const float sum = std::accumulate(f.dense.begin(), f.dense.end(), 0.0f);
  for (float& c : f.dense) c /= sum;
  if (rank_one)
    for (int j = 0; j < k; ++j)
      for (int i = 0; i < k; ++i) f.dense[std::size_t(j) * k + i] = f.column[j] * f.row[i];
  if (log) f.dense = hs::filters::laplacian_of_gaussian(0.3 + radius / 3.0, radius).coefficients();
  return f;
}

timing summarize(std::vector<double> ms) {
  timing t;
  t.runs = int(ms.size());
  if (ms.empty()) return t;
  std::sort(ms.begin(), ms.end());
  const std::size_t n = ms.size();
  t.median_ms = n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2]);
  t.min_ms = ms.front();
  t.max_ms = ms.back();
  return t;
}

namespace {
__global__ void hold_kernel(long long cycles) {
  const long long t0 = clock64();
  while (clock64() - t0 < cycles) {
  }
}
}  // namespace

void hold_stream(gpu::stream_t stream, double us) {
  hold_kernel<<<1, 1, 0, stream>>>((long long)(us * 2000.0));
  gpu::check(gpu::get_last_error(), "hold_kernel");
}

run_timer::run_timer(gpu::stream_t stream, int runs, int warmup, bool hold)
    : stream_(stream), runs_(runs), warmup_(warmup), hold_(hold) {
  events_.reserve(2 * std::size_t(runs));
  for (int i = 0; i < 2 * runs; ++i) events_.push_back(gpu::event_create());
}
run_timer::~run_timer() {
  for (gpu::event_t e : events_) gpu::event_destroy(e);
}
timing run_timer::collect() {
  gpu::event_synchronize(events_.back());
  gpu::check(gpu::get_last_error(), "timed launch");
  std::vector<double> ms(runs_);
  for (int i = 0; i < runs_; ++i) ms[i] = gpu::event_elapsed_ms(events_[2 * i], events_[2 * i + 1]);
  return summarize(std::move(ms));
}

int multiprocessor_count() {
  int n = 0;
#if defined(HIPSTENCIL_BACKEND_HIP)
  gpu::check(hipDeviceGetAttribute(&n, hipDeviceAttributeMultiprocessorCount, gpu::current_device()),
             "DeviceGetAttribute(MultiprocessorCount)");
#else
  gpu::check(cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, gpu::current_device()),
             "DeviceGetAttribute(MultiProcessorCount)");
#endif
  return n;
}

}  // namespace bench
