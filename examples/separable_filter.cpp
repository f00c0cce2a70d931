// examples/separable_filter.cpp
// A separable filter (row taps x column taps) with an algorithm and a border rule chosen on
// the command line, on a generated float image; compared with the host reference.
//
//   example-separable-filter [ALGORITHM [BORDER]]
//     ALGORITHM  automatic (default) or any family: naive, shared_mem, two_pass, tiled, streaming, direct
//     BORDER     reflect101 (default), replicate, reflect, wrap, constant (value 0.5)
//
// The algorithm and the border are types (hs::algo::*, hs::border::*): a run-time choice
// becomes a call with the chosen types, here by walking the library's lists of them
// (hs::algo::for_each_family, hs::border::for_each_rule) for the one with the name given.
// `padded` (it reads a halo a plain image does not have) and `skip` (it leaves the outputs
// near the edges unwritten, which the whole-image check would read) are left out. two_pass needs a
// device workspace for its intermediate image: it is sized with
// two_pass_workspace_bytes and allocated once, and the call that takes it allocates nothing.
// Exit status: 0 match, 1 mismatch or error, 2 unknown name, 77 no GPU.
#include <hipstencil/hipstencil.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <type_traits>

#include "example_check.hpp"

namespace hs = hipstencil;

int main(int argc, char** argv) try {
  const std::string algo_name = argc > 1 ? argv[1] : "automatic";
  const std::string border_name = argc > 2 ? argv[2] : "reflect101";
  if (!example::have_gpu("example-separable-filter")) return example::no_gpu;

  // Input: 1000 x 600 float pixels, uniform in [0, 1), fresh every run.
  const int w = 1000, h = 600;
  hs::host_image<float> image(w, h);
  std::mt19937 rng(std::random_device{}());
  std::uniform_real_distribution<float> uniform(0.f, 1.f);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) image(x, y) = uniform(rng);

  // A 7-tap binomial smoothing along x times a 7-tap smoothed derivative along y: a 7 x 7
  // filter applied as the product row[i] * column[j].
  const hs::separable_filter f({1 / 64.f, 6 / 64.f, 15 / 64.f, 20 / 64.f, 15 / 64.f, 6 / 64.f, 1 / 64.f},
                               {-1 / 20.f, -4 / 20.f, -5 / 20.f, 0.f, 5 / 20.f, 4 / 20.f, 1 / 20.f});

  example::stream stream;
  hs::device_image<float> src(w, h), dst(w, h);
  src.upload(image.view(), stream.get());
  const std::size_t ws_bytes = std::max<std::size_t>(hs::two_pass_workspace_bytes<float>(w, h, f), 256);
  const std::unique_ptr<void, void (*)(void*)> ws(hs::gpu::malloc(ws_bytes), [](void* p) { hs::gpu::free(p); });
  hs::host_image<float> ref(w, h);
  const auto run = [&](auto algo, auto border) {  // both are tag/policy types
    // Whole images as ROIs, plus the workspace (algorithms other than two_pass ignore it).
    hs::convolve(src.view(), src.view().bounds(), dst.view(), dst.view().bounds(), f, border, algo, stream.get(),
                 hs::halo::isolated, hs::workspace{ws.get(), ws_bytes});
    hs::reference::convolve(image.view(), ref.view(), f, border, hs::reference::all_threads());
  };
  bool border_known = false, algo_known = false;
  const auto with_border = [&](auto algo) {
    hs::border::for_each_rule([&](auto rule) {
      if (border_name != hs::border::name(rule.rule) || rule.rule == hs::border::kind::padded ||
          rule.rule == hs::border::kind::skip)
        return;
      border_known = true;
      if constexpr (std::is_same<decltype(rule), hs::border::constant>::value) rule.value = 0.5f;
      run(algo, rule);
    });
  };
  if (algo_name == "automatic") algo_known = true, with_border(hs::algo::automatic{});
  hs::algo::for_each_family([&](auto algo) {
    if (algo_name == decltype(algo)::name) algo_known = true, with_border(algo);
  });
  if (!algo_known || !border_known) {
    std::fprintf(stderr, "example-separable-filter: unknown algorithm or border '%s %s' (see the comment at the top)\n",
                 algo_name.c_str(), border_name.c_str());
    return 2;
  }
  std::printf("filtered a generated %dx%d float image with a %dx%d separable filter, algorithm %s, border %s\n", w, h,
              f.width(), f.height(), algo_name.c_str(), border_name.c_str());

  // Float accumulation against double: relative error ~1e-6 of sum |k| * max |input| (= 1 * 1).
  return example::matches<float>("check against reference::convolve", dst.view(), ref.view(), 1e-5, stream.get()) ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "example-separable-filter: error: %s\n", e.what());
  return 1;
}
