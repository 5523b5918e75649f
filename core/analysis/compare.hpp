// Regression diffing of two result documents (`runner compare BASE NEW`):
// records are matched by (suite, method, payload, size, ranks); for each pair
// the relative change of the median and a two-sided Mann-Whitney U test on
// the raw samples decide whether the point improved, regressed, is unchanged
// or is too noisy to tell; the noise records of the two files are compared
// and the smallest threshold their spread supports is suggested. Nothing
// here knows any method.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "point_key.hpp"
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

// The exact lower critical value of U for n1 against n2 samples without
// ties: the largest c with P(U <= c) <= tail under the null, or -1 when
// even U = 0 is likelier than that (too few samples for the level). The
// order statistic behind the exact Hodges-Lehmann interval.
long u_lower_critical(std::size_t n1, std::size_t n2, double tail);

// Ordered by how much a CI gate cares.
enum class Outcome { unchanged, improved, noisy, regressed };
// "unchanged", "improved", "noisy", "regressed".
const char* verdict_name(Outcome v);

// Where the two sides come from (docs/ci.md, "Which procedure").
enum class Procedure {
  two_files,  // one launch a side: the U test on the samples of each
  ab_run,     // runner ab: both builds in the same rounds of one launch
  launches    // k launches a side: each launch's median one observation,
              // Welch's t test on their logarithms (welch_log_p)
};

struct CompareOptions {
  double threshold = 0.05;  // factor - 1 between two medians that matters
  double alpha = 0.05;      // significance level of the U test
  // --relative: judge each point against the common shift of its group
  // (the methods of one suite, payload, size, ranks and pairs: the ones an
  // interleaved run measured together), so that a change of the whole
  // machine between the two runs does not flag every point (GroupShift).
  bool relative = false;
  Procedure procedure = Procedure::two_files;
  int launches_base = 1, launches_new = 1;  // Procedure::launches
  // --correction holm: the p-values of every test of the comparison (each
  // point's, and each phase's, part's and metric's own) adjusted by
  // Holm's step-down method, so that the chance that any point of an A/A
  // comparison is flagged stays below alpha (family-wise); none: each
  // test at alpha on its own.
  bool holm = false;
  // A judgement that could not fail (no point could reach p < alpha) or of
  // an incomplete run exits 2 unless allowed (--allow-powerless,
  // --allow-incomplete): a gate must not pass for want of data.
  bool allow_powerless = false, allow_incomplete = false;
};

// --relative: the common shift of a group of at least kMinGroup matched
// points, the median over them of NEW's median time over BASE's. The
// points of the group are judged on NEW's samples divided by it.
struct GroupShift {
  static constexpr int kMinGroup = 3;
  std::string group;  // "transfer/1d/11000/np2"
  int points = 0;
  double shift = 1;  // NEW / BASE
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
  double p = -1;           // its own U test's p-value; -1: the point's
  double p_adjusted = -1;  // its own p after --correction holm; -1: none
  std::string unit;        // metrics: the plugin's unit; times: "s"
};

// What one record says about the machine while its samples ran (runner
// --noise on, records.hpp Noise); `recorded` is false in files written
// before the record existed or with --noise off.
struct PointNoise {
  bool recorded = false;
  bool noisy = false;  // some recorded sample is noisy
  int noisy_samples = 0, samples = 0, retries = 0;
  std::string reason;
  double core_to_core_ns = -1;  // median_core_to_core(); -1: none
};

struct PointComparison {
  PointKey key;
  UTest test;
  std::vector<MetricChange> metrics;
  // The most severe verdict of its metrics; a failed verification in NEW is
  // a regression whatever the times say. A point measured while noisy keeps
  // its verdict (a regression still fails the gate); the note says so.
  Outcome verdict = Outcome::unchanged;
  std::string note;  // why, when the verdict needs explaining
  PointNoise base_noise, new_noise;
  // The two files measured the point in different machine states (their
  // core-to-core round trips more than kStateRatio apart): a change beyond
  // the threshold is not judged (verdict noisy, the note says why).
  bool state_changed = false;
  // The smallest change of the median time the two sides' spread can
  // resolve (resolvable_change()); -1 when too few samples or no median.
  double resolvable = -1;
  // --correction holm: the point's p after the correction (-1: none).
  double p_adjusted = -1;
};

// The noise figures of one file over the points in both files that have a
// noise record (docs/ci.md, "Noise").
struct NoiseFigures {
  std::size_t points = 0;        // points in both files
  std::size_t recorded = 0;      // of them, with a noise record
  std::size_t noisy_points = 0;  // of those, marked noisy
  std::size_t samples = 0, noisy_samples = 0, retries = 0;
  double sampled_s = 0;  // wall time of the recorded samples, all parts
  int cpus = 1;          // context cpus_per_node (1 when absent)
  // Steal over the CPU time of the samples (sampled_s * cpus), as the
  // engine judges a sample; preemptions (most preempted rank, per sample)
  // per second of sampled_s; the median of every sample's CPU clock. -1:
  // not available (no record, no sampled time, clock not exposed).
  double steal_fraction = -1, preemptions_per_s = -1, cpu_mhz = -1;
  // The median of every sample's core-to-core round trip, ns; -1: none.
  double core_to_core_ns = -1;
  // The context says preemptions are counted (false when oversubscribed).
  bool preemptions_counted = true;
};

// A figure that differs markedly between the files, and which file is in
// the noisier state by it.
struct NoiseDifference {
  // "noisy_points", "steal", "preemptions", "cpu_mhz", "core_to_core"
  std::string figure;
  bool base_noisier = false;
};

struct NoiseComparison {
  NoiseFigures base, now;
  std::vector<NoiseDifference> differences;
  // One sentence naming the figures of both files when they differ
  // markedly; empty otherwise (also when a file has no noise record).
  std::string warning;
};

// When two files' noise figures differ markedly (all strict: "more than").
inline constexpr double kNoisyShareDifference = 0.10;  // of the points
inline constexpr double kStealDifference = 0.01;       // of the CPU time
inline constexpr double kPreemptionDifference = 10;    // per second
inline constexpr double kNoiseRatio = 2;          // steal, preemptions: and 2x
inline constexpr double kClockDifference = 0.05;  // median clocks apart

// The smallest threshold the two files support from their own spread
// (docs/ci.md, "Suggested threshold").
struct ThresholdSuggestion {
  double value = -1;  // the kSuggestionQuantile quantile of `resolvable`
  double median = -1;
  std::size_t points = 0;    // points it is computed over
  std::size_t within = 0;    // of them, resolving `value` or better
  std::size_t excluded = 0;  // too few samples for alpha, or no median
  std::string widest;        // the point with the largest resolvable change
  double widest_value = -1;
};
inline constexpr double kSuggestionQuantile = 0.95;
// A suggested threshold as text: a percentage rounded up to 0.1% ("3.0%"),
// or with 3 significant digits from 10000% ("2.14e+05%").
std::string suggested_percent(double v);

// Quantile q of `v` by linear interpolation between order statistics
// (Hyndman & Fan type 7, numpy's default); 0 for an empty vector.
double quantile(std::vector<double> v, double q);
// z such that a standard normal exceeds |z| with probability `p`
// (two-sided): 1.96 for 0.05.
double two_sided_z(double p);
// The relative standard error of a sample median: sqrt(pi / 2) * sigma /
// (median * sqrt(n)), sigma estimated robustly as IQR / 1.349 (the normal
// approximation of the median's standard error). -1 without a positive
// median or with fewer than 2 samples.
double median_relative_se(const std::vector<double>& samples);
// The smallest change, as a factor minus one (like --threshold), of one
// median against the other that the two samples can resolve at `alpha`:
// exp(z * sqrt(se_a^2 + se_b^2)) - 1, se the median_relative_se() of each
// and z = two_sided_z(alpha): the two log-medians are z standard errors
// apart. -1 when either side has none.
double resolvable_change(const std::vector<double>& a,
                         const std::vector<double>& b, double alpha);

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
  NoiseComparison noise;
  ThresholdSuggestion suggestion;
  std::vector<GroupShift> shifts;  // --relative: every group judged so
  int tests = 0;  // --correction holm: the tests the correction is over
  // Why this judgement could not have found a regression (no point could
  // reach p < alpha with its samples, after the correction), or empty.
  std::string powerless;
  // The sides that are incomplete (interrupted) runs: "BASE", "NEW".
  std::vector<std::string> incomplete;

  int count(Outcome v) const;
  // Of the points that regressed, those measured while noisy in either file.
  int regressed_while_noisy() const;
  // The points not judged because the machine state differed.
  int state_changed() const;
  // runner compare's exit code: 0 when nothing regressed, 1 otherwise, 2
  // when no point is in both files (nothing was compared), and, when
  // nothing regressed, when the judgement could not have failed or a side
  // is incomplete, unless the options allow it (refusal()).
  int exit_code() const;
  // Why a comparison in which nothing regressed still exits 2 (a
  // powerless judgement, an incomplete side, not allowed), or empty.
  std::string refusal() const;
};

// "12 of 87 points noisy, steal 3.1% of sample time, 0.4 preemptions/s,
// CPU 2400 MHz", or "not recorded".
std::string describe(const NoiseFigures& f);

// Matches the records of `base` and `now` and classifies every pair, for
// each metric. A median moved "beyond the threshold" when the better of the
// two medians beats the other by a factor above 1 + threshold (5%: slower
// or faster by a factor over 1.05), which makes time and bandwidth agree:
//   not beyond the threshold            -> unchanged (whatever p)
//   beyond it, p < alpha                -> improved or regressed, by the
//                                          metric's direction
//   beyond it, p >= alpha               -> noisy (too noisy to tell)
// It also compares the noise figures of the two files over the points in
// both (a warning when they differ markedly), flags each point measured
// while noisy, and suggests the smallest threshold the files support.
Comparison compare_documents(const Document& base, const Document& now,
                             const CompareOptions& options = {});

// The comparison as one JSON object (runner compare --format json).
nlohmann::json to_json(const Comparison& c);

}  // namespace mpiarena
