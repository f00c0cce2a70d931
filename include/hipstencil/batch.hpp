// hipstencil/batch.hpp
// Uniform batches: N images of one size and pitch in memory at a constant stride, as a
// pitched 3D allocation lays them out (CUDA's and HIP's "slice pitch"; a PyTorch or CuPy
// (N, H, W) or (N, H, W, C) tensor; CV-CUDA's NHWC tensors). convolve_batch
// (convolve_batch.hpp) filters all of them in one launch.
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

#include "error.hpp"
#include "image.hpp"
#include "platform/config.hpp"
#include "platform/runtime.hpp"

namespace hipstencil {

/// A non-owning view of `count` images of pixels of type T (T may be const-qualified), all
/// of `first`'s size and pitch: image k starts k * image_stride_bytes bytes after
/// `first.data`. Preconditions for use by the library: `first` valid as an image_view,
/// count >= 1, image_stride_bytes a multiple of alignof(T); for an output,
/// image_stride_bytes >= first.span_bytes() (images do not overlap) unless count is 1.
/// A source may repeat one image with a stride of 0.
template <class T>
struct batch_view {
  using value_type = T;
  image_view<T> first;                 ///< image 0; its width, height and pitch are every image's
  int count = 0;                       ///< images
  std::size_t image_stride_bytes = 0;  ///< bytes from image k to image k + 1

  /// An empty batch (null data): the library rejects it with invalid_argument.
  constexpr batch_view() = default;
  /// `n` images like `image0`, `stride` bytes apart.
  constexpr batch_view(image_view<T> image0, int n, std::size_t stride)
      : first(image0), count(n), image_stride_bytes(stride) {}
  /// Implicit conversion to a batch of const pixels.
  template <class U, class = std::enable_if_t<std::is_same<const U, T>::value>>
  constexpr batch_view(const batch_view<U>& o) : first(o.first), count(o.count), image_stride_bytes(o.image_stride_bytes) {}

  /// Image k (64-bit offset arithmetic), unchecked: 0 <= k < count.
  image_view<T> operator[](long long k) const {
    using byte = std::conditional_t<std::is_const<T>::value, const char, char>;
    T* p = reinterpret_cast<T*>(reinterpret_cast<byte*>(first.data) + k * static_cast<long long>(image_stride_bytes));
    return image_view<T>(p, first.width, first.height, first.pitch_bytes);
  }
  /// Image k; throws invalid_argument unless 0 <= k < count.
  image_view<T> image(int k) const {
    if (k < 0 || k >= count) detail::throw_invalid("batch_view::image: index ", k, " is outside [0, ", count, ")");
    return (*this)[k];
  }
  /// Images [k0, k0 + n) as a batch; throws invalid_argument unless they lie in this one.
  batch_view slice(int k0, int n) const {
    if (k0 < 0 || n < 1 || (long long)k0 + n > count)
      detail::throw_invalid("batch_view::slice: images [", k0, ", ", (long long)k0 + n, ") are not inside [0, ", count,
                            ")");
    return batch_view((*this)[k0], n, image_stride_bytes);
  }
};

#if HIPSTENCIL_HAS_GPU
/// An owning batch of `count` width x height images in one pitched device allocation
/// (MallocPitch of count * height rows): image k is rows [k * height, (k + 1) * height),
/// so the image stride is pitch * height bytes. Move-only; allocation failure throws
/// gpu_error. Allocation and release are synchronous runtime calls: create batches up front.
template <class T>
class device_batch {
 public:
  device_batch() = default;
  /// Throws invalid_argument unless width, height and count are >= 1.
  device_batch(int width, int height, int count) : width_(width), height_(height), count_(count) {
    if (width < 1 || height < 1 || count < 1)
      detail::throw_invalid("device_batch: width, height and count must be >= 1, got ", width, "x", height, " x ",
                            count);
    data_ = static_cast<T*>(
        gpu::malloc_pitch(std::size_t(width) * sizeof(T), std::size_t(height) * std::size_t(count), &pitch_));
  }
  device_batch(const device_batch&) = delete;
  device_batch& operator=(const device_batch&) = delete;
  device_batch(device_batch&& o) noexcept { swap(o); }
  device_batch& operator=(device_batch&& o) noexcept {
    device_batch tmp(std::move(o));
    swap(tmp);
    return *this;
  }
  ~device_batch() { gpu::free(data_); }

  // Size of each image in pixels, the image count, the row pitch and the image stride in
  // bytes, and views of the whole batch or of image k (0 <= k < count, unchecked).
  int width() const { return width_; }
  int height() const { return height_; }
  int count() const { return count_; }
  std::size_t pitch_bytes() const { return pitch_; }
  std::size_t image_stride_bytes() const { return pitch_ * std::size_t(height_); }
  batch_view<T> view() { return {image_view<T>(data_, width_, height_, pitch_), count_, image_stride_bytes()}; }
  batch_view<const T> view() const {
    return {image_view<const T>(data_, width_, height_, pitch_), count_, image_stride_bytes()};
  }
  image_view<T> image(int k) { return view().image(k); }
  image_view<const T> image(int k) const { return view().image(k); }

  /// Copies a host image of one image's size into image k, ordered on `stream`.
  void upload(int k, image_view<const T> host, gpu::stream_t stream = {}) {
    check(k, host, "upload");
    gpu::memcpy_2d(image(k).data, pitch_, host.data, host.pitch_bytes, std::size_t(width_) * sizeof(T), height_,
                   gpu::copy_kind::host_to_device, stream);
  }
  /// Copies image k out to a host image of one image's size, ordered on `stream` (valid
  /// once the stream has reached this point).
  void download(int k, image_view<T> host, gpu::stream_t stream = {}) const {
    check(k, host, "download");
    gpu::memcpy_2d(host.data, host.pitch_bytes, image(k).data, pitch_, std::size_t(width_) * sizeof(T), height_,
                   gpu::copy_kind::device_to_host, stream);
  }
  /// Sets every byte of the allocation, the padding between rows included, to `byte_value`
  /// (e.g. to poison an output in tests).
  void fill_bytes(int byte_value, gpu::stream_t stream = {}) {
    gpu::memset_2d(data_, pitch_, byte_value, pitch_, std::size_t(height_) * std::size_t(count_), stream);
  }

 private:
  template <class V>
  void check(int k, const image_view<V>& h, const char* what) const {
    if (k < 0 || k >= count_) detail::throw_invalid("device_batch::", what, ": index ", k, " is outside [0, ", count_, ")");
    if (!h.data) detail::throw_invalid("device_batch::", what, ": host data is null");
    if (h.width != width_ || h.height != height_)
      detail::throw_invalid("device_batch::", what, ": host image is ", h.width, "x", h.height, ", batch images are ",
                            width_, "x", height_);
    if (h.pitch_bytes < std::size_t(h.width) * sizeof(T))
      detail::throw_invalid("device_batch::", what, ": host pitch_bytes=", h.pitch_bytes, " is smaller than a row (",
                            std::size_t(h.width) * sizeof(T), " bytes)");
  }
  void swap(device_batch& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(width_, o.width_);
    std::swap(height_, o.height_);
    std::swap(count_, o.count_);
    std::swap(pitch_, o.pitch_);
  }
  T* data_ = nullptr;
  int width_ = 0, height_ = 0, count_ = 0;
  std::size_t pitch_ = 0;
};
#endif

}  // namespace hipstencil
