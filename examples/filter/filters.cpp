// examples/filter/filters.cpp
// hipstencil-filter: turning the options into the filters to run.

#include "filters.hpp"

#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>
#include <sstream>
#include <utility>

namespace hsf {

namespace {

std::vector<std::string> split(const std::string& s, const char* separators) {
  std::vector<std::string> out;
  std::string cur;
  bool in_token = false;
  for (char c : s) {
    if (std::strchr(separators, c)) {
      if (in_token) out.push_back(cur);
      cur.clear();
      in_token = false;
    } else {
      cur += c;
      in_token = true;
    }
  }
  if (in_token) out.push_back(cur);
  return out;
}

hs::filter2d parse_custom(const std::string& text) {
  const std::vector<std::string> t = split(text, " \t\n,");
  if (t.size() < 2) throw usage_error("--coeffs: expected \"W H c0 c1 ...\", got '" + text + "'");
  const long long w = parse_integer("--coeffs W", t[0]);
  const long long h = parse_integer("--coeffs H", t[1]);
  if (w < 1 || h < 1 || w % 2 == 0 || h % 2 == 0)
    throw usage_error("--coeffs: the filter size must be odd in both directions (the anchor is the centre), got " +
                      t[0] + "x" + t[1]);
  if (w * h > 1000000) throw usage_error("--coeffs: " + t[0] + "x" + t[1] + " is too large");
  if (t.size() - 2 != std::size_t(w * h))
    throw usage_error("--coeffs: a " + t[0] + "x" + t[1] + " filter needs " + std::to_string(w * h) +
                      " coefficients, got " + std::to_string(t.size() - 2));
  std::vector<float> c;
  for (std::size_t i = 2; i < t.size(); ++i) {
    const std::string what = "--coeffs c" + std::to_string(i - 2);
    const double v = parse_real(what, t[i]);
    if (std::fabs(v) > double(std::numeric_limits<float>::max()))
      throw usage_error(what + ": " + t[i] + " does not fit a 32-bit float (|c| <= 3.4e38)");
    c.push_back(float(v));
  }
  return hs::filter2d(int(w), int(h), std::move(c));
}

}  // namespace

filter_plan make_plan(const options& o) {
  filter_plan p;
  std::ostringstream d;
  const std::string& f = o.filter;
  if (f == "box") {
    const int r = o.radius.value_or(default_box_radius);
    p.filters.emplace_back(hs::filters::box(r));
    d << "box, radius " << r << " (" << 2 * r + 1 << "x" << 2 * r + 1 << ", separable)";
  } else if (f == "gaussian") {
    const double sigma = o.sigma.value_or(default_sigma);
    const int r = o.radius.value_or(-1);
    hs::separable_filter g = hs::filters::gaussian(sigma, r);
    d << "gaussian, sigma " << sigma << ", radius " << g.width() / 2 << (o.radius ? "" : " (from sigma)") << " ("
      << g.width() << "x" << g.height() << ", separable)";
    p.filters.emplace_back(std::move(g));
  } else if (f == "sobel") {
    p.filters.emplace_back(hs::filters::sobel_x());
    p.filters.emplace_back(hs::filters::sobel_y());
    p.float_output = true;
    d << "sobel (3x3 x and y, magnitude scaled to full scale)";  // the range line gives the scale
  } else if (f == "laplacian") {
    p.filters.emplace_back(hs::filters::laplacian());
    p.float_output = true;
    d << "laplacian (3x3, shown as mid-scale + value)";
  } else if (f == "sharpen") {
    const double a = o.amount.value_or(default_amount);
    p.filters.emplace_back(hs::filters::sharpen(float(a)));
    d << "sharpen, amount " << a << " (3x3)";
  } else {  // custom
    hs::filter2d k = parse_custom(*o.coeffs);
    d << "custom (" << k.width() << "x" << k.height() << ")";
    p.filters.emplace_back(std::move(k));
  }
  p.description = d.str();
  return p;
}

}  // namespace hsf
