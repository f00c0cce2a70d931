// bench/suite.hpp
// The cases of one pixel type: its images (random, uploaded once), the dispatch from the
// run-time case to the compile-time algorithm tag, the timed call and the spot check
// against the host reference. Included by the suite_*.cpp files only (u8, u16, s16, float,
// uchar4), each of which instantiates it for one type.
//
// Compile time: the border rule reaches convolve as hs::border::any (a run-time value the
// kernels read anyway), so borders multiply no instantiation; the algorithm tags (every
// family of hs::algo::for_each_family, plus automatic) and the filter forms each takes
// give one convolve instantiation each per pixel type, and their kernels are the
// library's (precompiled in hipstencil-kernels where the build has it).
#pragma once

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "bench.hpp"
#include "random.hpp"

namespace bench {

/// A random pixel: every channel uniform over its range (uint8 0..255, uint16 0..65535,
/// int16 -32768..32767, float [0, 1)), so that 16-bit kernels see their full range, the
/// sign of int16 included, as the [gpu] tests' inputs do.
template <class T>
T random_pixel(splitmix64& g);
template <>
inline std::uint8_t random_pixel<std::uint8_t>(splitmix64& g) {
  return std::uint8_t(g.next() >> 56);
}
template <>
inline std::uint16_t random_pixel<std::uint16_t>(splitmix64& g) {
  return std::uint16_t(g.next() >> 48);
}
template <>
inline std::int16_t random_pixel<std::int16_t>(splitmix64& g) {
  // The top 16 bits less 32768: uniform over -32768..32767, no value favoured.
  return std::int16_t(std::int32_t(g.next() >> 48) - 32768);
}
template <>
inline float random_pixel<float>(splitmix64& g) {
  return g.unit_float();
}
template <>
inline hs::uchar4 random_pixel<hs::uchar4>(splitmix64& g) {
  const std::uint64_t v = g.next();
  hs::uchar4 p;
  p.x = (unsigned char)(v >> 56), p.y = (unsigned char)(v >> 48), p.z = (unsigned char)(v >> 40),
  p.w = (unsigned char)(v >> 32);
  return p;
}

template <>
inline hs::float3 random_pixel<hs::float3>(splitmix64& g) {
  hs::float3 p;
  p.x = g.unit_float(), p.y = g.unit_float(), p.z = g.unit_float();
  return p;
}

template <>
inline hs::ushort4 random_pixel<hs::ushort4>(splitmix64& g) {
  const std::uint64_t v = g.next();
  hs::ushort4 p;
  p.x = (unsigned short)(v >> 48), p.y = (unsigned short)(v >> 32), p.z = (unsigned short)(v >> 16),
  p.w = (unsigned short)v;
  return p;
}

/// A three-channel pixel P3: the first three channels of the four-channel pixel P4 of the
/// same draw.
template <class P3, class P4>
P3 first_three(splitmix64& g) {
  const P4 q = random_pixel<P4>(g);
  P3 p;
  p.x = q.x, p.y = q.y, p.z = q.z;
  return p;
}
template <>
inline hs::uchar3 random_pixel<hs::uchar3>(splitmix64& g) {
  return first_three<hs::uchar3, hs::uchar4>(g);
}
template <>
inline hs::ushort3 random_pixel<hs::ushort3>(splitmix64& g) {
  return first_three<hs::ushort3, hs::ushort4>(g);
}

template <>
inline hs::half random_pixel<hs::half>(splitmix64& g) {
  return __float2half_rn(g.unit_float());
}

template <>
inline hs::bfloat16 random_pixel<hs::bfloat16>(splitmix64& g) {
  return hs::saturate_cast<hs::bfloat16>(g.unit_float());
}

/// A pixel P of four channels of type C: four draws of the one-channel pixel C.
template <class P, class C>
P four_draws(splitmix64& g) {
  P p;
  p.x = random_pixel<C>(g), p.y = random_pixel<C>(g), p.z = random_pixel<C>(g), p.w = random_pixel<C>(g);
  return p;
}
template <>
inline hs::half4 random_pixel<hs::half4>(splitmix64& g) {
  return four_draws<hs::half4, hs::half>(g);
}
template <>
inline hs::bfloat16x4 random_pixel<hs::bfloat16x4>(splitmix64& g) {
  return four_draws<hs::bfloat16x4, hs::bfloat16>(g);
}

template <class T>
hs::host_image<T> random_host_image(int width, int height, std::uint64_t seed) {
  hs::host_image<T> im(width, height);
  splitmix64 g(seed);
  T* p = im.data();
  for (std::size_t i = 0, n = std::size_t(width) * height; i < n; ++i) p[i] = random_pixel<T>(g);
  return im;
}

/// True for the pixel types --batch runs (batch_pixels() in bench.hpp): only their suites
/// instantiate convolve_batch, whose kernels detail/batch_instance_list.inc precompiles.
template <class T>
constexpr bool batch_pixel =
    std::is_same<T, std::uint8_t>::value || std::is_same<T, float>::value || std::is_same<T, hs::uchar4>::value;

/// `count` images of w x h pixels in one device allocation, rows rounded up to 16 bytes
/// (streaming's vectors), images back to back: the layout of an (N, H, W) or (N, H, W, C)
/// tensor, as batches usually arrive (a pitched allocation would pad 128-pixel u8 rows
/// to 512 bytes).
template <class T>
class packed_batch {
 public:
  packed_batch(int w, int h, int count)
      : w_(w), h_(h), count_(count), pitch_((std::size_t(w) * sizeof(T) + 15) / 16 * 16),
        p_(gpu::malloc(pitch_ * std::size_t(h) * std::size_t(count))) {}
  ~packed_batch() { gpu::free(p_); }
  packed_batch(const packed_batch&) = delete;
  packed_batch& operator=(const packed_batch&) = delete;
  hs::batch_view<T> view() const {
    return {hs::image_view<T>(static_cast<T*>(p_), w_, h_, pitch_), count_, pitch_ * std::size_t(h_)};
  }
  /// Copies `im` (w x h) into every image.
  void upload_to_all(const hs::host_image<T>& im, gpu::stream_t s) {
    for (int k = 0; k < count_; ++k)
      gpu::memcpy_2d(view()[k].data, pitch_, im.data(), im.pitch_bytes(), std::size_t(w_) * sizeof(T), h_,
                     gpu::copy_kind::host_to_device, s);
  }

 private:
  int w_, h_, count_;
  std::size_t pitch_;
  void* p_;
};

/// Device memory for the two_pass workspace, released when the case is done.
class device_buffer {
 public:
  explicit device_buffer(std::size_t bytes) : p_(bytes ? gpu::malloc(bytes) : nullptr), bytes_(bytes) {}
  ~device_buffer() { gpu::free(p_); }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  hs::workspace workspace() const { return {p_, bytes_}; }

 private:
  void* p_;
  std::size_t bytes_;
};

/// Largest |a - b| channel by channel, in the channel's units.
template <class T>
double max_channel_difference(const T& a, const T& b) {
  using tr = hs::pixel_traits<T>;
  double d = 0;
  for (int c = 0; c < tr::channels; ++c) d = std::max(d, std::fabs(hs::to_accum<double>(a).v[c] - hs::to_accum<double>(b).v[c]));
  return d;
}

/// Tolerance of the spot check: one step for integer outputs, 8- and 16-bit (float
/// accumulation against the reference's double can round the other way), 2e-4 for float
/// outputs in [0, 1] (about 2^-12: the 961 float FMAs of a 31 x 31 window stay well inside),
/// 2e-3 for half outputs in [0, 1] (two units in the last place of a half below 1), 1.6e-2
/// for bfloat16 (two units in the last place of a bfloat16 below 1: 2^-7 each).
template <class T>
constexpr double check_tolerance() {
  using C = typename hs::pixel_traits<T>::channel_type;
  return std::is_same<C, float>::value      ? 2e-4
         : std::is_same<C, hs::half>::value ? 2e-3
         : std::is_same<C, hs::bfloat16>::value ? 1.6e-2
                                               : 1.0;
}

template <class T>
class pixel_suite final : public suite {
 public:
  /// Uploads two random sources: `src_` (the image the border rules apply to) and
  /// `padded_`, whose interior is the padded case's source. The padded image's left halo
  /// is rounded up to 128 bytes so that its interior rows start as aligned as src_'s
  /// rows: `padded` must differ from the border rules in the border work only. With
  /// `images` > 1, the batch cases' sources hold `images` copies of each (packed_batch).
  pixel_suite(int width, int height, int images, int max_radius, run_timer& timer)
      : w_(width), h_(height), images_(images), timer_(timer),
        halo_x_(round_up(max_radius, int(std::max<std::size_t>(1, 128 / sizeof(T))))), halo_y_(max_radius),
        host_src_(random_host_image<T>(width, height, 0x5eed0001u)),
        host_padded_(random_host_image<T>(halo_x_ + width + max_radius, height + 2 * max_radius, 0x5eed0002u)),
        src_(width, height), padded_(host_padded_.width(), host_padded_.height()), dst_(width, height) {
    src_.upload(host_src_.view(), timer_.stream());
    padded_.upload(host_padded_.view(), timer_.stream());
    if (images_ > 1) {
      batch_src_ = std::make_unique<packed_batch<T>>(w_, h_, images_);
      batch_padded_ = std::make_unique<packed_batch<T>>(host_padded_.width(), host_padded_.height(), images_);
      batch_dst_ = std::make_unique<packed_batch<T>>(w_, h_, images_);
      batch_src_->upload_to_all(host_src_, timer_.stream());
      batch_padded_->upload_to_all(host_padded_, timer_.stream());
    }
    gpu::stream_synchronize(timer_.stream());
  }

  /// Dispatches the case's algorithm name to its tag: every family of the library's list
  /// (hs::algo::for_each_family, tile-class strategy), then algo::automatic.
  measurement run(const bench_case& c, const filter_set& f, bool check) override {
    if (c.algo == hs::algo::automatic::name) return run_algo<hs::algo::automatic>(c, f, check);
    if (c.algo == loop_name() || c.algo == varshape_name()) {
      if (images_ < 2) return failed(c, c.algo + " runs with --batch N, N >= 2");
      return run_algo<hs::algo::automatic>(c, f, check, c.algo == loop_name() ? batch_form::loop : batch_form::varshape);
    }
    measurement m;
    bool found = false;
    hs::algo::for_each_family([&](auto tag) {
      using Algo = decltype(tag);
      if (!found && c.algo == Algo::name) m = run_algo<Algo>(c, f, check), found = true;
    });
    return found ? m : failed(c, "unknown algorithm '" + c.algo + "'");
  }

  device_images images() override {
    if (images_ < 2) return {src_.data(), src_.pitch_bytes(), dst_.data(), dst_.pitch_bytes(), w_, h_};
    const auto s = batch_src_->view();
    const auto d = batch_dst_->view();
    return {s.first.data, s.first.pitch_bytes, d.first.data, d.first.pitch_bytes, w_, h_,
            images_, s.image_stride_bytes, d.image_stride_bytes};
  }

 private:
  static int round_up(int v, int m) { return (v + m - 1) / m * m; }

  static measurement failed(const bench_case& c, std::string why) {
    measurement m;
    m.impl = "hipstencil";
    m.variant = c.algo;
    m.error = std::move(why);
    return m;
  }

  /// Whether Algo takes dense / separable filters: hs::algo::takes_dense / takes_separable
  /// for a family's tag; automatic (no family of its own) takes both.
  template <class Algo>
  static constexpr bool takes_dense() {
    if constexpr (std::is_same<Algo, hs::algo::automatic>::value) return true;
    else return hs::algo::takes_dense<Algo>;
  }
  template <class Algo>
  static constexpr bool takes_separable() {
    if constexpr (std::is_same<Algo, hs::algo::automatic>::value) return true;
    else return hs::algo::takes_separable<Algo>;
  }

  /// Builds the case's filter and runs it. A family that does not take dense filters
  /// (two_pass: the library rejects a dense one at compile time) never instantiates that
  /// pair; make_cases does not ask for it either.
  template <class Algo>
  measurement run_algo(const bench_case& c, const filter_set& f, bool check, batch_form form = batch_form::call) {
    const int k = 2 * f.radius + 1;
    if (c.separable) {
      if constexpr (takes_separable<Algo>()) {
        return run_filter<Algo>(c, hs::separable_filter(f.row, f.column), check, form);
      } else {
        return failed(c, c.algo + " takes dense filters only");
      }
    }
    if constexpr (takes_dense<Algo>()) {
      return run_filter<Algo>(c, hs::filter2d(k, k, f.dense), check, form);
    } else {
      return failed(c, c.algo + " takes separable filters only");
    }
  }

  /// The source of a case: the interior of the padded image under `padded`, else src_.
  hs::image_view<const T> source(hs::border::kind b) const {
    if (b != hs::border::kind::padded) return src_.view();
    return padded_.view().sub(hs::rect{halo_x_, halo_y_, w_, h_});
  }
  hs::image_view<const T> host_source(hs::border::kind b) const {
    if (b != hs::border::kind::padded) return host_src_.view();
    return host_padded_.view().sub(hs::rect{halo_x_, halo_y_, w_, h_});
  }
  /// The batch cases' source: the interiors of the padded batch's images under `padded`.
  hs::batch_view<const T> batch_source(hs::border::kind b) const {
    if (b != hs::border::kind::padded) return batch_src_->view();
    const hs::batch_view<T> p = batch_padded_->view();
    return hs::batch_view<const T>(p.first.sub(hs::rect{halo_x_, halo_y_, w_, h_}), p.count, p.image_stride_bytes);
  }

  /// The run-time rule of a case; `constant` pads with 0.
  static hs::border::any rule(hs::border::kind b) { return hs::border::any(b, 0.0f); }

  template <class Algo, class Filter>
  measurement run_filter(const bench_case& c, const Filter& f, bool check, batch_form form) {
    if (images_ > 1) {
      if constexpr (batch_pixel<T>) return run_batch<Algo>(c, f, check, form);
      else return failed(c, "--batch runs u8, float and uchar4 only");  // parse() rejects it first
    }
    // two_pass needs a workspace; automatic takes one to be free to run two_pass.
    constexpr bool needs_workspace =
        (std::is_same<Algo, hs::algo::two_pass<>>::value || std::is_same<Algo, hs::algo::automatic>::value) &&
        std::is_same<Filter, hs::separable_filter>::value;
    measurement m;
    m.impl = "hipstencil";
    m.variant = c.algo;
    const hs::image_view<const T> src = source(c.border);
    const hs::image_view<T> dst = dst_.view();
    const hs::border::any b = rule(c.border);
    const gpu::stream_t s = timer_.stream();
    Algo algo{};
    if constexpr (hs::detail::has_strip_rows<Algo>::value) algo.strip_rows = c.strip_rows;
    try {
      // resolved: what the call runs after every fallback, asked with the same arguments
      // (and the same workspace) before it is timed.
      if constexpr (needs_workspace) {
        // The workspace overload: the convenience one would allocate inside the timed region.
        device_buffer work(hs::two_pass_workspace_bytes<T>(w_, h_, f));
        const hs::workspace ws = work.workspace();
        m.resolved =
            hs::resolved_algorithm(src, src.bounds(), dst, dst.bounds(), f, b, algo, hs::halo::isolated, &ws).str();
        m.t = timer_.time([&] {
          hs::convolve(src, src.bounds(), dst, dst.bounds(), f, b, algo, s, hs::halo::isolated, ws);
        });
      } else {
        m.resolved = hs::resolved_algorithm(src, src.bounds(), dst, dst.bounds(), f, b, algo).str();
        m.t = timer_.time([&] { hs::convolve(src, src.bounds(), dst, dst.bounds(), f, b, algo, s); });
      }
    } catch (const hs::invalid_argument& e) {
      m.error = e.what();
      return m;
    }
    if (check) m.check = spot_check(c, f, dst_.view());
    return m;
  }

  /// A batch case: convolve_batch over the whole batch, or (`loop`) one automatic convolve
  /// call per image, or (`varshape`) the variable-shape convolve_batch over the same images
  /// (its descriptors copied to the device inside the timed region, as every call does).
  /// Spot-checks the first and the last image.
  template <class Algo, class Filter>
  measurement run_batch(const bench_case& c, const Filter& f, bool check, batch_form form) {
    const bool loop = form == batch_form::loop;
    constexpr bool needs_workspace =
        (std::is_same<Algo, hs::algo::two_pass<>>::value || std::is_same<Algo, hs::algo::automatic>::value) &&
        std::is_same<Filter, hs::separable_filter>::value;
    measurement m;
    m.impl = "hipstencil";
    m.variant = form == batch_form::call ? c.algo : form == batch_form::loop ? loop_name() : varshape_name();
    const hs::batch_view<const T> src = batch_source(c.border);
    const hs::batch_view<T> dst = batch_dst_->view();
    const hs::rect roi{0, 0, w_, h_};
    const hs::border::any b = rule(c.border);
    const gpu::stream_t s = timer_.stream();
    Algo algo{};
    if constexpr (hs::detail::has_strip_rows<Algo>::value) algo.strip_rows = c.strip_rows;
    try {
      if (form == batch_form::varshape) {
        std::vector<hs::varshape_image<T, T>> images;
        for (int k = 0; k < images_; ++k) images.emplace_back(src[k], roi, dst[k], roi);
        std::vector<hs::filter2d> filters;
        if constexpr (std::is_same<Filter, hs::separable_filter>::value) filters.push_back(f.to_2d());
        else filters.push_back(f);
        device_buffer work(hs::varshape_workspace_bytes<T, T>(images.size(), filters));
        m.resolved = "varshape r=* dense";
        m.t = timer_.time([&] { hs::convolve_batch(images, filters, b, s, hs::halo::isolated, work.workspace()); });
      } else if (loop) {
        // The workspace a single call may use, as the caller of a loop would pass it.
        std::size_t bytes = 0;
        if constexpr (needs_workspace) bytes = hs::two_pass_workspace_bytes<T>(w_, h_, f);
        device_buffer work(bytes);
        const hs::workspace ws = work.workspace();
        m.resolved = "one call per image: " + hs::resolved_algorithm(src[0], roi, dst[0], roi, f, b, algo,
                                                                      hs::halo::isolated, needs_workspace ? &ws : nullptr)
                                                   .str();
        m.t = timer_.time([&] {
          for (int k = 0; k < images_; ++k) {
            if constexpr (needs_workspace) hs::convolve(src[k], roi, dst[k], roi, f, b, algo, s, hs::halo::isolated, ws);
            else hs::convolve(src[k], roi, dst[k], roi, f, b, algo, s);
          }
        });
      } else if constexpr (needs_workspace) {
        device_buffer work(hs::two_pass_workspace_bytes<T>(w_, h_, f, images_));
        const hs::workspace ws = work.workspace();
        m.resolved = hs::resolved_algorithm(src, roi, dst, roi, f, b, algo, hs::halo::isolated, &ws).str();
        m.t = timer_.time([&] { hs::convolve_batch(src, roi, dst, roi, f, b, algo, s, hs::halo::isolated, ws); });
      } else {
        m.resolved = hs::resolved_algorithm(src, roi, dst, roi, f, b, algo).str();
        m.t = timer_.time([&] { hs::convolve_batch(src, roi, dst, roi, f, b, algo, s); });
      }
    } catch (const hs::invalid_argument& e) {
      m.error = e.what();
      return m;
    }
    if (check) {
      const check_result first = spot_check(c, f, dst[0]), last = spot_check(c, f, dst[images_ - 1]);
      m.check = first;
      m.check.ok = first.ok && last.ok;
      m.check.max_error = std::max(first.max_error, last.max_error);
    }
    return m;
  }

  /// Compares three 32 x 32 patches of the output (two corners, where every border rule
  /// is exercised, and the centre) with the host reference (double accumulation). The
  /// reference reads the same source through halo::from_parent, which applies the rule at
  /// the whole image's edges exactly as the full-image call does. Under `skip` only the
  /// outputs whose window lies inside the image are written (the rest of dst_ holds an
  /// earlier case's output, and the reference leaves them untouched), so only those count.
  template <class Filter>
  check_result spot_check(const bench_case& c, const Filter& f, hs::image_view<const T> out) {
    const int pw = std::min(32, w_), ph = std::min(32, h_);
    const hs::rect patches[] = {{0, 0, pw, ph}, {(w_ - pw) / 2, (h_ - ph) / 2, pw, ph}, {w_ - pw, h_ - ph, pw, ph}};
    hs::host_image<T> got(pw, ph), want(pw, ph);
    check_result r;
    r.ran = true;
    for (const hs::rect& p : patches) {
      gpu::memcpy_2d(got.data(), got.pitch_bytes(), &out(p.x, p.y), out.pitch_bytes, pw * sizeof(T), ph,
                     gpu::copy_kind::device_to_host, timer_.stream());
      gpu::stream_synchronize(timer_.stream());
      const hs::halo h = c.border == hs::border::kind::padded ? hs::halo::isolated : hs::halo::from_parent;
      hs::reference::convolve(host_source(c.border), p, want.view(), want.view().bounds(), f, rule(c.border), h,
                              hs::reference::all_threads());
      for (int y = 0; y < ph; ++y)
        for (int x = 0; x < pw; ++x)
          if (written(c, p.x + x, p.y + y))
            r.max_error = std::max(r.max_error, max_channel_difference(got(x, y), want(x, y)));
    }
    r.ok = r.max_error <= check_tolerance<T>();
    return r;
  }

  /// Whether the case writes output (x, y): always, except under `skip`, which writes only
  /// the outputs whose (square, centred) window lies inside the image.
  bool written(const bench_case& c, int x, int y) const {
    if (c.border != hs::border::kind::skip) return true;
    const int r = c.radius;
    return x >= r && x + r < w_ && y >= r && y + r < h_;
  }

  int w_, h_, images_;
  run_timer& timer_;
  int halo_x_, halo_y_;
  hs::host_image<T> host_src_, host_padded_;
  hs::device_image<T> src_, padded_, dst_;
  std::unique_ptr<packed_batch<T>> batch_src_, batch_padded_, batch_dst_;  ///< images_ > 1 only
};

}  // namespace bench
