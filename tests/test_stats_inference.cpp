// The statistics behind runner compare: the Mann-Whitney U test against
// independent reference values, its smallest p-values, and the quantiles,
// normal quantile and median's standard error of the suggested threshold.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/analysis/compare/compare.hpp"

using mpiarena::mann_whitney;

namespace {

// Deterministic pseudo-random values without ties: the 31-bit LCG of
// tests/reference/mannwhitney_reference.py (lcg()), rounded to 9 digits.
std::vector<double> lcg(unsigned long long seed, int count, double scale) {
  std::vector<double> out;
  for (int i = 0; i < count; ++i) {
    seed = (1103515245ULL * seed + 12345ULL) % 2147483648ULL;
    const double v = scale * (1 + static_cast<double>(seed) / 2147483648.0);
    out.push_back(std::round(v * 1e9) / 1e9);
  }
  return out;
}

std::vector<double> seq(double first, int count, double step = 1) {
  std::vector<double> out;
  for (int i = 0; i < count; ++i) out.push_back(first + step * i);
  return out;
}

std::vector<double> modulo(int count, int mod, int add) {
  std::vector<double> out;
  for (int i = 0; i < count; ++i) out.push_back(i % mod + add);
  return out;
}

}  // namespace

// Reference values: the output of tests/reference/mannwhitney_reference.py
// (standard library only: U counted pair by pair; exact p by enumerating
// every split with itertools.combinations, or by Mann and Whitney's
// recurrence for 20 vs 20; the normal approximation with tie and continuity
// corrections), pasted here:
//   scipy_doc: n1=5 n2=4 U=17.0 p=0.1111111111111111 (enumeration)
//   separated_3v3: n1=3 n2=3 U=0.0 p=0.1 (enumeration)
//   separated_4v4: n1=4 n2=4 U=16.0 p=0.02857142857142857 (enumeration)
//   separated_7v7: n1=7 n2=7 U=0.0 p=0.0005827505827505828 (enumeration)
//   interleaved_7v7: n1=7 n2=7 U=21.0 p=0.7103729603729604 (enumeration)
//   ties_5v6: n1=5 n2=6 U=6.0 p=0.12121212121212122 (enumeration)
//   ties_7v7: n1=7 n2=7 U=3.5 p=0.007575757575757576 (enumeration)
//   all_equal_3v3: n1=3 n2=3 U=4.5 p=1.0 (enumeration)
//   no_ties_20v20: n1=20 n2=20 U=130.0 p=0.05956383156170359 (recursion)
//   no_ties_26v30: n1=26 n2=30 U=238.0 p=0.012811612036996205 (normal)
//   ties_30v30: n1=30 n2=30 U=272.0 p=0.008236698339101782 (normal)
// scipy.stats.mannwhitneyu 1.17.1 (two-sided) agrees to 1e-15 on every case.
// "scipy_doc" is the example of scipy's mannwhitneyu documentation, which
// prints U = 17, p = 0.1111111111111111 (exact) and p = 0.11134688653314041
// (method="asymptotic").
struct Reference {
  const char* name;
  std::vector<double> x, y;
  double u, p;
  bool exact, ties;
};

TEST(MannWhitney, MatchesIndependentReferenceValues) {
  const std::vector<Reference> cases = {
      {"scipy_doc",
       {19, 22, 16, 29, 24},
       {20, 11, 17, 12},
       17,
       0.1111111111111111,
       true,
       false},
      {"separated_3v3", {1, 2, 3}, {4, 5, 6}, 0, 0.1, true, false},
      {"separated_4v4",
       {4, 5, 6, 7},
       {1, 2, 3, 0.5},
       16,
       0.02857142857142857,
       true,
       false},
      {"separated_7v7", seq(1, 7), seq(10, 7), 0, 0.0005827505827505828, true,
       false},
      {"interleaved_7v7", seq(1, 7, 2), seq(2, 7, 2), 21, 0.7103729603729604,
       true, false},
      {"ties_5v6",
       {1, 2, 2, 3, 4},
       {2, 3, 3, 5, 6, 6},
       6,
       0.12121212121212122,
       true,
       true},
      {"ties_7v7",
       {3, 3, 4, 5, 5, 5, 6},
       {5, 6, 6, 7, 7, 8, 9},
       3.5,
       0.007575757575757576,
       true,
       true},
      {"all_equal_3v3", {2, 2, 2}, {2, 2, 2}, 4.5, 1.0, true, true},
      {"no_ties_20v20", lcg(1, 20, 1.0), lcg(2, 20, 1.1), 130,
       0.05956383156170359, true, false},
      {"no_ties_26v30", lcg(3, 26, 1.0), lcg(4, 30, 1.15), 238,
       0.012811612036996205, false, false},
      {"ties_30v30", modulo(30, 7, 0), modulo(30, 9, 1), 272,
       0.008236698339101782, false, true},
  };
  for (const Reference& c : cases) {
    SCOPED_TRACE(c.name);
    const mpiarena::UTest t = mann_whitney(c.x, c.y);
    EXPECT_EQ(t.n1, c.x.size());
    EXPECT_EQ(t.n2, c.y.size());
    EXPECT_DOUBLE_EQ(t.u, c.u);
    EXPECT_NEAR(t.p, c.p, 1e-12 * c.p);
    EXPECT_EQ(t.exact, c.exact);
    EXPECT_EQ(t.ties, c.ties);
  }
}

TEST(MannWhitney, NormalApproximationOfTheScipyExample) {
  // exact_limit 0 forces the normal approximation; scipy's documentation
  // gives 0.11134688653314041 for method="asymptotic".
  const auto t = mann_whitney({19, 22, 16, 29, 24}, {20, 11, 17, 12}, 0);
  EXPECT_FALSE(t.exact);
  EXPECT_NEAR(t.p, 0.11134688653314041, 1e-13);
}

TEST(MannWhitney, IsSymmetricAndHandlesEmptySamples) {
  const auto ab = mann_whitney({1, 4, 9, 2}, {3, 5, 7});
  const auto ba = mann_whitney({3, 5, 7}, {1, 4, 9, 2});
  EXPECT_DOUBLE_EQ(ab.u + ba.u, 12);
  EXPECT_DOUBLE_EQ(ab.p, ba.p);
  EXPECT_EQ(mann_whitney({}, {1, 2}).p, 1);
}

TEST(MannWhitney, SmallestPossiblePValues) {
  EXPECT_DOUBLE_EQ(mpiarena::min_p_value(3, 3), 0.1);  // 2 / C(6, 3)
  EXPECT_DOUBLE_EQ(mpiarena::min_p_value(4, 4), 2.0 / 70);
  EXPECT_DOUBLE_EQ(mpiarena::min_p_value(7, 7), 2.0 / 3432);
  EXPECT_EQ(mpiarena::min_samples_for(0.05), 4u);  // 3v3 cannot: 0.1
  EXPECT_EQ(mpiarena::min_samples_for(0.01), 5u);  // 2 / 252 < 0.01 < 2 / 70
}

TEST(CompareThreshold, StatisticsAsDocumented) {
  EXPECT_NEAR(mpiarena::two_sided_z(0.05), 1.959963984540054, 1e-12);
  EXPECT_NEAR(mpiarena::two_sided_z(0.01), 2.5758293035489004, 1e-12);
  EXPECT_DOUBLE_EQ(mpiarena::quantile({4, 1, 3, 2}, 0.25), 1.75);
  EXPECT_DOUBLE_EQ(mpiarena::quantile({4, 1, 3, 2}, 0.5), 2.5);
  EXPECT_DOUBLE_EQ(mpiarena::quantile({5}, 0.75), 5);
  // 0.97 .. 1.03: quartiles 0.985 and 1.015 (type 7), IQR 0.03, median 1.
  const std::vector<double> s = {0.97, 0.98, 0.99, 1.00, 1.01, 1.02, 1.03};
  const double se = std::sqrt(std::acos(-1.0) / 2) *
                    (0.03 / 1.3489795003921634) / std::sqrt(7.0);
  EXPECT_NEAR(mpiarena::median_relative_se(s), se, 1e-12);
  EXPECT_NEAR(mpiarena::resolvable_change(s, s, 0.05),
              std::expm1(1.959963984540054 * std::sqrt(2.0) * se), 1e-12);
  EXPECT_NEAR(mpiarena::resolvable_change(s, s, 0.05), 0.0296, 1e-4);
  EXPECT_EQ(mpiarena::median_relative_se({1.0}), -1);
  EXPECT_EQ(mpiarena::resolvable_change(s, {0, 0, 0}, 0.05), -1);
}
