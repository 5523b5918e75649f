// Window timing: one timed run whose operations start at agreed times on
// the global clock (timed_run.hpp, Runner::run_windowed).
#include <algorithm>
#include <chrono>
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/stats.hpp>
#include <thread>

#include "core/engine/timed_run.hpp"

namespace mpiarena::timing {

namespace {

// Waits until the local clock reads `until`; false when it already had
// (the rank is late). With `sleep`, a wait longer than 300 us sleeps all
// but the last 100 us of it, leaving the core to the ranks still working.
bool wait_until(double until, bool sleep) {
  double now = MPI_Wtime();
  if (now > until) return false;
  if (sleep && until - now > 300e-6)
    std::this_thread::sleep_for(
        std::chrono::duration<double>(until - now - 100e-6));
  while (MPI_Wtime() < until) {
  }
  return true;
}

double median_of(const std::vector<double>& v) {
  return median(v, EvenMedian::upper);
}

// The sample's figures from each rank's windows, `mx` = [took..., 0...,
// invalid...] (took: exit - start on the global clock): reduced over the
// ranks, the medians over the valid windows, times `windows`.
void windows_into(Sample& out, std::vector<double>& mx, std::int64_t windows,
                  MPI_Comm harness, int nranks) {
  const std::size_t n = static_cast<std::size_t>(windows);
  std::vector<double> sum(n);
  for (std::size_t i = 0; i < n; ++i) {
    sum[i] = mx[i];
    mx[n + i] = -mx[i];
  }
  std::vector<double> rmx(mx.size()), rsum(n);
  MPIARENA_CHECK(MPI_Allreduce(mx.data(), rmx.data(),
                               static_cast<int>(mx.size()), MPI_DOUBLE, MPI_MAX,
                               harness));
  MPIARENA_CHECK(MPI_Allreduce(sum.data(), rsum.data(), static_cast<int>(n),
                               MPI_DOUBLE, MPI_SUM, harness));
  std::vector<double> hi, lo, avg, own;
  for (std::size_t i = 0; i < n; ++i) {
    if (rmx[2 * n + i] > 0) continue;  // a rank was late, or overran
    hi.push_back(rmx[i]);
    lo.push_back(-rmx[n + i]);
    avg.push_back(rsum[i] / nranks);
    own.push_back(mx[i]);
  }
  const double w = static_cast<double>(windows);
  out.windows = windows;
  out.invalid = windows - static_cast<std::int64_t>(hi.size());
  out.max = w * median_of(hi);
  out.min = w * median_of(lo);
  out.avg = w * median_of(avg);
  const double mine = w * median_of(own);
  out.per_rank.resize(static_cast<std::size_t>(nranks));
  MPIARENA_CHECK(MPI_Allgather(&mine, 1, MPI_DOUBLE, out.per_rank.data(), 1,
                               MPI_DOUBLE, harness));
}

}  // namespace

Sample Runner::run_windowed(std::int64_t windows, double window,
                            const char* what) {
  const double core_to_core = state ? state->measure() : 0;
  const double expected = static_cast<double>(windows) * window;
  if (noise) noise->start();
  double t0 = 0;
  {
    Armed armed(what, bound(0), Role::waiting);
    if (sleep_when_waiting) sleeping_barrier(harness);
    MPIARENA_CHECK(MPI_Barrier(harness));
    // t0: after the latest rank's global now, by three times the slowest
    // agreement on it and one window (the same value on every rank).
    double mine[2] = {clock->global(MPI_Wtime()), 0}, agreed[2] = {0, 0};
    const double before = MPI_Wtime();
    MPIARENA_CHECK(
        MPI_Allreduce(mine, agreed, 1, MPI_DOUBLE, MPI_MAX, harness));
    mine[1] = MPI_Wtime() - before;
    MPIARENA_CHECK(
        MPI_Allreduce(&mine[1], &agreed[1], 1, MPI_DOUBLE, MPI_MAX, harness));
    t0 = agreed[0] + 3 * agreed[1] + window;
  }
  const std::size_t n = static_cast<std::size_t>(windows);
  // [took..., -took..., late...] reduced with MAX; took with SUM.
  std::vector<double> mx(3 * n);
  const Timed t = timed(what, expected, [&] {
    for (std::size_t i = 0; i < n; ++i) {
      const double start = t0 + static_cast<double>(i) * window;
      if (!wait_until(clock->local(start), sleep_when_waiting))
        mx[2 * n + i] = 1;  // late
      s.execute();
      const double exit = clock->global(MPI_Wtime());
      mx[i] = exit - start;
      if (exit > start + window) mx[2 * n + i] = 1;  // overran
    }
  });
  const NoiseReading seen = noise ? noise->stop() : NoiseReading{};
  Sample out = reduce(t.local, t.seconds_per_tick, t.error, core_to_core, seen,
                      expected, what);
  windows_into(out, mx, windows, harness, nranks);
  return out;
}

}  // namespace mpiarena::timing
