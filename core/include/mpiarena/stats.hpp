// Statistics over samples and the adaptive iteration predictor. Pure.
#pragma once

#include <cstdint>
#include <vector>

namespace mpiarena {

struct Summary {
  double min = 0, median = 0, mean = 0, max = 0, stddev = 0, cv = 0;
  std::size_t n = 0;
};

// stddev is the sample standard deviation (n-1); cv = stddev / mean.
Summary summarize(const std::vector<double>& samples);

inline constexpr std::int64_t kMaxIterations = 1000000000;

// Google Benchmark's PredictNumItersNeeded: aim 40% past min_time, grow at
// most 10x when the last run was under 10% of min_time, always grow by one,
// never past kMaxIterations. `seconds` is the whole run of `iters`
// operations, and in mpiarena it is the MAX over ranks, so every rank
// predicts the same count.
std::int64_t predict_iterations(std::int64_t iters, double seconds,
                                double min_time);

}  // namespace mpiarena
