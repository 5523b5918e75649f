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

#include "core/analysis/stats/inference.hpp"
#include "core/analysis/stats/rank_tests.hpp"
#include "core/results/mpi_settings.hpp"
#include "core/results/point_key.hpp"
#include "core/results/records.hpp"

namespace mpiarena {

// Ordered by how much a CI gate cares.
enum class Outcome { unchanged, improved, noisy, regressed };
// "unchanged", "improved", "noisy", "regressed".
const char* verdict_name(Outcome v);

// The point a record is as compare matches it, as text: the suite, the
// method (with its options), the payload and what else makes two points
// different (a total size, pairs across nodes, a cold cache, separate
// buffers, a definition option), the size in bytes, the ranks and the
// pairs at once ("transfer/bcast/1d/11000/np2"; runner history's series).
std::string match_name(const Record& r);

// How a run timed its samples (runner --sync): after a barrier, or in
// windows on a global clock, which --clock-sync synchronized and whose
// windows --sync-window set ("calibrated" when not given). Window times of
// different clocks or windows are not the same measurement: compare warns,
// trend groups the runs apart.
struct SyncSetting {
  bool window = false;
  std::string clock;        // "hca", "jk"; empty: barrier, or not known
  std::string sync_window;  // "calibrated", "0.001 s"; empty: not known
  // "barrier", or "window (clock hca, --sync-window calibrated)".
  std::string text() const;
};
// A document's setting: from its context (options.sync, clock_sync,
// sync_window_s; the clock; for files written before those options were
// recorded, --sync-window on the command line) and its records' `sync`.
SyncSetting sync_setting(const Document& d);

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
  // The larger of the two sides' interquartile range over median (-1 when
  // a side has fewer than 2 samples or no positive median).
  double spread = -1;
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
// A point's resolvable change beyond the largest --threshold (1000%) says
// only that its samples are spread wider than its median can be placed
// (the normal approximation of the log-median no longer holds): the
// suggestion then names that bound ("more than 1000%") and the spread of
// the widest point, not the formula's figure.
struct ThresholdSuggestion {
  // The kSuggestionQuantile quantile of `resolvable`; kLargestThreshold
  // when `capped`.
  double value = -1;
  bool capped = false;  // the quantile is beyond kLargestThreshold
  double median = -1;   // capped at kLargestThreshold too
  std::size_t points = 0;    // points it is computed over
  std::size_t within = 0;    // of them, resolving `value` or better
  std::size_t beyond = 0;    // of them, resolving no kLargestThreshold
  std::size_t excluded = 0;  // too few samples for alpha, or no median
  std::string widest;        // the point with the largest resolvable change
  double widest_value = -1;  // its resolvable change (uncapped)
  // The widest point's interquartile range over its median, on the wider
  // side (what limits it).
  double widest_spread = -1;
};
inline constexpr double kSuggestionQuantile = 0.95;
// The largest --threshold compare accepts (1000%).
inline constexpr double kLargestThreshold = 10;
// A suggested threshold as text: a percentage rounded up to 0.1% ("3.0%"),
// or with 3 significant digits from 10000% ("2.14e+05%").
std::string suggested_percent(double v);

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
  // The MPI settings that differ from BASE to NEW (settings_changes);
  // empty when they agree or a file records none.
  std::vector<SettingChange> settings;
  // The runs' labels (runner --label), empty when a run has none.
  std::string base_label, new_label;
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
