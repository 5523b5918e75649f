// The global clock of a run under window timing (global_clock.hpp).
#include "core/engine/global_clock.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <mpiarena/mpi_check.hpp>
#include <thread>

#include "core/engine/watchdog.hpp"

namespace mpiarena {

void clock_test_hang(int rank) {
  const char* env = std::getenv("MPIARENA_TEST_CLOCK_HANG");
  if (env && std::atoi(env) == rank)
    for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
}

namespace {

// MPI_Wtime - CLOCK_MONOTONIC on this rank, from the pair of reads around
// a CLOCK_MONOTONIC read that took least time.
double wtime_minus_monotonic() {
  double best = 0, span = 1e9;
  for (int i = 0; i < 50; ++i) {
    timespec ts{};
    const double w1 = MPI_Wtime();
    clock_gettime(CLOCK_MONOTONIC, &ts);
    const double w2 = MPI_Wtime();
    if (w2 - w1 < span) {
      span = w2 - w1;
      best = (w1 + w2) / 2 - (static_cast<double>(ts.tv_sec) +
                              static_cast<double>(ts.tv_nsec) * 1e-9);
    }
  }
  return best;
}

}  // namespace

// Bench only (bench/sync oracle): MPIARENA_TEST_CLOCK_ORACLE=measure|use.
// On one node every rank reads the same CLOCK_MONOTONIC, so a rank's true
// offset against rank 0 is its MPI_Wtime - CLOCK_MONOTONIC minus rank 0's.
// `measure` keeps the model's error against that offset per rank
// (context.clock.oracle_error_s); `use` also replaces the model by it (an
// offset, no slope: one clock does not drift). Ignored, with a warning,
// when the ranks are not all on one node.
void GlobalClock::oracle() {
  const char* env = std::getenv("MPIARENA_TEST_CLOCK_ORACLE");
  if (!env) return;
  MPI_Comm node = MPI_COMM_NULL;
  MPIARENA_CHECK(MPI_Comm_split_type(world_, MPI_COMM_TYPE_SHARED, 0,
                                     MPI_INFO_NULL, &node));
  int on_node = 0, all = 0;
  MPIARENA_CHECK(MPI_Comm_size(node, &on_node));
  MPIARENA_CHECK(MPI_Comm_size(world_, &all));
  MPI_Comm_free(&node);
  if (on_node != all) {
    if (rank_ == 0)
      std::fprintf(stderr,
                   "runner: warning: MPIARENA_TEST_CLOCK_ORACLE ignored: the "
                   "ranks are not all on one node\n");
    return;
  }
  double truth = wtime_minus_monotonic(), root = truth;
  MPIARENA_CHECK(MPI_Bcast(&root, 1, MPI_DOUBLE, 0, world_));
  truth -= root;
  const double now = MPI_Wtime();
  const double error = model_.offset + model_.slope * now - truth;
  oracle_error_.resize(static_cast<std::size_t>(all));
  MPIARENA_CHECK(MPI_Allgather(&error, 1, MPI_DOUBLE, oracle_error_.data(), 1,
                               MPI_DOUBLE, world_));
  if (std::strcmp(env, "use") == 0) model_ = clocks::ClockModel{truth, 0};
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
  oracle();
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

ClockContext GlobalClock::context() const {
  ClockContext out;
  out.algorithm = clocks::algorithm_name(algorithm_);
  out.synchronizations = syncs_;
  out.sync_s = sync_s_;
  out.checks = checks_;
  out.residual_bound_s = bound_s_;
  out.residual_rtt_s.emplace();
  const double span = last_at_ - first_at_;
  for (std::size_t r = 0; r < first_.size(); ++r) {
    out.residual_s.push_back(first_[r].offset);
    out.residual_rtt_s->push_back(first_[r].rtt);
    out.last_residual_s.push_back(last_[r].offset);
    out.drift.push_back(
        span > 0 ? (last_[r].offset - first_[r].offset) / span : 0.0);
  }
  out.drift_over_s = span;
  if (!oracle_error_.empty()) out.oracle_error_s = oracle_error_;
  return out;
}

}  // namespace mpiarena
