// Internal: the global clock of a run under window timing
// (docs/methodology.md "Window timing"): one synchronization of every rank
// of the launch against rank 0 (clock_sync.hpp), its accuracy measured
// right after and at every check, and a new synchronization when a check
// finds a rank's residual past the bound by more than the check's own
// uncertainty. The global clock is rank 0's, so it serves any
// sub-communicator of the launch.
#pragma once

#include <mpi.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/engine/clock_sync.hpp"
#include "core/results/doc_context_parts.hpp"

namespace mpiarena {

// Tests only: MPIARENA_TEST_CLOCK_HANG=RANK makes that rank hang in the
// synchronization (tests/e2e), as a rank stuck there would.
void clock_test_hang(int rank);

// A check that finds a rank's |residual| past this bound by more than the
// check's own uncertainty synchronizes again.
inline constexpr double kClockResidualBound = 1e-6;

class GlobalClock {
 public:
  // Collective over `world` (on a duplicate of it): synchronizes and
  // checks. A step that has not
  // ended after `bound` s ends the run (watchdog.hpp: one message, exit 3).
  GlobalClock(clocks::Algorithm a, MPI_Comm world, double residual_bound,
              double bound);
  ~GlobalClock();
  GlobalClock(const GlobalClock&) = delete;
  GlobalClock& operator=(const GlobalClock&) = delete;

  const clocks::ClockModel& model() const { return model_; }
  // The latest check's largest |residual| over the ranks, s.
  double residual() const { return residual_; }

  // Collective over the launch: a check, and a synchronization again when
  // some rank's |residual| - rtt / 2 passes the bound.
  void check();

  // For the document's context ("clock"): the algorithm, the
  // synchronizations and their time, the first and the last check's
  // residuals per rank, the drift between them, the bound.
  ClockContext context() const;

 private:
  void synchronize();
  // MPIARENA_TEST_CLOCK_ORACLE (bench only, global_clock.cpp).
  void oracle();
  // Measures the residuals; true when one is past the bound.
  bool measure(std::vector<clocks::OffsetPoint>& out);

  clocks::Algorithm algorithm_;
  MPI_Comm world_;
  double bound_s_, step_bound_;
  int rank_ = 0;
  clocks::ClockModel model_;
  double residual_ = 0, sync_s_ = 0;
  int syncs_ = 0, checks_ = 0;
  double first_at_ = 0, last_at_ = 0;
  std::vector<clocks::OffsetPoint> first_, last_;
  std::vector<double> oracle_error_;  // the latest synchronization's
};

}  // namespace mpiarena
