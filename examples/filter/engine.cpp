// examples/filter/engine.cpp
// hipstencil-filter: the GPU run (the only caller of hs::convolve) and the host reference run.
// Everything GPU-specific is inside `#if HIPSTENCIL_HAS_GPU`.

#include "engine.hpp"

#include "choices.hpp"
#include "display.hpp"
#include "filters.hpp"

#include <hipstencil/hipstencil.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace hsf {

namespace {

#if HIPSTENCIL_HAS_GPU
/// One GPU run: the stream, device copies of the source and of one output per filter, and
/// the events around the timed launches.
template <class In, class Out>
struct device_run {
  hs::gpu::stream stream;
  hs::gpu::event start, stop;
  hs::device_image<In> src;
  std::vector<hs::device_image<Out>> dst;

  /// Uploads src and dsts (the untouched pixels keep their values) and queues the filters
  /// twice, the second time between the events. Returns once the work is queued.
  void launch(const hs::host_image<In>& h_src, const std::vector<filter_choice>& filters,
              const std::vector<hs::host_image<Out>>& h_dsts, const run_settings& s) {
    src = hs::device_image<In>(h_src.width(), h_src.height());
    src.upload(h_src.view(), stream.get());
    for (const auto& d : h_dsts) {
      dst.emplace_back(d.width(), d.height());
      dst.back().upload(d.view(), stream.get());
    }
    // The border rule goes in as a run-time border::any (the library dispatches on it at run
    // time anyway): visiting the variant would compile every call once per rule.
    const hs::border::any border = std::visit([](auto b) { return hs::border::any(b); }, s.border);
    const auto launch_all = [&] {
      for (std::size_t i = 0; i < filters.size(); ++i)
        std::visit(
            [&](const auto& f, auto algo, auto strategy) {
              using algo_t = typename with_strategy<decltype(algo), decltype(strategy)>::type;
              using filter_t = std::decay_t<decltype(f)>;
              // Rejected in run() before anything runs: two_pass takes separable filters only.
              if constexpr (!(separable_only<decltype(algo)>() && std::is_same<filter_t, hs::filter2d>::value))
                hs::convolve(src.view(), s.roi, dst[i].view(), s.roi, f, border, algo_t{}, stream.get(), s.halo);
            },
            filters[i], s.algo, s.strategy);
    };
    launch_all();  // warm-up: module loading and first-touch costs are not timed
    hs::gpu::event_record(start.get(), stream.get());
    launch_all();  // writes the same values again
    hs::gpu::event_record(stop.get(), stream.get());
  }
  /// GPU milliseconds of the timed launches; call after synchronising the stream.
  double ms() const { return double(hs::gpu::event_elapsed_ms(start.get(), stop.get())); }
};
#endif

/// Filters src with each filters[i] into dsts[i] (same size as src; pixels outside the ROI,
/// and outputs border::skip does not write, keep the values they come with). Returns the
/// time in milliseconds: GPU event time of the convolve calls, or host wall time.
template <class In, class Out>
double run_filters(const hs::host_image<In>& src, const std::vector<filter_choice>& filters,
                   std::vector<hs::host_image<Out>>& dsts, const run_settings& s) {
  if (s.where == engine::host) {
    const auto t0 = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < filters.size(); ++i)
      std::visit(
          [&](const auto& f, auto border) {
            hs::reference::convolve(src.view(), s.roi, dsts[i].view(), s.roi, f, border, s.halo);
          },
          filters[i], s.border);
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  }
#if HIPSTENCIL_HAS_GPU
  device_run<In, Out> run;
  run.launch(src, filters, dsts, s);
  for (std::size_t i = 0; i < dsts.size(); ++i) run.dst[i].download(dsts[i].view(), run.stream.get());
  hs::gpu::stream_synchronize(run.stream.get());
  return run.ms();
#else
  throw std::logic_error("GPU engine requested in a host-only build");
#endif
}

#if HIPSTENCIL_HAS_GPU
// The same display as display.hpp's, on the device. One thread per ROI pixel; (x, y) are
// parent coordinates.
#define HIPSTENCIL_FILTER_ROI_PIXEL(roi)                                      \
  const int x = roi.x + int(blockIdx.x * blockDim.x + threadIdx.x);       \
  const int y = roi.y + int(blockIdx.y * blockDim.y + threadIdx.y);       \
  if (x >= roi.x + roi.width || y >= roi.y + roi.height) return;

/// sq = gx^2 + gy^2 per colour channel (formed in double, stored as float); NaN stays NaN.
template <class P, class F>
__global__ void squared_magnitude_kernel(hs::image_view<const F> gx, hs::image_view<const F> gy, hs::image_view<F> sq,
                                         hs::rect roi) {
  HIPSTENCIL_FILTER_ROI_PIXEL(roi)
  using tf = hs::pixel_traits<F>;
  F m = gx(x, y);  // alpha (not selected by the reduction) is left as it is
  for (int c = 0; c < (hs::pixel_traits<P>::channels == 1 ? 1 : 3); ++c) {
    const double a = tf::get(gx(x, y), c), b = tf::get(gy(x, y), c);
    tf::set(m, c, float(a * a + b * b));
  }
  sq(x, y) = m;
}

/// As sobel_display, with max = sqrt(range->max), the largest squared magnitude.
template <class P, class F>
__global__ void sobel_display_kernel(hs::image_view<const F> gx, hs::image_view<const F> gy,
                                     const hs::value_range<float>* range, hs::image_view<P> out, hs::rect roi) {
  HIPSTENCIL_FILTER_ROI_PIXEL(roi)
  using ti = hs::pixel_traits<P>;
  using tf = hs::pixel_traits<F>;
  const float g0 = tf::get(gx(x, y), 0);
  if (g0 != g0) return;  // not written (skip): keep the input pixel
  const double max_mag = range->max > 0 ? ::sqrt(double(range->max)) : 0.0;  // -inf when nothing was written
  const double scale = max_mag > 0 ? 255.0 / max_mag : 0.0;
  P p = out(x, y);
  for (int c = 0; c < (ti::channels == 1 ? 1 : 3); ++c) {
    const double a = tf::get(gx(x, y), c), b = tf::get(gy(x, y), c);
    ti::set(p, c, hs::saturate_cast<typename ti::channel_type>(::sqrt(a * a + b * b) * scale));
  }
  if (ti::channels == 4) ti::set(p, 3, 255);
  out(x, y) = p;
}

template <class P, class F>
__global__ void laplacian_display_kernel(hs::image_view<const F> v, hs::image_view<P> out, hs::rect roi) {
  HIPSTENCIL_FILTER_ROI_PIXEL(roi)
  using ti = hs::pixel_traits<P>;
  using tf = hs::pixel_traits<F>;
  const float v0 = tf::get(v(x, y), 0);
  if (v0 != v0) return;
  P p = out(x, y);
  for (int c = 0; c < (ti::channels == 1 ? 1 : 3); ++c)
    ti::set(p, c, hs::saturate_cast<typename ti::channel_type>(128.0 + double(tf::get(v(x, y), c))));
  if (ti::channels == 4) ti::set(p, 3, 255);
  out(x, y) = p;
}
#undef HIPSTENCIL_FILTER_ROI_PIXEL

/// One value_range<float> in device memory.
struct device_range {
  hs::value_range<float>* p = static_cast<hs::value_range<float>*>(hs::gpu::malloc(sizeof(hs::value_range<float>)));
  device_range() = default;
  device_range(const device_range&) = delete;
  device_range& operator=(const device_range&) = delete;
  ~device_range() { hs::gpu::free(p); }
};

/// The GPU path of a float-output plan (sobel, laplacian): convolve, then scale for
/// display on the device, with the response range from hs::min_max; only the displayed
/// image comes back. Returns the time of the convolve calls.
template <class P>
double gpu_display(hs::host_image<P>& image, const filter_plan& plan, const run_settings& s, response_range& range) {
  using F = typename float_of<P>::type;
  std::vector<hs::host_image<F>> init;
  for (std::size_t i = 0; i < plan.filters.size(); ++i)
    init.emplace_back(image.width(), image.height(), float_of<P>::nan());  // NaN marks "not written"
  device_run<P, F> run;
  run.launch(image, plan.filters, init, s);
  const hs::gpu::stream_t st = run.stream.get();
  const dim3 block(16, 16);
  const dim3 grid((s.roi.width + 15) / 16, (s.roi.height + 15) / 16);
  device_range d_range;
  const auto out = run.src.view();  // displayed in place: its pixels are not needed any more
  if (plan.filters.size() == 2) {
    const hs::image_view<const F> gx = run.dst[0].view(), gy = run.dst[1].view();
    hs::device_image<F> sq(image.width(), image.height());
    squared_magnitude_kernel<P, F><<<grid, block, 0, st>>>(gx, gy, sq.view(), s.roi);
    hs::gpu::check_launch("squared_magnitude_kernel");
    // Allocates its workspace stream-ordered on st (a CLI runs this once).
    hs::min_max(sq.view().sub(s.roi), hs::channel_set::colour(), d_range.p, st);
    sobel_display_kernel<P, F><<<grid, block, 0, st>>>(gx, gy, d_range.p, out, s.roi);
    hs::gpu::check_launch("sobel_display_kernel");
  } else {
    const hs::image_view<const F> v = run.dst[0].view();
    hs::min_max(v.sub(s.roi), hs::channel_set::colour(), d_range.p, st);
    laplacian_display_kernel<P, F><<<grid, block, 0, st>>>(v, out, s.roi);
    hs::gpu::check_launch("laplacian_display_kernel");
  }
  hs::value_range<float> r{};
  hs::gpu::memcpy(&r, d_range.p, sizeof r, hs::gpu::copy_kind::device_to_host, st);
  run.src.download(image.view(), st);
  hs::gpu::stream_synchronize(st);
  if (r.min <= r.max) {  // else nothing was written: min_max gives {+inf, -inf}
    const bool squared = plan.filters.size() == 2;
    range.add(squared ? std::sqrt(double(r.min)) : double(r.min));
    range.add(squared ? std::sqrt(double(r.max)) : double(r.max));
  }
  return run.ms();
}
#endif

}  // namespace

template <class W>
double filter_responses(const hs::host_image<W>& src, const filter_plan& plan, const run_settings& s,
                        std::vector<hs::host_image<W>>& out) {
  out.clear();
  for (std::size_t i = 0; i < plan.filters.size(); ++i)
    out.emplace_back(src.width(), src.height(), float_of<W>::nan());  // NaN marks "not written"
  return run_filters(src, plan.filters, out, s);
}

template <class P>
double filter_same_type(hs::host_image<P>& image, const filter_plan& plan, const run_settings& s) {
  std::vector<hs::host_image<P>> out{image};  // a copy: only the ROI changes
  const double ms = run_filters(image, plan.filters, out, s);
  image = std::move(out[0]);
  return ms;
}

template <class P>
double filter_image(hs::host_image<P>& image, const filter_plan& plan, const run_settings& s, response_range& range) {
  if (!plan.float_output) return filter_same_type(image, plan, s);
  using F = typename float_of<P>::type;
  std::vector<hs::host_image<F>> out;
  double ms = 0;
  if constexpr (std::is_same<P, std::uint8_t>::value || std::is_same<P, hs::uchar4>::value) {
#if HIPSTENCIL_HAS_GPU
    if (s.where == engine::gpu) return gpu_display(image, plan, s, range);
#endif
    for (std::size_t i = 0; i < plan.filters.size(); ++i)
      out.emplace_back(image.width(), image.height(), float_of<P>::nan());  // NaN marks "not written"
    ms = run_filters(image, plan.filters, out, s);
  } else if constexpr (std::is_same<P, F>::value) {  // float, float4: already the responses' type
    ms = filter_responses(image, plan, s, out);
  } else {  // uint16: filtered as float (exact), whose kernels are compiled, then shown as uint16
    hs::host_image<F> as_float(image.width(), image.height());
    std::copy(image.data(), image.data() + std::size_t(image.width()) * std::size_t(image.height()), as_float.data());
    ms = filter_responses(as_float, plan, s, out);
  }
  if (plan.filters.size() == 2)
    range = sobel_display(out[0], out[1], s.roi, image);
  else
    range = laplacian_display(out[0], s.roi, image);
  return ms;
}

template double filter_image<std::uint8_t>(hs::host_image<std::uint8_t>& image, const filter_plan& plan,
                                           const run_settings& s, response_range& range);
template double filter_image<hs::uchar4>(hs::host_image<hs::uchar4>& image, const filter_plan& plan,
                                         const run_settings& s, response_range& range);
template double filter_image<std::uint16_t>(hs::host_image<std::uint16_t>& image, const filter_plan& plan,
                                            const run_settings& s, response_range& range);
template double filter_image<float>(hs::host_image<float>& image, const filter_plan& plan, const run_settings& s,
                                    response_range& range);
template double filter_image<hs::float4>(hs::host_image<hs::float4>& image, const filter_plan& plan,
                                         const run_settings& s, response_range& range);
template double filter_same_type<hs::ushort4>(hs::host_image<hs::ushort4>& image, const filter_plan& plan,
                                              const run_settings& s);
template double filter_same_type<hs::uchar3>(hs::host_image<hs::uchar3>& image, const filter_plan& plan,
                                             const run_settings& s);
template double filter_same_type<hs::ushort3>(hs::host_image<hs::ushort3>& image, const filter_plan& plan,
                                              const run_settings& s);
template double filter_same_type<hs::float3>(hs::host_image<hs::float3>& image, const filter_plan& plan,
                                             const run_settings& s);
template double filter_responses<float>(const hs::host_image<float>& src, const filter_plan& plan,
                                        const run_settings& s, std::vector<hs::host_image<float>>& out);

engine choose_engine(bool force_host, std::string& device) {
  if (force_host) {
    device = "host reference (--host)";
    return engine::host;
  }
#if HIPSTENCIL_HAS_GPU
  if (hs::gpu::device_count() == 0) {
    device = "host reference (no GPU: no " + std::string(hs::backend_name()) + " device found)";
    return engine::host;
  }
  device = hs::gpu::device_name(hs::gpu::current_device()) + " (" + hs::backend_name() + ")";
  return engine::gpu;
#else
  device = "host reference (no GPU: host-only build)";
  return engine::host;
#endif
}

}  // namespace hsf
