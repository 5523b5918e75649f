// Statistics over samples and the adaptive iteration predictor. Pure.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mpiarena {

// The percentiles a summary gives (OSU 7.3's tail latencies, runner
// --percentiles), in this order in Summary::percentiles.
inline constexpr std::array<int, 3> kPercentiles = {50, 95, 99};

struct Summary {
  double min = 0, median = 0, mean = 0, max = 0, stddev = 0, cv = 0;
  std::size_t n = 0;
  // p50, p95, p99 (kPercentiles), each empty when the samples are too few
  // for it (percentile_min_samples).
  std::array<std::optional<double>, kPercentiles.size()> percentiles;
};

// stddev is the sample standard deviation (n-1); cv = stddev / mean.
Summary summarize(const std::vector<double>& samples);

// The two medians of an even count: the mean of the middle two (halves
// first, so no overflow), or the upper one (v[n / 2], always a sample).
enum class EvenMedian { mean, upper };

// The median of `v` (any order); 0 for an empty vector. summarize() takes
// EvenMedian::mean; the engine's per-sample estimates (a window's length,
// the overlap suite's and core-to-core's figures) take the upper median, a
// sample they measured.
double median(std::vector<double> v, EvenMedian even = EvenMedian::mean);

// Quantile q (clamped to [0, 1]) of `v` by linear interpolation between
// order statistics (Hyndman & Fan type 7, numpy's and R's default); 0 for
// an empty vector.
double quantile(std::vector<double> v, double q);

// The nearest rank of quantile q of n values: ceil(q * n), 1-based,
// within [1, n] (a product that is whole up to rounding is taken as
// whole); 0 for n = 0. percentile() is its integer form with the fewest
// samples a percentile needs.
std::size_t nearest_rank(std::size_t n, double q);

// The relative standard error of the mean of `v`: stddev (n-1) / sqrt(n) /
// |mean|; 0 with fewer than 2 values or a zero mean.
double relative_standard_error(const std::vector<double>& v);

// How well the median of `v` is known: the relative half-width of its 95%
// distribution-free confidence interval, max(median - x(j), x(n+1-j) -
// median) / median, where x(j) is the j-th smallest value and j the
// largest rank with P(Binomial(n, 1/2) < j) <= 2.5% (exact to n = 200,
// the normal approximation above); below 6 values, which give no such
// interval, the range's. 0 for no value or a zero median.
double median_precision(const std::vector<double>& v);

// The fewest samples the p-th percentile (0 < p < 100) is given for:
// 100 / (100 - p) rounded up (p50: 2, p95: 20, p99: 100), so that at
// least one sample lies above it; with fewer it would be the maximum.
std::size_t percentile_min_samples(int p);

// The p-th percentile of `sorted` (ascending) by the nearest-rank rule:
// the ceil(n * p / 100)-th smallest sample, no interpolation (OSU 7.3
// reads the floor(n * p / 100)-th, the same sample whenever n * p / 100
// is whole). Empty below percentile_min_samples(p) samples.
std::optional<double> percentile(const std::vector<double>& sorted, int p);

// "p50": the name of the i-th of kPercentiles (records, tables, csv).
std::string percentile_name(std::size_t i);

inline constexpr std::int64_t kMaxIterations = 1000000000;

// Google Benchmark's PredictNumItersNeeded: aim 40% past min_time, grow at
// most 10x when the last run was under 10% of min_time, always grow by one,
// never past kMaxIterations. `seconds` is the whole run of `iters`
// operations, and in mpiarena it is the MAX over ranks, so every rank
// predicts the same count.
std::int64_t predict_iterations(std::int64_t iters, double seconds,
                                double min_time);

}  // namespace mpiarena
