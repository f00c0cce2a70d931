// examples/common/example_check.hpp
// What every API example shares: skipping cleanly without a GPU, and checking a device
// result against the host reference with hs::difference (reduce.hpp) on the device.
// Header-only; include after <hipstencil/hipstencil.hpp> in a file compiled by nvcc/hipcc.
#pragma once

#include <hipstencil/hipstencil.hpp>

#include <cstdio>
#include <string>

namespace example {
namespace hs = hipstencil;

/// Exit status of an example that could not run because there is no GPU (CTest's usual
/// "skipped" code).
constexpr int no_gpu = 77;

/// Prints the device this example runs on; false (after saying why) when there is none.
inline bool have_gpu(const char* program) {
  if (hs::gpu::device_count() == 0) {
    std::printf("%s: skipped: no %s device is visible\n", program, hs::backend_name());
    return false;
  }
  std::printf("%s: running on %s (%s)\n", program, hs::gpu::device_name(hs::gpu::current_device()).c_str(),
              hs::backend_name());
  return true;
}

/// A stream of the example's own (the library's RAII owner).
using stream = hs::gpu::stream;

/// Compares `got` (device) with `want` (host, same size) on the device: uploads `want`
/// and runs hs::difference. Prints "<what>: max |gpu - reference| = ..., N of M pixels
/// differ by more than <tolerance>" and returns true when none does. Synchronises `stream`.
template <class T>
bool matches(const char* what, hs::image_view<const T> got, hs::image_view<const T> want, double tolerance,
             hs::gpu::stream_t stream) {
  hs::device_image<T> d_want(want.width, want.height);
  d_want.upload(want, stream);
  auto* d_result = static_cast<hs::image_difference*>(hs::gpu::malloc_async(sizeof(hs::image_difference), stream));
  hs::difference(got, hs::image_view<const T>(d_want.view()), tolerance, d_result, stream);  // allocates stream-ordered
  hs::image_difference r{};
  hs::gpu::memcpy(&r, d_result, sizeof r, hs::gpu::copy_kind::device_to_host, stream);
  hs::gpu::free_async(d_result, stream);
  hs::gpu::stream_synchronize(stream);
  const bool ok = r.differing_pixels == 0;
  std::printf("%s: max |gpu - reference| = %g, %llu of %lld pixels differ by more than %g: %s\n", what,
              r.max_abs_diff, r.differing_pixels, (long long)want.width * want.height, tolerance,
              ok ? "OK" : "FAILED");
  return ok;
}

}  // namespace example
