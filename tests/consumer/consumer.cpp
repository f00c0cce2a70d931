// tests/consumer/consumer.cpp
// A program of another project that uses hipstencil: one filter, one device reduction.
// Compiled by tests/consumer/run.sh with nvcc and with hipcc, against an installed
// package, the source tree (add_subdirectory / FetchContent) and a bare copy of include/.
// Without a GPU it says so and exits 0 (the point is that it compiles and links).
#include <hipstencil/hipstencil.hpp>

#include <cstdint>
#include <cstdio>

#if !HIPSTENCIL_HAS_GPU
#error "the consumer must be compiled with nvcc or hipcc"
#endif

// The package's version (CMake) and the headers' (config.hpp) must agree.
#if defined(CONSUMER_EXPECTED_VERSION_MAJOR)
static_assert(HIPSTENCIL_VERSION_MAJOR == CONSUMER_EXPECTED_VERSION_MAJOR &&
                  HIPSTENCIL_VERSION_MINOR == CONSUMER_EXPECTED_VERSION_MINOR &&
                  HIPSTENCIL_VERSION_PATCH == CONSUMER_EXPECTED_VERSION_PATCH,
              "hipstencil's CMake package version differs from HIPSTENCIL_VERSION_* in platform/config.hpp");
#endif

namespace hs = hipstencil;

int main() {
  if (hs::gpu::device_count() == 0) {
    std::printf("consumer (%s): built; no GPU to run on\n", hs::backend_name());
    return 0;
  }
  const int w = 61, h = 37;
  hs::host_image<std::uint8_t> in(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) in(x, y) = std::uint8_t((x * 7 + y * 13) & 0xFF);
  hs::device_image<std::uint8_t> src(w, h), dst(w, h);
  src.upload(in.view());
  hs::convolve(src.view(), dst.view(), hs::filters::box(1), hs::border::replicate{}, hs::algo::naive{});
  auto* d_range = static_cast<hs::value_range<std::uint8_t>*>(hs::gpu::malloc(sizeof(hs::value_range<std::uint8_t>)));
  hs::min_max(dst.view(), hs::channel_set::all(), d_range);
  hs::value_range<std::uint8_t> r{};
  hs::gpu::memcpy(&r, d_range, sizeof r, hs::gpu::copy_kind::device_to_host, nullptr);
  hs::gpu::stream_synchronize(nullptr);
  hs::gpu::free(d_range);
  std::printf("consumer (%s): box-filtered %dx%d image spans %d..%d\n", hs::backend_name(), w, h, r.min, r.max);
  return r.min <= r.max ? 0 : 1;
}
