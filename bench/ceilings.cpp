// bench/ceilings.cpp
// The two ceilings every case is compared with, measured in the same run:
//   memory:     a device-to-device copy of a buffer 16 times the H200's 60 MB L2 (so it
//               streams from HBM), counting bytes read plus bytes written;
//   arithmetic: FP32 FMAs per second of a microkernel that keeps 16 independent FMA
//               chains per thread on every multiprocessor at full occupancy, so that the
//               FMA pipes, not dependency latency, bound it.
#include "bench.hpp"

namespace bench {
namespace {

constexpr int fma_chains = 16;
constexpr int fma_iterations = 8192;
constexpr int fma_block = 256;
constexpr int fma_blocks_per_multiprocessor = 8;  // 2048 threads: full occupancy on sm_90
constexpr std::size_t copy_bytes = std::size_t(1) << 30;

/// a and b are kernel arguments, so the compiler cannot fold the chains; the sum is stored
/// so that none of them is dead.
__global__ void __launch_bounds__(fma_block) fma_kernel(float* out, float a, float b) {
  float v[fma_chains];
#pragma unroll
  for (int c = 0; c < fma_chains; ++c) v[c] = float(threadIdx.x) * 1e-3f + float(c);
#pragma unroll 4
  for (int i = 0; i < fma_iterations; ++i)
#pragma unroll
    for (int c = 0; c < fma_chains; ++c) v[c] = fmaf(v[c], a, b);
  float s = 0;
#pragma unroll
  for (int c = 0; c < fma_chains; ++c) s += v[c];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

/// Device memory released on scope exit.
struct scoped_allocation {
  explicit scoped_allocation(std::size_t bytes) : p(gpu::malloc(bytes)) {}
  ~scoped_allocation() { gpu::free(p); }
  void* p;
};

void measure_copy(ceilings& c, run_timer& timer) {
  scoped_allocation from(copy_bytes), to(copy_bytes);
  // Not zeros (a GPU may compress them, flattering the copy): a byte pattern, set once.
  gpu::memset_2d(from.p, copy_bytes, 0x5a, copy_bytes, 1, timer.stream());
  c.copy_bytes = copy_bytes;
  c.copy = timer.time(
      [&] { gpu::memcpy(to.p, from.p, copy_bytes, gpu::copy_kind::device_to_device, timer.stream()); });
  c.copy_gbps = 2.0 * double(copy_bytes) / (c.copy.median_ms * 1e-3) / 1e9;
}

void measure_fma(ceilings& c, run_timer& timer) {
  const int blocks = c.multiprocessors * fma_blocks_per_multiprocessor;
  scoped_allocation out(std::size_t(blocks) * fma_block * sizeof(float));
  float* o = static_cast<float*>(out.p);
  c.fma = timer.time([&] {
    fma_kernel<<<blocks, fma_block, 0, timer.stream()>>>(o, 0.999f, 1e-3f);
    gpu::check_launch("fma_kernel");
  });
  c.fma_count = double(blocks) * fma_block * double(fma_iterations) * fma_chains;
  c.fma_per_s = c.fma_count / (c.fma.median_ms * 1e-3);
}

}  // namespace

ceilings measure_ceilings(run_timer& timer) {
  ceilings c;
  c.multiprocessors = multiprocessor_count();
  measure_copy(c, timer);
  measure_fma(c, timer);
  return c;
}

}  // namespace bench
