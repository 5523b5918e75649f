// Internal to svg.cpp and the trend page's charts (trend_chart.hpp): the
// frame's margins, one axis's scale, its domain and its ticks.
#pragma once

#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace mpiarena::svg {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr int kLeft = 96, kRight = 200, kTop = 34, kBottom = 52;

// "12.3": a pixel coordinate or a plain number.
std::string num(double v);

// One axis mapped onto [p0, p1] pixels. Any finite domain works, up to
// the largest doubles: the arithmetic is done in halves or in logs so that
// no intermediate overflows.
struct Scale {
  bool log = true;
  double base = 10, lo = 1, hi = 10;
  double p0 = 0, p1 = 1;
  double t(double v) const { return log ? std::log(v) / std::log(base) : v; }
  double px(double v) const {
    const double a = t(lo), b = t(hi);
    return p0 + (t(v) / 2 - a / 2) / (b / 2 - a / 2) * (p1 - p0);
  }
};

// A value that can be drawn on a linear (any finite) or log (> 0) axis.
inline bool usable(double v, bool log) {
  return std::isfinite(v) && (!log || v > 0);
}

// The domain of `values` on an axis, padded so no mark sits on the frame.
void fit_domain(Scale& s, double lo, double hi, bool integers);

// The ticks of an axis: powers of the base on a log axis, round numbers on
// a linear one; at most 12.
std::vector<double> ticks(const Scale& s, bool integers);

}  // namespace mpiarena::svg
