// hipstencil/detail/families.hpp
// The kernel families of algo::families (algorithm.hpp), the one list of families, as the
// family structs of their kernel headers (see family.hpp): every header is included here.
#pragma once

#include "../platform/config.hpp"
#if HIPSTENCIL_HAS_GPU
#include "kernels/direct.hpp"
#include "kernels/fft.hpp"
#include "kernels/naive.hpp"
#include "kernels/packed.hpp"
#include "kernels/shared_mem.hpp"
#include "kernels/sliding.hpp"
#include "kernels/streaming.hpp"
#include "kernels/tensor_core.hpp"
#include "kernels/tiled.hpp"
#include "kernels/two_pass.hpp"

namespace hipstencil {
namespace detail {

template <class... F>
struct family_list {};

template <class... Tags>
family_list<typename Tags::family...> families_of(algo::list<Tags...>);
/// Every family, in the order of algo::families.
using all_families = decltype(families_of(algo::families{}));

/// The number of families.
template <class... F>
constexpr int count_of(family_list<F...>) {
  return int(sizeof...(F));
}
constexpr int family_count = count_of(all_families{});

/// Stands for an index past the last family, a distinct type for each (instances.hpp
/// declares a fixed number of indices; these are never instantiated).
template <int I>
struct no_family {};
template <int I, class List>
struct family_at_impl {
  using type = no_family<I>;
};
template <int I, class F, class... Rest>
struct family_at_impl<I, family_list<F, Rest...>> {
  using type = typename family_at_impl<I - 1, family_list<Rest...>>::type;
};
template <class F, class... Rest>
struct family_at_impl<0, family_list<F, Rest...>> {
  using type = F;
};
/// The family at index I of algo::families (a no_family past the end): what the
/// precompiled translation units name, since CMake counts that list but reads no types.
template <int I>
using family_at = typename family_at_impl<I, all_families>::type;

/// Calls fn(F{}) for every family F of the list.
template <class Fn, class... F>
void for_each_family(Fn&& fn, family_list<F...>) {
  (fn(F{}), ...);
}
template <class Fn>
void for_each_family(Fn&& fn) {
  for_each_family(static_cast<Fn&&>(fn), all_families{});
}

/// The family whose tag Tag is (void for algo::automatic).
template <class Tag>
struct family_of {
  using type = typename Tag::family;
};

}  // namespace detail

namespace algo {
/// Calls fn(Tag{}) with the algorithm tag of every kernel family, in the library's list
/// (detail/families.hpp), with border strategy S where the family takes one: the list the
/// filter program, the tests and the benchmark take their algorithms from.
template <class S = strategy::tile_class, class Fn, class... Tags>
void for_each_family(Fn&& fn, list<Tags...>) {
  (fn(typename Tags::template with_strategy<S>{}), ...);
}
template <class S = strategy::tile_class, class Fn>
void for_each_family(Fn&& fn) {
  for_each_family<S>(static_cast<Fn&&>(fn), families{});
}

/// Whether Tag's family takes dense filters (filter2d) and separable ones (every family
/// but two_pass takes both; naive runs a separable filter as its outer product).
template <class Tag>
constexpr bool takes_dense = detail::family_of<Tag>::type::dense;
template <class Tag>
constexpr bool takes_separable = detail::family_of<Tag>::type::separable;
}  // namespace algo
}  // namespace hipstencil
#endif
