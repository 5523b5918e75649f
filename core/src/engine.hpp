// The measurement engine: the only timed loop of mpiarena.
#pragma once

#include <mpiarena/plugin.hpp>
#include <stdexcept>

#include "records.hpp"

namespace mpiarena {

struct MeasureOptions {
  double min_time = 0.005;  // seconds one sample must last at least
  int repetitions = 7;      // samples recorded
  int warmup = 1;           // untimed operations before calibration
  bool verify = true;
  double time_scale = 1.0;  // StrategyInfo::time_scale of the method
  // Ranks waiting for the others around a sample sleep instead of polling
  // (for oversubscribed nodes, where a polling rank steals a core).
  bool sleep_when_waiting = false;
};

// A point that could not be measured on some rank (prepare or verify threw).
// Thrown on every rank alike, so the run goes on in step.
class PointError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Collective over `harness` (a communicator with the same group as ctx.comm,
// used only by the engine). Every rank returns the same record fields that
// decide control flow; statistics are complete on every rank.
//
//  1. prepare() (untimed; a failure on any rank becomes PointError on all);
//  2. `warmup` operations;
//  3. calibration: iters = 1, then Google Benchmark's predictor fed with the
//     MAX over ranks of the run time, until a run lasts min_time;
//  4. `repetitions` samples of `iters` operations, each after a barrier
//     (with sleep_when_waiting, a sleeping barrier first and after); a
//     sample is the per-operation time, reduced MAX/MIN/AVG over ranks,
//     times options.time_scale (0.5: a round trip reported one way); each
//     rank's per-operation time is kept too (Record::per_rank, medians);
//  5. verification: poison(), one execute(), verify() on every rank;
//  6. release().
Record measure_point(Strategy& strategy, const RunContext& ctx,
                     const MeasureOptions& options, MPI_Comm harness);

}  // namespace mpiarena
