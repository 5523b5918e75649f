// Change points of a series (core/analysis/stats/change_points.hpp): the
// energy split, the level each split is held to, and the segmentation.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "core/analysis/stats/change_points.hpp"

namespace mpiarena {
namespace {

// `n` values around `level` with lognormal noise of `sd`; from `step_at`
// on multiplied by `factor`.
std::vector<double> series(int n, double sd, int step_at = -1,
                           double factor = 1, unsigned seed = 1) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> noise(0, sd);
  std::vector<double> v;
  for (int i = 0; i < n; ++i)
    v.push_back(1e-5 * std::exp(noise(rng)) *
                (step_at >= 0 && i >= step_at ? factor : 1));
  return v;
}

TEST(EnergySplit, FindsAStepExactly) {
  std::vector<double> x(20, 0.0);
  for (int i = 13; i < 20; ++i) x[i] = 1.0;
  EXPECT_EQ(energy_split(x, 0, 20, 3), 13);
  // Within a range: the same step, found from either side's offset.
  EXPECT_EQ(energy_split(x, 5, 20, 3), 13);
  EXPECT_EQ(energy_split(x, 10, 20, 3), 13);
}

TEST(EnergySplit, KeepsMinSegmentAndRefusesShortRanges) {
  std::vector<double> x(10, 0.0);
  x[9] = 5;  // an outlier at the end: no segment shorter than 3
  const int t = energy_split(x, 0, 10, 3);
  EXPECT_GE(t, 3);
  EXPECT_LE(t, 7);
  EXPECT_EQ(energy_split(x, 0, 5, 3), -1);
  EXPECT_EQ(energy_split(x, 0, 6, 3), 3);
}

TEST(ChangePoints, OneStepAtItsRun) {
  const auto cps = change_points(series(40, 0.02, 22, 1.10), {});
  ASSERT_EQ(cps.size(), 1u);
  EXPECT_EQ(cps[0].index, 22);
  // 40 runs, 3 a side: 35 positions, so alpha / 35.
  EXPECT_DOUBLE_EQ(cps[0].level, 0.05 / 35);
  EXPECT_LE(cps[0].p, cps[0].level);
}

TEST(ChangePoints, TwoStepsBothWays) {
  std::vector<double> v = series(60, 0.02, 20, 1.25, 3);
  for (int i = 40; i < 60; ++i) v[i] /= 1.25 * 1.25;  // then faster
  const auto cps = change_points(v, {});
  ASSERT_EQ(cps.size(), 2u);
  EXPECT_EQ(cps[0].index, 20);
  EXPECT_EQ(cps[1].index, 40);
}

TEST(ChangePoints, FlatSeriesRarelyReport) {
  // The bound: a flat series reports a change with probability at most
  // alpha (normal noise, the Bonferroni level over the positions); over 200
  // seeds the count is far below 200 * 0.05 = 10 (binomial: P(> 20) is
  // negligible even at the bound).
  int alarms = 0;
  for (unsigned seed = 1; seed <= 200; ++seed)
    alarms += !change_points(series(60, 0.05, -1, 1, seed), {}).empty();
  EXPECT_LE(alarms, 20);
}

TEST(ChangePoints, TooShortOrFlatGivesNone) {
  EXPECT_TRUE(change_points(series(5, 0.02, 3, 2.0), {}).empty());
  EXPECT_TRUE(change_points(std::vector<double>(30, 1e-6), {}).empty());
  EXPECT_TRUE(change_points({}, {}).empty());
}

TEST(ChangePoints, AStricterAlphaKeepsFewer) {
  // A 3% step in 3% noise: found at alpha 0.05, not at 1e-9.
  const auto v = series(60, 0.03, 30, 1.06, 7);
  EXPECT_FALSE(change_points(v, {0.05, 3}).empty());
  EXPECT_TRUE(change_points(v, {1e-9, 3}).empty());
}

}  // namespace
}  // namespace mpiarena
