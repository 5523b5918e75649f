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
  s.median = median(sorted);
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

double median(std::vector<double> v, EvenMedian even) {
  const std::size_t n = v.size();
  if (n == 0) return 0;
  std::nth_element(v.begin(), v.begin() + n / 2, v.end());
  const double upper = v[n / 2];
  if (n % 2 || even == EvenMedian::upper) return upper;
  const double lower = *std::max_element(v.begin(), v.begin() + n / 2);
  return lower / 2 + upper / 2;
}

double quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const double h = static_cast<double>(v.size() - 1) * std::clamp(q, 0.0, 1.0);
  const std::size_t lo = static_cast<std::size_t>(std::floor(h));
  const std::size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (h - static_cast<double>(lo)) * (v[hi] - v[lo]);
}

std::size_t nearest_rank(std::size_t n, double q) {
  if (n == 0) return 0;
  const double r =
      std::ceil(std::clamp(q, 0.0, 1.0) * static_cast<double>(n) - 1e-9);
  return std::clamp<std::size_t>(static_cast<std::size_t>(std::max(r, 0.0)), 1,
                                 n);
}

double relative_standard_error(const std::vector<double>& v) {
  const std::size_t n = v.size();
  if (n < 2) return 0;
  double mean = 0;
  for (double x : v) mean += x / static_cast<double>(n);
  if (mean == 0) return 0;
  double ss = 0;
  for (double x : v) ss += (x - mean) * (x - mean);
  const double sd = std::sqrt(ss / static_cast<double>(n - 1));
  return sd / std::sqrt(static_cast<double>(n)) / std::fabs(mean);
}

namespace {

// The rank j (1-based) of the lower end of the median's 95% interval
// among n sorted values (median_precision); 1 below 6 values.
std::size_t median_interval_rank(std::size_t n) {
  if (n < 6) return 1;
  if (n > 200) {
    const double j = 0.5 * static_cast<double>(n) -
                     0.98 * std::sqrt(static_cast<double>(n));
    return std::max<std::size_t>(1, static_cast<std::size_t>(std::floor(j)));
  }
  // P(B <= k) for B ~ Binomial(n, 1/2), k = 0, 1, ...: the largest j with
  // P(B <= j - 1) <= 0.025.
  double term = std::pow(0.5, static_cast<double>(n));  // P(B = 0)
  double cdf = term;
  std::size_t j = 0;
  for (std::size_t k = 0; k < n / 2 && cdf <= 0.025; ++k) {
    j = k + 1;
    term *= static_cast<double>(n - k) / static_cast<double>(k + 1);
    cdf += term;
  }
  return std::max<std::size_t>(1, j);
}

}  // namespace

double median_precision(const std::vector<double>& v) {
  if (v.empty()) return 0;
  std::vector<double> s = v;
  std::sort(s.begin(), s.end());
  const double m = median(s, EvenMedian::mean);
  if (m == 0) return 0;
  const std::size_t j = median_interval_rank(s.size());
  const double lo = s[j - 1], hi = s[s.size() - j];
  return std::max(m - lo, hi - m) / std::fabs(m);
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
