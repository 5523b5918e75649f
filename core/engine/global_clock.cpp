// The global clock of a run under window timing (global_clock.hpp).
#include "global_clock.hpp"

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <mpiarena/mpi_check.hpp>
#include <thread>

#include "watchdog.hpp"

namespace mpiarena {

void clock_test_hang(int rank) {
  const char* env = std::getenv("MPIARENA_TEST_CLOCK_HANG");
  if (env && std::atoi(env) == rank)
    for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
}

GlobalClock::GlobalClock(clocks::Algorithm a, MPI_Comm world,
                         double residual_bound, double bound)
    : algorithm_(a),
      world_(MPI_COMM_NULL),
      bound_s_(residual_bound),
      step_bound_(bound) {
  MPIARENA_CHECK(MPI_Comm_dup(world, &world_));
  MPIARENA_CHECK(MPI_Comm_rank(world_, &rank_));
  Watchdog::instance().set_rank(rank_);  // the lowest stuck rank speaks
  synchronize();
}

GlobalClock::~GlobalClock() {
  if (world_ != MPI_COMM_NULL) MPI_Comm_free(&world_);
}

void GlobalClock::synchronize() {
  Armed armed(std::string("clock synchronization (") +
                  clocks::algorithm_name(algorithm_) + ")",
              step_bound_, Role::plugin);
  MPIARENA_CHECK(MPI_Barrier(world_));
  clock_test_hang(rank_);
  const double t0 = MPI_Wtime();
  model_ = clocks::synchronize(algorithm_, world_);
  double mine = MPI_Wtime() - t0, slowest = 0;
  MPIARENA_CHECK(
      MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, world_));
  sync_s_ += slowest;
  ++syncs_;
  first_at_ = MPI_Wtime();
  measure(first_);
  last_ = first_;
  last_at_ = first_at_;
}

bool GlobalClock::measure(std::vector<clocks::OffsetPoint>& out) {
  {
    Armed armed(
        std::string("clock check (") + clocks::algorithm_name(algorithm_) + ")",
        step_bound_, Role::plugin);
    out = clocks::residuals(world_, model_);
  }
  ++checks_;
  residual_ = 0;
  bool past = false;
  for (const clocks::OffsetPoint& p : out) {
    residual_ = std::max(residual_, std::fabs(p.offset));
    if (std::fabs(p.offset) - p.rtt / 2 > bound_s_) past = true;
  }
  return past;
}

namespace {

// Tests only: MPIARENA_TEST_CLOCK_SKEW="RANK,SECONDS" moves that rank's
// model by SECONDS before the first check, as a clock that drifted would:
// the check must find it and synchronize again.
void test_skew(int rank, clocks::ClockModel& model) {
  static bool done = false;
  const char* env = std::getenv("MPIARENA_TEST_CLOCK_SKEW");
  if (done || !env) return;
  done = true;
  const char* comma = std::strchr(env, ',');
  if (comma && std::atoi(env) == rank) model.offset += std::atof(comma + 1);
}

}  // namespace

void GlobalClock::check() {
  test_skew(rank_, model_);
  const double at = MPI_Wtime();
  if (measure(last_)) {
    synchronize();
    return;
  }
  last_at_ = at;
}

nlohmann::json GlobalClock::context() const {
  nlohmann::json first = nlohmann::json::array(), last = first, rtt = first,
                 drift = first;
  const double span = last_at_ - first_at_;
  for (std::size_t r = 0; r < first_.size(); ++r) {
    first.push_back(first_[r].offset);
    rtt.push_back(first_[r].rtt);
    last.push_back(last_[r].offset);
    drift.push_back(span > 0 ? (last_[r].offset - first_[r].offset) / span
                             : 0.0);
  }
  return {{"algorithm", clocks::algorithm_name(algorithm_)},
          {"synchronizations", syncs_},
          {"sync_s", sync_s_},
          {"checks", checks_},
          {"residual_bound_s", bound_s_},
          {"residual_s", first},
          {"residual_rtt_s", rtt},
          {"last_residual_s", last},
          {"drift", drift},
          {"drift_over_s", span}};
}

}  // namespace mpiarena
