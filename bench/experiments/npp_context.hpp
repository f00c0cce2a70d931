// The NPP stream context of the current device, for the standalone probes of
// bench/experiments/ that time NPP beside hipstencil (launch_paths.cu, small_float_probe.cu).
// CUDA 12.9 removed nppGetStreamContext: the context is filled from the device's
// attributes, as NPP's documentation of NppStreamContext asks.
#pragma once
#include <cuda_runtime.h>
#include <nppcore.h>
#include <cstddef>

inline NppStreamContext npp_context(cudaStream_t stream = nullptr) {
  NppStreamContext ctx{};
  ctx.hStream = stream;
  cudaGetDevice(&ctx.nCudaDeviceId);
  cudaDeviceGetAttribute(&ctx.nMultiProcessorCount, cudaDevAttrMultiProcessorCount, ctx.nCudaDeviceId);
  cudaDeviceGetAttribute(&ctx.nMaxThreadsPerMultiProcessor, cudaDevAttrMaxThreadsPerMultiProcessor, ctx.nCudaDeviceId);
  cudaDeviceGetAttribute(&ctx.nMaxThreadsPerBlock, cudaDevAttrMaxThreadsPerBlock, ctx.nCudaDeviceId);
  int smem = 0;
  cudaDeviceGetAttribute(&smem, cudaDevAttrMaxSharedMemoryPerBlock, ctx.nCudaDeviceId);
  ctx.nSharedMemPerBlock = std::size_t(smem);
  cudaDeviceGetAttribute(&ctx.nCudaDevAttrComputeCapabilityMajor, cudaDevAttrComputeCapabilityMajor, ctx.nCudaDeviceId);
  cudaDeviceGetAttribute(&ctx.nCudaDevAttrComputeCapabilityMinor, cudaDevAttrComputeCapabilityMinor, ctx.nCudaDeviceId);
  return ctx;
}
