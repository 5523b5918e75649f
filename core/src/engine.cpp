#include "engine.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/payload.hpp>
#include <thread>
#include <vector>

#include "collective.hpp"

namespace mpiarena {

namespace {

struct Sample {
  double max = 0, min = 0, avg = 0;
  std::vector<double> per_rank;  // each rank's run time, by rank
};

// A barrier that sleeps while it waits instead of polling: on an
// oversubscribed node a rank that has finished (or has nothing to do, as the
// idle ranks of a single ping-pong pair) must not take CPU time from the
// ranks still inside the timed loop. Untimed.
void sleeping_barrier(MPI_Comm harness) {
  MPI_Request request = MPI_REQUEST_NULL;
  MPIARENA_CHECK(MPI_Ibarrier(harness, &request));
  // First 50 us of polling: a rank whose last message still needs its own
  // progress (an eager fragment in flight) gets it at once, and a short
  // wait costs no sleep. Then sleeps growing from 20 us to 1 ms: every
  // wake-up takes a core from a rank that is working, so a long wait must
  // not wake often.
  int done = 0;
  for (const double until = MPI_Wtime() + 50e-6; !done && MPI_Wtime() < until;)
    MPIARENA_CHECK(MPI_Test(&request, &done, MPI_STATUS_IGNORE));
  std::chrono::microseconds nap(20);
  while (!done) {
    std::this_thread::sleep_for(nap);
    nap = std::min(2 * nap, std::chrono::microseconds(1000));
    MPIARENA_CHECK(MPI_Test(&request, &done, MPI_STATUS_IGNORE));
  }
}

Sample timed_run(Strategy& s, std::int64_t iters, MPI_Comm harness, int nranks,
                 bool sleep_when_waiting) {
  // The sleeping barrier lets every rank arrive; the polling one then
  // releases them together, as tightly as without it.
  if (sleep_when_waiting) sleeping_barrier(harness);
  MPIARENA_CHECK(MPI_Barrier(harness));
  const double t0 = MPI_Wtime();
  for (std::int64_t i = 0; i < iters; ++i) s.execute();
  const double local = MPI_Wtime() - t0;
  if (sleep_when_waiting) sleeping_barrier(harness);
  double extremes[2] = {local, -local};
  double reduced[2];
  double sum = 0;
  MPIARENA_CHECK(
      MPI_Allreduce(extremes, reduced, 2, MPI_DOUBLE, MPI_MAX, harness));
  MPIARENA_CHECK(MPI_Allreduce(&local, &sum, 1, MPI_DOUBLE, MPI_SUM, harness));
  std::vector<double> per_rank(static_cast<std::size_t>(nranks));
  MPIARENA_CHECK(MPI_Allgather(&local, 1, MPI_DOUBLE, per_rank.data(), 1,
                               MPI_DOUBLE, harness));
  return {reduced[0], -reduced[1], sum / nranks,
          std::move(per_rank)};  // whole-run seconds
}

// Runs `step` on every rank; if it throws anywhere, every rank throws
// PointError with the message of the lowest failing rank.
template <class F>
void collective_step(const char* what, F&& step, MPI_Comm harness, int rank) {
  std::string error;
  bool failed = false;
  try {
    step();
  } catch (const std::exception& e) {
    failed = true;
    error = e.what();
  }
  auto [first, message] = first_failure(failed, error, harness, rank);
  if (first == kNobody) return;
  throw PointError(std::string(what) + " failed on rank " +
                   std::to_string(first) + ": " + message);
}

}  // namespace

Record measure_point(Strategy& strategy, const RunContext& ctx,
                     const MeasureOptions& opt, MPI_Comm harness) {
  Record rec;
  rec.payload = ctx.payload;
  rec.bytes = ctx.bytes;
  rec.payload_bytes = payload_bytes(ctx.payload, ctx.bytes);
  rec.ranks = ctx.size;
  rec.repetitions = opt.repetitions;
  rec.warmup = opt.warmup;
  rec.time_scale = opt.time_scale;

  collective_step(
      "prepare", [&] { strategy.prepare(ctx); }, harness, ctx.rank);
  try {
    for (int i = 0; i < opt.warmup; ++i) strategy.execute();

    // A run that reaches min_time only because it was preempted (its
    // previous run predicted well under half of min_time) is run again
    // before the count is accepted, so one stall on a loaded machine
    // cannot lock in a count whose samples are far shorter than min_time.
    std::int64_t iters = 1;
    double per_op = 0;  // from the previous run, max over ranks
    for (;;) {
      Sample s =
          timed_run(strategy, iters, harness, ctx.size, opt.sleep_when_waiting);
      if (s.max >= opt.min_time && per_op > 0 &&
          per_op * static_cast<double>(iters) < 0.5 * opt.min_time)
        s = timed_run(strategy, iters, harness, ctx.size,
                      opt.sleep_when_waiting);
      if (s.max >= opt.min_time || iters >= kMaxIterations) break;
      per_op = s.max / static_cast<double>(iters);
      iters = predict_iterations(iters, s.max, opt.min_time);
    }
    rec.inner_iterations = iters;

    const double n = static_cast<double>(iters) / opt.time_scale;
    std::vector<std::vector<double>> by_rank(
        static_cast<std::size_t>(ctx.size));
    for (int r = 0; r < opt.repetitions; ++r) {
      const Sample s =
          timed_run(strategy, iters, harness, ctx.size, opt.sleep_when_waiting);
      rec.samples_max.push_back(s.max / n);
      rec.samples_min.push_back(s.min / n);
      rec.samples_avg.push_back(s.avg / n);
      for (std::size_t k = 0; k < by_rank.size(); ++k)
        by_rank[k].push_back(s.per_rank[k] / n);
    }
    for (const auto& samples : by_rank)
      rec.per_rank.push_back(summarize(samples).median);
  } catch (const std::exception& e) {
    // A failure inside the timed loop cannot be agreed on without risking a
    // deadlock (the other ranks may be inside the operation): stop the job.
    if (ctx.log)
      ctx.log->critical("execute failed, aborting the run: {}", e.what());
    MPI_Abort(MPI_COMM_WORLD, 3);
  }
  rec.time = summarize(rec.samples_max);
  rec.bandwidth = rec.time.median > 0 && rec.payload_bytes > 0
                      ? static_cast<double>(rec.payload_bytes) / rec.time.median
                      : 0;

  if (opt.verify) {
    Verdict verdict;
    collective_step(
        "verification",
        [&] {
          strategy.poison();
          MPIARENA_CHECK(MPI_Barrier(harness));
          strategy.execute();
          verdict = strategy.verify();
        },
        harness, ctx.rank);
    auto [first, message] =
        first_failure(!verdict.ok, verdict.message, harness, ctx.rank);
    if (first == kNobody) {
      rec.verification = "passed";
    } else {
      rec.verification = "failed";
      rec.verification_message =
          "rank " + std::to_string(first) + ": " + message;
    }
  } else {
    rec.verification = "skipped";
    rec.verification_message = "--no-verify";
  }
  collective_step(
      "release", [&] { strategy.release(); }, harness, ctx.rank);
  return rec;
}

}  // namespace mpiarena
