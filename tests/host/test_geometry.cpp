// The geometry predicates that stand in for the skip and padded rules in every kernel
// (writes, writes_x, writes_y, read_rect, for_reads), against their definitions written
// out by brute force over small problems at every ROI position, anchor and filter size.
// Their bodies are shaped for the register allocator (bitwise tests, derived fields filled
// in by make_geometry), so a slip there would change which outputs a kernel writes.
#include <catch2/catch.hpp>

#include <hipstencil/detail/geometry.hpp>

namespace {

using hipstencil::rect;
using hipstencil::detail::geometry;
using hipstencil::detail::make_geometry;
namespace b = hipstencil::border;

// Output (x, y)'s window lies inside the domain: the definition of skip.
bool window_inside(const geometry& g, int x, int y) {
  for (int j = 0; j < g.kh; ++j)
    for (int i = 0; i < g.kw; ++i) {
      const int px = g.src_x0 + x + i, py = g.src_y0 + y + j;
      if (px < g.domain.x || py < g.domain.y || px >= g.domain.x + g.domain.width || py >= g.domain.y + g.domain.height)
        return false;
    }
  return true;
}

// Every problem of a 7 x 5 parent image: each ROI corner, ROI sizes 1 to 3, filter sizes
// 1 to 4 in each axis with every anchor, both halo modes.
template <class Fn>
void for_each_problem(b::any rule, Fn&& fn) {
  const rect bounds{0, 0, 7, 5};
  for (int h = 0; h < 2; ++h)
    for (int ry = 0; ry < 5; ++ry)
      for (int rx = 0; rx < 7; ++rx)
        for (int rh = 1; ry + rh <= 5 && rh <= 3; ++rh)
          for (int rw = 1; rx + rw <= 7 && rw <= 3; ++rw)
            for (int kh = 1; kh <= 4; ++kh)
              for (int kw = 1; kw <= 4; ++kw)
                for (int ay = 0; ay < kh; ++ay)
                  for (int ax = 0; ax < kw; ++ax) {
                    const rect roi{rx, ry, rw, rh};
                    fn(make_geometry(bounds, roi, rect{0, 0, rw, rh}, kw, kh, ax, ay, rule,
                                     h ? hipstencil::halo::isolated : hipstencil::halo::from_parent));
                  }
}

}  // namespace

TEST_CASE("geometry: writes() is every output except, under skip, those whose window leaves the domain",
          "[geometry]") {
  for (const b::any rule : {b::any(b::skip{}), b::any(b::replicate{}), b::any(b::constant{2.0f}), b::any(b::padded{})}) {
    long checked = 0, bad = 0;
    for_each_problem(rule, [&](const geometry& g) {
      for (int y = 0; y < g.height; ++y)
        for (int x = 0; x < g.width; ++x) {
          const bool want = rule.rule != b::kind::skip || window_inside(g, x, y);
          bad += g.writes(x, y) != want;
          bad += g.writes_window(g.src_x0 + x, g.src_y0 + y) != want;
          bad += (g.writes_x(x) && g.writes_y(y)) != want;
          bad += g.writes_x(x, g.kw) != g.writes_x(x);
          bad += g.writes_y(y, g.kh) != g.writes_y(y);
          ++checked;
        }
    });
    INFO("rule " << b::name(rule.rule) << ", " << checked << " outputs");
    CHECK(checked > 10000);
    CHECK(bad == 0);
  }
}

TEST_CASE("geometry: reads go through replicate under skip and padded, over the caller's halo under padded",
          "[geometry]") {
  for_each_problem(b::padded{}, [](const geometry& g) {
    const rect r = g.read_rect();
    // Exactly the pixels the ROI's windows cover.
    REQUIRE(r.x == g.src_x0);
    REQUIRE(r.y == g.src_y0);
    REQUIRE(r.width == g.width + g.kw - 1);
    REQUIRE(r.height == g.height + g.kh - 1);
    const geometry gr = g.for_reads();
    REQUIRE(gr.border.rule == b::kind::replicate);
    // Every read a written output makes is unchanged; reads past the halo stay inside it.
    for (int px = r.x - 3; px < r.x + r.width + 3; ++px) {
      const int sx = gr.map_x(px);
      REQUIRE(sx >= r.x);
      REQUIRE(sx < r.x + r.width);
      if (px >= r.x && px < r.x + r.width) REQUIRE(sx == px);
    }
  });
  for_each_problem(b::skip{}, [](const geometry& g) {
    REQUIRE(g.read_rect().x == g.domain.x);
    REQUIRE(g.read_rect().width == g.domain.width);
    REQUIRE(g.for_reads().border.rule == b::kind::replicate);
    REQUIRE(g.for_reads().domain.height == g.domain.height);
  });
  for (const b::any rule : {b::any(b::reflect101{}), b::any(b::constant{1.0f}), b::any(b::wrap{})}) {
    for_each_problem(rule, [&](const geometry& g) {
      const geometry gr = g.for_reads();
      REQUIRE(gr.border.rule == rule.rule);  // index-map rules read as they are
      REQUIRE(gr.domain.x == g.domain.x);
      REQUIRE(gr.domain.y == g.domain.y);
      REQUIRE(gr.domain.width == g.domain.width);
      REQUIRE(gr.domain.height == g.domain.height);
    });
  }
}
