// bench/experiments/varshape_checks.cpp
// Host time of a variable-shape batch's checks (detail::validate_varshape): 4096 images of
// 128x128 u8 in separate buffers, a 3x3 filter, replicate; median of 101 calls after one
// untimed. Host code only:
//   g++ -O2 -std=c++17 -DHIPSTENCIL_FORCE_HOST -I include bench/experiments/varshape_checks.cpp -o /tmp/varshape_checks
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

#include <hipstencil/detail/validate_varshape.hpp>

using namespace hipstencil;

int main() {
  const int n = 4096, w = 128, h = 128;
  std::vector<unsigned char> mem(std::size_t(2) * n * w * h);
  std::vector<varshape_image<unsigned char, unsigned char>> images;
  for (int k = 0; k < n; ++k)
    images.emplace_back(image_view<const unsigned char>(mem.data() + std::size_t(k) * w * h, w, h),
                        image_view<unsigned char>(mem.data() + std::size_t(n + k) * w * h, w, h), 0);
  const std::vector<filter2d> filters = {filter2d(3, 3, std::vector<float>(9, 1.f / 9))};
  std::vector<double> ms;
  for (int rep = 0; rep < 102; ++rep) {
    const auto t0 = std::chrono::steady_clock::now();
    detail::validate_varshape("convolve_batch", images, filters, border::replicate{}, halo::isolated);
    const auto t1 = std::chrono::steady_clock::now();
    if (rep > 0) ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  std::printf("validate_varshape, %d images of %dx%d: median %.3f ms (min %.3f, max %.3f) over %zu calls\n", n, w,
              h, ms[ms.size() / 2], ms.front(), ms.back(), ms.size());
}
