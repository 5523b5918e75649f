// Internal to the engine: one member of a group through the steps of
// measure_point (engine.hpp): prepare, calibrate, the samples, finish and
// release. engine.cpp runs the members together (run_together).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/engine/core_probe.hpp"
#include "core/engine/engine.hpp"
#include "core/engine/noise.hpp"
#include "core/engine/synchronizer.hpp"
#include "core/engine/timed_run.hpp"
#include "core/engine/watchdog.hpp"

namespace mpiarena {

// Per part: its loop's state, timings and expected sample time.
struct PartRun {
  std::string warm, calib, timed;
  std::int64_t iters = 1;
  PartTiming pt;
  std::vector<std::vector<double>> by_rank;
  double expected = 0;
  // The synchronisation method's state of the part (synchronizer.hpp;
  // window: W, the times it doubled, and the windows of the recorded
  // samples and how many were invalid).
  double window = 0;
  int grew = 0;
  std::int64_t windows = 0, invalid = 0;
};

// One member of a group through the steps of measure_point (engine.hpp).
// Not movable: the context points into it.
class PointRun {
 public:
  PointRun(GroupMember& m, const MeasureOptions& opt, MPI_Comm harness);
  PointRun(const PointRun&) = delete;
  PointRun& operator=(const PointRun&) = delete;

  bool sampling() const { return sampling_; }
  double timeout() const { return runner_.timeout; }

  void prepare();

  // Warm-up and calibration of every part, in declared order. The
  // calibration's per-operation time stands in part_seconds until the
  // part's median replaces it (a later part may size its work on an
  // earlier one: the overlap suite).
  void calibrate();

  // One repetition: a sample of every part, in declared order (the parts of
  // NMPM's NOB interleaved, so that a metric's per-repetition value compares
  // samples taken together), each measured again while it is noisy and
  // retries are left. `slot` is this member's place in its round.
  void sample(int slot, NoiseProbe* probe, CoreProbe* state, bool rewarm);

  // Statistics, verification, release: the record.
  Record finish();

  // Collective: release the strategy if it is prepared (once).
  void release();

 private:
  void enter() { Watchdog::instance().set_point(m_.name); }
  // A step of the strategy's code (timing::collective_step) between the
  // member's enter and leave (GroupMember).
  template <class F>
  void plugin_step(const char* what, F&& step, double bound) {
    timing::collective_step(
        what,
        [&] {
          const timing::InStrategy in(&m_.enter, &m_.leave);
          step();
        },
        harness_, ctx_.rank, bound);
  }
  PartRun& headline_run();
  // A sample of part `pr`, measured again while it is noisy and retries
  // are left (`why`: the reason of one kept noisy).
  timing::Sample checked_sample(PartRun& pr, std::string& why);

  GroupMember& m_;
  const MeasureOptions& opt_;
  const Synchronizer& sync_;
  MPI_Comm harness_;
  const StrategyInfo& info_;
  RunContext ctx_;
  PhaseTimer timer_;
  int part_index_ = 0;
  std::vector<std::string> parts_;
  std::vector<double> part_medians_;
  timing::Runner runner_;
  std::string headline_;
  std::vector<PartRun> runs_;
  Record rec_;
  bool prepared_ = false, sampling_ = false;
  int samples_ = 0;
  double spent_ = 0;  // seconds of timed samples, retries included
};

}  // namespace mpiarena
