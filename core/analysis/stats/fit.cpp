#include "core/analysis/stats/fit.hpp"

#include <algorithm>
#include <cmath>

namespace mpiarena {

LatencyBandwidthFit fit_latency_bandwidth(const std::vector<double>& bytes,
                                          const std::vector<double>& seconds) {
  LatencyBandwidthFit f;
  const std::size_t n = std::min(bytes.size(), seconds.size());
  f.points = n;
  if (n < 2) return f;
  double mx = 0, my = 0;
  for (std::size_t i = 0; i < n; ++i) {
    mx += bytes[i];
    my += seconds[i];
  }
  mx /= static_cast<double>(n);
  my /= static_cast<double>(n);
  double sxx = 0, sxy = 0, syy = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double dx = bytes[i] - mx, dy = seconds[i] - my;
    sxx += dx * dx;
    sxy += dx * dy;
    syy += dy * dy;
  }
  if (sxx <= 0) return f;
  const double slope = sxy / sxx;
  f.latency_s = my - slope * mx;
  f.bandwidth_Bps = slope > 0 ? 1.0 / slope : 0;
  double ss_res = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double r = seconds[i] - (f.latency_s + slope * bytes[i]);
    ss_res += r * r;
  }
  f.r2 = syy > 0 ? 1.0 - ss_res / syy : 1.0;
  f.ok = true;
  return f;
}

namespace {

// k with 2^(k-1) <= the largest finite |v| < 2^k (0 when there is none).
int binary_exponent(const std::vector<double>& values) {
  double top = 0;
  for (double v : values)
    if (std::isfinite(v)) top = std::max(top, std::fabs(v));
  int exponent = 0;
  std::frexp(top, &exponent);
  return exponent;
}

}  // namespace

FitPiece fit_piece(const std::vector<double>& bytes,
                   const std::vector<double>& seconds, std::size_t first,
                   std::size_t last) {
  FitPiece p;
  p.first = first;
  p.last = last;
  std::vector<double> x(bytes.begin() + first, bytes.begin() + last),
      y(seconds.begin() + first, seconds.begin() + last);
  const int ex = binary_exponent(x), ey = binary_exponent(y);
  for (double& v : x) v = std::ldexp(v, -ex);
  for (double& v : y) v = std::ldexp(v, -ey);
  LatencyBandwidthFit& f = p.fit;
  f = fit_latency_bandwidth(x, y);
  if (!f.ok) return p;
  // In the scaled units: L' + slope' * x'.
  double slope = f.bandwidth_Bps > 0 ? 1 / f.bandwidth_Bps : 0;
  if (slope == 0) {  // flat or falling: the mean time, no bandwidth
    double mean = 0;
    for (std::size_t i = 0; i < y.size(); ++i)
      mean += (y[i] - mean) / static_cast<double>(i + 1);
    f.latency_s = mean;
  }
  const double smallest = *std::min_element(y.begin(), y.end());
  if (f.latency_s < 0 && f.latency_s >= -1e-9 * smallest) f.latency_s = 0;
  p.max_error = 0;
  for (std::size_t i = 0; i < x.size(); ++i)
    p.max_error = std::max(p.max_error,
                           std::fabs(f.latency_s + slope * x[i] - y[i]) / y[i]);
  f.latency_s = std::ldexp(f.latency_s, ey);
  // B = 1 / slope and slope = slope' * 2^ey / 2^ex.
  f.bandwidth_Bps = std::ldexp(f.bandwidth_Bps, ex - ey);
  p.holds = smallest > 0 && f.latency_s >= 0 && std::isfinite(f.latency_s) &&
            std::isfinite(f.r2) && std::isfinite(f.bandwidth_Bps) &&
            p.max_error <= kFitTolerance;
  return p;
}

std::vector<FitPiece> fit_where_it_holds(const std::vector<double>& bytes,
                                         const std::vector<double>& seconds) {
  const std::size_t n = std::min(bytes.size(), seconds.size());
  if (n < kFitMinPoints) return {};
  FitPiece all = fit_piece(bytes, seconds, 0, n);
  if (all.holds) return {all};
  // Two lines, split where the worse of the two misses its points least.
  std::vector<FitPiece> best;
  for (std::size_t k = kFitMinPoints; k + kFitMinPoints <= n; ++k) {
    FitPiece below = fit_piece(bytes, seconds, 0, k),
             above = fit_piece(bytes, seconds, k, n);
    if (!below.holds || !above.holds) continue;
    if (best.empty() || std::max(below.max_error, above.max_error) <
                            std::max(best[0].max_error, best[1].max_error))
      best = {below, above};
  }
  if (!best.empty()) return best;
  // One line over as many of the largest sizes as it holds.
  for (std::size_t k = 1; k + kFitMinPoints <= n; ++k) {
    FitPiece above = fit_piece(bytes, seconds, k, n);
    if (above.holds) return {above};
  }
  return {};
}

}  // namespace mpiarena
