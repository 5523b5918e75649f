#include "engine.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/payload.hpp>
#include <set>
#include <sstream>
#include <thread>
#include <vector>

#include "collective.hpp"
#include "noise.hpp"
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

std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// Test hook (docs/methodology.md): MPIARENA_TEST_NOISE="3,5" makes the
// 3rd and 5th timed samples of this process read as fully stolen, so the
// tests can see a noisy sample retried without a noisy machine.
bool injected_noise(long sample) {
  static const std::set<long> listed = [] {
    std::set<long> out;
    if (const char* env = std::getenv("MPIARENA_TEST_NOISE")) {
      std::stringstream in(env);
      std::string item;
      while (std::getline(in, item, ','))
        if (!item.empty()) out.insert(std::atol(item.c_str()));
    }
    return out;
  }();
  return listed.count(sample) > 0;
}

// Per part: its loop's state, timings and expected sample time.
struct PartRun {
  std::string warm, calib, timed;
  std::int64_t iters = 1;
  PartTiming pt;
  std::vector<std::vector<double>> by_rank;
  double expected = 0;
};

const StrategyInfo& no_info() {
  static const StrategyInfo none{};
  return none;
}

// One member of a group through the steps of measure_point (engine.hpp).
// Not movable: the context points into it.
class PointRun {
 public:
  PointRun(GroupMember& m, const MeasureOptions& opt, MPI_Comm harness)
      : m_(m),
        opt_(opt),
        harness_(harness),
        info_(m.info ? *m.info : no_info()),
        ctx_(m.ctx),
        parts_(info_.parts.empty() ? std::vector<std::string>{""}
                                   : info_.parts),
        part_medians_(parts_.size(), 0.0),
        runner_{*m.strategy,
                harness,
                m.ctx.rank,
                m.ctx.size,
                opt.sleep_when_waiting,
                timer_,
                static_cast<int>(info_.phases.size()),
                opt.point_timeout > 0 ? opt.point_timeout : 1e9,
                "",
                nullptr} {
    ctx_.phases = &timer_;
    ctx_.part_index = &part_index_;
    ctx_.part_seconds = part_medians_.data();
    headline_ = info_.headline.empty() ? parts_.front() : info_.headline;
    rec_.payload = ctx_.payload;
    rec_.bytes = ctx_.bytes;
    rec_.payload_bytes = payload_bytes(ctx_.payload, ctx_.bytes);
    rec_.ranks = ctx_.size;
    rec_.warmup = opt.warmup;
    rec_.time_scale = m.time_scale;
    if (info_.pairwise) rec_.pairs = ctx_.all_pairs ? ctx_.size / 2 : 1;
    if (info_.windowed) rec_.window = ctx_.window;
    rec_.params = info_.params;
    rec_.matrix_row = info_.matrix_row;
    rec_.matrix_column = info_.matrix_column;
    rec_.noise.recorded = opt.noise;
  }
  PointRun(const PointRun&) = delete;
  PointRun& operator=(const PointRun&) = delete;

  bool sampling() const { return sampling_; }
  double timeout() const { return runner_.timeout; }

  void prepare() {
    enter();
    collective_step(
        "prepare", [&] { m_.strategy->prepare(ctx_); }, harness_, ctx_.rank,
        timeout());
    prepared_ = true;
  }

  // Warm-up and calibration of every part, in declared order. The
  // calibration's per-operation time stands in part_seconds until the
  // part's median replaces it (a later part may size its work on an
  // earlier one: the overlap suite).
  void calibrate() {
    enter();
    runs_.resize(parts_.size());
    for (std::size_t pi = 0; pi < parts_.size(); ++pi) {
      part_index_ = static_cast<int>(pi);
      PartRun& pr = runs_[pi];
      pr.warm = part_step("warm-up", parts_[pi]);
      pr.calib = part_step("calibration", parts_[pi]);
      pr.timed = part_step("timed loop", parts_[pi]);
      collective_step(
          pr.warm.c_str(),
          [&] {
            for (int i = 0; i < opt_.warmup; ++i) m_.strategy->execute();
          },
          harness_, ctx_.rank, timeout());
      Sample s;
      std::int64_t iters = opt_.iterations;
      if (iters > 0) {
        // --iterations: the count is given; one untimed run sizes the
        // watchdog's bound and the estimate of a later part.
        s = runner_.run(iters, 0, pr.calib.c_str());
      } else {
        // A run that reaches min_time only because it was preempted (its
        // previous run predicted well under half of min_time) is run again
        // before the count is accepted, so one stall on a loaded machine
        // cannot lock in a count whose samples are far shorter than
        // min_time.
        iters = 1;
        double per_op = 0;  // from the previous run, max over ranks
        for (;;) {
          const double expected = per_op * static_cast<double>(iters);
          s = runner_.run(iters, expected, pr.calib.c_str());
          if (s.max >= opt_.min_time && per_op > 0 &&
              per_op * static_cast<double>(iters) < 0.5 * opt_.min_time)
            s = runner_.run(iters, expected, pr.calib.c_str());
          if (s.max >= opt_.min_time || iters >= kMaxIterations) break;
          per_op = s.max / static_cast<double>(iters);
          iters = predict_iterations(iters, s.max, opt_.min_time);
        }
      }
      pr.iters = iters;
      pr.expected = s.max;
      // A part that a later one may size on gets a steadier estimate than
      // one calibration run: the median of kEstimateRuns more.
      std::vector<double> estimate{s.max};
      if (pi + 1 < parts_.size())
        for (int e = 0; e < kEstimateRuns; ++e)
          estimate.push_back(
              runner_.run(iters, pr.expected, pr.calib.c_str()).max);
      std::sort(estimate.begin(), estimate.end());
      part_medians_[pi] = estimate[estimate.size() / 2] * m_.time_scale /
                          static_cast<double>(iters);
      const std::size_t nphases = info_.phases.size();
      pr.pt.name = parts_[pi];
      pr.pt.inner_iterations = iters;
      pr.pt.phases.resize(nphases);
      for (std::size_t k = 0; k < nphases; ++k)
        pr.pt.phases[k].name = info_.phases[k];
      pr.by_rank.resize(static_cast<std::size_t>(ctx_.size));
    }
    sampling_ = true;
  }

  // One repetition: a sample of every part, in declared order (seed 002's
  // parts interleaved, so that a metric's per-repetition value compares
  // samples taken together), each measured again while it is noisy and
  // retries are left. `slot` is this member's place in its round.
  void sample(int slot, NoiseProbe* probe, CoreProbe* state, bool rewarm) {
    enter();
    const std::size_t nphases = info_.phases.size();
    double steal = 0, preempted = 0, mhz = -1;
    std::string why;
    for (std::size_t pi = 0; pi < parts_.size(); ++pi) {
      part_index_ = static_cast<int>(pi);
      PartRun& pr = runs_[pi];
      const double n = static_cast<double>(pr.iters) / m_.time_scale;
      // Interleaved, the sample before this one was another member's,
      // whose buffers took the caches: --warmup untimed operations give
      // this member back the state a sample of its own would have left.
      if (rewarm && opt_.warmup > 0)
        collective_step(
            pr.warm.c_str(),
            [&] {
              for (int i = 0; i < opt_.warmup; ++i) m_.strategy->execute();
            },
            harness_, ctx_.rank, runner_.bound(pr.expected));
      runner_.noise = probe;
      runner_.state = state;
      Sample s;
      for (int attempt = 0;; ++attempt) {
        s = runner_.run(pr.iters, pr.expected, pr.timed.c_str());
        spent_ += s.max;
        if (!opt_.noise) break;
        static long timed_samples = 0;
        if (injected_noise(++timed_samples)) s.steal_s = s.max * opt_.cpus;
        std::string reason;
        if (!noisy_sample(s.steal_s, s.preemptions, s.max, opt_.cpus,
                          opt_.oversubscribed, &reason))
          break;
        if (attempt >= opt_.retry_noisy) {
          why = reason;
          break;
        }
        ++rec_.noise.retries;
      }
      runner_.noise = nullptr;
      runner_.state = nullptr;
      steal += s.steal_s;
      preempted = std::max(preempted, s.preemptions);
      if (s.cpu_mhz > 0) mhz = mhz > 0 ? std::min(mhz, s.cpu_mhz) : s.cpu_mhz;
      pr.expected = std::max(pr.expected, s.max);
      add_sample(pr.pt, s.max, s.min, s.avg, n);
      for (std::size_t k = 0; k < nphases; ++k)
        add_sample(pr.pt.phases[k], s.phase_max[k], s.phase_min[k],
                   s.phase_avg[k], n);
      for (std::size_t k = 0; k < pr.by_rank.size(); ++k)
        pr.by_rank[k].push_back(s.per_rank[k] / n);
    }
    ++samples_;
    if (opt_.noise) {
      rec_.noise.steal_s.push_back(steal);
      rec_.noise.preemptions.push_back(static_cast<int>(preempted));
      if (mhz > 0) rec_.noise.cpu_mhz.push_back(mhz);
      if (state && state->latest_ns() > 0)
        rec_.noise.core_to_core_ns.push_back(state->latest_ns());
      if (!why.empty()) {
        ++rec_.noise.noisy_samples;
        if (rec_.noise.reason.empty())
          rec_.noise.reason = "sample " + std::to_string(samples_) + ": " + why;
      }
    }
    rec_.slots.push_back(slot);
    // Enough samples? The fixed count, then --target-rse or --max-time.
    if (samples_ < opt_.repetitions) return;
    rec_.rse = relative_standard_error(headline_run().pt.samples_max);
    if (opt_.target_rse <= 0) {
      rec_.stopped_by = "repetitions";
    } else if (samples_ >= 2 && rec_.rse <= opt_.target_rse) {
      rec_.stopped_by = "target_rse";
    } else if (spent_ >= opt_.max_time) {
      rec_.stopped_by = "max_time";
    } else {
      return;
    }
    sampling_ = false;
  }

  // Statistics, verification, release: the record.
  Record finish() {
    enter();
    std::vector<std::string> verdicts;
    bool verified = true;
    for (std::size_t pi = 0; pi < parts_.size(); ++pi) {
      part_index_ = static_cast<int>(pi);
      PartRun& pr = runs_[pi];
      const std::string& part = parts_[pi];
      PartTiming& pt = pr.pt;
      pt.time = summarize(pt.samples_max);
      part_medians_[pi] = pt.time.median;
      for (PhaseTiming& ph : pt.phases) ph.time = summarize(ph.samples_max);
      if (part == headline_) {
        rec_.inner_iterations = pr.iters;
        rec_.samples_max = pt.samples_max;
        rec_.samples_min = pt.samples_min;
        rec_.samples_avg = pt.samples_avg;
        rec_.time = pt.time;
        rec_.phases = pt.phases;
        for (const auto& samples : pr.by_rank)
          rec_.per_rank.push_back(summarize(samples).median);
      }
      if (opt_.verify) {
        Verdict verdict;
        const std::string what = part_step("verification", part);
        // The agreement after poison() is the barrier before the verified
        // operation (no harness call may sit inside a plugin step: a rank
        // whose step throws would enter a different collective).
        collective_step(
            part_step("poison", part).c_str(), [&] { m_.strategy->poison(); },
            harness_, ctx_.rank, timeout());
        collective_step(
            what.c_str(),
            [&] {
              m_.strategy->execute();
              verdict = m_.strategy->verify();
            },
            harness_, ctx_.rank, runner_.bound(pr.expected));
        auto [first, message] =
            first_failure(!verdict.ok, verdict.message, harness_, ctx_.rank);
        if (first != kNobody) {
          verified = false;
          verdicts.push_back((part.empty() ? "" : "part " + part + ": ") +
                             "rank " + std::to_string(first) + ": " + message);
        }
      }
      if (!info_.parts.empty()) rec_.parts.push_back(std::move(pt));
    }
    if (!info_.parts.empty()) rec_.headline_part = headline_;
    rec_.repetitions = samples_;
    rec_.bandwidth =
        rec_.time.median > 0 && rec_.payload_bytes > 0
            ? static_cast<double>(rec_.payload_bytes) / rec_.time.median
            : 0;
    if (!opt_.verify) {
      rec_.verification = "skipped";
      rec_.verification_message = "--no-verify";
    } else if (verified) {
      rec_.verification = "passed";
    } else {
      rec_.verification = "failed";
      for (const std::string& v : verdicts)
        rec_.verification_message +=
            (rec_.verification_message.empty() ? "" : "; ") + v;
    }
    if (rec_.noise.noisy_samples > 0) {
      rec_.noise.noisy = true;
      rec_.noise.reason =
          std::to_string(rec_.noise.noisy_samples) + " of " +
          std::to_string(samples_) +
          " samples noisy after retries; first: " + rec_.noise.reason;
    }
    release();
    compute_metrics(rec_, info_);
    rec_.suite = info_.suite;
    rec_.notes = point_notes(rec_);
    return rec_;
  }

  // Collective: release the strategy if it is prepared (once).
  void release() {
    if (!prepared_) return;
    prepared_ = false;
    sampling_ = false;
    enter();
    collective_step(
        "release", [&] { m_.strategy->release(); }, harness_, ctx_.rank,
        timeout());
  }

 private:
  void enter() { Watchdog::instance().set_point(m_.name); }
  PartRun& headline_run() {
    for (std::size_t pi = 0; pi < parts_.size(); ++pi)
      if (parts_[pi] == headline_) return runs_[pi];
    return runs_.front();
  }

  GroupMember& m_;
  const MeasureOptions& opt_;
  MPI_Comm harness_;
  const StrategyInfo& info_;
  RunContext ctx_;
  PhaseTimer timer_;
  int part_index_ = 0;
  std::vector<std::string> parts_;
  std::vector<double> part_medians_;
  Runner runner_;
  std::string headline_;
  std::vector<PartRun> runs_;
  Record rec_;
  bool prepared_ = false, sampling_ = false;
  int samples_ = 0;
  double spent_ = 0;  // seconds of timed samples, retries included
};

// The members through the steps together (interleaved when there are
// several); each result in `out`, by member.
void run_together(const std::vector<GroupMember*>& members,
                  const MeasureOptions& opt, MPI_Comm harness,
                  std::uint64_t seed, int group,
                  const std::vector<GroupResult*>& out) {
  // One rank per node reads the node's steal time.
  MPI_Comm node = MPI_COMM_NULL;
  int rank = 0, node_rank = 0;
  MPIARENA_CHECK(MPI_Comm_rank(harness, &rank));
  MPIARENA_CHECK(MPI_Comm_split_type(harness, MPI_COMM_TYPE_SHARED, rank,
                                     MPI_INFO_NULL, &node));
  MPIARENA_CHECK(MPI_Comm_rank(node, &node_rank));
  MPIARENA_CHECK(MPI_Comm_free(&node));
  NoiseProbe probe(opt.noise, node_rank == 0);
  CoreProbe state(harness, opt.noise && !opt.oversubscribed);

  const std::size_t n = members.size();
  std::vector<std::unique_ptr<PointRun>> runs;
  for (GroupMember* m : members)
    runs.push_back(std::make_unique<PointRun>(*m, opt, harness));
  std::vector<bool> alive(n, true);
  // Each step of a member under its own catch: a failure ends that member
  // on every rank alike (the exceptions are agreed on), the others go on.
  auto step = [&](std::size_t i, auto&& body) {
    if (!alive[i]) return;
    try {
      body();
    } catch (const PointSkipped& e) {
      alive[i] = false;
      out[i]->kind = GroupResult::skipped;
      out[i]->reason = e.what();
    } catch (const PointError& e) {
      alive[i] = false;
      out[i]->kind = GroupResult::failed;
      out[i]->reason = e.what();
      runs[i]->release();
    }
  };
  for (std::size_t i = 0; i < n; ++i) step(i, [&] { runs[i]->prepare(); });
  for (std::size_t i = 0; i < n; ++i) step(i, [&] { runs[i]->calibrate(); });
  for (int round = 0;; ++round) {
    std::vector<std::size_t> order;
    for (int k : round_order(seed, group, round, static_cast<int>(n)))
      if (alive[static_cast<std::size_t>(k)] &&
          runs[static_cast<std::size_t>(k)]->sampling())
        order.push_back(static_cast<std::size_t>(k));
    if (order.empty()) break;
    for (std::size_t slot = 0; slot < order.size(); ++slot)
      step(order[slot], [&] {
        runs[order[slot]]->sample(static_cast<int>(slot), &probe, &state,
                                  n > 1);
      });
  }
  for (std::size_t i = 0; i < n; ++i)
    step(i, [&] {
      out[i]->record = runs[i]->finish();
      out[i]->kind = GroupResult::measured;
      if (n > 1) {
        out[i]->record.interleave_group = group;
        out[i]->record.interleave_points = static_cast<int>(n);
      } else {
        out[i]->record.slots.clear();
      }
    });
  Watchdog::instance().set_point({});
}

}  // namespace

std::vector<int> round_order(std::uint64_t seed, int group, int round, int n) {
  std::uint64_t state = seed ^ (static_cast<std::uint64_t>(group) << 32) ^
                        static_cast<std::uint64_t>(round);
  splitmix64(state);
  std::vector<int> order(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) order[static_cast<std::size_t>(i)] = i;
  for (int i = n - 1; i > 0; --i) {  // Fisher-Yates
    const int j =
        static_cast<int>(splitmix64(state) % static_cast<std::uint64_t>(i + 1));
    std::swap(order[static_cast<std::size_t>(i)],
              order[static_cast<std::size_t>(j)]);
  }
  return order;
}

double relative_standard_error(const std::vector<double>& samples) {
  const std::size_t n = samples.size();
  if (n < 2) return 0;
  double mean = 0;
  for (double x : samples) mean += x;
  mean /= static_cast<double>(n);
  if (mean == 0) return 0;
  double ss = 0;
  for (double x : samples) ss += (x - mean) * (x - mean);
  const double sd = std::sqrt(ss / static_cast<double>(n - 1));
  return sd / std::sqrt(static_cast<double>(n)) / std::fabs(mean);
}

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

std::vector<GroupResult> measure_group(std::vector<GroupMember>& members,
                                       const MeasureOptions& opt,
                                       MPI_Comm harness, std::uint64_t seed,
                                       int group) {
  std::vector<GroupResult> results(members.size());
  if (members.empty()) return results;
  Watchdog::instance().set_rank(members.front().ctx.rank);
  std::vector<GroupMember*> all;
  std::vector<GroupResult*> out;
  for (std::size_t i = 0; i < members.size(); ++i) {
    all.push_back(&members[i]);
    out.push_back(&results[i]);
  }
  if (opt.interleave) {
    run_together(all, opt, harness, seed, group, out);
  } else {
    for (std::size_t i = 0; i < members.size(); ++i)
      run_together({all[i]}, opt, harness, seed, group, {out[i]});
  }
  return results;
}

Record measure_point(Strategy& strategy, const RunContext& ctx,
                     const MeasureOptions& opt, MPI_Comm harness) {
  std::vector<GroupMember> one(1);
  one[0].strategy = &strategy;
  one[0].ctx = ctx;
  one[0].info = opt.info;
  one[0].time_scale = opt.time_scale;
  GroupResult r = measure_group(one, opt, harness, 0, 0).front();
  if (r.kind == GroupResult::skipped) throw PointSkipped(r.reason);
  if (r.kind == GroupResult::failed) throw PointError(r.reason);
  return std::move(r.record);
}

}  // namespace mpiarena
