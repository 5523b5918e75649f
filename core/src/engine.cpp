#include "engine.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/payload.hpp>
#include <thread>
#include <vector>

#include "collective.hpp"
#include "point_notes.hpp"
#include "timed_run.hpp"
#include "watchdog.hpp"

namespace mpiarena {

namespace {

using namespace timing;  // NOLINT: the steps of timed_run.hpp

// Runs of a part's calibrated loop whose median stands in part_seconds
// until the part is measured, when a later part follows it.
constexpr int kEstimateRuns = 4;

std::string part_step(const char* step, const std::string& part) {
  return part.empty() ? std::string(step)
                      : std::string(step) + " of part " + part;
}

void add_sample(Timing& t, double max, double min, double avg, double n) {
  t.samples_max.push_back(max / n);
  t.samples_min.push_back(min / n);
  t.samples_avg.push_back(avg / n);
}

}  // namespace

// On an oversubscribed node a rank that has finished (or has nothing to do,
// as the idle ranks of a single ping-pong pair) must not take CPU time from
// the ranks still inside the timed loop.
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

Record measure_point(Strategy& strategy, const RunContext& ctx_in,
                     const MeasureOptions& opt, MPI_Comm harness) {
  static const StrategyInfo kNoInfo{};
  const StrategyInfo& info = opt.info ? *opt.info : kNoInfo;
  Watchdog::instance().set_rank(ctx_in.rank);
  const double timeout = opt.point_timeout > 0 ? opt.point_timeout : 1e9;

  PhaseTimer timer;
  int part_index = 0;
  RunContext ctx = ctx_in;
  ctx.phases = &timer;
  ctx.part_index = &part_index;
  std::vector<double> part_medians(std::max<std::size_t>(1, info.parts.size()),
                                   0.0);
  ctx.part_seconds = part_medians.data();

  Record rec;
  rec.payload = ctx.payload;
  rec.bytes = ctx.bytes;
  rec.payload_bytes = payload_bytes(ctx.payload, ctx.bytes);
  rec.ranks = ctx.size;
  rec.repetitions = opt.repetitions;
  rec.warmup = opt.warmup;
  rec.time_scale = opt.time_scale;

  collective_step(
      "prepare", [&] { strategy.prepare(ctx); }, harness, ctx.rank, timeout);

  const int nphases = static_cast<int>(info.phases.size());
  const std::vector<std::string> parts =
      info.parts.empty() ? std::vector<std::string>{""} : info.parts;
  const std::string headline =
      info.headline.empty() ? parts.front() : info.headline;
  Runner runner{strategy, harness, ctx.rank, ctx.size, opt.sleep_when_waiting,
                timer,    nphases, timeout,  ""};
  std::vector<std::string> verdicts;  // failed parts' messages
  bool verified = true;

  // Per part: its loop's state, timings and expected sample time.
  struct PartRun {
    std::string warm, calib, timed;
    std::int64_t iters = 1;
    PartTiming pt;
    std::vector<std::vector<double>> by_rank;
    double expected = 0;
  };
  std::vector<PartRun> runs(parts.size());
  try {
    // 1. Every part warmed up and calibrated on its own, in declared order.
    //    The calibration's per-operation time stands in part_seconds until
    //    the part's median replaces it (a later part may size its work on
    //    an earlier one: the overlap suite).
    for (std::size_t pi = 0; pi < parts.size(); ++pi) {
      part_index = static_cast<int>(pi);
      PartRun& pr = runs[pi];
      pr.warm = part_step("warm-up", parts[pi]);
      pr.calib = part_step("calibration", parts[pi]);
      pr.timed = part_step("timed loop", parts[pi]);
      collective_step(
          pr.warm.c_str(),
          [&] {
            for (int i = 0; i < opt.warmup; ++i) strategy.execute();
          },
          harness, ctx.rank, timeout);

      // A run that reaches min_time only because it was preempted (its
      // previous run predicted well under half of min_time) is run again
      // before the count is accepted, so one stall on a loaded machine
      // cannot lock in a count whose samples are far shorter than min_time.
      std::int64_t iters = 1;
      double per_op = 0;  // from the previous run, max over ranks
      Sample s;
      for (;;) {
        const double expected = per_op * static_cast<double>(iters);
        s = runner.run(iters, expected, pr.calib.c_str());
        if (s.max >= opt.min_time && per_op > 0 &&
            per_op * static_cast<double>(iters) < 0.5 * opt.min_time)
          s = runner.run(iters, expected, pr.calib.c_str());
        if (s.max >= opt.min_time || iters >= kMaxIterations) break;
        per_op = s.max / static_cast<double>(iters);
        iters = predict_iterations(iters, s.max, opt.min_time);
      }
      pr.iters = iters;
      pr.expected = s.max;
      // A part that a later one may size on gets a steadier estimate than
      // one calibration run: the median of kEstimateRuns more.
      std::vector<double> estimate{s.max};
      if (pi + 1 < parts.size())
        for (int e = 0; e < kEstimateRuns; ++e)
          estimate.push_back(
              runner.run(iters, pr.expected, pr.calib.c_str()).max);
      std::sort(estimate.begin(), estimate.end());
      part_medians[pi] = estimate[estimate.size() / 2] * opt.time_scale /
                         static_cast<double>(iters);
      pr.pt.name = parts[pi];
      pr.pt.inner_iterations = iters;
      pr.pt.phases.resize(static_cast<std::size_t>(nphases));
      for (int k = 0; k < nphases; ++k)
        pr.pt.phases[static_cast<std::size_t>(k)].name =
            info.phases[static_cast<std::size_t>(k)];
      pr.by_rank.resize(static_cast<std::size_t>(ctx.size));
    }

    // 2. The repetitions, parts interleaved: repetition r of every part
    //    before repetition r + 1 of any, so that a slow spell of the
    //    machine falls on the parts alike and a metric's per-repetition
    //    value compares samples taken together (seed 002's three parts
    //    measured one after the other would credit overlap to a speed-up
    //    of the machine).
    for (int r = 0; r < opt.repetitions; ++r)
      for (std::size_t pi = 0; pi < parts.size(); ++pi) {
        part_index = static_cast<int>(pi);
        PartRun& pr = runs[pi];
        const double n = static_cast<double>(pr.iters) / opt.time_scale;
        const Sample s = runner.run(pr.iters, pr.expected, pr.timed.c_str());
        pr.expected = std::max(pr.expected, s.max);
        add_sample(pr.pt, s.max, s.min, s.avg, n);
        for (int k = 0; k < nphases; ++k) {
          const std::size_t kk = static_cast<std::size_t>(k);
          add_sample(pr.pt.phases[kk], s.phase_max[kk], s.phase_min[kk],
                     s.phase_avg[kk], n);
        }
        for (std::size_t k = 0; k < pr.by_rank.size(); ++k)
          pr.by_rank[k].push_back(s.per_rank[k] / n);
      }

    // 3. Per part: statistics, the headline, verification.
    for (std::size_t pi = 0; pi < parts.size(); ++pi) {
      part_index = static_cast<int>(pi);
      PartRun& pr = runs[pi];
      const std::string& part = parts[pi];
      PartTiming& pt = pr.pt;
      pt.time = summarize(pt.samples_max);
      part_medians[pi] = pt.time.median;
      for (PhaseTiming& ph : pt.phases) ph.time = summarize(ph.samples_max);

      if (part == headline) {
        rec.inner_iterations = pr.iters;
        rec.samples_max = pt.samples_max;
        rec.samples_min = pt.samples_min;
        rec.samples_avg = pt.samples_avg;
        rec.time = pt.time;
        rec.phases = pt.phases;
        for (const auto& samples : pr.by_rank)
          rec.per_rank.push_back(summarize(samples).median);
      }

      if (opt.verify) {
        Verdict verdict;
        const std::string what = part_step("verification", part);
        // The agreement after poison() is the barrier before the verified
        // operation (no harness call may sit inside a plugin step: a rank
        // whose step throws would enter a different collective).
        collective_step(
            part_step("poison", part).c_str(), [&] { strategy.poison(); },
            harness, ctx.rank, timeout);
        collective_step(
            what.c_str(),
            [&] {
              strategy.execute();
              verdict = strategy.verify();
            },
            harness, ctx.rank, runner.bound(pr.expected));
        auto [first, message] =
            first_failure(!verdict.ok, verdict.message, harness, ctx.rank);
        if (first != kNobody) {
          verified = false;
          verdicts.push_back((part.empty() ? "" : "part " + part + ": ") +
                             "rank " + std::to_string(first) + ": " + message);
        }
      }
      if (!info.parts.empty()) rec.parts.push_back(std::move(pt));
    }
  } catch (const PointError&) {
    // Thrown on every rank alike: release together, then pass it on.
    collective_step(
        "release", [&] { strategy.release(); }, harness, ctx.rank, timeout);
    throw;
  }
  if (!info.parts.empty()) rec.headline_part = headline;

  rec.bandwidth = rec.time.median > 0 && rec.payload_bytes > 0
                      ? static_cast<double>(rec.payload_bytes) / rec.time.median
                      : 0;
  if (!opt.verify) {
    rec.verification = "skipped";
    rec.verification_message = "--no-verify";
  } else if (verified) {
    rec.verification = "passed";
  } else {
    rec.verification = "failed";
    for (const std::string& v : verdicts)
      rec.verification_message +=
          (rec.verification_message.empty() ? "" : "; ") + v;
  }
  collective_step(
      "release", [&] { strategy.release(); }, harness, ctx.rank, timeout);
  compute_metrics(rec, info);
  rec.suite = info.suite;
  rec.notes = point_notes(rec);
  return rec;
}

}  // namespace mpiarena
