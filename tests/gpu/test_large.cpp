// [gpu] sizes that break 32-bit offsets and 1D-limited grids, and agreement between the
// algorithms on one large image.
#include "algo_matrix.hpp"

using namespace gpu_test;

namespace {

/// Calls run(name, filter, tag) for every family of the library's list in every filter
/// form it takes (algo::for_each_family), then automatic with both forms: the one list of
/// what the tests below run (algorithm_count() entries).
template <class Run>
void each_algorithm(const separable_filter& f, Run&& run) {
  const filter2d d = f.to_2d();
  algo::for_each_family([&](auto tag) {
    using T = decltype(tag);
    if constexpr (algo::takes_separable<T>) run((std::string(T::name) + " separable").c_str(), f, tag);
    if constexpr (algo::takes_dense<T>) run((std::string(T::name) + " dense").c_str(), d, tag);
  });
  run("automatic separable", f, algo::automatic{});
  run("automatic dense", d, algo::automatic{});
}

/// How many calls each_algorithm makes.
int algorithm_count() {
  int n = 2;
  algo::for_each_family([&](auto tag) {
    using T = decltype(tag);
    n += int(algo::takes_separable<T>) + int(algo::takes_dense<T>);
  });
  return n;
}

/// Every algorithm on one image, whole-image call with `b`, into outs[0, algorithm_count())
/// in each_algorithm's order.
template <class T>
void run_all(const image_view<const T>& s, const std::vector<image_view<T>>& outs, const separable_filter& f,
             border::any b) {
  std::size_t i = 0;
  each_algorithm(f, [&](const char*, const auto& filter, auto tag) { convolve(s, outs[i++], filter, b, tag); });
}

/// Fills a large host image quickly (xorshift, seeded from the test's generator).
void fill_fast(float* p, std::size_t n) {
  std::uint64_t x = (std::uint64_t(rng()()) << 32) | rng()() | 1;
  for (std::size_t i = 0; i < n; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    p[i] = float(x >> 40) / float(1 << 24) * 2.0f - 1.0f;
  }
}

}  // namespace

TEST_CASE("the algorithms agree with each other on a 1031 x 777 image", "[gpu][algos]") {
  const int w = 1031, h = 777;
  const auto src = random_image<float>(w, h);
  device_image<float> d_src(w, h);
  d_src.upload(src.view());
  const int n = algorithm_count();  // outputs [0, n) each algorithm, n: automatic with a workspace
  std::vector<device_image<float>> d(n + 1);
  std::vector<image_view<float>> views;
  for (auto& x : d) x = device_image<float>(w, h), views.push_back(x.view());
  for (int r : {1, 2, 4, 7, 9, 12}) {
    const separable_filter f = filters::gaussian(r / 2.0 + 0.5, r);
    run_all<float>(d_src.view(), views, f, border::reflect{});
    // automatic with a workspace: free to run two_pass (its table's choice beyond radius 10).
    const std::size_t bytes = two_pass_workspace_bytes<float>(w, h, f);
    void* ws = gpu::malloc(bytes);
    convolve(image_view<const float>(d_src.view()), rect{0, 0, w, h}, views[n], rect{0, 0, w, h}, f, border::reflect{},
             algo::automatic{}, nullptr, halo::isolated, workspace{ws, bytes});
    std::vector<host_image<float>> out(n + 1, host_image<float>(w, h));
    for (int i = 0; i <= n; ++i) d[i].download(out[i].view());
    gpu::stream_synchronize(nullptr);
    gpu::free(ws);
    for (int i = 1; i <= n; ++i) {
      double err = 0;
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) err = std::max(err, double(std::fabs(out[i](x, y) - out[0](x, y))));
      INFO("radius " << r << ", algorithm #" << i << " vs naive");
      CHECK(err <= 2e-6);
    }
  }
}

TEST_CASE("more than 65535 blocks in y: a 3 x 2200000 image", "[gpu][large]") {
  const int w = 3, h = 2200000;
  const auto src = random_image<float>(w, h);
  host_image<float> ref(w, h);
  const separable_filter f = random_separable(3, 3);
  reference::convolve(src.view(), src.view().bounds(), ref.view(), ref.view().bounds(), f, border::reflect101{},
                      halo::isolated, reference::all_threads());
  device_image<float> d_src(w, h);
  d_src.upload(src.view());
  const int n = algorithm_count();
  std::vector<device_image<float>> d(n);
  std::vector<image_view<float>> views;
  for (auto& x : d) x = device_image<float>(w, h), x.fill_bytes(0xFF), views.push_back(x.view());
  run_all<float>(d_src.view(), views, f, border::reflect101{});
  for (int i = 0; i < n; ++i) {
    host_image<float> out(w, h);
    d[i].download(out.view());
    gpu::stream_synchronize(nullptr);
    long long bad = 0;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) bad += !(std::fabs(out(x, y) - ref(x, y)) <= 1e-5);
    INFO("algorithm #" << i);
    CHECK(bad == 0);
  }
}

TEST_CASE("an image over 2^31 bytes: float4 12000 x 12000 (2.3 GB)", "[gpu][large]") {
  const int w = 12000, h = 12000;
  host_image<float4> src(w, h);
  fill_fast(&src.data()->x, std::size_t(w) * h * 4);
  REQUIRE(std::size_t(w) * h * sizeof(float4) > (std::size_t(1) << 31));
  device_image<float4> d_src(w, h), d_dst(w, h);
  d_src.upload(src.view());
  const separable_filter f = random_separable(5, 5);
  host_image<float4> out(w, h);
  // Pixels to check: the last rows and columns (beyond 2^31 bytes), corners, random ones.
  std::vector<std::pair<int, int>> at;
  for (int x = 0; x < w; x += 7) at.push_back({x, h - 1}), at.push_back({x, h - 3});
  for (int y = 0; y < h; y += 7) at.push_back({w - 1, y});
  for (int i = 0; i < 20000; ++i) at.push_back({int(rng()() % w), int(rng()() % h)});
  auto check = [&](const char* what) {
    d_dst.download(out.view());
    gpu::stream_synchronize(nullptr);
    long long bad = 0;
    host_image<float4> one(1, 1);
    for (auto [x, y] : at) {
      // The reference for one pixel: a 1 x 1 ROI reading its real neighbourhood.
      reference::convolve(src.view(), rect{x, y, 1, 1}, one.view(), rect{0, 0, 1, 1}, f, border::replicate{},
                          halo::from_parent);
      for (int c = 0; c < 4; ++c)
        bad += !(std::fabs(pixel_traits<float4>::get(out(x, y), c) - pixel_traits<float4>::get(one(0, 0), c)) <= 1e-5);
    }
    INFO(what << ": " << at.size() << " pixels checked");
    CHECK(bad == 0);
  };
  each_algorithm(f, [&](const char* what, const auto& filter, auto tag) {
    d_dst.fill_bytes(0xFF);
    convolve(d_src.view(), d_dst.view(), filter, border::replicate{}, tag);
    check(what);
  });
}

// shared_mem runs separable filters of radius 8 and up on one channel in 64-row tiles
// only from shared_mem_policy::separable_tile_pixels (2^24) pixels: the small images of
// the matrix tests never reach them. Radius 8 and 16, a width and height that leave
// partial tiles, the four rules whose maps differ (replicate, constant, reflect101, wrap),
// each output against the host reference; poisoned first.
template <class T>
void tall_tiles() {
  const int w = 4099, h = 4111;
  REQUIRE((long long)w * h >= tuning::shared_mem_policy<>::separable_tile_pixels);
  const host_image<T> src = random_image<T>(w, h);
  device_image<T> d_src(w, h), d_dst(w, h);
  d_src.upload(src.view());
  host_image<T> out(w, h), ref(w, h);
  for (int r : {8, 16}) {
    const separable_filter f = random_separable(2 * r + 1, 2 * r + 1);
    for (border::any b : {border::any(border::replicate{}), border::any(border::constant{3.0f}),
                          border::any(border::reflect101{}), border::any(border::wrap{})}) {
      d_dst.fill_bytes(0xA5);
      convolve(d_src.view(), d_dst.view(), f, b, algo::shared_mem<>{});
      d_dst.download(out.view());
      gpu::stream_synchronize(nullptr);
      reference::convolve(src.view(), src.view().bounds(), ref.view(), ref.view().bounds(), f, b, halo::isolated,
                          reference::all_threads());
      long long bad = 0;
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
          const double d = std::fabs(double(out(x, y)) - double(ref(x, y)));
          bad += !(std::is_floating_point<T>::value ? d <= 1e-4 * (1 + std::fabs(double(ref(x, y)))) : d <= 1);
        }
      INFO("radius " << r << ", " << border::name(b.rule));
      CHECK(bad == 0);
    }
  }
}

TEST_CASE("shared_mem separable beyond 2^24 pixels: the 64-row tiles, u8 and float", "[gpu][large]") {
  tall_tiles<std::uint8_t>();
  tall_tiles<float>();
}

TEST_CASE("two_pass with a caller workspace: size query, no allocation, too small rejected", "[gpu][algos]") {
  const int w = 300, h = 200;
  const separable_filter f = random_separable(9, 5);
  const std::size_t bytes = two_pass_workspace_bytes<uchar4>(w, h, f);
  CHECK(bytes >= std::size_t(w) * (h + 4) * sizeof(float4));
  const auto src = random_image<uchar4>(w, h);
  device_image<uchar4> d_src(w, h), d_dst(w, h);
  d_src.upload(src.view());
  void* ws = gpu::malloc(bytes);
  CHECK_THROWS_WITH(convolve(d_src.view(), d_src.view().bounds(), d_dst.view(), d_dst.view().bounds(), f,
                             border::wrap{}, algo::two_pass<>{}, nullptr, halo::isolated, workspace{ws, bytes - 1}),
                    Catch::Contains("too small"));
  convolve(d_src.view(), d_src.view().bounds(), d_dst.view(), d_dst.view().bounds(), f, border::wrap{},
           algo::two_pass<>{}, nullptr, halo::isolated, workspace{ws, bytes});
  host_image<uchar4> out(w, h), ref(w, h);
  d_dst.download(out.view());
  gpu::stream_synchronize(nullptr);
  gpu::free(ws);
  reference::convolve(src.view(), ref.view(), f, border::wrap{});
  long long bad = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int c = 0; c < 4; ++c)
        bad += std::abs(int(pixel_traits<uchar4>::get(out(x, y), c)) - int(pixel_traits<uchar4>::get(ref(x, y), c))) > 1;
  CHECK(bad == 0);
}
