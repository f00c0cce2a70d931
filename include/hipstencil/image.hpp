// hipstencil/image.hpp
// Non-owning pitched image views, rectangles, and owning images on the host and the GPU.
// Pitch is in bytes, as in HIP, CUDA, OpenCV and NPP: row y starts at
// (char*)data + y * pitch_bytes. Offsets are computed in 64 bits, so images over 2^31
// bytes are addressed correctly.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "error.hpp"
#include "pixel.hpp"
#include "platform/config.hpp"
#include "platform/runtime.hpp"

namespace hipstencil {

/// An axis-aligned rectangle of pixels: columns [x, x + width), rows [y, y + height).
struct rect {
  int x = 0, y = 0, width = 0, height = 0;

  HIPSTENCIL_HOST_DEVICE constexpr bool empty() const { return width <= 0 || height <= 0; }
  /// True when `r` lies entirely inside this rectangle (an empty r never does).
  HIPSTENCIL_HOST_DEVICE constexpr bool contains(const rect& r) const {
    return !r.empty() && r.x >= x && r.y >= y && (long long)r.x + r.width <= (long long)x + width &&
           (long long)r.y + r.height <= (long long)y + height;
  }
  friend constexpr bool operator==(const rect& a, const rect& b) {
    return a.x == b.x && a.y == b.y && a.width == b.width && a.height == b.height;
  }
  friend constexpr bool operator!=(const rect& a, const rect& b) { return !(a == b); }
};

/// A non-owning view of a 2D image of pixels of type T (T may be const-qualified).
/// `data` points at pixel (0, 0); row y begins `y * pitch_bytes` bytes after it.
/// Preconditions for use by the library: data != nullptr, width >= 1, height >= 1,
/// pitch_bytes >= width * sizeof(T), and data and pitch aligned to alignof(T).
template <class T>
struct image_view {
  using value_type = T;
  T* data = nullptr;
  int width = 0;   ///< pixels
  int height = 0;  ///< pixels
  std::size_t pitch_bytes = 0;

  /// An empty view (null data): the library rejects it with invalid_argument.
  constexpr image_view() = default;
  /// `w` x `h` pixels from `d`, rows `pitch` bytes apart.
  constexpr image_view(T* d, int w, int h, std::size_t pitch) : data(d), width(w), height(h), pitch_bytes(pitch) {}
  /// A tightly packed image (pitch = width * sizeof(T)).
  constexpr image_view(T* d, int w, int h) : image_view(d, w, h, std::size_t(w) * sizeof(T)) {}
  /// Implicit conversion to a view of const pixels.
  template <class U, class = std::enable_if_t<std::is_same<const U, T>::value>>
  constexpr image_view(const image_view<U>& o) : data(o.data), width(o.width), height(o.height), pitch_bytes(o.pitch_bytes) {}

  /// Pointer to the first pixel of row y (64-bit offset arithmetic).
  HIPSTENCIL_HOST_DEVICE T* row(long long y) const {
    using byte = std::conditional_t<std::is_const<T>::value, const char, char>;
    return reinterpret_cast<T*>(reinterpret_cast<byte*>(data) + y * static_cast<long long>(pitch_bytes));
  }
  /// Pixel (x, y), unchecked (host or device code, wherever `data` points).
  HIPSTENCIL_HOST_DEVICE T& operator()(int x, int y) const { return row(y)[x]; }
  /// The whole image as a rect at (0, 0).
  HIPSTENCIL_HOST_DEVICE constexpr rect bounds() const { return rect{0, 0, width, height}; }
  /// A view of the pixels inside `r`. Throws invalid_argument if r is empty or not inside.
  image_view sub(const rect& r) const {
    if (!bounds().contains(r))
      detail::throw_invalid("image_view::sub: rect {x=", r.x, ", y=", r.y, ", width=", r.width,
                            ", height=", r.height, "} is not inside the ", width, "x", height, " image");
    return image_view(&(*this)(r.x, r.y), r.width, r.height, pitch_bytes);
  }
  /// Bytes spanned from the first pixel to one past the last pixel.
  std::size_t span_bytes() const {
    return height <= 0 ? 0 : std::size_t(height - 1) * pitch_bytes + std::size_t(width) * sizeof(T);
  }
};

/// An owning, tightly packed host image (std::vector storage).
template <class T>
class host_image {
 public:
  host_image() = default;
  /// Throws invalid_argument unless width >= 1 and height >= 1.
  /// width x height pixels, each set to `fill`.
  host_image(int width, int height, T fill = T{})
      : width_(width), height_(height), pixels_(checked_count(width, height), fill) {}
  // Size in pixels; pitch in bytes (tightly packed: width * sizeof(T)); the pixels, row-major.
  int width() const { return width_; }
  int height() const { return height_; }
  std::size_t pitch_bytes() const { return std::size_t(width_) * sizeof(T); }
  T* data() { return pixels_.data(); }
  const T* data() const { return pixels_.data(); }
  image_view<T> view() { return {pixels_.data(), width_, height_, pitch_bytes()}; }
  image_view<const T> view() const { return {pixels_.data(), width_, height_, pitch_bytes()}; }
  /// Pixel (x, y), unchecked: 0 <= x < width(), 0 <= y < height().
  T& operator()(int x, int y) { return pixels_[std::size_t(y) * width_ + x]; }
  const T& operator()(int x, int y) const { return pixels_[std::size_t(y) * width_ + x]; }

 private:
  // Runs before the vector is sized: a negative side must not become a huge size_t.
  static std::size_t checked_count(int width, int height) {
    if (width < 1 || height < 1)
      detail::throw_invalid("host_image: width and height must be >= 1, got ", width, "x", height);
    return std::size_t(width) * std::size_t(height);
  }
  int width_ = 0, height_ = 0;
  std::vector<T> pixels_;
};

#if HIPSTENCIL_HAS_GPU
/// An owning pitched image in device memory (RAII over the runtime's pitched allocation).
/// Move-only. Allocation failure throws gpu_error. Allocation and release are synchronous
/// runtime calls (MallocPitch/Free): create images up front, not in a hot loop.
template <class T>
class device_image {
 public:
  device_image() = default;
  /// Allocates width x height pixels; the pitch is the runtime's choice (>= width*sizeof(T)).
  device_image(int width, int height) : width_(width), height_(height) {
    if (width < 1 || height < 1)
      detail::throw_invalid("device_image: width and height must be >= 1, got ", width, "x", height);
    data_ = static_cast<T*>(gpu::malloc_pitch(std::size_t(width) * sizeof(T), std::size_t(height), &pitch_));
  }
  /// Move-only: moving transfers the allocation and leaves the source empty.
  device_image(const device_image&) = delete;
  device_image& operator=(const device_image&) = delete;
  device_image(device_image&& o) noexcept { swap(o); }
  device_image& operator=(device_image&& o) noexcept {
    device_image tmp(std::move(o));
    swap(tmp);
    return *this;
  }
  ~device_image() { gpu::free(data_); }

  // Size in pixels, pitch in bytes (the runtime's choice), device pointer to pixel (0, 0),
  // and views of the whole image for convolve and friends.
  int width() const { return width_; }
  int height() const { return height_; }
  std::size_t pitch_bytes() const { return pitch_; }
  T* data() { return data_; }
  const T* data() const { return data_; }
  image_view<T> view() { return {data_, width_, height_, pitch_}; }
  image_view<const T> view() const { return {data_, width_, height_, pitch_}; }

  /// Copies a host image of the same size in, ordered on `stream`.
  void upload(image_view<const T> host, gpu::stream_t stream = {}) {
    check_size(host, "upload");
    gpu::memcpy_2d(data_, pitch_, host.data, host.pitch_bytes, std::size_t(width_) * sizeof(T), height_,
                   gpu::copy_kind::host_to_device, stream);
  }
  /// Copies this image out to a host image of the same size, ordered on `stream`; the
  /// host data is valid once the stream has reached this point (synchronise it).
  void download(image_view<T> host, gpu::stream_t stream = {}) const {
    check_size(host, "download");
    gpu::memcpy_2d(host.data, host.pitch_bytes, data_, pitch_, std::size_t(width_) * sizeof(T), height_,
                   gpu::copy_kind::device_to_host, stream);
  }
  /// Sets every byte of every pixel to `byte_value` (e.g. to poison an output in tests).
  void fill_bytes(int byte_value, gpu::stream_t stream = {}) {
    gpu::memset_2d(data_, pitch_, byte_value, std::size_t(width_) * sizeof(T), height_, stream);
  }

 private:
  template <class V>
  void check_size(const image_view<V>& h, const char* what) const {
    if (!h.data) detail::throw_invalid("device_image::", what, ": host data is null");
    if (h.width != width_ || h.height != height_)
      detail::throw_invalid("device_image::", what, ": host image is ", h.width, "x", h.height,
                            ", device image is ", width_, "x", height_);
    if (h.pitch_bytes < std::size_t(h.width) * sizeof(T))
      detail::throw_invalid("device_image::", what, ": host pitch_bytes=", h.pitch_bytes,
                            " is smaller than a row (", std::size_t(h.width) * sizeof(T), " bytes)");
  }
  void swap(device_image& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(width_, o.width_);
    std::swap(height_, o.height_);
    std::swap(pitch_, o.pitch_);
  }
  T* data_ = nullptr;
  int width_ = 0, height_ = 0;
  std::size_t pitch_ = 0;
};
#endif

}  // namespace hipstencil
