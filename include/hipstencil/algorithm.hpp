// hipstencil/algorithm.hpp
// Algorithm tags: the type selects the kernel family at compile time.
#pragma once

namespace hipstencil {
namespace algo {

/// One thread per output pixel, every tap read from global memory (through the caches).
/// Any filter size, any border rule; the baseline the optimised kernels are checked against.
struct naive {
  static constexpr const char* name = "naive";
};

/// Lets the library choose the algorithm from the filter size, separability and pixel
/// type. Currently always naive: the optimised families and their tuning tables follow.
struct automatic {
  static constexpr const char* name = "automatic";
};

}  // namespace algo
}  // namespace hipstencil
