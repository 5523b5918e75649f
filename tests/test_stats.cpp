// Statistics of samples and the iteration predictor (Google Benchmark's
// PredictNumItersNeeded), against values computed by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <mpiarena/stats.hpp>
#include <numeric>
#include <random>
#include <vector>

using mpiarena::kMaxIterations;
using mpiarena::kPercentiles;
using mpiarena::percentile;
using mpiarena::percentile_min_samples;
using mpiarena::predict_iterations;
using mpiarena::summarize;

TEST(Summarize, Empty) {
  const auto s = summarize({});
  EXPECT_EQ(s.n, 0u);
  EXPECT_EQ(s.min, 0);
  EXPECT_EQ(s.median, 0);
  EXPECT_EQ(s.mean, 0);
  EXPECT_EQ(s.max, 0);
  EXPECT_EQ(s.stddev, 0);
  EXPECT_EQ(s.cv, 0);
}

TEST(Summarize, SingleSample) {
  const auto s = summarize({2.5e-6});
  EXPECT_EQ(s.n, 1u);
  EXPECT_DOUBLE_EQ(s.min, 2.5e-6);
  EXPECT_DOUBLE_EQ(s.median, 2.5e-6);
  EXPECT_DOUBLE_EQ(s.mean, 2.5e-6);
  EXPECT_DOUBLE_EQ(s.max, 2.5e-6);
  EXPECT_EQ(s.stddev, 0);  // no spread from a single sample (not NaN)
  EXPECT_EQ(s.cv, 0);
}

TEST(Summarize, OddCountUnsorted) {
  // 3, 1, 2: mean 2, squared deviations 1 + 1 + 0, sample variance 2/2 = 1.
  const auto s = summarize({3, 1, 2});
  EXPECT_EQ(s.n, 3u);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.median, 2);
  EXPECT_DOUBLE_EQ(s.mean, 2);
  EXPECT_DOUBLE_EQ(s.max, 3);
  EXPECT_DOUBLE_EQ(s.stddev, 1);
  EXPECT_DOUBLE_EQ(s.cv, 0.5);
}

TEST(Summarize, EvenCountMedianIsTheMiddleMean) {
  // 4, 1, 3, 2: median (2+3)/2, mean 2.5, squared
  // deviations 2.25+0.25+0.25+2.25 = 5, sample variance 5/3 (n-1, not n: 5/4
  // would give 1.118).
  const auto s = summarize({4, 1, 3, 2});
  EXPECT_EQ(s.n, 4u);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.median, 2.5);
  EXPECT_DOUBLE_EQ(s.mean, 2.5);
  EXPECT_DOUBLE_EQ(s.max, 4);
  EXPECT_DOUBLE_EQ(s.stddev, std::sqrt(5.0 / 3.0));
  EXPECT_DOUBLE_EQ(s.cv, std::sqrt(5.0 / 3.0) / 2.5);
}

TEST(Summarize, SkewedSamples) {
  // 10, 10, 10, 10, 60: median 10, mean 20, deviations 4 * 100 + 1600 = 2000,
  // sample variance 500.
  const auto s = summarize({10, 60, 10, 10, 10});
  EXPECT_DOUBLE_EQ(s.median, 10);
  EXPECT_DOUBLE_EQ(s.mean, 20);
  EXPECT_DOUBLE_EQ(s.stddev, std::sqrt(500.0));
  EXPECT_DOUBLE_EQ(s.cv, std::sqrt(500.0) / 20);
  EXPECT_DOUBLE_EQ(s.max, 60);
}

TEST(Summarize, IdenticalSamplesHaveNoSpread) {
  const auto s = summarize({1e-3, 1e-3, 1e-3, 1e-3});
  EXPECT_DOUBLE_EQ(s.median, 1e-3);
  EXPECT_NEAR(s.stddev, 0, 1e-18);
  EXPECT_NEAR(s.cv, 0, 1e-12);
}

// 1, 2, ..., n: the k-th smallest sample is k, so a percentile names its
// rank.
std::vector<double> one_to(int n) {
  std::vector<double> v(static_cast<std::size_t>(n));
  std::iota(v.begin(), v.end(), 1.0);
  return v;
}

TEST(Percentile, NeedsOneSampleAboveIt) {
  // 100 / (100 - p), rounded up.
  EXPECT_EQ(percentile_min_samples(50), 2u);
  EXPECT_EQ(percentile_min_samples(90), 10u);
  EXPECT_EQ(percentile_min_samples(95), 20u);
  EXPECT_EQ(percentile_min_samples(99), 100u);
  EXPECT_EQ(percentile_min_samples(97), 34u);  // 33.3 -> 34
  // At the threshold exactly one sample lies above the percentile, below
  // it there is none: the percentile would be the maximum.
  for (int p : kPercentiles) {
    const int n = static_cast<int>(percentile_min_samples(p));
    ASSERT_TRUE(percentile(one_to(n), p)) << "p" << p << " of " << n;
    EXPECT_EQ(*percentile(one_to(n), p), n - 1) << "p" << p;
    EXPECT_FALSE(percentile(one_to(n - 1), p)) << "p" << p << " of " << n - 1;
  }
  EXPECT_FALSE(percentile({}, 50));
  EXPECT_FALSE(percentile({7.0}, 50));
}

TEST(Percentile, NearestRankNoInterpolation) {
  // The ceil(n * p / 100)-th smallest.
  EXPECT_EQ(*percentile(one_to(100), 50), 50);
  EXPECT_EQ(*percentile(one_to(100), 95), 95);
  EXPECT_EQ(*percentile(one_to(100), 99), 99);
  EXPECT_EQ(*percentile(one_to(200), 99), 198);
  EXPECT_EQ(*percentile(one_to(101), 99), 100);  // 99.99 -> 100
  EXPECT_EQ(*percentile(one_to(20), 95), 19);
  EXPECT_EQ(*percentile(one_to(21), 95), 20);  // 19.95 -> 20
  EXPECT_EQ(*percentile(one_to(3), 50), 2);    // 1.5 -> 2
  EXPECT_EQ(*percentile(one_to(2), 50), 1);    // the lower of two
  EXPECT_EQ(*percentile(one_to(99), 95), 95);  // 94.05 -> 95
  EXPECT_FALSE(percentile(one_to(99), 99));
  // A sample, never a value between two.
  const std::vector<double> spread{1, 10, 100, 1000};
  EXPECT_EQ(*percentile(spread, 50), 10);
}

TEST(Percentile, AgreesWithOsuWhereItsRankIsWhole) {
  // OSU 7.3 (osu_util_mpi.c, omb_calculate_tail_lat) reads the
  // floor(n * p / 100)-th smallest: the same sample when n * p / 100 is
  // whole (n = 200, OSU's default of 1000 iterations...).
  int compared = 0;
  for (int n : {20, 100, 200, 1000, 10000}) {
    for (int p : kPercentiles) {
      if (n * p % 100 != 0 || !percentile(one_to(n), p)) continue;
      EXPECT_EQ(*percentile(one_to(n), p), n * p / 100) << n << " p" << p;
      ++compared;
    }
  }
  EXPECT_EQ(compared, 14);  // n = 20: p50, p95 (not p99); 3 for each other n
}

TEST(Summarize, PercentilesOfUnsortedSamples) {
  std::vector<double> v = one_to(200);
  std::shuffle(v.begin(), v.end(), std::mt19937(7));
  const auto s = summarize(v);
  ASSERT_TRUE(s.percentiles[0] && s.percentiles[1] && s.percentiles[2]);
  EXPECT_EQ(*s.percentiles[0], 100);
  EXPECT_EQ(*s.percentiles[1], 190);
  EXPECT_EQ(*s.percentiles[2], 198);
  EXPECT_LE(s.min, *s.percentiles[0]);
  EXPECT_LE(*s.percentiles[2], s.max);
  EXPECT_EQ(mpiarena::percentile_name(0), "p50");
  EXPECT_EQ(mpiarena::percentile_name(2), "p99");
}

TEST(Summarize, PercentilesLeftOutWhereTheSamplesAreTooFew) {
  // 7 samples (the runner's default -r): p50 only.
  const auto seven = summarize(one_to(7));
  ASSERT_TRUE(seven.percentiles[0]);
  EXPECT_EQ(*seven.percentiles[0], 4);
  EXPECT_FALSE(seven.percentiles[1]);
  EXPECT_FALSE(seven.percentiles[2]);
  // 99 samples: p50 and p95, not p99.
  const auto s = summarize(one_to(99));
  EXPECT_TRUE(s.percentiles[0] && s.percentiles[1]);
  EXPECT_FALSE(s.percentiles[2]);
  EXPECT_FALSE(summarize({1.0}).percentiles[0]);
  EXPECT_FALSE(summarize({}).percentiles[0]);
}

// The predictor as documented, written out once more for the checks below:
// multiplier = min_time * 1.4 / max(seconds, 1e-9); 10 when
// seconds / min_time <= 0.1; next = max(multiplier * iters, iters + 1),
// rounded, capped at kMaxIterations.

TEST(Predict, InsignificantRunGrowsTenfold) {
  // 1 us of a 5 ms goal: 0.0002 <= 0.1.
  EXPECT_EQ(predict_iterations(1, 1e-6, 0.005), 10);
  EXPECT_EQ(predict_iterations(37, 1e-5, 0.005), 370);
  // A zero-length run (coarse clock) is insignificant as well.
  EXPECT_EQ(predict_iterations(4, 0.0, 0.005), 40);
}

TEST(Predict, BoundaryTenPercentIsStillInsignificant) {
  // seconds / min_time == 0.1 exactly: x10, not x(1.4 / 0.1) = x14.
  EXPECT_EQ(predict_iterations(3, 0.1, 1.0), 30);
  EXPECT_EQ(predict_iterations(3, 0.25, 2.0),
            34);  // 0.125 > 0.1: 3 * 2.8 / 0.25 = 33.6
}

TEST(Predict, SignificantRunAimsFortyPercentPastMinTime) {
  // 1 ms of 5 ms (0.2 > 0.1): multiplier 0.007 / 0.001 = 7.
  EXPECT_EQ(predict_iterations(100, 0.001, 0.005), 700);
  // 4 ms of 5 ms: multiplier 1.75.
  EXPECT_EQ(predict_iterations(1000, 0.004, 0.005), 1750);
  // 6 ms of 5 ms (calibration asks only while below min_time, but the rule
  // holds): 10 * 0.007 / 0.006 = 11.67, rounded to 12 (not truncated to 11).
  EXPECT_EQ(predict_iterations(10, 0.006, 0.005), 12);
  // 10 * 0.007 / 0.003 = 23.33 -> 23.
  EXPECT_EQ(predict_iterations(10, 0.003, 0.005), 23);
}

TEST(Predict, AlwaysGrowsByAtLeastOne) {
  // 10 ms of 5 ms: multiplier 0.7 would shrink 1000 to 700; 1001 instead.
  EXPECT_EQ(predict_iterations(1000, 0.01, 0.005), 1001);
  EXPECT_EQ(predict_iterations(1, 100.0, 0.005), 2);
  for (std::int64_t iters : {1LL, 2LL, 10LL, 12345LL, 999999999LL})
    for (double seconds : {0.0, 1e-9, 1e-4, 0.004, 0.5, 50.0})
      EXPECT_GT(predict_iterations(iters, seconds, 0.005), iters)
          << iters << " iterations in " << seconds << " s";
}

TEST(Predict, NeverPastTheCap) {
  EXPECT_EQ(predict_iterations(500000000, 1e-6, 0.005), kMaxIterations);
  EXPECT_EQ(predict_iterations(kMaxIterations / 2, 0.001, 0.005),
            kMaxIterations);
  EXPECT_EQ(predict_iterations(kMaxIterations - 1, 1.0, 0.005), kMaxIterations);
  EXPECT_LE(predict_iterations(kMaxIterations, 1e-6, 0.005), kMaxIterations);
}

TEST(Predict, CalibrationSequenceReachesMinTime) {
  // An operation of 1 us, min_time 5 ms: 1 -> 10 -> 100 -> 1000 (1 ms,
  // significant) -> 7000 (7 ms >= 5 ms, stop).
  std::int64_t iters = 1;
  std::vector<std::int64_t> seen{iters};
  while (iters * 1e-6 < 0.005) {
    iters = predict_iterations(iters, iters * 1e-6, 0.005);
    seen.push_back(iters);
  }
  EXPECT_EQ(seen, (std::vector<std::int64_t>{1, 10, 100, 1000, 7000}));
}

// The median's 95% interval from order statistics: 7 samples give [x(1),
// x(7)], 10 give [x(2), x(9)], 20 give [x(6), x(15)]; the half-width
// is the larger side over the median.
TEST(MedianPrecision, IsTheHalfWidthOfTheOrderStatisticInterval) {
  using mpiarena::median_precision;
  EXPECT_EQ(median_precision({}), 0);
  EXPECT_EQ(median_precision({0, 0, 0}), 0);
  // 7 values: the range; median 100, ends 98 and 103.
  EXPECT_DOUBLE_EQ(median_precision({103, 99, 100, 98, 101, 100, 100}), 0.03);
  // 10 values: x(2) = 2 and x(9) = 9 about a median of 5.5.
  std::vector<double> ten{10, 9, 8, 7, 6, 5, 4, 3, 2, 1};
  EXPECT_DOUBLE_EQ(median_precision(ten), 3.5 / 5.5);
  // An outlier beyond x(n+1-j) does not widen it: 20 values of 100 but
  // for five far ones on each side.
  std::vector<double> twenty(10, 100.0);
  for (int k = 0; k < 5; ++k) {
    twenty.push_back(1);
    twenty.push_back(1000);
  }
  EXPECT_DOUBLE_EQ(median_precision(twenty), 0);
  twenty.push_back(100);  // 21 values: x(6), x(16) still 100
  EXPECT_DOUBLE_EQ(median_precision(twenty), 0);
  // Below 6 values, the range's.
  EXPECT_DOUBLE_EQ(median_precision({90, 100, 120}), 0.2);
  // Large n: the normal approximation keeps it about 1 / sqrt(n) wide.
  std::vector<double> many;
  for (int i = 0; i < 1001; ++i) many.push_back(1000 + i);
  const double p = median_precision(many);
  EXPECT_GT(p, 0.015);
  EXPECT_LT(p, 0.025);
}
