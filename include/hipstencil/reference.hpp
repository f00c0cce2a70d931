// hipstencil/reference.hpp
// The host reference: the same function as hipstencil::convolve, on the CPU, accumulating
// in double. It is the oracle of every test and the path hipstencil-filter takes on a
// machine without a GPU. Plain loops over the geometry the kernels share
// (detail/geometry.hpp), so that each output takes the same source pixels as on the GPU:
// a dense filter sums its kw x kh window per output; a separable filter runs a row pass,
// then a column pass over the row sums (kw + kh products per output instead of kw * kh,
// in the order of the GPU's separable kernels).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <functional>
#include <thread>
#include <type_traits>
#include <vector>

#include "border.hpp"
#include "detail/bordered.hpp"
#include "detail/geometry.hpp"
#include "detail/validate.hpp"
#include "filter.hpp"
#include "image.hpp"
#include "roi.hpp"

namespace hipstencil {
namespace reference {

namespace detail {

/// Starts a thread running `work` and returns it, or throws (std::thread's constructor
/// throws std::system_error when the system cannot create another thread).
using thread_starter = std::thread (*)(std::function<void()> work);

/// The default thread_starter: std::thread's constructor.
inline std::thread start_std_thread(std::function<void()> work) { return std::thread(std::move(work)); }

/// The thread_starter every reference call uses: a test seam. Thread creation cannot be
/// made to fail on demand otherwise (RLIMIT_NPROC does not bind root), so the host tests
/// install a starter that throws to check that the reference then completes on fewer
/// threads. Replace it only while no reference call runs, and put start_std_thread back.
inline std::atomic<thread_starter>& thread_start_hook() {
  static std::atomic<thread_starter> hook{&start_std_thread};
  return hook;
}

/// Runs task(0), ..., task(tasks - 1), each once, on at most `threads` threads (0 counts as
/// 1): the calling thread and up to threads - 1 workers, each taking the next task from a
/// shared counter until none is left. Tasks must write disjoint memory.
///
/// A worker that cannot be started (its starter throws) is done without: the tasks run on
/// the workers that did start and on the calling thread, so the call still completes.
/// When a task throws, no further task begins; every started thread is joined, then the
/// first exception is rethrown (the other tasks' writes may have happened). Never calls
/// std::terminate on either account, as destroying an unjoined std::thread would.
template <class Task>
void run_tasks(int tasks, unsigned threads, const Task& task) {
  if (tasks <= 0) return;
  std::atomic<int> next{0};
  std::atomic<bool> stop{false}, caught{false};
  std::exception_ptr first;  // written by the thread that sets `caught`, read after the joins
  auto work = [&] {
    while (!stop.load(std::memory_order_relaxed)) {
      const int t = next.fetch_add(1, std::memory_order_relaxed);
      if (t >= tasks) return;
      try {
        task(t);
      } catch (...) {
        stop.store(true, std::memory_order_relaxed);
        if (!caught.exchange(true)) first = std::current_exception();
        return;
      }
    }
  };
  const unsigned workers = std::min(std::max(threads, 1u), unsigned(tasks)) - 1;
  std::vector<std::thread> pool;
  try {
    pool.reserve(workers);  // so that push_back below cannot throw with a thread in hand
    const thread_starter start = thread_start_hook().load();
    for (unsigned i = 0; i < workers; ++i) {
      std::thread t = start(std::function<void()>(work));
      if (!t.joinable()) break;
      pool.push_back(std::move(t));
    }
  } catch (...) {
    // Fewer threads than asked for (std::system_error, or bad_alloc for the vector or the
    // std::function): the remaining tasks are taken by the threads that run.
  }
  work();
  for (std::thread& t : pool) t.join();
  if (first) std::rethrow_exception(first);
}

struct double_taps {
  const double* t;
  HIPSTENCIL_HOST_DEVICE double operator[](int i) const { return t[i]; }
};

/// The dense path: every written output is window_sum over its kw x kh window, in double.
/// `taps[j * kw + i]` is k(i, j). Validates first (invalid_argument, nothing written).
/// Rows are split into bands, the tasks of run_tasks.
template <class In, class Out>
void run(const char* fn, image_view<In> src, rect src_roi, image_view<Out> dst, rect dst_roi, int kw, int kh,
         int ax, int ay, const std::vector<double>& taps, border::any b, halo h, unsigned threads) {
  using I = std::remove_const_t<In>;
  static_assert(pixel_traits<I>::channels == pixel_traits<Out>::channels,
                "input and output pixel types must have the same number of channels");
  hipstencil::detail::validate_convolve(fn, src, src_roi, dst, dst_roi, kw, kh, ax, ay, b, h);
  const auto g = hipstencil::detail::make_geometry(src.bounds(), src_roi, dst_roi, kw, kh, ax, ay, b, h);
  const image_view<const I> s = src;
  auto rows = [&](int y0, int y1) {
    for (int y = y0; y < y1; ++y)
      for (int x = 0; x < g.width; ++x) {
        if (!g.writes(x, y)) continue;
        dst(g.dst_x0 + x, g.dst_y0 + y) =
            from_accum<Out>(hipstencil::detail::window_sum<double>(s, g, double_taps{taps.data()}, x, y));
      }
  };
  // Rows are independent: contiguous bands, a few per thread so that an uneven band (skip
  // writes only the interior) does not leave the other threads idle.
  const unsigned t = std::max(threads, 1u);
  const int bands = int(std::min<long long>(g.height, t == 1 ? 1 : 4ll * t));
  run_tasks(bands, t, [&](int i) {
    rows(int((long long)g.height * i / bands), int((long long)g.height * (i + 1) / bands));
  });
}

/// Bytes of row sums one task of the separable path keeps (the strip width follows).
constexpr std::size_t separable_table_bytes = std::size_t(4) << 20;

/// The separable path: k(i, j) = column[j] * row[i], the sum of the dense path regrouped
/// as sum_j column[j] * (sum_i row[i] * src(i, j)), in double. Reads exactly the pixels
/// window_sum reads (the same geometry maps), so the result equals the dense path's up to
/// the rounding of the regrouped sums.
///
/// A window row py is a source row after the border map (or the constant row), and every
/// output column needs the same row sums of it; so the row pass runs once per DISTINCT
/// mapped row, D <= min(ROI height + kh - 1, domain height + 1), and the column pass sums
/// column taps over the mapped rows' sums. Work: (D x kw + ROI height x kh) x ROI width
/// multiply-adds, about kw + kh per output (never more than the dense kw x kh).
/// Memory: the row and column maps of the windows (ROI + filter size ints each), and per
/// task, for its strip of output columns, the row sums (D x strip width x channels
/// doubles: separable_table_bytes, or one column's D values where that is more) and one
/// window row of the strip (strip width + kw - 1 pixels, as doubles); never
/// (ROI + filter) x width. Tasks (run_tasks) are strips of output columns, which share
/// nothing.
template <class In, class Out>
void run_separable(const char* fn, image_view<In> src, rect src_roi, image_view<Out> dst, rect dst_roi,
                   const std::vector<float>& row, const std::vector<float>& column, int ax, int ay, border::any b,
                   halo h, unsigned threads) {
  using I = std::remove_const_t<In>;
  constexpr int C = pixel_traits<I>::channels;
  static_assert(C == pixel_traits<Out>::channels, "input and output pixel types must have the same number of channels");
  const int kw = int(row.size()), kh = int(column.size());
  hipstencil::detail::validate_convolve(fn, src, src_roi, dst, dst_roi, kw, kh, ax, ay, b, h);
  const auto g = hipstencil::detail::make_geometry(src.bounds(), src_roi, dst_roi, kw, kh, ax, ay, b, h);
  const image_view<const I> s = src;
  constexpr int outside = hipstencil::detail::outside;

  // The written outputs: all, or under skip the columns [xa, xb) times the rows [ya, yb)
  // (writes_x and writes_y hold on an interval each). Only their windows are mapped and
  // read: under skip the rest may lie outside the image.
  int xa = 0, xb = g.width, ya = 0, yb = g.height;
  while (xa < xb && !g.writes_x(xa)) ++xa;
  while (xb > xa && !g.writes_x(xb - 1)) --xb;
  while (ya < yb && !g.writes_y(ya)) ++ya;
  while (yb > ya && !g.writes_y(yb - 1)) --yb;
  if (xa == xb || ya == yb) return;

  // Window row v (parent row src_y0 + ya + v) -> its mapped source row, then -> its slot
  // among the distinct mapped rows (sorted; `outside`, the constant row, sorts first).
  const std::size_t nv = std::size_t(yb - ya) + std::size_t(kh) - 1;
  std::vector<int> slot(nv);
  for (std::size_t v = 0; v < nv; ++v) slot[v] = g.map_y(int((long long)g.src_y0 + ya + (long long)v));
  std::vector<int> rows(slot);
  std::sort(rows.begin(), rows.end());
  rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
  for (int& v : slot) v = int(std::lower_bound(rows.begin(), rows.end(), v) - rows.begin());
  // Window column u (parent column src_x0 + xa + u) -> mapped source column or `outside`.
  const std::size_t nu = std::size_t(xb - xa) + std::size_t(kw) - 1;
  std::vector<int> cols(nu);
  for (std::size_t u = 0; u < nu; ++u) cols[u] = g.map_x(int((long long)g.src_x0 + xa + (long long)u));

  // Strips: as wide as the row-sum budget allows (at most 256 columns), and narrow enough
  // to give every thread one.
  const int wn = xb - xa;
  const unsigned t = std::max(threads, 1u);
  const std::size_t per_column = rows.size() * C * sizeof(double);
  std::size_t sw = std::max<std::size_t>(1, std::min<std::size_t>(256, separable_table_bytes / per_column));
  sw = std::min<std::size_t>(sw, (std::size_t(wn) + t - 1) / t);
  const int strip = int(sw), strips = int((std::size_t(wn) + sw - 1) / sw);

  const double constant = double(g.border.value);
  run_tasks(strips, t, [&](int task) {
    const int x0 = xa + task * strip, x1 = std::min(xb, x0 + strip), n = x1 - x0, nc = n * C;
    std::vector<double> sums(rows.size() * std::size_t(nc));      // row sums: [slot][x - x0][channel]
    std::vector<double> line((std::size_t(n) + kw - 1) * C);  // one window row of the strip
    std::vector<double> acc(nc);
    // Row pass, once per distinct row. Loop order i outer, x inner: each output's sum still
    // runs over i in order, and the inner loop is a contiguous multiply-add.
    for (std::size_t r = 0; r < rows.size(); ++r) {
      const I* p = rows[r] == outside ? nullptr : s.row(rows[r]);
      for (std::size_t u = 0; u + 1 < std::size_t(n) + kw; ++u) {
        const int sx = cols[std::size_t(x0 - xa) + u];
        if (p && sx != outside) {
          const auto a = to_accum<double>(p[sx]);
          for (int c = 0; c < C; ++c) line[u * C + c] = a.v[c];
        } else {
          for (int c = 0; c < C; ++c) line[u * C + c] = constant;
        }
      }
      double* out = &sums[r * std::size_t(nc)];
      for (int i = 0; i < kw; ++i) {
        const double k = double(row[i]);
        const double* e = &line[std::size_t(i) * C];
        for (int q = 0; q < nc; ++q) out[q] += k * e[q];
      }
    }
    // Column pass: output row y sums window rows y .. y + kh - 1 (relative to ya).
    for (int y = ya; y < yb; ++y) {
      std::fill(acc.begin(), acc.end(), 0.0);
      const int* sl = &slot[std::size_t(y - ya)];
      for (int j = 0; j < kh; ++j) {
        const double k = double(column[j]);
        const double* hs = &sums[std::size_t(sl[j]) * nc];
        for (int q = 0; q < nc; ++q) acc[q] += k * hs[q];
      }
      for (int x = x0; x < x1; ++x) {
        if (!g.writes(x, y)) continue;
        accum<double, C> a;
        for (int c = 0; c < C; ++c) a.v[c] = acc[std::size_t(x - x0) * C + c];
        dst(g.dst_x0 + x, g.dst_y0 + y) = from_accum<Out>(a);
      }
    }
  });
}

}  // namespace detail

/// Threads for the reference: all hardware threads (at least 1).
inline unsigned all_threads() { return std::max(1u, std::thread::hardware_concurrency()); }

/// Filters src_roi of `src` into dst_roi of `dst` on the host (see roi.hpp for the exact
/// formula), accumulating in double. In and Out must have the same channel count.
/// Throws invalid_argument for the same arguments hipstencil::convolve rejects, before
/// writing anything. Pixels of dst outside dst_roi, and under border::skip the outputs
/// whose window leaves the domain, are left untouched. `threads` > 1 shares the work
/// among that many threads, the calling one included (reference::all_threads() for all
/// of them); the result does not depend on it. When the system cannot create a thread,
/// the work completes on the threads that could be started. Throws what the work throws
/// (std::bad_alloc), after joining every thread; dst may then be partly written.
/// Work: width x height x (filter width x height) multiply-adds.
template <class In, class Out, class Border = border::reflect101>
void convolve(image_view<In> src, rect src_roi, image_view<Out> dst, rect dst_roi, const filter2d& f,
              Border b = {}, halo h = halo::isolated, unsigned threads = 1) {
  const std::vector<double> taps(f.coefficients().begin(), f.coefficients().end());
  detail::run("reference::convolve", src, src_roi, dst, dst_roi, f.width(), f.height(), f.anchor_x(), f.anchor_y(),
              taps, border::any(b), h, threads);
}

/// Separable filter, k(i, j) = column[j] * row[i]: the same function as the filter2d
/// overload with those taps (the products formed in double), computed as a row pass then
/// a column pass, the order of the GPU's separable kernels; equal to the dense sum up to
/// double rounding. The row pass runs once per distinct source row the windows read
/// after the border map, so a radius far beyond the image costs O(radius) per output,
/// not O(radius^2). Work: about width x height x (filter width + height) multiply-adds;
/// extra memory: about 4 MiB per thread (more where the ROI is over 2^19 / channels rows)
/// plus a few ints per ROI row and column and per tap, whatever the radius (details at
/// detail::run_separable). Arguments, threads and exceptions as for the filter2d overload.
template <class In, class Out, class Border = border::reflect101>
void convolve(image_view<In> src, rect src_roi, image_view<Out> dst, rect dst_roi, const separable_filter& f,
              Border b = {}, halo h = halo::isolated, unsigned threads = 1) {
  detail::run_separable("reference::convolve", src, src_roi, dst, dst_roi, f.row(), f.column(), f.anchor_x(),
                        f.anchor_y(), border::any(b), h, threads);
}

/// Whole images of equal size (src_roi = src.bounds(), dst_roi = dst.bounds()).
template <class In, class Out, class Filter, class Border = border::reflect101>
void convolve(image_view<In> src, image_view<Out> dst, const Filter& f, Border b = {}, unsigned threads = 1) {
  hipstencil::detail::validate_same_size("reference::convolve", src, dst);
  convolve(src, src.bounds(), dst, dst.bounds(), f, b, halo::isolated, threads);
}

}  // namespace reference
}  // namespace hipstencil
