// hipstencil::reference::convolve's threads: when the system cannot create a thread, the
// call completes on the threads that did start (and the calling one) with the same result;
// an exception thrown by the work reaches the caller after every thread is joined. Neither
// calls std::terminate. Thread creation is made to fail through the reference's
// thread_start_hook seam (RLIMIT_NPROC cannot make it fail for root).
#include "reference_oracles.hpp"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <new>
#include <random>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

using namespace oracle;
namespace rd = hipstencil::reference::detail;

namespace {

std::atomic<int> starts_left{0};   // thread starts the failing starter still allows
std::atomic<int> start_calls{0};   // starts asked for
std::atomic<int> started{0};       // threads actually started

/// A thread_starter that starts the first `starts_left` threads, then throws what
/// std::thread's constructor throws when the system has no thread to give.
std::thread failing_starter(std::function<void()> work) {
  ++start_calls;
  if (starts_left.fetch_sub(1) <= 0)
    throw std::system_error(std::make_error_code(std::errc::resource_unavailable_try_again), "test: no thread");
  ++started;
  return std::thread(std::move(work));
}

/// Installs failing_starter allowing `allowed` threads; restores std::thread on scope exit
/// (also when a check throws), so that no other test sees the seam replaced.
struct failing_threads {
  explicit failing_threads(int allowed) {
    starts_left = allowed;
    start_calls = 0;
    started = 0;
    rd::thread_start_hook().store(&failing_starter);
  }
  ~failing_threads() { rd::thread_start_hook().store(&rd::start_std_thread); }
  failing_threads(const failing_threads&) = delete;
  failing_threads& operator=(const failing_threads&) = delete;
};

template <class F>
void with_rule(kind rule, F&& call) {
  switch (rule) {
    case kind::replicate: return call(border::replicate{});
    case kind::reflect: return call(border::reflect{});
    case kind::skip: return call(border::skip{});
    default: return call(border::constant{-3.5f});
  }
}

}  // namespace

TEST_CASE("reference::convolve completes on fewer threads when thread creation fails", "[reference][threads]") {
  const std::uint32_t seed = test::run_seed();
  CAPTURE(seed);
  std::mt19937 rng(seed + 41);
  // Wide enough that the separable path makes one strip per thread, tall enough for a band
  // per thread on the dense path.
  constexpr int W = 67, H = 41;
  test::pitched<float> src(W, H);
  test::fill_random(src.view(), rng);
  const problem p = random_problem(rng, 3, kind::reflect, 0.0f, halo::isolated);
  const filter2d dense(p.kw, p.kh, p.k, p.ax, p.ay);
  const separable_filter sep = hipstencil::filters::gaussian(1.7, 4);
  for (kind rule : {kind::replicate, kind::reflect, kind::skip, kind::constant})
    for (bool separable : {false, true}) {
      auto run = [&](unsigned threads) {
        test::pitched<float> out(W, H);
        with_rule(rule, [&](auto b) {
          if (separable) reference::convolve(src.cview(), out.view(), sep, b, threads);
          else reference::convolve(src.cview(), out.view(), dense, b, threads);
        });
        return out.snapshot();
      };
      const std::vector<unsigned char> one_thread = run(1);  // starts no thread at all
      for (int allowed : {0, 1, 2})
        for (unsigned threads : {2u, 4u, 8u}) {
          INFO("border " << border::name(rule) << ", " << (separable ? "separable" : "dense") << ", " << threads
                         << " threads asked for, " << allowed << " may start");
          failing_threads guard(allowed);
          std::vector<unsigned char> got;
          REQUIRE_NOTHROW(got = run(threads));
          // The failure was met (a start was refused) unless every worker asked for started;
          // the result is the single-threaded one, bit for bit.
          CHECK(started.load() == std::min<int>(allowed, int(threads) - 1));
          CHECK(start_calls.load() == std::min<int>(allowed + 1, int(threads) - 1));
          CHECK(got == one_thread);
        }
    }
}

TEST_CASE("run_tasks: every task runs once on whatever threads start", "[reference][threads]") {
  for (int allowed : {0, 1, 3, 100})
    for (unsigned threads : {1u, 2u, 5u, 16u}) {
      INFO(threads << " threads asked for, " << allowed << " may start");
      failing_threads guard(allowed);
      constexpr int tasks = 37;
      std::vector<std::atomic<int>> runs(tasks);
      rd::run_tasks(tasks, threads, [&](int t) { ++runs[t]; });
      int wrong = 0;
      for (const auto& r : runs) wrong += r.load() != 1;
      CHECK(wrong == 0);
      CHECK(started.load() == std::min<int>(allowed, int(threads) - 1));
    }
}

TEST_CASE("run_tasks: a task's exception reaches the caller after the joins", "[reference][threads]") {
  for (unsigned threads : {1u, 4u}) {
    INFO(threads << " threads");
    // One task throws bad_alloc (what the separable path's buffers throw when memory runs
    // out): the caller gets that exception, not std::terminate.
    std::atomic<int> ran{0};
    CHECK_THROWS_AS(rd::run_tasks(64, threads,
                                  [&](int t) {
                                    ++ran;
                                    if (t == 5) throw std::bad_alloc();
                                  }),
                    std::bad_alloc);
    CHECK(ran.load() >= 6);  // tasks 0..5 at least: each thread takes them in order
    // Every task throws: exactly one exception reaches the caller, a task's own.
    try {
      rd::run_tasks(64, threads, [&](int t) { throw std::runtime_error("task " + std::to_string(t)); });
      FAIL_CHECK("did not throw");
    } catch (const std::runtime_error& e) {
      CHECK(std::string(e.what()).rfind("task ", 0) == 0);
    }
  }
}

TEST_CASE("run_tasks: an exception thrown on a worker thread reaches the caller", "[reference][threads]") {
  // The caller's tasks wait until a worker has taken one, so a worker's exception is
  // certain to be the one propagated (std::terminate if it escaped the worker).
  const std::thread::id caller = std::this_thread::get_id();
  std::atomic<bool> worker_ran{false};
  CHECK_THROWS_WITH(rd::run_tasks(64, 4,
                                  [&](int) {
                                    if (std::this_thread::get_id() != caller) {
                                      worker_ran = true;
                                      throw std::runtime_error("from a worker");
                                    }
                                    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
                                    while (!worker_ran && std::chrono::steady_clock::now() < until) std::this_thread::yield();
                                  }),
                    "from a worker");
  CHECK(worker_ran.load());
}

namespace {
/// A one-channel pixel whose read throws bad_alloc when negative: an exception raised in
/// the middle of reference::convolve's work, on whichever thread reads that pixel.
struct tripwire {
  float v;
};
}  // namespace

namespace hipstencil {
template <>
struct pixel_traits<tripwire> {
  using channel_type = float;
  static constexpr int channels = 1;
  static float get(const tripwire& p, int) {
    if (p.v < 0) throw std::bad_alloc();
    return p.v;
  }
  static void set(tripwire& p, int, float v) { p.v = v; }
};
}  // namespace hipstencil

TEST_CASE("reference::convolve propagates an exception of its work after joining", "[reference][threads]") {
  constexpr int W = 64, H = 32;
  std::vector<tripwire> px(std::size_t(W) * H, tripwire{1.0f});
  px[std::size_t(20) * W + 50].v = -1.0f;
  const image_view<const tripwire> src(px.data(), W, H);
  test::pitched<float> out(W, H);
  for (unsigned threads : {1u, 3u, 8u}) {
    INFO(threads << " threads");
    CHECK_THROWS_AS(reference::convolve(src, out.view(), hipstencil::filters::box(2), border::reflect{}, threads),
                    std::bad_alloc);
    CHECK_THROWS_AS(reference::convolve(src, out.view(), hipstencil::filters::box(2).to_2d(), border::reflect{}, threads),
                    std::bad_alloc);
  }
}
