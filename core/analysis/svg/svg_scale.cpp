// The scales and ticks of the charts (svg_scale.hpp).
#include "core/analysis/svg/svg_scale.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace mpiarena::svg {

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

namespace {

constexpr double kMax = std::numeric_limits<double>::max();
constexpr double kTiny = std::numeric_limits<double>::denorm_min();
// No axis gets more ticks than this, whatever its domain.
constexpr int kMaxTicks = 12;

}  // namespace

// The domain of `values` on an axis, padded so no mark sits on the frame.
void fit_domain(Scale& s, double lo, double hi, bool integers) {
  if (s.log) {
    double a = s.t(lo), b = s.t(hi);
    const double two = std::log(2.0) / std::log(s.base);
    if (a == b) {
      a -= two;
      b += two;
    }
    const double pad = (b - a) * 0.04;
    s.lo = std::max(kTiny, std::pow(s.base, a - pad));
    s.hi = std::min(kMax, std::pow(s.base, b + pad));
    return;
  }
  if (lo == hi) {
    const double d = lo == 0 ? 1 : std::fabs(lo) * 0.1;
    lo = std::max(-kMax, lo - d);
    hi = std::min(kMax, hi + d);
  }
  const double pad = integers ? 0.5 : hi * 0.05 - lo * 0.05;
  s.lo = std::max(-kMax, lo - pad);
  s.hi = std::min(kMax, hi + pad);
}

// `digits` significant digits: a tick between the round ones.
double round_to(double v, int digits) {
  if (v <= 0) return v;
  const double e = std::pow(10.0, std::floor(std::log10(v)) + 1 - digits);
  const double r = std::round(v / e) * e;
  return std::isfinite(r) ? r : v;
}

std::vector<double> ticks(const Scale& s, bool integers) {
  std::vector<double> out;
  if (s.log) {
    const double a = std::ceil(s.t(s.lo) - 1e-9),
                 b = std::floor(s.t(s.hi) + 1e-9);
    const double n = b - a + 1;
    const double step = std::max(1.0, std::ceil(n / 8));
    // Aligned to the step (1 KiB, 1 MiB... when it is 10 in base 2).
    const double first = std::ceil(a / step) * step;
    for (int i = 0; i < kMaxTicks && first + i * step <= b; ++i)
      out.push_back(std::pow(s.base, first + i * step));
    if (n < 3 && s.base == 10) {  // under two decades: 2 and 5 as well
      for (double k = a - 1; k <= b; ++k)
        for (double m : {2.0, 5.0}) {
          const double v = m * std::pow(10.0, k);
          if (v >= s.lo && v <= s.hi) out.push_back(v);
        }
      std::sort(out.begin(), out.end());
    }
    // A narrow range: 4 ticks spread over it, with as few significant
    // digits as keep 3 of them apart and inside.
    for (int digits = 2; out.size() < 3 && digits <= 8; ++digits) {
      out.clear();
      for (double f : {0.1, 0.37, 0.63, 0.9}) {
        const double v = round_to(
            std::pow(s.base, s.t(s.lo) + f * (s.t(s.hi) - s.t(s.lo))), digits);
        if (v >= s.lo && v <= s.hi && (out.empty() || v > out.back()))
          out.push_back(v);
      }
    }
    return out;
  }
  // A fifth of the range, computed in halves: hi - lo may exceed the
  // largest double.
  const double fifth = (s.hi / 2 - s.lo / 2) * 0.4;
  if (!(fifth > 0) || !std::isfinite(fifth)) return out;
  const double decade = std::pow(10.0, std::floor(std::log10(fifth)));
  double step = decade;
  for (double m : {2.0, 5.0, 10.0})
    if ((s.hi / 2 - s.lo / 2) / step > 4) step = m * decade;
  if (integers) step = std::max(1.0, std::round(step));
  const double first = std::ceil(s.lo / step) * step;
  // Counted, not accumulated: next to values of 1e16 a step of 0.1 does
  // not move v, and past the largest double v + step is infinite.
  for (int i = 0; i < kMaxTicks; ++i) {
    const double v = first + i * step;
    if (!std::isfinite(v) || v > s.hi + step * 1e-9) break;
    if (i > 0 && !(v > out.back())) break;
    out.push_back(std::fabs(v) < step * 1e-9 ? 0 : v);
  }
  return out;
}

}  // namespace mpiarena::svg
