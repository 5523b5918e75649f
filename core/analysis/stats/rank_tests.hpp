// Rank tests and what follows from their exact distribution: the
// two-sided Mann-Whitney U test, the smallest p-value and the fewest
// samples a level needs, the exact cut of U, and the Hodges-Lehmann bound
// of a ratio that cut gives. Used by compare, tune, the report's summary
// and the guidelines. Pure (no MPI, no records).
#pragma once

#include <cstddef>
#include <vector>

namespace mpiarena {

// Two-sided Mann-Whitney U test (Wilcoxon rank-sum) of samples a and b.
struct UTest {
  std::size_t n1 = 0, n2 = 0;
  // U of `a`: the number of pairs (x from a, y from b) with x > y, a tie
  // counting 1/2 (as scipy.stats.mannwhitneyu reports it for its first
  // sample). U of b is n1 * n2 - u.
  double u = 0;
  double p = 1;
  // Exact: the null distribution of the rank sum is enumerated (by dynamic
  // programming) over every split of the pooled samples; with ties it is
  // the permutation distribution of the mid-ranks, so it stays exact.
  // Otherwise the normal approximation with tie and continuity corrections.
  bool exact = false;
  bool ties = false;
};

// The exact test is used when n1 + n2 <= exact_limit (the default covers 25
// repetitions a side; the counts stay exact in doubles up to 50 samples).
inline constexpr std::size_t kExactLimit = 50;

UTest mann_whitney(const std::vector<double>& a, const std::vector<double>& b,
                   std::size_t exact_limit = kExactLimit);

// The smallest two-sided p-value n1 and n2 samples can ever give
// (2 / C(n1 + n2, n1), all of one sample above all of the other).
double min_p_value(std::size_t n1, std::size_t n2);
// The smallest n for which n against n samples can give p < alpha.
std::size_t min_samples_for(double alpha);

// The exact lower critical value of U for n1 against n2 samples without
// ties: the largest c with P(U <= c) <= tail under the null, or -1 when
// even U = 0 is likelier than that (too few samples for the level). The
// order statistic behind the exact Hodges-Lehmann interval.
long u_lower_critical(std::size_t n1, std::size_t n2, double tail);

// The smallest n for which n against n samples have an exact cut at
// two-sided level alpha: u_lower_critical(n, n, alpha / 2) >= 0, i.e.
// 2 / C(2n, n) <= alpha. It differs from min_samples_for (p < alpha,
// strict) only where 2 / C(2n, n) equals alpha: at alpha 0.1, 3 here
// (the cut's P(U <= 0) = 0.05 is allowed) and 4 there.
std::size_t min_samples_to_bound(double alpha);

// The lower end of the 1 - alpha confidence interval of the ratio a / b:
// the pairwise ratios sorted, cut where the U test cuts (Hodges-Lehmann's
// interval on the logarithms): at its exact critical value up to
// kExactLimit samples, its normal approximation above. 0 when the samples
// are too few to bound the ratio at that level (2 against 2 at alpha 0.05:
// U = 0 alone has probability 1/6; min_samples_to_bound).
double ratio_lower_bound(const std::vector<double>& a,
                         const std::vector<double>& b, double alpha);

}  // namespace mpiarena
