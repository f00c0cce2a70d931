// hipstencil/platform/fft.hpp
// The FFT facade of algo::fft: batched 2D real-to-complex and complex-to-real transforms of
// N x N single-precision planes, through cuFFT (CUDA::cufft) on NVIDIA. HIPSTENCIL_HAS_FFT
// is 1 where a library is wired in; on AMD it is 0 and algo::fft runs its fallback:
// Debian 12, where this code is built and tested, has no hipFFT or rocFFT to build against
// (cmake/HipstencilBackend.cmake says so at configure time).
//
// Plans are made once per (device, N, batch), on first use, and kept for the life of the
// process: making one takes milliseconds on the host, which a convolve call repeated per
// frame must not pay. They are made with cuFFT's auto-allocation off, so they hold no
// device memory; each call passes its own work area (inside the caller's stream-ordered
// workspace) and stream, under a lock, since calls on several host threads share a plan.
#pragma once

#include "config.hpp"

#if defined(HIPSTENCIL_BACKEND_CUDA)
#include <cufft.h>

#include <cstddef>
#include <map>
#include <mutex>
#include <string>
#include <tuple>

#include "runtime.hpp"
#define HIPSTENCIL_HAS_FFT 1
#else
#define HIPSTENCIL_HAS_FFT 0
#endif

#if HIPSTENCIL_HAS_FFT
namespace hipstencil {
namespace gpu {
namespace fft {

using complex = cufftComplex;

/// cuFFT's name for a result code.
inline const char* result_name(cufftResult r) {
  switch (r) {
    case CUFFT_SUCCESS: return "CUFFT_SUCCESS";
    case CUFFT_INVALID_PLAN: return "CUFFT_INVALID_PLAN";
    case CUFFT_ALLOC_FAILED: return "CUFFT_ALLOC_FAILED";
    case CUFFT_INVALID_VALUE: return "CUFFT_INVALID_VALUE";
    case CUFFT_INTERNAL_ERROR: return "CUFFT_INTERNAL_ERROR";
    case CUFFT_EXEC_FAILED: return "CUFFT_EXEC_FAILED";
    case CUFFT_SETUP_FAILED: return "CUFFT_SETUP_FAILED";
    case CUFFT_INVALID_SIZE: return "CUFFT_INVALID_SIZE";
    default: return "cufftResult";
  }
}

/// Throws gpu_error (code and name of cuFFT's result) unless r is CUFFT_SUCCESS.
inline void check(cufftResult r, const char* where) {
  if (r != CUFFT_SUCCESS) throw gpu_error(int(r), result_name(r), "cuFFT call failed", where);
}

/// The forward (R2C) and inverse (C2R) plans of `batch` N x N transforms, planes N x N
/// floats and N x (N / 2 + 1) complex apart; `work_bytes`: the larger work area they need.
struct plans {
  cufftHandle r2c = 0, c2r = 0;
  std::size_t work_bytes = 0;
};

/// The plans for (current device, n, batch), made on first use (thread-safe). Throws
/// gpu_error when cuFFT refuses to make them.
inline const plans& plans_for(int n, int batch) {
  static std::mutex m;
  // Never destroyed: a static map's destructor would run after the runtime has torn the
  // context down, and cufftDestroy then fails.
  static auto* cache = new std::map<std::tuple<int, int, int>, plans>();
  const std::lock_guard<std::mutex> lock(m);
  const auto key = std::make_tuple(current_device(), n, batch);
  const auto it = cache->find(key);
  if (it != cache->end()) return it->second;
  plans p;
  int dims[2] = {n, n};
  std::size_t w1 = 0, w2 = 0;
  check(cufftCreate(&p.r2c), "cufftCreate");
  check(cufftSetAutoAllocation(p.r2c, 0), "cufftSetAutoAllocation");
  check(cufftMakePlanMany(p.r2c, 2, dims, nullptr, 1, n * n, nullptr, 1, n * (n / 2 + 1), CUFFT_R2C, batch, &w1),
        "cufftMakePlanMany (R2C)");
  check(cufftCreate(&p.c2r), "cufftCreate");
  check(cufftSetAutoAllocation(p.c2r, 0), "cufftSetAutoAllocation");
  check(cufftMakePlanMany(p.c2r, 2, dims, nullptr, 1, n * (n / 2 + 1), nullptr, 1, n * n, CUFFT_C2R, batch, &w2),
        "cufftMakePlanMany (C2R)");
  p.work_bytes = w1 > w2 ? w1 : w2;
  return cache->emplace(key, p).first->second;
}

/// The lock every execution of a cached plan takes: setting a plan's stream and work area
/// and queueing it is one step for each caller.
inline std::mutex& exec_lock() {
  static std::mutex m;
  return m;
}

/// Queues the forward transforms of plan p on stream s: in (batch x N x N floats) to out
/// (batch x N x (N / 2 + 1) complex), with `work` (p.work_bytes) as cuFFT's work area.
inline void forward(const plans& p, float* in, complex* out, void* work, stream_t s) {
  const std::lock_guard<std::mutex> lock(exec_lock());
  check(cufftSetStream(p.r2c, s), "cufftSetStream");
  check(cufftSetWorkArea(p.r2c, work), "cufftSetWorkArea");
  check(cufftExecR2C(p.r2c, in, out), "cufftExecR2C");
}

/// Queues the inverse transforms (unnormalised: N^2 times the input) of plan p on s.
/// cuFFT's C2R may overwrite its input.
inline void inverse(const plans& p, complex* in, float* out, void* work, stream_t s) {
  const std::lock_guard<std::mutex> lock(exec_lock());
  check(cufftSetStream(p.c2r, s), "cufftSetStream");
  check(cufftSetWorkArea(p.c2r, work), "cufftSetWorkArea");
  check(cufftExecC2R(p.c2r, in, out), "cufftExecC2R");
}

}  // namespace fft
}  // namespace gpu
}  // namespace hipstencil
#endif
