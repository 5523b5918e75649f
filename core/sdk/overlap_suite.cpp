// The overlap suite's base (overlap_suite.hpp).
#include <algorithm>
#include <cstdio>
#include <map>
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/overlap_suite.hpp>
#include <mpiarena/stats.hpp>
#include <utility>

namespace mpiarena {

namespace {

enum Part { kComm, kCompute, kBoth };
enum Phase { kPost, kComputePhase, kWait };
constexpr int kSlices = 64;
// A calibration sample of the communication lasts at least kSampleSeconds,
// one of the computation kStepSampleSeconds: far longer than a scheduler
// time slice, so that with more ranks than cores the ranks share the cores
// during the sample as they do in the timed loops (a 2 ms sample runs
// whole on a core, and measures a step twice as fast as 4 ranks on 2 cores
// ever see). The figure is the median of kSamples samples of the slowest
// rank's time per operation.
constexpr double kSampleSeconds = 0.002;
constexpr double kStepSampleSeconds = 0.05;
constexpr int kSamples = 5;

}  // namespace

double nob_overlap_percent(double pure, double comp, double ovrl) {
  const double tmin = std::min(pure, comp);
  if (!(tmin > 0)) return 0;
  // The fraction first: t / t is exactly 1, while 100 * t / t can round
  // above 100 (100.00000000000001 for t = 0.0013445080768799).
  return 100 * (std::max(0.0, std::min(pure + comp - ovrl, tmin)) / tmin);
}

double osu_overlap_percent(double pure, double comp, double ovrl) {
  if (!(pure > 0)) return 0;
  return 100 * std::clamp(1 - (ovrl - comp) / pure, 0.0, 1.0);
}

StrategyInfo overlap_info(std::string name, std::string summary,
                          int payload_copies, int payload_copies_per_rank,
                          int min_ranks) {
  StrategyInfo info;
  info.name = std::move(name);
  info.suite = "overlap";
  info.summary = std::move(summary);
  info.payloads = {"1d"};
  info.min_ranks = min_ranks;
  info.payload_copies = payload_copies;
  info.payload_copies_per_rank = payload_copies_per_rank;
  info.parts = {"comm", "compute", "both"};
  info.headline = "both";
  info.phases = {"post", "compute", "wait"};
  auto times = [](const MetricInput& in) {
    return std::make_tuple(in.part("comm"), in.part("compute"),
                           in.part("both"));
  };
  info.metrics = {{"overlap", "%", true,
                   [times](const MetricInput& in) {
                     auto [pure, comp, ovrl] = times(in);
                     return nob_overlap_percent(pure, comp, ovrl);
                   }},
                  {"overlap_osu", "%", true,
                   [times](const MetricInput& in) {
                     auto [pure, comp, ovrl] = times(in);
                     return osu_overlap_percent(pure, comp, ovrl);
                   }},
                  // How well the calibration held: t_comp / t_pure as measured.
                  {"comp_over_comm", "x", false, [](const MetricInput& in) {
                     const double pure = in.part("comm");
                     return pure > 0 ? in.part("compute") / pure : 0.0;
                   }}};
  return info;
}

std::uint64_t OverlapStrategy::kernel(std::uint64_t x, std::int64_t units) {
  // A 64-bit linear congruential step (Knuth's MMIX constants): each step
  // needs the previous one, so nothing can be vectorised or skipped.
  for (std::int64_t i = 0; i < units; ++i)
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
  return x;
}

void OverlapStrategy::compute() {
  const int every = ctx_.test_every > 0 ? ctx_.test_every : 1;
  std::uint64_t x = static_cast<std::uint64_t>(ctx_.rank) + 1;
  const std::int64_t per = work_ / kSlices;
  for (int s = 0; s < kSlices; ++s) {
    x = kernel(x, s == 0 ? per + work_ % kSlices : per);
    if (test_inside_ && (s + 1) % every == 0 && !requests_.empty()) {
      int done = 0;
      MPIARENA_CHECK(MPI_Testall(static_cast<int>(requests_.size()),
                                 requests_.data(), &done, MPI_STATUSES_IGNORE));
    }
  }
  result_ = x;
  computed_ = true;
}

void OverlapStrategy::size_work(double pure) {
  work_ = std::max<std::int64_t>(
      kSlices, static_cast<std::int64_t>(pure / step_seconds_ + 0.5));
}

void OverlapStrategy::execute() {
  PhaseTimer& t = *ctx_.phases;
  const int part = ctx_.part();
  // The first operation that computes sizes the computation on the
  // engine's median of the "comm" part (arithmetic only: same on every
  // rank, nothing timed).
  if (part != kComm && !sized_ && ctx_.part_seconds &&
      ctx_.part_seconds[kComm] > 0) {
    size_work(ctx_.part_seconds[kComm]);
    sized_ = true;
  }
  requests_.clear();
  if (part != kCompute) {
    t.mark(kPost);
    post(requests_);
  }
  if (part != kComm) {
    t.mark(kComputePhase);
    compute();
  }
  if (part != kCompute) {
    t.mark(kWait);
    MPIARENA_CHECK(MPI_Waitall(static_cast<int>(requests_.size()),
                               requests_.data(), MPI_STATUSES_IGNORE));
  }
  t.stop();
}

Verdict OverlapStrategy::verify() {
  const int part = ctx_.part();
  if (part != kComm && expected_work_ != work_) {
    std::uint64_t x = static_cast<std::uint64_t>(ctx_.rank) + 1;
    const std::int64_t per = work_ / kSlices;
    for (int s = 0; s < kSlices; ++s)
      x = kernel(x, s == 0 ? per + work_ % kSlices : per);
    expected_ = x;
    expected_work_ = work_;
  }
  if (part != kComm) {
    if (!computed_ || result_ != expected_)
      return {false, "the computation ended at " + std::to_string(result_) +
                         ", expected " + std::to_string(expected_)};
    computed_ = false;
  }
  return part == kCompute ? Verdict{} : check();
}

// The slowest rank's time per operation of `run(n)` (seconds for n
// operations, local), median of kSamples samples of at least
// kSampleSeconds. Collective over comm(): every rank takes the same
// decisions from the reduced times.
template <class Run>
static double calibrated(MPI_Comm comm, double seconds, Run run) {
  auto sample = [&](std::int64_t n) {
    MPIARENA_CHECK(MPI_Barrier(comm));
    const double local = run(n);
    double worst = 0;
    MPIARENA_CHECK(MPI_Allreduce(&local, &worst, 1, MPI_DOUBLE, MPI_MAX, comm));
    return worst;
  };
  std::int64_t n = 1;
  while (sample(n) < seconds && n < (std::int64_t{1} << 30)) n *= 2;
  std::vector<double> per_op;
  for (int i = 0; i < kSamples; ++i)
    per_op.push_back(sample(n) / static_cast<double>(n));
  return median(per_op, EvenMedian::upper);
}

double OverlapStrategy::time_comm() {
  return calibrated(comm(), kSampleSeconds, [&](std::int64_t n) {
    const double t0 = MPI_Wtime();
    for (std::int64_t i = 0; i < n; ++i) {
      requests_.clear();
      post(requests_);
      MPIARENA_CHECK(MPI_Waitall(static_cast<int>(requests_.size()),
                                 requests_.data(), MPI_STATUSES_IGNORE));
    }
    return MPI_Wtime() - t0;
  });
}

double OverlapStrategy::time_compute(std::int64_t units) {
  return calibrated(comm(), kStepSampleSeconds, [&](std::int64_t n) {
    const double t0 = MPI_Wtime();
    std::uint64_t x = 1;
    for (std::int64_t i = 0; i < n; ++i) x = kernel(x, units);
    const double t = MPI_Wtime() - t0;
    result_ = x;  // keeps the loop
    return t;
  });
}

void OverlapStrategy::prepare(const RunContext& ctx) {
  ctx_ = ctx;
  sized_ = false;
  expected_work_ = -1;
  computed_ = false;
  build();
  // The cost of one step of the computation (slowest rank), on a kernel
  // long enough that the loop around it does not count. It depends on the
  // machine and on how many ranks share its cores, not on the method or
  // the size: measured once per process and communicator size (every rank
  // runs the same points, so every rank takes the same branch).
  static std::map<int, double> step_by_ranks;
  auto known = step_by_ranks.find(ctx.size);
  if (known == step_by_ranks.end()) {
    constexpr std::int64_t kProbe = 1 << 16;
    double step = time_compute(kProbe) / static_cast<double>(kProbe);
    if (!(step > 0)) step = 1e-9;
    known = step_by_ranks.emplace(ctx.size, step).first;
  }
  step_seconds_ = known->second;
  // A first size from a t_pure of our own, for a strategy run outside the
  // engine; the engine's own t_pure replaces it (execute()).
  const double pure = ctx_.part_seconds ? 0.0 : time_comm();
  size_work(pure);
  if (ctx_.log && ctx_.rank == 0) {
    char line[160];
    std::snprintf(line, sizeof line,
                  "overlap calibration: one step of the computation %.3g ns",
                  step_seconds_ * 1e9);
    ctx_.log->debug(line);
  }
}

}  // namespace mpiarena
