// hipstencil/detail/instances.hpp
// Precompiled kernels. Every kernel a family launches for one pair of pixel types is
// instantiated in detail::launch_by_device<Family, Batch, In, Out>. A build that compiles
// the triples of instance_list.inc (single images) and batch_instance_list.inc (the
// batched kernels of convolve_batch) once, each in a translation unit of its own
// (HIPSTENCIL_DEFINE_INSTANCE), defines HIPSTENCIL_PRECOMPILED_KERNELS for the code that
// links them, which then declares them here and compiles none of their kernels itself:
// each kernel is compiled once per build instead of once per file that calls convolve,
// and the files compile in parallel. A user's build needs none of this: without the
// macro every call instantiates what it uses, as header-only code does.
#pragma once

#include "../platform/config.hpp"
#if HIPSTENCIL_HAS_GPU
#include <cstdint>

#include "family.hpp"
#include "families.hpp"

/// The explicit instantiation definition of one triple of instance_list.inc (Batch false)
/// or of batch_instance_list.inc (Batch true).
#define HIPSTENCIL_DEFINE_INSTANCE(Batch, Family, In, Out)                                      \
  namespace hipstencil {                                                                        \
  namespace detail {                                                                            \
  template void launch_by_device<Family, Batch, In, Out>(const problem<In, Out>&);              \
  }                                                                                             \
  }

#if defined(HIPSTENCIL_PRECOMPILED_KERNELS)
namespace hipstencil {
namespace detail {
#define X(Family, In, Out) extern template void launch_by_device<Family, false, In, Out>(const problem<In, Out>&);
#include "instance_list.inc"
#undef X
#define X(Family, In, Out) extern template void launch_by_device<Family, true, In, Out>(const problem<In, Out>&);
#include "batch_instance_list.inc"
#undef X
}  // namespace detail
}  // namespace hipstencil
#endif

#endif
