// bench/random.hpp
// A small, fast, seeded generator (SplitMix64) for the benchmark's inputs and filters:
// the same seed gives the same image on every machine, and no pixel is systematically zero.
#pragma once

#include <cstdint>

namespace bench {

class splitmix64 {
 public:
  explicit splitmix64(std::uint64_t seed) : s_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (s_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, 1) with 24 random bits.
  float unit_float() { return float(next() >> 40) * (1.0f / 16777216.0f); }

 private:
  std::uint64_t s_;
};

}  // namespace bench
