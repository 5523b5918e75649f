// The statistics module (core/include/mpiarena/stats.hpp and
// core/analysis/stats/) against closed forms and published tables: the
// medians and type-7 quantiles, the exact cut of the U test (the
// two-tailed Mann-Whitney tables), the fewest samples a level needs, the
// Hodges-Lehmann bound on hand-worked ratios, the normal quantiles, the
// incomplete beta and t distributions where they have closed forms, Welch
// with one degree of freedom, Holm and Bonferroni.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <mpiarena/stats.hpp>
#include <vector>

#include "core/analysis/stats/inference.hpp"
#include "core/analysis/stats/rank_tests.hpp"

namespace {

using mpiarena::EvenMedian;

const double kPi = std::acos(-1.0);

TEST(Median, OddEvenAndEmpty) {
  EXPECT_EQ(mpiarena::median({3, 1, 2}), 2);
  EXPECT_EQ(mpiarena::median({4, 1, 3, 2}), 2.5);
  EXPECT_EQ(mpiarena::median({4, 1, 3, 2}, EvenMedian::upper), 3);
  EXPECT_EQ(mpiarena::median({3, 1, 2}, EvenMedian::upper), 2);
  EXPECT_EQ(mpiarena::median({}), 0);
}

TEST(Median, TwoLargestDoublesStayFinite) {
  EXPECT_EQ(mpiarena::median({DBL_MAX, DBL_MAX}), DBL_MAX);
}

TEST(Median, AgreesWithTheSummary) {
  const std::vector<double> v = {5, 9, 1, 7, 3, 8};
  EXPECT_EQ(mpiarena::median(v), mpiarena::summarize(v).median);
}

// R: quantile(c(1, 2, 3, 4), c(0, .25, .5, .9, 1), type = 7)
// = 1, 1.75, 2.5, 3.7, 4.
TEST(Quantile, TypeSevenAsR) {
  const std::vector<double> v = {4, 2, 1, 3};
  EXPECT_DOUBLE_EQ(mpiarena::quantile(v, 0), 1);
  EXPECT_DOUBLE_EQ(mpiarena::quantile(v, 0.25), 1.75);
  EXPECT_DOUBLE_EQ(mpiarena::quantile(v, 0.5), 2.5);
  EXPECT_DOUBLE_EQ(mpiarena::quantile(v, 0.9), 3.7);
  EXPECT_DOUBLE_EQ(mpiarena::quantile(v, 1), 4);
  EXPECT_DOUBLE_EQ(mpiarena::quantile(v, -3), 1);  // clamped
  EXPECT_EQ(mpiarena::quantile({}, 0.5), 0);
}

TEST(NearestRank, CeilingOfTheProduct) {
  EXPECT_EQ(mpiarena::nearest_rank(20, 0.95), 19u);  // whole: 19, not 20
  EXPECT_EQ(mpiarena::nearest_rank(21, 0.95), 20u);  // 19.95 up
  EXPECT_EQ(mpiarena::nearest_rank(10, 0.5), 5u);
  EXPECT_EQ(mpiarena::nearest_rank(3, 0), 1u);
  EXPECT_EQ(mpiarena::nearest_rank(3, 1.5), 3u);
  EXPECT_EQ(mpiarena::nearest_rank(0, 0.5), 0u);
}

TEST(RelativeStandardError, OfOneTwoThree) {
  // mean 2, sample sd 1: (1 / sqrt 3) / 2
  EXPECT_DOUBLE_EQ(mpiarena::relative_standard_error({1, 2, 3}),
                   1 / (2 * std::sqrt(3.0)));
  EXPECT_EQ(mpiarena::relative_standard_error({7}), 0);
  EXPECT_EQ(mpiarena::relative_standard_error({-1, 1}), 0);
}

// Critical values of U, two-tailed at 0.05 (so a tail of 0.025) and
// one-tailed at 0.05, as printed in the Mann-Whitney tables (e.g. Siegel
// & Castellan, Nonparametric Statistics, table J).
TEST(ULowerCritical, PublishedTwoTailedFivePercent) {
  EXPECT_EQ(mpiarena::u_lower_critical(6, 6, 0.025), 5);
  EXPECT_EQ(mpiarena::u_lower_critical(8, 8, 0.025), 13);
  EXPECT_EQ(mpiarena::u_lower_critical(9, 9, 0.025), 17);
  EXPECT_EQ(mpiarena::u_lower_critical(20, 20, 0.025), 127);
  EXPECT_EQ(mpiarena::u_lower_critical(5, 10, 0.025), 8);
  EXPECT_EQ(mpiarena::u_lower_critical(2, 8, 0.025), 0);
  EXPECT_EQ(mpiarena::u_lower_critical(2, 6, 0.025), -1);
}

TEST(ULowerCritical, PublishedOneTailedFivePercent) {
  EXPECT_EQ(mpiarena::u_lower_critical(5, 5, 0.05), 4);
  EXPECT_EQ(mpiarena::u_lower_critical(10, 10, 0.05), 27);
  EXPECT_EQ(mpiarena::u_lower_critical(4, 6, 0.05), 3);
}

TEST(FewestSamples, ClosedFormsAtTheBoundary) {
  // 2 / C(2n, n): 1 (n = 1), 1/3, 1/10, 1/35, 1/126.
  EXPECT_DOUBLE_EQ(mpiarena::min_p_value(3, 3), 0.1);
  EXPECT_DOUBLE_EQ(mpiarena::min_p_value(4, 4), 2.0 / 70);
  EXPECT_DOUBLE_EQ(mpiarena::min_p_value(2, 5), 2.0 / 21);
  // p < alpha (compare) against 2 / C(2n, n) <= alpha (tune's bound):
  // they part only where 2 / C(2n, n) is alpha itself.
  EXPECT_EQ(mpiarena::min_samples_for(0.1), 4u);
  EXPECT_EQ(mpiarena::min_samples_to_bound(0.1), 3u);
  EXPECT_EQ(mpiarena::min_samples_for(0.05), 4u);
  EXPECT_EQ(mpiarena::min_samples_to_bound(0.05), 4u);
  EXPECT_EQ(mpiarena::min_samples_for(0.01), 5u);
  EXPECT_EQ(mpiarena::min_samples_to_bound(0.01), 5u);
}

TEST(MannWhitneyExact, FullySeparatedThreeAgainstThree) {
  // scipy.stats.mannwhitneyu([1, 2, 3], [4, 5, 6]): U 0, p 0.1 (2 / 20).
  const auto t = mpiarena::mann_whitney({1, 2, 3}, {4, 5, 6});
  EXPECT_TRUE(t.exact);
  EXPECT_EQ(t.u, 0);
  EXPECT_DOUBLE_EQ(t.p, 0.1);
}

TEST(MannWhitneyNormal, ClosedFormWithoutTies) {
  // Forced normal: U 0 of 25 pairs, mean 12.5, variance 5 * 5 * 11 / 12,
  // continuity 0.5: p = erfc(z / sqrt 2).
  const auto t = mpiarena::mann_whitney({1, 2, 3, 4, 5}, {6, 7, 8, 9, 10}, 0);
  EXPECT_FALSE(t.exact);
  const double z = 12 / std::sqrt(25 * 11 / 12.0);
  EXPECT_NEAR(t.p, std::erfc(z / std::sqrt(2.0)), 1e-12);
}

TEST(RatioLowerBound, HandWorkedExactCut) {
  // 5 against 5 at alpha 0.05: the cut is U's critical value 2, so the
  // bound is the third smallest of the 25 ratios a / b: 10/5 = 2,
  // 10/4 = 2.5, 10/3 = 3.33 (20/5 = 4 comes after).
  const std::vector<double> a = {10, 20, 30, 40, 50}, b = {1, 2, 3, 4, 5};
  EXPECT_DOUBLE_EQ(mpiarena::ratio_lower_bound(a, b, 0.05), 10.0 / 3);
}

TEST(RatioLowerBound, NormalCutAboveTheExactLimit) {
  // 30 against 30: floor(450 - 1.959964 * sqrt(900 * 61 / 12)) = 317; the
  // ratios are 1..30 thirty times each, so the 318th smallest is 11.
  std::vector<double> a, b(30, 1.0);
  for (int i = 1; i <= 30; ++i) a.push_back(i);
  EXPECT_DOUBLE_EQ(mpiarena::ratio_lower_bound(a, b, 0.05), 11);
}

TEST(RatioLowerBound, TooFewSamplesOrNoPairs) {
  // 2 against 2: U = 0 alone has probability 1/6 > 0.025.
  EXPECT_EQ(mpiarena::ratio_lower_bound({3, 4}, {1, 2}, 0.05), 0);
  EXPECT_EQ(mpiarena::ratio_lower_bound({3, 4}, {0, -1}, 0.05), 1);
}

TEST(TwoSidedZ, PublishedNormalQuantiles) {
  EXPECT_NEAR(mpiarena::two_sided_z(0.05), 1.959963985, 1e-8);
  EXPECT_NEAR(mpiarena::two_sided_z(0.01), 2.575829304, 1e-8);
  EXPECT_NEAR(mpiarena::two_sided_z(0.001), 3.290526731, 1e-8);
}

TEST(IncompleteBeta, ClosedForms) {
  for (double x : {0.1, 0.37, 0.5, 0.8}) {
    EXPECT_NEAR(mpiarena::incomplete_beta(1, 1, x), x, 1e-13);
    EXPECT_NEAR(mpiarena::incomplete_beta(3, 1, x), std::pow(x, 3), 1e-13);
    EXPECT_NEAR(mpiarena::incomplete_beta(1, 4, x), 1 - std::pow(1 - x, 4),
                1e-13);
    EXPECT_NEAR(mpiarena::incomplete_beta(2, 2, x), 3 * x * x - 2 * x * x * x,
                1e-13);
  }
  EXPECT_NEAR(mpiarena::incomplete_beta(7.5, 7.5, 0.5), 0.5, 1e-13);
  EXPECT_EQ(mpiarena::incomplete_beta(2, 3, 0), 0);
  EXPECT_EQ(mpiarena::incomplete_beta(2, 3, 1), 1);
}

TEST(StudentT, ClosedFormsAndPublishedCriticalValues) {
  for (double t : {0.3, 1.0, 2.5}) {
    // df 1 (Cauchy) and df 2 have closed forms.
    EXPECT_NEAR(mpiarena::student_t_two_sided_p(t, 1),
                1 - 2 / kPi * std::atan(t), 1e-12);
    EXPECT_NEAR(mpiarena::student_t_two_sided_p(t, 2),
                1 - t / std::sqrt(2 + t * t), 1e-12);
  }
  // t tables: t(0.975; 10) = 2.228139, t(0.975; 30) = 2.042272,
  // t(0.995; 5) = 4.032143.
  EXPECT_NEAR(mpiarena::student_t_two_sided_p(2.228139, 10), 0.05, 1e-6);
  EXPECT_NEAR(mpiarena::student_t_two_sided_p(2.042272, 30), 0.05, 1e-6);
  EXPECT_NEAR(mpiarena::student_t_two_sided_p(4.032143, 5), 0.01, 1e-6);
}

TEST(WelchLogP, OneDegreeOfFreedom) {
  // logs {0, 2} (mean 1, variance 2) against {3, 3} (no spread): t = 2,
  // Welch-Satterthwaite df = 1, p = 1 - 2 atan(2) / pi.
  const double p =
      mpiarena::welch_log_p({1, std::exp(2.0)}, {std::exp(3.0), std::exp(3.0)});
  EXPECT_NEAR(p, 1 - 2 / kPi * std::atan(2.0), 1e-12);
}

TEST(Holm, StepDownByHand) {
  // sorted 0.005 x 4 = 0.02, 0.01 x 3 = 0.03, 0.03 x 2 = 0.06, 0.04 x 1 =
  // 0.04 raised to 0.06 (never below a smaller p's).
  const std::vector<double> adj = mpiarena::holm({0.01, 0.04, 0.03, 0.005});
  ASSERT_EQ(adj.size(), 4u);
  EXPECT_DOUBLE_EQ(adj[0], 0.03);
  EXPECT_DOUBLE_EQ(adj[1], 0.06);
  EXPECT_DOUBLE_EQ(adj[2], 0.06);
  EXPECT_DOUBLE_EQ(adj[3], 0.02);
  EXPECT_EQ(mpiarena::holm({0.02, 0.02}), (std::vector<double>{0.04, 0.04}));
  EXPECT_EQ(mpiarena::holm({0.6, 0.9}), (std::vector<double>{1, 1}));
  EXPECT_TRUE(mpiarena::holm({}).empty());
}

TEST(Bonferroni, Level) {
  EXPECT_DOUBLE_EQ(mpiarena::bonferroni_level(0.05, 5), 0.01);
  EXPECT_DOUBLE_EQ(mpiarena::bonferroni_level(0.05, 1), 0.05);
  EXPECT_DOUBLE_EQ(mpiarena::bonferroni_level(0.05, 0), 0.05);
}

TEST(MedianPrecision, ClosedFormOfOneToFive) {
  // median 3, IQR 4 - 2 = 2, sigma 2 / (2 * 0.67449): sqrt(pi / 2) sigma /
  // (3 sqrt 5).
  const std::vector<double> v = {1, 2, 3, 4, 5};
  const double sigma = 2 / (2 * 0.6744897501960817);
  const double se = std::sqrt(kPi / 2) * sigma / (3 * std::sqrt(5.0));
  EXPECT_NEAR(mpiarena::median_relative_se(v), se, 1e-12);
  EXPECT_NEAR(mpiarena::resolvable_change(v, v, 0.05),
              std::expm1(1.959963985 * std::sqrt(2.0) * se), 1e-8);
  EXPECT_EQ(mpiarena::median_relative_se({4}), -1);
}

}  // namespace
