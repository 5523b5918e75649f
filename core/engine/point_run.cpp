// One member of a group through the steps of a point (point_run.hpp).
#include "core/engine/point_run.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <map>
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/payload.hpp>
#include <mpiarena/stats.hpp>
#include <set>
#include <sstream>
#include <thread>

#include "core/engine/collective.hpp"
#include "core/engine/point_notes.hpp"

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

// What calibration learned of a method at its last size (payload, ranks
// and part alike): the operation's time there, the slowest rank's. The
// next size starts its calibration from it instead of one operation. The
// figures are reduced over the point's ranks, which ran the same points
// before (the key holds their count), so every rank starts alike.
struct Learned {
  double bytes = 0, per_op = 0;
};

Learned& learned(const std::string& key) {
  static std::map<std::string, Learned> all;
  return all[key];
}

// The first run's count: half of min_time at the learned time grown in
// proportion to the bytes (a time that grows no faster than its bytes is
// never overshot); 1 with nothing learned.
std::int64_t first_iterations(const Learned& l, double bytes,
                              double min_time) {
  if (l.per_op <= 0 || l.bytes <= 0) return 1;
  const double per_op = l.per_op * std::max(1.0, bytes / l.bytes);
  const double n = std::floor(0.5 * min_time / per_op);
  return static_cast<std::int64_t>(
      std::clamp(n, 1.0, static_cast<double>(kMaxIterations)));
}

const StrategyInfo& no_info() {
  static const StrategyInfo none{};
  return none;
}

}  // namespace

PointRun::PointRun(GroupMember& m, const MeasureOptions& opt, MPI_Comm harness)
    : m_(m),
      opt_(opt),
      sync_((opt.sync ? *opt.sync : default_synchronizer())
                .for_suite(m.info ? m.info->suite : std::string())),
      harness_(harness),
      info_(m.info ? *m.info : no_info()),
      ctx_(m.ctx),
      parts_(info_.parts.empty() ? std::vector<std::string>{""} : info_.parts),
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
  runner_.enter = &m_.enter;
  runner_.leave = &m_.leave;
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
  rec_.operation = info_.operation.name;
  if (!rec_.operation.empty())
    rec_.semantics = point_semantics(
        info_.operation, ctx_.options ? *ctx_.options : Semantics{});
  rec_.matrix_row = info_.matrix_row;
  rec_.matrix_column = info_.matrix_column;
  rec_.noise.recorded = opt.noise;
}

void PointRun::prepare() {
  enter();
  plugin_step(
      "prepare", [&] { m_.strategy->prepare(ctx_); }, timeout());
  prepared_ = true;
}

void PointRun::calibrate() {
  enter();
  runs_.resize(parts_.size());
  for (std::size_t pi = 0; pi < parts_.size(); ++pi) {
    part_index_ = static_cast<int>(pi);
    PartRun& pr = runs_[pi];
    pr.warm = part_step("warm-up", parts_[pi]);
    pr.calib = part_step("calibration", parts_[pi]);
    pr.timed = part_step("timed loop", parts_[pi]);
    plugin_step(
        pr.warm.c_str(),
        [&] {
          for (int i = 0; i < opt_.warmup; ++i) m_.strategy->execute();
        },
        timeout());
    Sample s;
    std::int64_t iters = opt_.iterations;
    if (!sync_.calibrates()) iters = 1;  // the method sizes its samples
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
      Learned& known = learned(info_.suite + "/" + info_.name + " " +
                               ctx_.payload + " " + std::to_string(ctx_.size) +
                               " " + parts_[pi]);
      const double bytes = static_cast<double>(ctx_.bytes);
      iters = first_iterations(known, bytes, opt_.min_time);
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
      known = {bytes, s.max / static_cast<double>(iters)};
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
    part_medians_[pi] = median(estimate, EvenMedian::upper) * m_.time_scale /
                        static_cast<double>(iters);
    const std::size_t nphases = info_.phases.size();
    pr.pt.name = parts_[pi];
    pr.pt.inner_iterations = iters;
    pr.pt.phases.resize(nphases);
    for (std::size_t k = 0; k < nphases; ++k)
      pr.pt.phases[k].name = info_.phases[k];
    pr.by_rank.resize(static_cast<std::size_t>(ctx_.size));
    sync_.calibrated(pr, s.max / static_cast<double>(iters), opt_);
  }
  sampling_ = true;
}

Sample PointRun::checked_sample(PartRun& pr, std::string& why) {
  Sample s;
  for (int attempt = 0;; ++attempt) {
    s = sync_.sample(runner_, pr, opt_);
    const double wall = sync_.wall(pr, s);
    spent_ += wall;
    if (!opt_.noise) return s;
    static long timed_samples = 0;
    if (injected_noise(++timed_samples)) s.steal_s = wall * opt_.cpus;
    std::string reason;
    if (!noisy_sample(s.steal_s, s.preemptions, wall, opt_.cpus,
                      opt_.oversubscribed, &reason))
      return s;
    if (attempt >= opt_.retry_noisy) {
      why = reason;
      return s;
    }
    ++rec_.noise.retries;
  }
}

void PointRun::sample(int slot, NoiseProbe* probe, CoreProbe* state,
                      bool rewarm) {
  enter();
  const std::size_t nphases = info_.phases.size();
  double steal = 0, preempted = 0, mhz = -1;
  std::string why;
  for (std::size_t pi = 0; pi < parts_.size(); ++pi) {
    part_index_ = static_cast<int>(pi);
    PartRun& pr = runs_[pi];
    // Interleaved, the sample before this one was another member's,
    // whose buffers took the caches: --warmup untimed operations give
    // this member back the state a sample of its own would have left.
    if (rewarm && opt_.warmup > 0)
      plugin_step(
          pr.warm.c_str(),
          [&] {
            for (int i = 0; i < opt_.warmup; ++i) m_.strategy->execute();
          },
          runner_.bound(pr.expected));
    runner_.noise = probe;
    runner_.state = state;
    const Sample s = checked_sample(pr, why);
    runner_.noise = nullptr;
    runner_.state = nullptr;
    steal += s.steal_s;
    preempted = std::max(preempted, s.preemptions);
    if (s.cpu_mhz > 0) mhz = mhz > 0 ? std::min(mhz, s.cpu_mhz) : s.cpu_mhz;
    // Per operation (pr.iters: as the method last sized the sample).
    const double n = static_cast<double>(pr.iters) / m_.time_scale;
    sync_.kept(pr, s);
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
  const std::vector<double>& headline = headline_run().pt.samples_max;
  rec_.rse = relative_standard_error(headline);
  rec_.precision = median_precision(headline);
  if (opt_.target_rse <= 0 && opt_.precision <= 0) {
    rec_.stopped_by = "repetitions";
  } else if (opt_.target_rse > 0 && samples_ >= 2 &&
             rec_.rse <= opt_.target_rse) {
    rec_.stopped_by = "target_rse";
  } else if (opt_.target_rse <= 0 && rec_.precision <= opt_.precision) {
    rec_.stopped_by = "precision";
  } else if (spent_ >= opt_.max_time) {
    rec_.stopped_by = "max_time";
  } else {
    return;
  }
  sampling_ = false;
}

Record PointRun::finish() {
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
      plugin_step(
          part_step("poison", part).c_str(), [&] { m_.strategy->poison(); },
          timeout());
      plugin_step(
          what.c_str(),
          [&] {
            m_.strategy->execute();
            verdict = m_.strategy->verify();
          },
          runner_.bound(pr.expected));
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
  sync_.record(rec_, runs_, headline_run());
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
  // After the notes of the metrics (compute_metrics), those of the point.
  for (std::string& n : point_notes(rec_)) rec_.notes.push_back(std::move(n));
  return rec_;
}

void PointRun::release() {
  if (!prepared_) return;
  prepared_ = false;
  sampling_ = false;
  enter();
  plugin_step(
      "release", [&] { m_.strategy->release(); }, timeout());
}

PartRun& PointRun::headline_run() {
  for (std::size_t pi = 0; pi < parts_.size(); ++pi)
    if (parts_[pi] == headline_) return runs_[pi];
  return runs_.front();
}

}  // namespace mpiarena
