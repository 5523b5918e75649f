// The steps of measuring a point (timed_run.hpp).
#include "core/engine/timed_run.hpp"

#include <mpiarena/mpi_check.hpp>

#include "core/engine/collective.hpp"

namespace mpiarena::timing {

// Agrees on `local` over `harness` (the lowest failing rank's error wins)
// and throws it on every rank: PointSkipped for a SkipPoint when
// `skip_allowed`, else PointError naming the step and the rank. Returns
// when no rank failed.
void throw_first(const char* what, const StepError& local, MPI_Comm harness,
                 int rank, bool skip_allowed) {
  const std::string tagged =
      (local.kind == StepError::skip ? "S" : "F") + local.message;
  auto [first, message] =
      first_failure(local.kind != StepError::none, tagged, harness, rank);
  if (first == kNobody) return;
  const bool skip = !message.empty() && message[0] == 'S';
  message.erase(0, 1);
  if (skip && skip_allowed) throw PointSkipped(message);
  throw PointError(std::string(what) + " failed on rank " +
                   std::to_string(first) + ": " + message);
}

// Agrees on the steps' outcome on every rank (throw_first). A rank that
// failed waits here as the culprit: if the others never arrive (stuck in a
// plugin collective it left), its watchdog names the fault.
void agree(const char* what, const StepError& local, MPI_Comm harness, int rank,
           double bound) {
  std::string detail = local.message;
  std::unique_ptr<Armed> armed;
  if (local.kind != StepError::none)
    armed = std::make_unique<Armed>(what, bound, Role::culprit, detail);
  else
    armed = std::make_unique<Armed>(what, bound, Role::waiting);
  throw_first(what, local, harness, rank, /*skip_allowed=*/true);
}

namespace {

// The sample from the reductions over the ranks: `rmx` (MAX of [t,
// phases..., -t, -phases..., steal, preemptions, -MHz, core-to-core, ...])
// and `rsum` (SUM of [t, phases...]).
Sample sample_of(const std::vector<double>& rmx,
                 const std::vector<double>& rsum, std::size_t np, int nranks) {
  const std::size_t nz = 2 * (np + 1);  // the noise figures
  Sample out;
  out.max = rmx[0];
  out.min = -rmx[np + 1];
  out.avg = rsum[0] / nranks;
  out.steal_s = rmx[nz];
  out.preemptions = rmx[nz + 1];
  out.cpu_mhz = rmx[nz + 2] > -1e299 ? -rmx[nz + 2] : -1;
  out.core_to_core_ns = rmx[nz + 3];
  for (std::size_t k = 0; k < np; ++k) {
    out.phase_max.push_back(rmx[1 + k]);
    out.phase_min.push_back(-rmx[np + 2 + k]);
    out.phase_avg.push_back(rsum[1 + k] / nranks);
  }
  return out;
}

}  // namespace

Sample Runner::run(std::int64_t iters, double expected, const char* what) {
  // Outside the timed loop, before the barrier: the pair spins together
  // (the ranks come from the last sample's reductions, microseconds apart).
  const double core_to_core = state ? state->measure() : 0;
  if (noise) noise->start();
  {
    Armed armed(what, bound(0), Role::waiting);
    // The sleeping barrier lets every rank arrive; the polling one then
    // releases them together, as tightly as without it.
    if (sleep_when_waiting) sleeping_barrier(harness);
    MPIARENA_CHECK(MPI_Barrier(harness));
  }
  const Timed t = timed(what, expected, [&] {
    for (std::int64_t i = 0; i < iters; ++i) s.execute();
  });
  const NoiseReading seen = noise ? noise->stop() : NoiseReading{};
  Sample out = reduce(t.local, t.seconds_per_tick, t.error, core_to_core, seen,
                      expected, what);
  out.per_rank.resize(static_cast<std::size_t>(nranks));
  MPIARENA_CHECK(MPI_Allgather(&t.local, 1, MPI_DOUBLE, out.per_rank.data(), 1,
                               MPI_DOUBLE, harness));
  return out;
}

Sample Runner::reduce(double local, double seconds_per_tick,
                      const StepError& error, double core_to_core,
                      const NoiseReading& seen, double expected,
                      const char* what) {
  // An exception in the loop is agreed on here, at the end of the
  // sample, where every rank that finished its loop comes too.
  Armed waiting(what, bound(expected),
                error.kind != StepError::none ? Role::culprit : Role::waiting,
                error.message);
  if (sleep_when_waiting) sleeping_barrier(harness);
  const std::size_t np = static_cast<std::size_t>(nphases);
  // [t, phases..., -t, -phases..., steal, preemptions, -MHz, core-to-core,
  // probe age, failed] reduced with MAX in one call.
  std::vector<double> mx(2 * (np + 1) + 6), rmx(mx.size());
  std::vector<double> sum(np + 1), rsum(np + 1);
  mx[0] = local;
  sum[0] = local;
  for (std::size_t k = 0; k < np; ++k) {
    mx[1 + k] = static_cast<double>(timer.ticks(static_cast<int>(k))) *
                seconds_per_tick;
    sum[1 + k] = mx[1 + k];
  }
  for (std::size_t k = 0; k <= np; ++k) mx[np + 1 + k] = -mx[k];
  const std::size_t nz = 2 * (np + 1);  // the noise figures
  mx[nz] = seen.steal_s;
  mx[nz + 1] = seen.preemptions;
  mx[nz + 2] = seen.cpu_mhz > 0 ? -seen.cpu_mhz : -1e300;
  mx[nz + 3] = core_to_core;
  mx[nz + 4] = state ? state->age() : 0;
  mx.back() = error.kind != StepError::none ? 1 : 0;
  MPIARENA_CHECK(MPI_Allreduce(mx.data(), rmx.data(),
                               static_cast<int>(mx.size()), MPI_DOUBLE, MPI_MAX,
                               harness));
  if (state) state->agree(rmx[nz + 4], rmx[nz + 3]);
  // A SkipPoint inside the timed loop is a fault: skipping is decided
  // in prepare().
  if (rmx.back() > 0)
    throw_first(what, error, harness, rank, /*skip_allowed=*/false);
  MPIARENA_CHECK(MPI_Allreduce(sum.data(), rsum.data(),
                               static_cast<int>(sum.size()), MPI_DOUBLE,
                               MPI_SUM, harness));
  Sample out = sample_of(rmx, rsum, np, nranks);
  return out;
}

}  // namespace mpiarena::timing
