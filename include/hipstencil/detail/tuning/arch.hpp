// hipstencil/detail/tuning/arch.hpp
// The GPU architectures that may have a tuning table of their own, and which one the
// current device is. Tables are chosen at run time, per call, from the device the call
// runs on (as rocPRIM picks its per-architecture configs), so one build serves every GPU.
#pragma once

#include "../../platform/config.hpp"

#if HIPSTENCIL_HAS_GPU
#include <atomic>
#include <cstring>

#include "../../platform/runtime.hpp"
#endif

namespace hipstencil {
namespace tuning {

/// Architectures with a table. `generic` is every other device, and the table of any
/// architecture that has not been measured yet.
enum class arch { generic, sm_90, gfx90a, gfx942, gfx1030 };

/// "generic", "sm_90", "gfx90a", ...
inline const char* name(arch a) {
  switch (a) {
    case arch::sm_90: return "sm_90";
    case arch::gfx90a: return "gfx90a";
    case arch::gfx942: return "gfx942";
    case arch::gfx1030: return "gfx1030";
    default: return "generic";
  }
}

#if HIPSTENCIL_HAS_GPU
namespace detail {
/// Asks the runtime which architecture `device` is.
inline arch query_arch(int device) {
#if defined(HIPSTENCIL_BACKEND_HIP)
  hipDeviceProp_t p;
  gpu::check(hipGetDeviceProperties(&p, device), "GetDeviceProperties");
  // gcnArchName reads like "gfx90a:sramecc+:xnack-": the name up to the first colon.
  const char* n = p.gcnArchName;
  const std::size_t len = std::strcspn(n, ":");
  auto is = [&](const char* s) { return std::strlen(s) == len && std::strncmp(n, s, len) == 0; };
  if (is("gfx90a")) return arch::gfx90a;
  if (is("gfx942")) return arch::gfx942;
  if (is("gfx1030")) return arch::gfx1030;
  return arch::generic;
#else
  int major = 0, minor = 0;
  gpu::check(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device), "DeviceGetAttribute");
  gpu::check(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device), "DeviceGetAttribute");
  return major == 9 && minor == 0 ? arch::sm_90 : arch::generic;
#endif
}

/// query(device) for the current device, asked of the runtime once per device and cached
/// (a relaxed atomic per device and per Query type: concurrent first calls both ask and
/// store the same answer). query must return a value >= 0.
template <class Query>
int per_device(Query query) {
  constexpr int max_devices = 64;
  static std::atomic<int> cache[max_devices] = {};  // 0: not asked yet, else value + 1
  const int device = gpu::current_device();
  if (device < 0 || device >= max_devices) return query(device);
  const int known = cache[device].load(std::memory_order_relaxed);
  if (known != 0) return known - 1;
  const int v = query(device);
  cache[device].store(v + 1, std::memory_order_relaxed);
  return v;
}
}  // namespace detail

/// The architecture of the current device, cached per device. @throws gpu_error if the
/// runtime cannot be asked.
inline arch current_arch() {
  return arch(detail::per_device([](int device) { return int(detail::query_arch(device)); }));
}

namespace detail {
#if defined(HIPSTENCIL_BACKEND_HIP)
using device_attribute = hipDeviceAttribute_t;
constexpr device_attribute multiprocessor_count = hipDeviceAttributeMultiprocessorCount;
constexpr device_attribute l2_cache_size = hipDeviceAttributeL2CacheSize;
#else
using device_attribute = cudaDeviceAttr;
constexpr device_attribute multiprocessor_count = cudaDevAttrMultiProcessorCount;
constexpr device_attribute l2_cache_size = cudaDevAttrL2CacheSize;
#endif

/// The integer attribute `Attribute` of the current device, asked once per device (one
/// cache per attribute: per_device keys its cache on the lambda's type).
template <device_attribute Attribute>
int cached_attribute() {
  return per_device([](int device) {
    int n = 0;
#if defined(HIPSTENCIL_BACKEND_HIP)
    gpu::check(hipDeviceGetAttribute(&n, Attribute, device), "DeviceGetAttribute");
#else
    gpu::check(cudaDeviceGetAttribute(&n, Attribute, device), "DeviceGetAttribute");
#endif
    return n;
  });
}
}  // namespace detail

/// Multiprocessors (NVIDIA SMs, AMD compute units) of the current device, cached per
/// device: what a launcher sizes its grid against. @throws gpu_error if the runtime
/// cannot be asked.
inline int multiprocessors() { return detail::cached_attribute<detail::multiprocessor_count>(); }

/// Bytes of L2 cache of the current device, cached per device: whether a call's data can
/// stay in L2 between the kernels that write and read it. @throws gpu_error if the runtime
/// cannot be asked.
inline long long l2_bytes() { return detail::cached_attribute<detail::l2_cache_size>(); }
#endif

}  // namespace tuning
}  // namespace hipstencil
