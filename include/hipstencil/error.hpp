// hipstencil/error.hpp
// The two exception types every entry point throws. Arguments are validated before any
// work is queued, so a rejected call leaves its output untouched.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>

namespace hipstencil {

/// Thrown when an argument is invalid: null data, an empty image, a ROI outside its image,
/// ROIs of different sizes, a pitch smaller than a row, an even filter size, or a
/// combination the chosen algorithm does not support. what() names the parameter and the
/// offending value(s).
class invalid_argument : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

/// Thrown when the GPU runtime (HIP or CUDA) reports a failure. code() is the runtime's
/// numeric error code, name() its symbolic name (e.g. "cudaErrorMemoryAllocation").
class gpu_error : public std::runtime_error {
 public:
  gpu_error(int code, std::string name, const std::string& description, const std::string& where)
      : std::runtime_error("hipstencil: " + where + ": " + name + " (" + std::to_string(code) +
                           "): " + description),
        code_(code),
        name_(std::move(name)) {}
  /// The runtime's error code (hipError_t / cudaError_t as an int) and its symbolic name.
  int code() const noexcept { return code_; }
  const std::string& name() const noexcept { return name_; }

 private:
  int code_;
  std::string name_;
};

namespace detail {
/// Builds "hipstencil: <function>: <parameter> <message>" from streamable pieces.
template <class... Parts>
[[noreturn]] inline void throw_invalid(const Parts&... parts) {
  std::ostringstream os;
  os << "hipstencil: ";
  (os << ... << parts);
  throw invalid_argument(os.str());
}
}  // namespace detail
}  // namespace hipstencil
