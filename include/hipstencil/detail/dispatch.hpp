// hipstencil/detail/dispatch.hpp
// The one dispatch path: a validated problem goes to the family its algorithm tag names
// and down that family's fallback chain (streaming -> shared_mem -> naive, ...) until a
// family fits; algo::automatic walks its table's preference list instead, then naive.
// The same walk answers resolved_algorithm() without launching, so the query and the call
// can never disagree.
#pragma once

#include "../platform/config.hpp"
#if HIPSTENCIL_HAS_GPU
#include <string>
#include <type_traits>

#include "../algorithm.hpp"
#include "factor.hpp"
#include "families.hpp"
#include "instances.hpp"

namespace hipstencil {

/// What a convolve call runs: the family, the instantiation, the strategy and whose tuning
/// table chose them (resolved_algorithm).
struct resolution {
  const char* family = "";        ///< the family whose kernel runs: "naive", "shared_mem", ...
  int radius = -1;                ///< the compiled radius it runs, -1: the run-time-size kernel
  bool separable = false;         ///< row and column taps (false: a dense window; naive
                                  ///< and direct run a separable filter as its outer product)
  const char* strategy = "";      ///< "tile_class" or "per_access"
  tuning::arch arch = tuning::arch::generic;  ///< the architecture whose table was used
  bool factored = false;          ///< a filter2d run as its separable factors (automatic)
  int rank = 0;                   ///< factored: the number of separable terms summed (1:
                                  ///< one column times one row); 0 when not factored

  /// "streaming r=1 separable tile_class sm_90"; "r=*" for a run-time size; "separable
  /// (factored)" for a filter2d that automatic runs as a column times a row, "separable
  /// (rank 2)" for one it runs as the sum of two separable terms.
  std::string str() const {
    std::string s = family;
    s += radius >= 0 ? " r=" + std::to_string(radius) : std::string(" r=*");
    if (factored && rank > 1) s += " separable (rank " + std::to_string(rank) + ") ";
    else s += separable ? (factored ? " separable (factored) " : " separable ") : " dense ";
    s += strategy;
    s += ' ';
    s += tuning::name(arch);
    return s;
  }
};

namespace detail {

template <class Family, class In, class Out>
resolution make_resolution(const problem<In, Out>& p, const fit& f) {
  resolution r;
  r.family = Family::name;
  r.radius = f.radius;
  r.separable = p.separable != nullptr && !runs_outer_product<Family>::value;
  r.strategy = p.tile_class && dispatches_tile_classes<Family>::value ? "tile_class" : "per_access";
  r.arch = p.arch;
  return r;
}

/// True when Family takes the problem's form of filter (dense or separable).
template <class Family, class In, class Out>
bool takes_form(const problem<In, Out>& p) {
  return p.dense ? Family::dense : Family::separable;
}

/// Family, then its fallbacks, until one fits; launches it when Launch (its batched kernels
/// when Batch). Tag's policy applies to Tag's own family, the table's to the families it
/// falls back to.
template <class Family, class Tag, bool Launch, bool Batch, class In, class Out>
resolution run_chain(const problem<In, Out>& p) {
  using Policy = std::conditional_t<std::is_same<Family, typename family_of<Tag>::type>::value, typename Tag::policy,
                                    tuning::by_device>;
  if (takes_form<Family>(p)) {
    const fit f = family_fits<Family, Policy>(p);
    if (f.ok) {
      if constexpr (Launch) family_launch<Family, Policy, Batch>(p);
      return make_resolution<Family>(p, f);
    }
  }
  using Next = typename Family::fallback;
  static_assert(!std::is_void<Next>::value || std::is_same<Family, naive_family>::value,
                "every fallback chain ends with naive, which runs every problem");
  if constexpr (!std::is_void<Next>::value) return run_chain<Next, Tag, Launch, Batch>(p);
  else return resolution{};  // not reached: naive fits every problem
}

/// algo::automatic: a dense filter that factors into a column times a row, where the
/// table says the separable form is faster, runs as that separable filter; one that is a
/// sum of a few separable terms, where the table says so and shared_mem holds them, runs
/// as their sum (kernels/low_rank.hpp); otherwise the first family of the table's
/// preference that fits, else naive.
template <bool Launch, bool Batch, class In, class Out>
resolution run_automatic(const problem<In, Out>& p) {
  tuning::problem_shape shape;
  shape.separable = p.separable != nullptr;
  shape.radius = p.radius;
  shape.channels = pixel_traits<In>::channels;
  shape.channel_bytes = int(sizeof(In)) / pixel_traits<In>::channels;
  shape.width = p.g.width, shape.height = p.g.height;
  shape.images = p.images;
  shape.rows_aligned_16 = rows_aligned(p, 16);
  const border::kind rule = p.g.border.rule;
  shape.border = rule == border::kind::constant ? tuning::border_cost::constant
                 : rule == border::kind::reflect || rule == border::kind::reflect101 || rule == border::kind::wrap
                     ? tuning::border_cost::fold
                     : tuning::border_cost::clamp;
  if (p.dense && tuning::with_arch(p.arch, [&](auto a) { return tuning::factor_table<decltype(a)::value>::factor(shape); })) {
    if (const separable_filter* s = rank_one_factors(*p.dense)) {
      problem<In, Out> q = p;
      q.dense = nullptr;
      q.separable = s;
      resolution r = run_automatic<Launch, Batch>(q);
      r.factored = true;
      r.rank = 1;
      return r;
    }
  }
  const tuning::preference pref =
      tuning::with_arch(p.arch, [&](auto a) { return tuning::automatic_table<decltype(a)::value>::choose(shape); });
  if (p.dense) {
    const std::vector<separable_filter>* terms = low_rank_factors(*p.dense);
    // Beyond 19 x 19 taps the FFT, where the table picks it and it runs, beats the terms
    // (the FFT's cost does not depend on the coefficients; bench/results/2026-11-24-fft/
    // crossover/ against 2026-11-24-lowrank/final-*.csv, float: 31 x 31 on 8192x8192 2.32
    // ms against 3.77, on 1920x1080 0.100 against 0.153); at 19 x 19 they are even (2.28
    // against 2.30 ms; 1920x1080 99 us against 92).
    const bool fft_first = pref.order[0] == tuning::choice::fft && p.g.kw * p.g.kh > 19 * 19 &&
                           family_fits<fft_family, tuning::by_device>(p).ok;
    // So do the tensor cores where the table puts them first (their cost does not depend
    // on the coefficients either; 8192x8192 radius 9, u8: 0.58 ms against the terms'
    // 2.20 of a Laplacian of Gaussian, float 1.32 against 2.30; 1920x1080 u8 30 us
    // against 91: bench/results/2026-11-24-tensor-core/ and 2026-11-24-lowrank/final-*).
    const bool tensor_core_first = pref.order[0] == tuning::choice::tensor_core &&
                                   family_fits<tensor_core_family, tuning::by_device>(p).ok;
    if (terms && !fft_first && !tensor_core_first && tuning::with_arch(p.arch, [&](auto a) {
          return tuning::low_rank_table<decltype(a)::value>::factor(shape, p.g.kw, p.g.kh, int(terms->size()));
        })) {
      problem<In, Out> q = p;
      q.low_rank = terms;
      const fit f = family_fits<shared_mem_family, tuning::by_device>(q);
      if (f.ok) {
        if constexpr (Launch) launch_by_device<shared_mem_family, Batch>(q);
        resolution r = make_resolution<shared_mem_family>(q, f);
        r.separable = true;
        r.factored = true;
        r.rank = int(terms->size());
        return r;
      }
    }
  }
  for (const tuning::choice c : pref.order) {
    if (c == tuning::choice::none) continue;  // a choice the table ruled out for this shape
    resolution r;
    bool done = false;
    for_each_family([&](auto family) {
      using F = decltype(family);
      if (done || F::automatic_id != c || !takes_form<F>(p)) return;
      const fit f = family_fits<F, tuning::by_device>(p);
      if (!f.ok) return;
      if constexpr (Launch) launch_by_device<F, Batch>(p);
      r = make_resolution<F>(p, f);
      done = true;
    });
    if (done) return r;
  }
  return run_chain<naive_family, algo::naive, Launch, Batch>(p);
}

/// Resolves (and when Launch, runs) a validated problem with algorithm tag Tag; Batch: a
/// uniform batch of p.images images (convolve_batch), run by the batched kernels.
template <class Tag, bool Launch, bool Batch = false, class In, class Out>
resolution dispatch(const problem<In, Out>& p) {
  if constexpr (std::is_same<Tag, algo::automatic>::value) {
    return run_automatic<Launch, Batch>(p);
  } else {
    using F = typename family_of<Tag>::type;
    static_assert(!std::is_void<F>::value, "unknown algorithm tag: not in detail::all_families");
    return run_chain<F, Tag, Launch, Batch>(p);
  }
}

}  // namespace detail
}  // namespace hipstencil
#endif
