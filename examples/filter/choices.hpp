// examples/filter/choices.hpp
// hipstencil-filter: the run-time choices that select types (--algo, --strategy, --border,
// and the kind of filter), with the name matching shared by parsing, --help and the summary.
#pragma once

#include <hipstencil/hipstencil.hpp>

#include <cstddef>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>

namespace hsf {

namespace hs = hipstencil;

// ---------------------------------------------------------------------------------------
// Run-time choices that select types. Each list is a std::variant of the library's tag or
// policy types; parsing matches a name against every alternative, and the work is done
// by std::visit with generic lambdas, so adding an algorithm (or a border rule) to the
// command line is adding its type to the list below.

/// Algorithms offered by --algo (first = default): automatic, then every family of the
/// library's one list (hs::algo::families). Names come from Tag::name.
template <class... Families>
std::variant<hs::algo::automatic, Families...> algorithms_of(hs::algo::list<Families...>);
using algo_choice = decltype(algorithms_of(hs::algo::families{}));

/// Border strategies offered by --strategy (first = default); they apply to the families
/// whose tag takes one (takes_strategy below): not naive, which maps every access, nor
/// automatic, which chooses its own.
using strategy_choice = std::variant<hs::strategy::tile_class, hs::strategy::per_access>;

/// The algorithm tag A with strategy S (A unchanged for algorithms without a choice).
template <class A, class S>
struct with_strategy {
  using type = typename A::template with_strategy<S>;
};
/// True when --strategy changes algorithm A (its tag rebinds to another strategy).
template <class A>
constexpr bool takes_strategy() {
  return !std::is_same<typename with_strategy<A, hs::strategy::tile_class>::type,
                       typename with_strategy<A, hs::strategy::per_access>::type>::value;
}
/// True when A takes only separable filters (a dense filter with it is a compile-time
/// error): its family is in no ladder here, so ask the library where it knows (GPU builds).
template <class A>
constexpr bool separable_only() {
#if HIPSTENCIL_HAS_GPU
  if constexpr (std::is_same<A, hs::algo::automatic>::value) return false;
  else return !hs::algo::takes_dense<A>;
#else
  return false;
#endif
}

/// Border rules offered by --border: every rule of the library's list (hs::border::all_rules)
/// but `padded`, which reads a halo that must exist in memory around the image, and a
/// loaded image has none. The default, reflect101, is set where the options are.
template <class R>
using offered_rule = std::conditional_t<std::is_same<R, hs::border::padded>::value, std::tuple<>, std::tuple<R>>;
template <class... R>
auto offered_rules(hs::border::rule_list<R...>) -> decltype(std::tuple_cat(std::declval<offered_rule<R>>()...));
template <class... R>
std::variant<R...> variant_of(std::tuple<R...>);
using border_choice = decltype(variant_of(std::declval<decltype(offered_rules(hs::border::all_rules{}))>()));

/// A filter is separable (box, gaussian, sobel) or dense (laplacian, sharpen, custom).
using filter_choice = std::variant<hs::separable_filter, hs::filter2d>;

template <class T, class = void>
struct is_border_policy : std::false_type {};
template <class T>
struct is_border_policy<T, std::void_t<decltype(T::rule)>> : std::true_type {};

/// The command-line name of a choice: border::name(T::rule) for a border policy, else T::name.
template <class T>
std::string choice_name() {
  if constexpr (is_border_policy<T>::value)
    return hs::border::name(T::rule);
  else
    return T::name;
}

/// Sets `out` to the alternative called `name`; false if there is none.
template <class Variant, std::size_t... I>
bool choose_by_name(const std::string& name, Variant& out, std::index_sequence<I...>) {
  return ((choice_name<std::variant_alternative_t<I, Variant>>() == name ? (out.template emplace<I>(), true) : false) ||
          ...);
}
template <class Variant>
bool choose_by_name(const std::string& name, Variant& out) {
  return choose_by_name(name, out, std::make_index_sequence<std::variant_size<Variant>::value>{});
}
/// "a|b|c": the names of a variant's alternatives, for --help and error messages.
template <class Variant, std::size_t... I>
std::string choice_names(std::index_sequence<I...>, const char* sep) {
  std::string s;
  ((s += (I ? sep : "") + choice_name<std::variant_alternative_t<I, Variant>>()), ...);
  return s;
}
template <class Variant>
std::string choice_names(const char* sep = "|") {
  return choice_names<Variant>(std::make_index_sequence<std::variant_size<Variant>::value>{}, sep);
}

inline std::string variant_name(const algo_choice& a) {
  return std::visit([](auto t) { return choice_name<decltype(t)>(); }, a);
}

/// True when --strategy changes the chosen algorithm.
inline bool takes_strategy(const algo_choice& a) {
  return std::visit([](auto t) { return takes_strategy<decltype(t)>(); }, a);
}

/// "a, b, c": the algorithms --strategy applies to, for --help and error messages.
template <std::size_t... I>
std::string strategy_algo_names(std::index_sequence<I...>) {
  std::string s;
  ((s += takes_strategy<std::variant_alternative_t<I, algo_choice>>()
             ? (s.empty() ? "" : ", ") + choice_name<std::variant_alternative_t<I, algo_choice>>()
             : std::string()),
   ...);
  return s;
}
inline std::string strategy_algo_names() {
  return strategy_algo_names(std::make_index_sequence<std::variant_size<algo_choice>::value>{});
}

}  // namespace hsf
