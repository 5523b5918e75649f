#include <algorithm>
#include <cmath>
#include <mpiarena/stats.hpp>

namespace mpiarena {

Summary summarize(const std::vector<double>& samples) {
  Summary s;
  s.n = samples.size();
  if (samples.empty()) return s;
  std::vector<double> sorted(samples);
  std::sort(sorted.begin(), sorted.end());
  const std::size_t n = sorted.size();
  s.min = sorted.front();
  s.max = sorted.back();
  // Halves first: two samples near the largest double have a finite
  // median and mean (their sum would not).
  s.median = n % 2 ? sorted[n / 2] : sorted[n / 2 - 1] / 2 + sorted[n / 2] / 2;
  double sum = 0;
  for (double v : sorted) sum += v / static_cast<double>(n);
  s.mean = sum;
  if (n > 1) {
    double ss = 0;
    for (double v : sorted) ss += (v - s.mean) * (v - s.mean);
    s.stddev = std::sqrt(ss / static_cast<double>(n - 1));
  }
  s.cv = s.mean > 0 ? s.stddev / s.mean : 0;
  for (std::size_t i = 0; i < kPercentiles.size(); ++i)
    s.percentiles[i] = percentile(sorted, kPercentiles[i]);
  return s;
}

std::size_t percentile_min_samples(int p) {
  if (p <= 0 || p >= 100) return 1;
  const auto above = static_cast<std::size_t>(100 - p);
  return (100 + above - 1) / above;
}

std::string percentile_name(std::size_t i) {
  return "p" + std::to_string(kPercentiles.at(i));
}

std::optional<double> percentile(const std::vector<double>& sorted, int p) {
  const std::size_t n = sorted.size();
  if (n == 0 || n < percentile_min_samples(p)) return std::nullopt;
  // Whole numbers only: ceil(n * p / 100) without a rounding error.
  const std::size_t rank =
      (n * static_cast<std::size_t>(std::clamp(p, 0, 100)) + 99) / 100;
  return sorted[std::max<std::size_t>(rank, 1) - 1];
}

std::int64_t predict_iterations(std::int64_t iters, double seconds,
                                double min_time) {
  double multiplier = min_time * 1.4 / std::max(seconds, 1e-9);
  const bool significant = (seconds / min_time) > 0.1;
  multiplier = significant ? multiplier : 10.0;
  const double grown = std::max(multiplier * static_cast<double>(iters),
                                static_cast<double>(iters) + 1.0);
  const double capped = std::min(grown, static_cast<double>(kMaxIterations));
  return static_cast<std::int64_t>(std::llround(capped));
}

}  // namespace mpiarena
