// bench/npp_peer.cpp
// NVIDIA NPP as the peer, on the same device images, stream and timer as hipstencil.
// Compiled only on the CUDA backend when CMake found NPP (CUDA::nppif, CUDA::nppc).
//
// For each case every NPP function family that computes it is timed, and the table shows
// the fastest: the user's best choice in NPP, not a strawman.
//   dense:     nppiFilterBorder (Npp32s coefficients with a divisor: 8u_C1R, 8u_C3R, 8u_C4R,
//              16u_C1R, 16u_C3R, 16u_C4R, 16s_C1R) and nppiFilterBorder32f / nppiFilterBorder_32f
//              (float coefficients, every type; float and float3 through 32f_C1R and 32f_C3R);
//   separable: nppiFilterRowBorder then nppiFilterColumnBorder (their 32f-coefficient forms
//              for the integer types) through an intermediate image of the same type, so
//              rounded and saturated between the passes (NPP has no fused separable
//              filter), and nppiFilterGaussBorder where NPP has the mask (3x3 to 15x15; its
//              sigma, 0.4 + 0.6 r, is the one bench::make_filters uses).
// u16, s16 (int16) and ushort4 get the same families as u8 and uchar4, through their
// 16u_C1R / 16s_C1R / 16u_C4R functions; NPP's box filter (nppiFilterBoxBorder) is left out for every type, since no
// case of the benchmark is a box filter. half and half4 have one NPP filter with borders
// each, nppiFilterBorder32f_16f_C1R and _C4R (NPP 13.0.1's filtering header has no 16f row,
// column or Gauss filter): dense cases run it, separable ones run it on the outer product.
// bfloat16 and bfloat16x4 have none.
// NPP's border filters implement replicate (and constant where this NPP accepts it; a
// rejected call reports its status); the other rules (reflect, reflect101, wrap, skip,
// padded) have no NPP variant here, and their cases run without the peer.
// NPP_BORDER_CONSTANT carries no value: NPP's constant is 0, as the benchmark's.
//
// CUDA 12.9 removed nppGetStreamContext, so the context is filled from the runtime's
// device attributes, as NPP's documentation of NppStreamContext asks.
#include "bench.hpp"

#if !defined(HIPSTENCIL_BACKEND_CUDA)
#error "npp_peer.cpp is for the CUDA backend only; bench/CMakeLists.txt builds npp_absent.cpp elsewhere"
#endif

#include <cmath>
#include <nppcore.h>
#include <nppi_filtering_functions.h>

namespace bench {
namespace {

void cuda_check(cudaError_t e, const char* where) { gpu::check(e, where); }

NppStreamContext stream_context(cudaStream_t s) {
  NppStreamContext c{};
  c.hStream = s;
  cuda_check(cudaGetDevice(&c.nCudaDeviceId), "cudaGetDevice");
  const int d = c.nCudaDeviceId;
  cuda_check(cudaDeviceGetAttribute(&c.nMultiProcessorCount, cudaDevAttrMultiProcessorCount, d), "attribute");
  cuda_check(cudaDeviceGetAttribute(&c.nMaxThreadsPerMultiProcessor, cudaDevAttrMaxThreadsPerMultiProcessor, d),
             "attribute");
  cuda_check(cudaDeviceGetAttribute(&c.nMaxThreadsPerBlock, cudaDevAttrMaxThreadsPerBlock, d), "attribute");
  int smem = 0;
  cuda_check(cudaDeviceGetAttribute(&smem, cudaDevAttrMaxSharedMemoryPerBlock, d), "attribute");
  c.nSharedMemPerBlock = std::size_t(smem);
  cuda_check(cudaDeviceGetAttribute(&c.nCudaDevAttrComputeCapabilityMajor, cudaDevAttrComputeCapabilityMajor, d),
             "attribute");
  cuda_check(cudaDeviceGetAttribute(&c.nCudaDevAttrComputeCapabilityMinor, cudaDevAttrComputeCapabilityMinor, d),
             "attribute");
  cuda_check(cudaStreamGetFlags(s, &c.nStreamFlags), "cudaStreamGetFlags");
  return c;
}

std::string status_text(NppStatus s) {
  const std::string code = "NPP status " + std::to_string(int(s));
  return s == NPP_NOT_SUPPORTED_MODE_ERROR ? code + " (NPP_NOT_SUPPORTED_MODE_ERROR)" : code;
}

/// Coefficients in device memory, copied once per case, outside the timed region.
template <class K>
class device_taps {
 public:
  explicit device_taps(const std::vector<K>& h) : p_(static_cast<K*>(gpu::malloc(h.size() * sizeof(K)))) {
    cuda_check(cudaMemcpy(p_, h.data(), h.size() * sizeof(K), cudaMemcpyHostToDevice), "cudaMemcpy(taps)");
  }
  ~device_taps() { gpu::free(p_); }
  device_taps(const device_taps&) = delete;
  device_taps& operator=(const device_taps&) = delete;
  const K* get() const { return p_; }

 private:
  K* p_;
};

/// A pitched intermediate image for the row-then-column pair.
class device_image_bytes {
 public:
  device_image_bytes(std::size_t row_bytes, int height) {
    cuda_check(cudaMallocPitch(&p_, &pitch_, row_bytes, std::size_t(height)), "cudaMallocPitch(intermediate)");
  }
  ~device_image_bytes() { gpu::free(p_); }
  device_image_bytes(const device_image_bytes&) = delete;
  device_image_bytes& operator=(const device_image_bytes&) = delete;
  template <class P>
  P* as() const { return static_cast<P*>(p_); }
  int pitch() const { return int(pitch_); }

 private:
  void* p_ = nullptr;
  std::size_t pitch_ = 0;
};

/// NPP convolves (its coefficients are "stored in reverse order"): reversing them makes
/// it compute the correlation hipstencil computes.
std::vector<float> reversed(const std::vector<float>& v) { return std::vector<float>(v.rbegin(), v.rend()); }

/// Integer coefficients for the Npp32s families: scaled by 2^12 and rounded, with the
/// divisor their sum, so the filter stays normalised. The taps are positive and sum to
/// about 2^12, so a window of 16-bit pixels sums to about 2^28 at most: inside NPP's
/// 32-bit sums.
struct int_kernel {
  std::vector<Npp32s> taps;
  Npp32s divisor = 0;
};
int_kernel to_int_kernel(const std::vector<float>& k) {
  int_kernel r;
  for (float c : k) {
    r.taps.push_back(Npp32s(std::lround(c * 4096.0f)));
    r.divisor += r.taps.back();
  }
  if (r.divisor == 0) r.divisor = 1;
  return r;
}

/// What every call of one case shares.
struct job {
  const device_images& im;
  run_timer& timer;
  NppStreamContext ctx;
  NppiBorderType border;
  NppiSize size;
  NppiPoint origin;
  int radius;
  mutable int image = 0;  ///< the image of a batch the calls address (time_call sets it)
  int src_step() const { return int(im.src_pitch); }
  int dst_step() const { return int(im.dst_pitch); }
  template <class P>
  const P* src() const {
    return reinterpret_cast<const P*>(static_cast<const char*>(im.src) + std::size_t(image) * im.src_image_bytes);
  }
  template <class P>
  P* dst() const {
    return reinterpret_cast<P*>(static_cast<char*>(im.dst) + std::size_t(image) * im.dst_image_bytes);
  }
};

/// Calls once (checked) and times the call, once per image of a batch (these NPP functions
/// take one image: a caller loops); a failing status ends the family's timing.
template <class Call>
measurement time_call(std::string variant, const job& j, Call&& call) {
  measurement m;
  m.impl = "npp";
  m.variant = std::move(variant) + (j.im.images > 1 ? " (one call per image)" : "");
  j.image = 0;
  const NppStatus first = call();
  gpu::check(gpu::get_last_error(), "NPP launch");
  if (first != NPP_SUCCESS) {
    m.error = status_text(first);
    return m;
  }
  NppStatus last = NPP_SUCCESS;
  m.t = j.timer.time([&] {
    for (j.image = 0; j.image < j.im.images; ++j.image) {
      const NppStatus s = call();
      if (s != NPP_SUCCESS) last = s;
    }
  });
  if (last != NPP_SUCCESS) m.error = status_text(last);
  return m;
}

bool gauss_mask(int radius, NppiMaskSize& m) {
  switch (radius) {
    case 1: m = NPP_MASK_SIZE_3_X_3; return true;
    case 2: m = NPP_MASK_SIZE_5_X_5; return true;
    case 3: m = NPP_MASK_SIZE_7_X_7; return true;
    case 4: m = NPP_MASK_SIZE_9_X_9; return true;
    case 5: m = NPP_MASK_SIZE_11_X_11; return true;
    case 6: m = NPP_MASK_SIZE_13_X_13; return true;
    case 7: m = NPP_MASK_SIZE_15_X_15; return true;
    default: return false;
  }
}

/// The NPP functions of one integer pixel layout (8u_C1R, 8u_C3R, 8u_C4R, 16u_C1R, 16u_C3R, 16u_C4R, 16s_C1R). Their
/// signatures differ by the pixel type P alone, so one routine times every layout's
/// families, each variant named after its function ("FilterBorder32f_16u_C1R").
template <class P>
struct int_functions {
  using border_fn = NppStatus (*)(const P*, Npp32s, NppiSize, NppiPoint, P*, Npp32s, NppiSize, const Npp32s*, NppiSize,
                                  NppiPoint, Npp32s, NppiBorderType, NppStreamContext);
  using border32f_fn = NppStatus (*)(const P*, int, NppiSize, NppiPoint, P*, int, NppiSize, const Npp32f*, NppiSize,
                                     NppiPoint, NppiBorderType, NppStreamContext);
  using line32f_fn = NppStatus (*)(const P*, int, NppiSize, NppiPoint, P*, int, NppiSize, const Npp32f*, Npp32s, Npp32s,
                                   NppiBorderType, NppStreamContext);
  using gauss_fn = NppStatus (*)(const P*, Npp32s, NppiSize, NppiPoint, P*, Npp32s, NppiSize, NppiMaskSize,
                                 NppiBorderType, NppStreamContext);
  std::string suffix;     ///< "16u_C1R": the functions' suffix, which ends each variant's name
  border_fn border;       ///< nppiFilterBorder_<suffix>_Ctx: Npp32s taps and a divisor
  border32f_fn border32f; ///< nppiFilterBorder32f_<suffix>_Ctx: Npp32f taps
  line32f_fn row32f, column32f;  ///< nppiFilterRowBorder32f / ColumnBorder32f_<suffix>_Ctx
  gauss_fn gauss;         ///< nppiFilterGaussBorder_<suffix>_Ctx
};

const int_functions<Npp8u> npp_8u_c1{"8u_C1R",
                                     nppiFilterBorder_8u_C1R_Ctx,
                                     nppiFilterBorder32f_8u_C1R_Ctx,
                                     nppiFilterRowBorder32f_8u_C1R_Ctx,
                                     nppiFilterColumnBorder32f_8u_C1R_Ctx,
                                     nppiFilterGaussBorder_8u_C1R_Ctx};
const int_functions<Npp8u> npp_8u_c3{"8u_C3R",
                                     nppiFilterBorder_8u_C3R_Ctx,
                                     nppiFilterBorder32f_8u_C3R_Ctx,
                                     nppiFilterRowBorder32f_8u_C3R_Ctx,
                                     nppiFilterColumnBorder32f_8u_C3R_Ctx,
                                     nppiFilterGaussBorder_8u_C3R_Ctx};
const int_functions<Npp8u> npp_8u_c4{"8u_C4R",
                                     nppiFilterBorder_8u_C4R_Ctx,
                                     nppiFilterBorder32f_8u_C4R_Ctx,
                                     nppiFilterRowBorder32f_8u_C4R_Ctx,
                                     nppiFilterColumnBorder32f_8u_C4R_Ctx,
                                     nppiFilterGaussBorder_8u_C4R_Ctx};
const int_functions<Npp16u> npp_16u_c1{"16u_C1R",
                                       nppiFilterBorder_16u_C1R_Ctx,
                                       nppiFilterBorder32f_16u_C1R_Ctx,
                                       nppiFilterRowBorder32f_16u_C1R_Ctx,
                                       nppiFilterColumnBorder32f_16u_C1R_Ctx,
                                       nppiFilterGaussBorder_16u_C1R_Ctx};
const int_functions<Npp16u> npp_16u_c4{"16u_C4R",
                                       nppiFilterBorder_16u_C4R_Ctx,
                                       nppiFilterBorder32f_16u_C4R_Ctx,
                                       nppiFilterRowBorder32f_16u_C4R_Ctx,
                                       nppiFilterColumnBorder32f_16u_C4R_Ctx,
                                       nppiFilterGaussBorder_16u_C4R_Ctx};
const int_functions<Npp16u> npp_16u_c3{"16u_C3R",
                                       nppiFilterBorder_16u_C3R_Ctx,
                                       nppiFilterBorder32f_16u_C3R_Ctx,
                                       nppiFilterRowBorder32f_16u_C3R_Ctx,
                                       nppiFilterColumnBorder32f_16u_C3R_Ctx,
                                       nppiFilterGaussBorder_16u_C3R_Ctx};
const int_functions<Npp16s> npp_16s_c1{"16s_C1R",
                                       nppiFilterBorder_16s_C1R_Ctx,
                                       nppiFilterBorder32f_16s_C1R_Ctx,
                                       nppiFilterRowBorder32f_16s_C1R_Ctx,
                                       nppiFilterColumnBorder32f_16s_C1R_Ctx,
                                       nppiFilterGaussBorder_16s_C1R_Ctx};

/// A dense case's coefficients on the device, in both of NPP's forms.
struct dense_taps {
  const Npp32f* real;
  const Npp32s* integer;
  Npp32s divisor;
  NppiSize size;
  NppiPoint anchor;
};

template <class P>
std::vector<measurement> dense_int(const int_functions<P>& fn, const dense_taps& t, const job& j) {
  std::vector<measurement> out;
  out.push_back(time_call("FilterBorder_" + fn.suffix, j, [&] {
    return fn.border(j.src<P>(), j.src_step(), j.size, j.origin, j.dst<P>(), j.dst_step(), j.size, t.integer, t.size,
                     t.anchor, t.divisor, j.border, j.ctx);
  }));
  out.push_back(time_call("FilterBorder32f_" + fn.suffix, j, [&] {
    return fn.border32f(j.src<P>(), j.src_step(), j.size, j.origin, j.dst<P>(), j.dst_step(), j.size, t.real, t.size,
                        t.anchor, j.border, j.ctx);
  }));
  return out;
}

/// NPP's float functions of one layout (32f_C1R, 32f_C3R): int_functions' shapes with Npp32f
/// pixels, float taps only.
struct float_functions {
  using shapes = int_functions<Npp32f>;
  std::string suffix;              ///< "32f_C1R"
  shapes::border32f_fn border;     ///< nppiFilterBorder_<suffix>_Ctx
  shapes::line32f_fn row, column;  ///< nppiFilterRowBorder / ColumnBorder_<suffix>_Ctx
  shapes::gauss_fn gauss;          ///< nppiFilterGaussBorder_<suffix>_Ctx
};
const float_functions npp_32f_c1{"32f_C1R", nppiFilterBorder_32f_C1R_Ctx, nppiFilterRowBorder_32f_C1R_Ctx,
                                 nppiFilterColumnBorder_32f_C1R_Ctx, nppiFilterGaussBorder_32f_C1R_Ctx};
const float_functions npp_32f_c3{"32f_C3R", nppiFilterBorder_32f_C3R_Ctx, nppiFilterRowBorder_32f_C3R_Ctx,
                                 nppiFilterColumnBorder_32f_C3R_Ctx, nppiFilterGaussBorder_32f_C3R_Ctx};

std::vector<measurement> dense_float(const float_functions& fn, const dense_taps& t, const job& j) {
  return {time_call("FilterBorder_" + fn.suffix, j, [&] {
    return fn.border(j.src<Npp32f>(), j.src_step(), j.size, j.origin, j.dst<Npp32f>(), j.dst_step(), j.size, t.real,
                     t.size, t.anchor, j.border, j.ctx);
  })};
}

/// nppiFilterBorder32f_16f_C1R (one channel) or _C4R (four) with `taps` (already
/// reversed) of `size` at `anchor`.
measurement half_dense(const std::string& variant, const Npp32f* taps, NppiSize size, NppiPoint anchor, const job& j,
                       int channels) {
  return time_call(variant, j, [&] {
    if (channels == 4)
      return nppiFilterBorder32f_16f_C4R_Ctx(j.src<Npp16f>(), j.src_step(), j.size, j.origin, j.dst<Npp16f>(),
                                             j.dst_step(), j.size, taps, size, anchor, j.border, j.ctx);
    return nppiFilterBorder32f_16f_C1R_Ctx(j.src<Npp16f>(), j.src_step(), j.size, j.origin, j.dst<Npp16f>(),
                                           j.dst_step(), j.size, taps, size, anchor, j.border, j.ctx);
  });
}

std::vector<measurement> dense(pixel type, const filter_set& f, const job& j) {
  const device_taps<float> kf(reversed(f.dense));
  const int_kernel ki = to_int_kernel(reversed(f.dense));
  const device_taps<Npp32s> kd(ki.taps);
  const int k = 2 * j.radius + 1;
  const dense_taps t{kf.get(), kd.get(), ki.divisor, NppiSize{k, k}, NppiPoint{j.radius, j.radius}};
  switch (type) {
    case pixel::f32: return dense_float(npp_32f_c1, t, j);
    case pixel::u8: return dense_int(npp_8u_c1, t, j);
    case pixel::u16: return dense_int(npp_16u_c1, t, j);
    case pixel::s16: return dense_int(npp_16s_c1, t, j);
    case pixel::rgba8: return dense_int(npp_8u_c4, t, j);
    case pixel::rgb8: return dense_int(npp_8u_c3, t, j);
    case pixel::rgba16: return dense_int(npp_16u_c4, t, j);
    case pixel::f16: return {half_dense("FilterBorder32f_16f_C1R", t.real, t.size, t.anchor, j, 1)};
    case pixel::rgba16f: return {half_dense("FilterBorder32f_16f_C4R", t.real, t.size, t.anchor, j, 4)};
    case pixel::bf16: return {};  // NPP 13.0.1's filtering header has no bfloat16 function
    case pixel::rgb16: return dense_int(npp_16u_c3, t, j);
    case pixel::rgb32f: return dense_float(npp_32f_c3, t, j);
    case pixel::rgba16bf: return {};
  }
  return {};
}

/// Row pass into `tmp`, then column pass into the output; both calls inside the timing.
template <class P, class Row, class Col>
measurement row_then_column(const std::string& variant, const job& j, const device_image_bytes& tmp, Row row, Col col) {
  return time_call(variant, j, [&] {
    const NppStatus s = row(j.src<P>(), j.src_step(), tmp.as<P>(), tmp.pitch());
    return s != NPP_SUCCESS ? s : col(tmp.as<const P>(), tmp.pitch(), j.dst<P>(), j.dst_step());
  });
}

/// A separable case's taps on the device, and the intermediate image of the row pass.
struct line_taps {
  const Npp32f* row;
  const Npp32f* column;
  int size, anchor;
  const device_image_bytes& tmp;
};

/// The row pass then the column pass (`row_column`: the variant's name up to the suffix),
/// and NPP's Gauss filter where it has the mask, for the layout `suffix` of pixels P.
template <class P>
std::vector<measurement> separable_families(const std::string& row_column, const std::string& suffix,
                                            typename int_functions<P>::line32f_fn row,
                                            typename int_functions<P>::line32f_fn column,
                                            typename int_functions<P>::gauss_fn gauss, const line_taps& t,
                                            const job& j) {
  std::vector<measurement> out;
  out.push_back(row_then_column<P>(
      row_column + suffix, j, t.tmp,
      [&](const P* s, int ss, P* d, int ds) {
        return row(s, ss, j.size, j.origin, d, ds, j.size, t.row, t.size, t.anchor, j.border, j.ctx);
      },
      [&](const P* s, int ss, P* d, int ds) {
        return column(s, ss, j.size, j.origin, d, ds, j.size, t.column, t.size, t.anchor, j.border, j.ctx);
      }));
  NppiMaskSize mask{};
  if (gauss_mask(j.radius, mask))
    out.push_back(time_call("GaussBorder_" + suffix, j, [&] {
      return gauss(j.src<P>(), j.src_step(), j.size, j.origin, j.dst<P>(), j.dst_step(), j.size, mask, j.border, j.ctx);
    }));
  return out;
}

template <class P>
std::vector<measurement> separable_int(const int_functions<P>& fn, const line_taps& t, const job& j) {
  return separable_families<P>("RowBorder32f+ColumnBorder32f_", fn.suffix, fn.row32f, fn.column32f, fn.gauss, t, j);
}

std::vector<measurement> separable_float(const float_functions& fn, const line_taps& t, const job& j) {
  return separable_families<Npp32f>("RowBorder+ColumnBorder_", fn.suffix, fn.row, fn.column, fn.gauss, t, j);
}

std::vector<measurement> separable(pixel type, const filter_set& f, const job& j) {
  const device_taps<float> kr(reversed(f.row)), kc(reversed(f.column));
  const device_image_bytes tmp(std::size_t(j.im.width) * pixel_bytes(type), j.im.height);
  const line_taps t{kr.get(), kc.get(), 2 * j.radius + 1, j.radius, tmp};
  switch (type) {
    case pixel::f32: return separable_float(npp_32f_c1, t, j);
    case pixel::u8: return separable_int(npp_8u_c1, t, j);
    case pixel::u16: return separable_int(npp_16u_c1, t, j);
    case pixel::s16: return separable_int(npp_16s_c1, t, j);
    case pixel::rgba8: return separable_int(npp_8u_c4, t, j);
    case pixel::rgb8: return separable_int(npp_8u_c3, t, j);
    case pixel::rgba16: return separable_int(npp_16u_c4, t, j);
    case pixel::f16:
    case pixel::rgba16f: {  // the outer product, column times row, reversed as the dense taps are
      const int k = 2 * j.radius + 1;
      std::vector<float> outer(std::size_t(k) * std::size_t(k));
      for (int y = 0; y < k; ++y)
        for (int x = 0; x < k; ++x) outer[std::size_t(y) * k + x] = f.column[y] * f.row[x];
      const device_taps<float> ko(reversed(outer));
      const int channels = type == pixel::f16 ? 1 : 4;
      return {half_dense(std::string("FilterBorder32f_16f_") + (channels == 1 ? "C1R" : "C4R") + " (outer product)",
                         ko.get(), NppiSize{k, k}, NppiPoint{j.radius, j.radius}, j, channels)};
    }
    case pixel::bf16: return {};
    case pixel::rgb16: return separable_int(npp_16u_c3, t, j);
    case pixel::rgb32f: return separable_float(npp_32f_c3, t, j);
    case pixel::rgba16bf: return {};  // NPP has no bfloat16 filter
  }
  return {};
}

}  // namespace

bool npp_linked() { return true; }

std::string npp_description() {
  const NppLibraryVersion* v = nppGetLibVersion();
  return "NPP " + std::to_string(v->major) + "." + std::to_string(v->minor) + "." + std::to_string(v->build);
}

std::vector<measurement> time_npp(pixel type, bool is_separable, const filter_set& f, hs::border::kind border,
                                  const device_images& im, run_timer& timer) {
  NppiBorderType b;
  switch (border) {
    case hs::border::kind::replicate: b = NPP_BORDER_REPLICATE; break;
    case hs::border::kind::constant: b = NPP_BORDER_CONSTANT; break;
    default: return {};  // no NPP rule: the case runs without the peer
  }
  const job j{im, timer, stream_context(timer.stream()), b, NppiSize{im.width, im.height}, NppiPoint{0, 0}, f.radius};
  return is_separable ? separable(type, f, j) : dense(type, f, j);
}

}  // namespace bench
