#include "fit.hpp"

#include <algorithm>

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

}  // namespace mpiarena
