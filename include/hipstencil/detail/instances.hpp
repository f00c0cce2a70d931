// hipstencil/detail/instances.hpp
// Precompiled kernels. Every kernel a family launches for one pair of pixel types is
// instantiated in detail::launch_by_device<Family, Batch, In, Out>. hipstencil's own build
// compiles it once for every family of algo::families and every pixel pair of
// instance_list.inc (single images) and batch_instance_list.inc (the batched kernels of
// convolve_batch), one or two pairs of a list to a translation unit with every family
// (HIPSTENCIL_DEFINE_INSTANCE; cmake/HipstencilInstances.cmake writes them), and defines
// HIPSTENCIL_PRECOMPILED_KERNELS for the code that links them, which then declares them
// here and compiles none of their kernels itself: each kernel is compiled once per build
// instead of once per file that calls convolve, and the files compile in parallel. A new
// family needs no line here or in the lists. A user's build needs none of this: without
// the macro every call instantiates what it uses, as header-only code does.
#pragma once

#include "../platform/config.hpp"
#if HIPSTENCIL_HAS_GPU
#include <cstdint>

#include "family.hpp"
#include "families.hpp"

/// The explicit instantiation definition of family number `Index` of algo::families
/// (0-based) for one pixel pair of instance_list.inc (Batch false) or of
/// batch_instance_list.inc (Batch true).
#define HIPSTENCIL_DEFINE_INSTANCE(Batch, Index, In, Out)                                       \
  static_assert((Index) < ::hipstencil::detail::family_count, "no family at this index");       \
  namespace hipstencil {                                                                        \
  namespace detail {                                                                            \
  template void launch_by_device<family_at<Index>, Batch, In, Out>(const problem<In, Out>&);    \
  }                                                                                             \
  }

#if defined(HIPSTENCIL_PRECOMPILED_KERNELS)
namespace hipstencil {
namespace detail {
/// Indices declared for each pair: more than there are families, so that a new family
/// needs no edit here; those past the end name no_family types and are never used.
constexpr int declared_family_indices = 12;
static_assert(family_count <= declared_family_indices,
              "more families than instances.hpp declares: add indices to HIPSTENCIL_EXTERN_FAMILIES");
#define HIPSTENCIL_EXTERN_FAMILY(Batch, Index, In, Out) \
  extern template void launch_by_device<family_at<Index>, Batch, In, Out>(const problem<In, Out>&);
#define HIPSTENCIL_EXTERN_FAMILIES(Batch, In, Out) \
  HIPSTENCIL_EXTERN_FAMILY(Batch, 0, In, Out)      \
  HIPSTENCIL_EXTERN_FAMILY(Batch, 1, In, Out)      \
  HIPSTENCIL_EXTERN_FAMILY(Batch, 2, In, Out)      \
  HIPSTENCIL_EXTERN_FAMILY(Batch, 3, In, Out)      \
  HIPSTENCIL_EXTERN_FAMILY(Batch, 4, In, Out)      \
  HIPSTENCIL_EXTERN_FAMILY(Batch, 5, In, Out)      \
  HIPSTENCIL_EXTERN_FAMILY(Batch, 6, In, Out)      \
  HIPSTENCIL_EXTERN_FAMILY(Batch, 7, In, Out)      \
  HIPSTENCIL_EXTERN_FAMILY(Batch, 8, In, Out)      \
  HIPSTENCIL_EXTERN_FAMILY(Batch, 9, In, Out)      \
  HIPSTENCIL_EXTERN_FAMILY(Batch, 10, In, Out)     \
  HIPSTENCIL_EXTERN_FAMILY(Batch, 11, In, Out)
#define X(In, Out) HIPSTENCIL_EXTERN_FAMILIES(false, In, Out)
#include "instance_list.inc"
#undef X
#define X(In, Out) HIPSTENCIL_EXTERN_FAMILIES(true, In, Out)
#include "batch_instance_list.inc"
#undef X
#undef HIPSTENCIL_EXTERN_FAMILIES
#undef HIPSTENCIL_EXTERN_FAMILY
}  // namespace detail
}  // namespace hipstencil
#endif

#endif
