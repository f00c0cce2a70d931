// hipstencil/platform/runtime.hpp
// The runtime facade: aliases and inline functions in hipstencil::gpu over whichever
// runtime config.hpp chose. Aliases, not renames (as AMReX and Ginkgo do), and no macro
// other than qualifiers, so nothing leaks into the user's namespace. Every function that
// can fail throws hipstencil::gpu_error carrying the runtime's code and name.
// Present only when HIPSTENCIL_HAS_GPU is 1.
#pragma once

#include <cstddef>
#include <string>

#include "../error.hpp"
#include "config.hpp"

#if HIPSTENCIL_HAS_GPU
namespace hipstencil {
namespace gpu {

// error_t, stream_t, event_t: the runtime's own types (hipError_t, cudaStream_t, ...), so
// values pass between this facade and direct runtime calls unchanged. A null stream_t is
// the default stream. error_name/error_string: the runtime's symbolic name and message of
// a code. get_last_error returns and clears the last launch error; peek_last_error leaves it.
#if defined(HIPSTENCIL_BACKEND_HIP)
using error_t = hipError_t;
using stream_t = hipStream_t;
using event_t = hipEvent_t;
inline constexpr error_t success = hipSuccess;
inline const char* error_name(error_t e) { return hipGetErrorName(e); }
inline const char* error_string(error_t e) { return hipGetErrorString(e); }
inline error_t peek_last_error() { return hipPeekAtLastError(); }
inline error_t get_last_error() { return hipGetLastError(); }
#define HIPSTENCIL_RT(name) hip##name
#else
using error_t = cudaError_t;
using stream_t = cudaStream_t;
using event_t = cudaEvent_t;
inline constexpr error_t success = cudaSuccess;
inline const char* error_name(error_t e) { return cudaGetErrorName(e); }
inline const char* error_string(error_t e) { return cudaGetErrorString(e); }
inline error_t peek_last_error() { return cudaPeekAtLastError(); }
inline error_t get_last_error() { return cudaGetLastError(); }
#define HIPSTENCIL_RT(name) cuda##name
#endif

/// Throws gpu_error if e is not success. `where` names the failing call. The runtime also
/// keeps a failed call's code as the thread's "last error"; it is consumed here, since the
/// exception reports it: left behind, the next unrelated call that reads it (a launch
/// check, or cudaGetDevice inside CUB) would fail in its place.
inline void check(error_t e, const char* where) {
  if (e != success) {
    (void)get_last_error();
    throw gpu_error(static_cast<int>(e), error_name(e), error_string(e), where);
  }
}

/// Checks the launch just queued (configuration errors; does not synchronise).
inline void check_launch(const char* kernel) { check(get_last_error(), kernel); }

/// Number of visible devices; 0 (not an exception) when there is no device or no driver.
inline int device_count() noexcept {
  int n = 0;
  if (HIPSTENCIL_RT(GetDeviceCount)(&n) != success) {
    (void)get_last_error();  // clear the sticky "no device" status
    return 0;
  }
  return n;
}

/// Current device ordinal.
inline int current_device() {
  int d = 0;
  check(HIPSTENCIL_RT(GetDevice)(&d), "GetDevice");
  return d;
}

/// Marketing name of a device ("NVIDIA H200", "AMD Instinct MI210", ...).
inline std::string device_name(int device) {
#if defined(HIPSTENCIL_BACKEND_HIP)
  hipDeviceProp_t p;
#else
  cudaDeviceProp p;
#endif
  check(HIPSTENCIL_RT(GetDeviceProperties)(&p, device), "GetDeviceProperties");
  return p.name;
}

/// Blocks of `block_threads` threads of `kernel` (with `dynamic_shared_bytes` of dynamic
/// shared memory each) that one multiprocessor of the current device holds at once: the
/// runtime's occupancy calculator.
template <class... Params>
int blocks_per_multiprocessor(void (*kernel)(Params...), int block_threads, std::size_t dynamic_shared_bytes) {
  int n = 0;
  check(HIPSTENCIL_RT(OccupancyMaxActiveBlocksPerMultiprocessor)(&n, kernel, block_threads, dynamic_shared_bytes),
        "OccupancyMaxActiveBlocksPerMultiprocessor");
  return n;
}

/// Pitched allocation of `height` rows of `width_bytes`; returns the pitch in bytes.
inline void* malloc_pitch(std::size_t width_bytes, std::size_t height, std::size_t* pitch_bytes) {
  void* p = nullptr;
  check(HIPSTENCIL_RT(MallocPitch)(&p, pitch_bytes, width_bytes, height), "MallocPitch");
  return p;
}
/// Plain device allocation of `bytes` (synchronous runtime call); throws gpu_error on failure.
inline void* malloc(std::size_t bytes) {
  void* p = nullptr;
  check(HIPSTENCIL_RT(Malloc)(&p, bytes), "Malloc");
  return p;
}
/// Frees device memory; never throws (used from destructors).
inline void free(void* p) noexcept { (void)HIPSTENCIL_RT(Free)(p); }

/// Stream-ordered allocation: usable by work queued on `s` after this call.
inline void* malloc_async(std::size_t bytes, stream_t s) {
  void* p = nullptr;
  check(HIPSTENCIL_RT(MallocAsync)(&p, bytes, s), "MallocAsync");
  return p;
}
/// Stream-ordered release: `p` is freed once the work queued on `s` before this call is done.
inline void free_async(void* p, stream_t s) { check(HIPSTENCIL_RT(FreeAsync)(p, s), "FreeAsync"); }

/// Direction of a copy (the runtime's MemcpyKind without its names).
enum class copy_kind { host_to_device, device_to_host, device_to_device, host_to_host };
/// The runtime's MemcpyKind for `k`.
inline auto to_native(copy_kind k) {
  switch (k) {
    case copy_kind::host_to_device: return HIPSTENCIL_RT(MemcpyHostToDevice);
    case copy_kind::device_to_host: return HIPSTENCIL_RT(MemcpyDeviceToHost);
    case copy_kind::device_to_device: return HIPSTENCIL_RT(MemcpyDeviceToDevice);
    default: return HIPSTENCIL_RT(MemcpyHostToHost);
  }
}

/// Asynchronous 2D copy of `height` rows of `width_bytes`, ordered on `s`. A pageable
/// host buffer is staged by the runtime before this returns.
inline void memcpy_2d(void* dst, std::size_t dst_pitch, const void* src, std::size_t src_pitch,
                      std::size_t width_bytes, std::size_t height, copy_kind kind, stream_t s) {
  check(HIPSTENCIL_RT(Memcpy2DAsync)(dst, dst_pitch, src, src_pitch, width_bytes, height,
                                     to_native(kind), s),
        "Memcpy2DAsync");
}
/// Asynchronous copy of `bytes` bytes, ordered on `s` (pageable host memory: as memcpy_2d).
inline void memcpy(void* dst, const void* src, std::size_t bytes, copy_kind kind, stream_t s) {
  check(HIPSTENCIL_RT(MemcpyAsync)(dst, src, bytes, to_native(kind), s), "MemcpyAsync");
}
/// Asynchronous 2D fill of every byte with `value` (used to poison outputs in tests).
inline void memset_2d(void* dst, std::size_t pitch, int value, std::size_t width_bytes,
                      std::size_t height, stream_t s) {
  check(HIPSTENCIL_RT(Memset2DAsync)(dst, pitch, value, width_bytes, height, s), "Memset2DAsync");
}

/// Blocks the calling host thread until the work queued on `s` is done (the library itself
/// never calls it; it is for callers). Throws gpu_error for an error of that work.
inline void stream_synchronize(stream_t s) { check(HIPSTENCIL_RT(StreamSynchronize)(s), "StreamSynchronize"); }
/// A new non-blocking stream (it does not wait for the legacy default stream); release it
/// with stream_destroy.
inline stream_t stream_create() {
  stream_t s{};
  check(HIPSTENCIL_RT(StreamCreateWithFlags)(&s, HIPSTENCIL_RT(StreamNonBlocking)), "StreamCreate");
  return s;
}
/// Releases a stream from stream_create (queued work still completes); never throws.
inline void stream_destroy(stream_t s) noexcept { (void)HIPSTENCIL_RT(StreamDestroy)(s); }

/// Events for timing and ordering: create, record on a stream, wait for on the host, destroy.
inline event_t event_create() {
  event_t e{};
  check(HIPSTENCIL_RT(EventCreate)(&e), "EventCreate");
  return e;
}
inline void event_destroy(event_t e) noexcept { (void)HIPSTENCIL_RT(EventDestroy)(e); }
inline void event_record(event_t e, stream_t s) { check(HIPSTENCIL_RT(EventRecord)(e, s), "EventRecord"); }
inline void event_synchronize(event_t e) { check(HIPSTENCIL_RT(EventSynchronize)(e), "EventSynchronize"); }
/// Milliseconds between two recorded events.
inline float event_elapsed_ms(event_t start, event_t stop) {
  float ms = 0;
  check(HIPSTENCIL_RT(EventElapsedTime)(&ms, start, stop), "EventElapsedTime");
  return ms;
}

/// An owned stream (RAII over stream_create / stream_destroy; non-blocking, so it does not
/// synchronise with the legacy default stream). Not copyable or movable; get() or the
/// implicit conversion gives the stream_t to pass to the library.
class stream {
 public:
  stream() : s_(stream_create()) {}
  stream(const stream&) = delete;
  stream& operator=(const stream&) = delete;
  ~stream() { stream_destroy(s_); }
  stream_t get() const { return s_; }
  operator stream_t() const { return s_; }

 private:
  stream_t s_;
};

/// An owned event (RAII over event_create / event_destroy), e.g. for timing with
/// event_record and event_elapsed_ms. Not copyable or movable.
class event {
 public:
  event() : e_(event_create()) {}
  event(const event&) = delete;
  event& operator=(const event&) = delete;
  ~event() { event_destroy(e_); }
  event_t get() const { return e_; }
  operator event_t() const { return e_; }

 private:
  event_t e_;
};

#undef HIPSTENCIL_RT

}  // namespace gpu
}  // namespace hipstencil
#endif  // HIPSTENCIL_HAS_GPU
