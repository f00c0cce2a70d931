// hipstencil/detail/family.hpp
// What every kernel family provides to the one dispatch path (dispatch.hpp), and the
// helpers for it. A family is a struct in its kernel header:
//
//   struct X_family {
//     static constexpr const char* name;             // "shared_mem": tag name, CLI, bench
//     static constexpr bool dense, separable;        // the filter forms it runs
//     static constexpr tuning::choice automatic_id;  // how algo::automatic's table names it
//     using default_policy = tuning::X_policy<>;     // tuned per architecture (tables.hpp)
//     using fallback = Y_family;                     // where problems it cannot run go (void: none)
//     template <class Policy, class In, class Out> static fit fits(const problem<In, Out>&);
//     template <class Policy, class In, class Out> static void launch(const problem<In, Out>&);
//     static constexpr bool outer_product = true;     // optional: runs separable filters as
//                                                     //   their dense outer product
//     static constexpr bool tile_classes = false;     // optional: never dispatches by tile
//   };                                                //   class (every access mapped)
//
// fits() decides (host only, no launch) whether the family runs the problem and with
// which instantiation; launch() runs it and must only be called when fits() said so.
// launch() also runs uniform batches (convolve_batch): when tuning::is_batched<Policy>,
// its grid has p.images slices in z and its kernels, given p.strides as their last
// parameter, call select_image (kernels/batch_image.hpp) first; otherwise they do not, so
// that single images pay nothing for batches.
#pragma once

#include "../platform/config.hpp"
#if HIPSTENCIL_HAS_GPU
#include <type_traits>

#include "problem.hpp"
#include "tuning/tables.hpp"

namespace hipstencil {
namespace detail {

/// Whether Family runs a separable filter as its dense outer product (its optional member
/// `outer_product`; without one, false): resolved_algorithm then reports a dense run.
template <class Family, class = void>
struct runs_outer_product : std::false_type {};
template <class Family>
struct runs_outer_product<Family, std::void_t<decltype(Family::outer_product)>>
    : std::integral_constant<bool, Family::outer_product> {};

/// Whether Family dispatches by tile class where the call asks for it (its optional member
/// `tile_classes`; without one, true): resolved_algorithm's strategy.
template <class Family, class = void>
struct dispatches_tile_classes : std::true_type {};
template <class Family>
struct dispatches_tile_classes<Family, std::void_t<decltype(Family::tile_classes)>>
    : std::integral_constant<bool, Family::tile_classes> {};

/// The policy Family runs with on architecture A when the caller leaves the choice to the
/// library.
template <class Family, tuning::arch A>
using tuned_policy = typename tuning::policy_for<A, typename Family::default_policy>::type;

/// Family::fits with the policy `Policy`, or (tuning::by_device) the one of the table of
/// the problem's architecture.
template <class Family, class Policy, class In, class Out>
fit family_fits(const problem<In, Out>& p) {
  if constexpr (std::is_same<Policy, tuning::by_device>::value)
    return tuning::with_arch(p.arch, [&](auto a) {
      return Family::template fits<tuned_policy<Family, decltype(a)::value>>(p);
    });
  else
    return Family::template fits<Policy>(p);
}

/// Runs Family with the table's policy for the problem's architecture; with Batch, its
/// batched kernels (tuning::batched: one image of a batch per grid.z index). The unit that
/// a build may compile once (instances.hpp): every kernel a family launches for one pair
/// of pixel types, single images or batches, is instantiated here.
template <class Family, bool Batch = false, class In, class Out>
void launch_by_device(const problem<In, Out>& p) {
  tuning::with_arch(p.arch, [&](auto a) {
    Family::template launch<tuning::batched_if<tuned_policy<Family, decltype(a)::value>, Batch>>(p);
  });
}

/// Family::launch with `Policy` (or by_device), batched when Batch.
template <class Family, class Policy, bool Batch, class In, class Out>
void family_launch(const problem<In, Out>& p) {
  if constexpr (std::is_same<Policy, tuning::by_device>::value)
    launch_by_device<Family, Batch>(p);
  else
    Family::template launch<tuning::batched_if<Policy, Batch>>(p);
}

}  // namespace detail
}  // namespace hipstencil
#endif
