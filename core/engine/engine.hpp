// The measurement engine: the only timed loop of mpiarena.
#pragma once

#include <cstdint>
#include <functional>
#include <mpiarena/plugin.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/results/records.hpp"

namespace mpiarena {

class Synchronizer;

struct MeasureOptions {
  double min_time = 0.005;  // seconds one sample must last at least
  int repetitions = 7;      // samples recorded
  int warmup = 1;           // untimed operations before calibration
  bool verify = true;
  double time_scale = 1.0;  // StrategyInfo::time_scale of the method
  // Ranks waiting for the others around a sample sleep instead of polling
  // (for oversubscribed nodes, where a polling rank steals a core).
  bool sleep_when_waiting = false;
  // The bound of one step of the point (--point-timeout): a step that has
  // not returned after point_timeout + 10 x its calibrated duration stops
  // the run (watchdog.hpp). 0: no bound.
  double point_timeout = 60;
  // Phases, parts and metrics of the strategy (null: none, one part).
  const StrategyInfo* info = nullptr;
  // Numbers that hold on a noisy machine (docs/methodology.md) ---------
  // Record per sample what the machine did (NoiseProbe), and measure a
  // noisy sample again up to retry_noisy times. `cpus` (of a node) and
  // `oversubscribed` judge it (noisy_sample).
  bool noise = true;
  int retry_noisy = 2;
  int cpus = 1;
  bool oversubscribed = false;
  // After `repetitions` samples, add samples until the relative standard
  // error of their mean is at most target_rse, or their time passes
  // max_time seconds (0: the fixed count).
  double target_rse = 0;
  double max_time = 10;
  // After `repetitions` samples, add samples until the median of their
  // times is known to this relative precision (median_precision: the
  // half-width of its 95% interval), or their time passes max_time (0:
  // the fixed count; target_rse, when set, stops instead).
  double precision = 0;
  // Operations per sample, fixed (no calibration); 0: calibrate.
  std::int64_t iterations = 0;
  // Interleave the members of a group (measure_group); false: one after
  // the other.
  bool interleave = true;
  // How the ranks start a sample together (--sync; synchronizer.hpp):
  // the run's method, made and started by the caller; null: barrier.
  const Synchronizer* sync = nullptr;
};

// A point that could not be measured on some rank (prepare or verify threw).
// Thrown on every rank alike, so the run goes on in step.
class PointError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The run's settings cannot measure the point (a --sync-window shorter
// than one operation of it, sync_window.cpp): reported as a failed point,
// and the run ends with a usage error (GroupResult::usage). Every rank
// alike.
class PointUsageError : public PointError {
 public:
  using PointError::PointError;
};

// The strategy threw SkipPoint (on the lowest failing rank): the point is
// recorded as skipped with this reason, not as failed. Every rank alike.
class PointSkipped : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Metric values of a record from its parts and phases (record.metrics,
// one value on the medians and one per repetition). Exposed for tests.
void compute_metrics(Record& rec, const StrategyInfo& info);

// Collective over `harness` (a communicator with the same group as ctx.comm,
// used only by the engine). Every rank returns the same record fields that
// decide control flow; statistics are complete on every rank.
//
//  1. prepare() (untimed; a failure on any rank becomes PointError on all,
//     SkipPoint on the lowest failing rank PointSkipped);
//  then for each part of the strategy (one when it declares none):
//  2. `warmup` operations;
//  3. calibration: iters = 1, then Google Benchmark's predictor fed with the
//     MAX over ranks of the run time, until a run lasts min_time;
//  4. `repetitions` samples of `iters` operations, each after a barrier
//     (with sleep_when_waiting, a sleeping barrier first and after); a
//     sample is the per-operation time, reduced MAX/MIN/AVG over ranks,
//     times options.time_scale (0.5: a round trip reported one way); each
//     rank's per-operation time is kept too (Record::per_rank, medians);
//     Phases marked through ctx.phases are summed per sample and reduced
//     the same way (Record::phases); an exception in the loop is agreed on
//     at the end of the sample (PointError everywhere);
//  5. verification: poison(), one execute(), verify() on every rank;
//  6. release(). Metrics are computed from the parts and phases.
// Each step runs under the watchdog (options.point_timeout): a rank that
// hangs, crashes, or throws while the others are stuck ends the run with
// one message and exit code kExitFault.
Record measure_point(Strategy& strategy, const RunContext& ctx,
                     const MeasureOptions& options, MPI_Comm harness);

// One point of a group measured together (measure_group): the strategy,
// its context (comm, rank... set by the caller; the engine sets the phase
// timer and the part fields), its declaration, and its name for the
// watchdog and the messages.
struct GroupMember {
  Strategy* strategy = nullptr;
  RunContext ctx;
  const StrategyInfo* info = nullptr;  // null: no phases, one part
  double time_scale = 1.0;
  std::string name;
  // Called on every rank right before each call into the strategy
  // (prepare, a warm-up, a timed loop after its barrier and before its
  // clock starts, the verification, release) and right after it: what the
  // point needs of the process while its own calls run, and nothing else
  // (the engine's own collectives run without it), e.g. the MPI library's
  // algorithm of a collective (library_algorithms.hpp). Empty: nothing.
  std::function<void()> enter{}, leave{};
};

// What became of a member: its record, or why it was skipped or failed.
struct GroupResult {
  enum Kind { measured, skipped, failed } kind = measured;
  Record record;
  std::string reason;
  bool usage = false;  // failed by PointUsageError
};

// Measures the members (the methods competing at one size, on the same
// ranks) collectively over `harness`. With options.interleave and more
// than one member: every member is prepared, warmed up and calibrated,
// then the samples run in rounds, one sample of each member (each of its
// parts, each after `warmup` untimed operations that undo what the
// previous member's sample did to the caches) per round, in an order drawn from
// (`seed`, `group`) and recorded in each record (Record::slots); a member that
// has its samples leaves the rounds; then each is verified and released.
// Without interleaving, each member is measured whole in turn (as
// measure_point). A member whose prepare, sample or verification fails on some
// rank is released and reported (kind failed or skipped) on every rank alike;
// the others go on.
std::vector<GroupResult> measure_group(std::vector<GroupMember>& members,
                                       const MeasureOptions& options,
                                       MPI_Comm harness, std::uint64_t seed,
                                       int group);

// The order of the members in round `round` of group `group`: a
// permutation of 0..n-1 drawn from splitmix64 of (seed, group, round), the
// same on every platform (no std::shuffle, whose algorithm the standard
// leaves open).
std::vector<int> round_order(std::uint64_t seed, int group, int round, int n);

// A barrier over `comm` that sleeps while it waits instead of polling
// (after 50 us of polling): a rank that is done, or idle as the ranks
// outside a --ranks sub-communicator, leaves its core to the ranks still
// working. Untimed.
void sleeping_barrier(MPI_Comm comm);

}  // namespace mpiarena
