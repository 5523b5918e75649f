// Regression diffing of two result documents (`runner compare BASE NEW`):
// records are matched by (suite, method, payload, size, ranks); for each pair
// the relative change of the median and a two-sided Mann-Whitney U test on
// the raw samples decide whether the point improved, regressed, is unchanged
// or is too noisy to tell. Nothing here knows any method.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "records.hpp"

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

// Ordered by how much a CI gate cares.
enum class Outcome { unchanged, improved, noisy, regressed };
// "unchanged", "improved", "noisy", "regressed".
const char* verdict_name(Outcome v);

struct CompareOptions {
  double threshold = 0.05;  // factor - 1 between two medians that matters
  double alpha = 0.05;      // significance level of the U test
};

// One metric of one point. Every metric is derived from the same samples
// (samples_s.max), so they share the U test's p-value; each has its own
// direction and its own relative change.
//
// Contract v4 adds, when both records have them: "metric:<name>" (the
// plugin's metric, its own direction and unit), "phase:<name>" (a phase of
// the headline part) and "part:<name>" (a part that is not the headline),
// each with its own U test on its own samples (`p` >= 0).
struct MetricChange {
  std::string metric;  // "time_s", "bandwidth_Bps", "metric:overlap"...
  bool higher_is_better = false;
  double base = 0, now = 0;  // median time, or payload bytes / median time
  double change = 0;         // (now - base) / base
  Outcome verdict = Outcome::unchanged;
  double p = -1;     // its own U test's p-value; -1: the point's
  std::string unit;  // metrics: the plugin's unit; times: "s"
};

struct PointKey {
  std::string suite, method, payload, size_label;
  std::size_t bytes = 0;
  int ranks = 0;
  int pairs = 0;  // pairwise methods: pairs at once; 0 otherwise
  // Pairwise methods whose pairs crossed nodes: "inter" or "mixed"; empty
  // within a node (and in files written before pair_placement existed).
  std::string placement;
};
// "transfer/bcast/2d/1100000/np4"; "pingpong/mpi_bytes/bytes/1024/np4/2pairs"
// for 2 or more pairs at once; ".../np4/inter" for a pair across nodes.
std::string point_name(const PointKey& k);

struct PointComparison {
  PointKey key;
  UTest test;
  std::vector<MetricChange> metrics;
  // The most severe verdict of its metrics; a failed verification in NEW is
  // a regression whatever the times say.
  Outcome verdict = Outcome::unchanged;
  std::string note;  // why, when the verdict needs explaining
};

// A point measured in one file only; `other` says what the other file has
// of it ("skipped: <reason>"), or is empty.
struct OnlyIn {
  PointKey key;
  std::string other;
};

struct Comparison {
  CompareOptions options;
  std::vector<PointComparison> points;
  std::vector<OnlyIn> only_base, only_new;
  std::vector<std::string> warnings;  // context differences, duplicates...

  int count(Outcome v) const;
  // runner compare's exit code: 0 when nothing regressed, 1 otherwise, 2
  // when no point is in both files (nothing was compared).
  int exit_code() const;
};

// Matches the records of `base` and `now` and classifies every pair, for
// each metric. A median moved "beyond the threshold" when the better of the
// two medians beats the other by a factor above 1 + threshold (5%: slower
// or faster by a factor over 1.05), which makes time and bandwidth agree:
//   not beyond the threshold            -> unchanged (whatever p)
//   beyond it, p < alpha                -> improved or regressed, by the
//                                          metric's direction
//   beyond it, p >= alpha               -> noisy (too noisy to tell)
Comparison compare_documents(const Document& base, const Document& now,
                             const CompareOptions& options = {});

// The comparison as one JSON object (runner compare --format json).
nlohmann::json to_json(const Comparison& c);

}  // namespace mpiarena
