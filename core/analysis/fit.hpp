// Least-squares fit of the latency-bandwidth model time(n) = L + n / B.
// Pure function; no MPI.
#pragma once

#include <cstddef>
#include <vector>

namespace mpiarena {

struct LatencyBandwidthFit {
  double latency_s = 0;      // L, the intercept
  double bandwidth_Bps = 0;  // B = 1 / slope; 0 when the slope is not > 0
  double r2 = 0;             // coefficient of determination (1 if all equal)
  std::size_t points = 0;
  bool ok = false;  // false with fewer than 2 distinct sizes
};

// Ordinary least squares of seconds[i] against bytes[i].
LatencyBandwidthFit fit_latency_bandwidth(const std::vector<double>& bytes,
                                          const std::vector<double>& seconds);

}  // namespace mpiarena
