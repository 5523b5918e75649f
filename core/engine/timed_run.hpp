// Internal: the steps of measuring a point (engine.cpp): a plugin step
// under the watchdog and the agreement on its outcome, and one timed run of
// a strategy reduced over the ranks.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <exception>
#include <functional>
#include <mpiarena/plugin.hpp>
#include <string>
#include <vector>

#include "core/engine/core_probe.hpp"
#include "core/engine/engine.hpp"
#include "core/engine/noise.hpp"
#include "core/engine/watchdog.hpp"

namespace mpiarena::timing {

// What one rank's step left behind: nothing, a fault, or a SkipPoint.
struct StepError {
  enum Kind { none, fault, skip } kind = none;
  std::string message;
};

template <class F>
StepError run_caught(F&& step) {
  try {
    step();
  } catch (const SkipPoint& e) {
    return {StepError::skip, e.what()};
  } catch (const std::exception& e) {
    return {StepError::fault, e.what()};
  } catch (...) {
    return {StepError::fault, "an exception not derived from std::exception"};
  }
  return {};
}

// Agrees on `local` over `harness` (the lowest failing rank's error wins)
// and throws it on every rank: PointSkipped for a SkipPoint when
// `skip_allowed`, else PointError naming the step and the rank. Returns
// when no rank failed.
void throw_first(const char* what, const StepError& local, MPI_Comm harness,
                 int rank, bool skip_allowed);

// Agrees on the steps' outcome on every rank (throw_first). A rank that
// failed waits here as the culprit: if the others never arrive (stuck in a
// plugin collective it left), its watchdog names the fault.
void agree(const char* what, const StepError& local, MPI_Comm harness, int rank,
           double bound);

// GroupMember::enter before plugin code and its leave after it, also when
// the code throws (a leave that throws is ignored).
class InStrategy {
 public:
  InStrategy(const std::function<void()>* enter,
             const std::function<void()>* leave)
      : leave_(leave) {
    if (enter && *enter) (*enter)();
  }
  ~InStrategy() {
    try {
      if (leave_ && *leave_) (*leave_)();
    } catch (...) {
    }
  }
  InStrategy(const InStrategy&) = delete;
  InStrategy& operator=(const InStrategy&) = delete;

 private:
  const std::function<void()>* leave_;
};

// A step of plugin code on every rank, under the watchdog, then agreement.
template <class F>
void collective_step(const char* what, F&& step, MPI_Comm harness, int rank,
                     double bound) {
  StepError error;
  {
    Armed armed(what, bound, Role::plugin);
    error = run_caught(step);
  }
  agree(what, error, harness, rank, bound);
}

// One timed run of `iters` operations, reduced over ranks. Totals of the
// run (seconds), not per operation.
struct Sample {
  double max = 0, min = 0, avg = 0;
  std::vector<double> per_rank;  // each rank's run time, by rank
  // Per phase: max, min, avg over ranks of the phase's total in the run.
  std::vector<double> phase_max, phase_min, phase_avg;
  // What the machine did meanwhile (NoiseProbe): the node's steal time and
  // the preemptions of the most preempted rank (max over ranks), the
  // slowest CPU clock (min over ranks; -1: not exposed).
  double steal_s = 0, preemptions = 0, cpu_mhz = -1;
  // The core-to-core round trip taken before the sample (CoreProbe), ns,
  // max over nodes; 0 when none was taken for this sample.
  double core_to_core_ns = 0;
  // Window timing (sync_window.cpp): the windows of the sample and those a
  // rank arrived late for (not counted in max, min, avg, per_rank).
  std::int64_t windows = 0, invalid = 0;
  // --sync single (sync_single.cpp): the sample's loop, barriers included,
  // the slowest rank's (what its noise and --max-time count).
  double loop_s = 0;
};

struct Runner {
  Strategy& s;
  MPI_Comm harness;
  int rank, nranks;
  bool sleep_when_waiting;
  PhaseTimer& timer;
  int nphases;
  double timeout;  // base bound of a step
  std::string part_label;
  NoiseProbe* noise = nullptr;  // null: no noise record
  CoreProbe* state = nullptr;   // null: no core-to-core probe
  // GroupMember::enter and leave, around the loop, outside its clock.
  const std::function<void()>* enter = nullptr;
  const std::function<void()>* leave = nullptr;

  // A step that runs `seconds_expected` (0: unknown) is bounded by the
  // timeout plus ten times that.
  double bound(double seconds_expected) const {
    return timeout + 10 * seconds_expected;
  }

  // One timed run: every rank together after a barrier, each rank's loop
  // timed alone, then reduced (MAX, MIN, AVG, phases) over the ranks. A
  // fault in the loop is agreed on at the end of the sample.
  Sample run(std::int64_t iters, double expected, const char* what);

  // What a synchronisation method's sample is made of (run, and the
  // methods of synchronizer.hpp): the timed part of a sample, `loop` inside
  // the strategy's scope, under the plugin's bound of a step expected to
  // take `expected` s, the phase timer around it. `local` is its wall time;
  // seconds_per_tick converts the phase ticks (this run's wall time over
  // its ticks).
  struct Timed {
    StepError error;
    double local = 0, seconds_per_tick = 0;
  };
  template <class Loop>
  Timed timed(const char* what, double expected, Loop&& loop) {
    Timed out;
    Armed armed(what, bound(expected), Role::plugin);
    timer.reset();
    std::uint64_t c0 = 0, c1 = 0;
    out.error = run_caught([&] {
      const InStrategy scope(enter, leave);
      c0 = PhaseTimer::now();
      const double t0 = MPI_Wtime();
      loop();
      out.local = MPI_Wtime() - t0;
      c1 = PhaseTimer::now();
    });
    timer.stop();
    out.seconds_per_tick =
        c1 > c0 ? out.local / static_cast<double>(c1 - c0) : 0.0;
    return out;
  }

  // The reductions after a loop: the fault agreed on, then MAX, MIN, AVG
  // of `local` and of the phases, and the noise figures.
  Sample reduce(double local, double seconds_per_tick, const StepError& error,
                double core_to_core, const NoiseReading& seen, double expected,
                const char* what);
};

}  // namespace mpiarena::timing
