// bench/npp_peer.cpp
// NVIDIA NPP as the peer, on the same device images, stream and timer as hipstencil.
// Compiled only on the CUDA backend when CMake found NPP (CUDA::nppif, CUDA::nppc).
//
// For each case every NPP function family that computes it is timed, and the table shows
// the fastest: the user's best choice in NPP, not a strawman.
//   dense:     nppiFilterBorder (Npp32s coefficients with a divisor, 8-bit only) and
//              nppiFilterBorder32f / nppiFilterBorder_32f (float coefficients);
//   separable: nppiFilterRowBorder then nppiFilterColumnBorder through an intermediate
//              image of the same type (NPP has no fused separable filter), and
//              nppiFilterGaussBorder where NPP has the mask (3x3 to 15x15; its sigma,
//              0.4 + 0.6 r, is the one bench::make_filters uses).
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
/// divisor their sum, so the filter stays normalised.
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

/// Calls once (checked) and times the call; a failing status ends the family's timing.
template <class Call>
measurement time_call(std::string variant, run_timer& timer, Call&& call) {
  measurement m;
  m.impl = "npp";
  m.variant = std::move(variant);
  const NppStatus first = call();
  gpu::check(gpu::get_last_error(), "NPP launch");
  if (first != NPP_SUCCESS) {
    m.error = status_text(first);
    return m;
  }
  NppStatus last = NPP_SUCCESS;
  m.t = timer.time([&] {
    const NppStatus s = call();
    if (s != NPP_SUCCESS) last = s;
  });
  if (last != NPP_SUCCESS) m.error = status_text(last);
  return m;
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
  int src_step() const { return int(im.src_pitch); }
  int dst_step() const { return int(im.dst_pitch); }
  template <class P>
  const P* src() const { return static_cast<const P*>(im.src); }
  template <class P>
  P* dst() const { return static_cast<P*>(im.dst); }
};

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

std::vector<measurement> dense(pixel type, const filter_set& f, const job& j) {
  const device_taps<float> kf(reversed(f.dense));
  const int_kernel ki = to_int_kernel(reversed(f.dense));
  const device_taps<Npp32s> kd(ki.taps);
  const int k = 2 * j.radius + 1;
  const NppiSize ks{k, k};
  const NppiPoint an{j.radius, j.radius};
  std::vector<measurement> out;
  switch (type) {
    case pixel::f32:
      out.push_back(time_call("FilterBorder_32f_C1R", j.timer, [&] {
        return nppiFilterBorder_32f_C1R_Ctx(j.src<Npp32f>(), j.src_step(), j.size, j.origin, j.dst<Npp32f>(), j.dst_step(),
                                            j.size, kf.get(), ks, an, j.border, j.ctx);
      }));
      break;
    case pixel::u8:
      out.push_back(time_call("FilterBorder_8u_C1R", j.timer, [&] {
        return nppiFilterBorder_8u_C1R_Ctx(j.src<Npp8u>(), j.src_step(), j.size, j.origin, j.dst<Npp8u>(), j.dst_step(),
                                           j.size, kd.get(), ks, an, ki.divisor, j.border, j.ctx);
      }));
      out.push_back(time_call("FilterBorder32f_8u_C1R", j.timer, [&] {
        return nppiFilterBorder32f_8u_C1R_Ctx(j.src<Npp8u>(), j.src_step(), j.size, j.origin, j.dst<Npp8u>(),
                                              j.dst_step(), j.size, kf.get(), ks, an, j.border, j.ctx);
      }));
      break;
    case pixel::rgba8:
      out.push_back(time_call("FilterBorder_8u_C4R", j.timer, [&] {
        return nppiFilterBorder_8u_C4R_Ctx(j.src<Npp8u>(), j.src_step(), j.size, j.origin, j.dst<Npp8u>(), j.dst_step(),
                                           j.size, kd.get(), ks, an, ki.divisor, j.border, j.ctx);
      }));
      out.push_back(time_call("FilterBorder32f_8u_C4R", j.timer, [&] {
        return nppiFilterBorder32f_8u_C4R_Ctx(j.src<Npp8u>(), j.src_step(), j.size, j.origin, j.dst<Npp8u>(),
                                              j.dst_step(), j.size, kf.get(), ks, an, j.border, j.ctx);
      }));
      break;
  }
  return out;
}

/// Row pass into `tmp`, then column pass into the output; both calls inside the timing.
template <class P, class Row, class Col>
measurement row_then_column(const char* variant, const job& j, const device_image_bytes& tmp, Row row, Col col) {
  return time_call(variant, j.timer, [&] {
    const NppStatus s = row(j.src<P>(), j.src_step(), tmp.as<P>(), tmp.pitch());
    return s != NPP_SUCCESS ? s : col(tmp.as<const P>(), tmp.pitch(), j.dst<P>(), j.dst_step());
  });
}

std::vector<measurement> separable(pixel type, const filter_set& f, const job& j) {
  const device_taps<float> kr(reversed(f.row)), kc(reversed(f.column));
  const int n = 2 * j.radius + 1, a = j.radius;
  const device_image_bytes tmp(std::size_t(j.im.width) * pixel_bytes(type), j.im.height);
  std::vector<measurement> out;
  NppiMaskSize mask{};
  const bool has_gauss = gauss_mask(j.radius, mask);
  switch (type) {
    case pixel::f32:
      out.push_back(row_then_column<Npp32f>(
          "RowBorder+ColumnBorder_32f_C1R", j, tmp,
          [&](const Npp32f* s, int ss, Npp32f* d, int ds) {
            return nppiFilterRowBorder_32f_C1R_Ctx(s, ss, j.size, j.origin, d, ds, j.size, kr.get(), n, a, j.border, j.ctx);
          },
          [&](const Npp32f* s, int ss, Npp32f* d, int ds) {
            return nppiFilterColumnBorder_32f_C1R_Ctx(s, ss, j.size, j.origin, d, ds, j.size, kc.get(), n, a, j.border,
                                                      j.ctx);
          }));
      if (has_gauss)
        out.push_back(time_call("GaussBorder_32f_C1R", j.timer, [&] {
          return nppiFilterGaussBorder_32f_C1R_Ctx(j.src<Npp32f>(), j.src_step(), j.size, j.origin, j.dst<Npp32f>(),
                                                   j.dst_step(), j.size, mask, j.border, j.ctx);
        }));
      break;
    case pixel::u8:
      out.push_back(row_then_column<Npp8u>(
          "RowBorder32f+ColumnBorder32f_8u_C1R", j, tmp,
          [&](const Npp8u* s, int ss, Npp8u* d, int ds) {
            return nppiFilterRowBorder32f_8u_C1R_Ctx(s, ss, j.size, j.origin, d, ds, j.size, kr.get(), n, a, j.border,
                                                     j.ctx);
          },
          [&](const Npp8u* s, int ss, Npp8u* d, int ds) {
            return nppiFilterColumnBorder32f_8u_C1R_Ctx(s, ss, j.size, j.origin, d, ds, j.size, kc.get(), n, a,
                                                        j.border, j.ctx);
          }));
      if (has_gauss)
        out.push_back(time_call("GaussBorder_8u_C1R", j.timer, [&] {
          return nppiFilterGaussBorder_8u_C1R_Ctx(j.src<Npp8u>(), j.src_step(), j.size, j.origin, j.dst<Npp8u>(),
                                                  j.dst_step(), j.size, mask, j.border, j.ctx);
        }));
      break;
    case pixel::rgba8:
      out.push_back(row_then_column<Npp8u>(
          "RowBorder32f+ColumnBorder32f_8u_C4R", j, tmp,
          [&](const Npp8u* s, int ss, Npp8u* d, int ds) {
            return nppiFilterRowBorder32f_8u_C4R_Ctx(s, ss, j.size, j.origin, d, ds, j.size, kr.get(), n, a, j.border,
                                                     j.ctx);
          },
          [&](const Npp8u* s, int ss, Npp8u* d, int ds) {
            return nppiFilterColumnBorder32f_8u_C4R_Ctx(s, ss, j.size, j.origin, d, ds, j.size, kc.get(), n, a,
                                                        j.border, j.ctx);
          }));
      if (has_gauss)
        out.push_back(time_call("GaussBorder_8u_C4R", j.timer, [&] {
          return nppiFilterGaussBorder_8u_C4R_Ctx(j.src<Npp8u>(), j.src_step(), j.size, j.origin, j.dst<Npp8u>(),
                                                  j.dst_step(), j.size, mask, j.border, j.ctx);
        }));
      break;
  }
  return out;
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
