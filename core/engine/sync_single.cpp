// --sync single (synchronizer.hpp; docs/methodology.md, "How a
// collective is timed"): every operation alone, after its own barrier,
// timed on each rank; a sample is a number of such operations, its figure
// the median over them of the slowest rank's time. OSU's collectives time
// each operation so (and average it); no operation overlaps the next.
#include <algorithm>
#include <cmath>
#include <mpiarena/mpi_check.hpp>

#include "core/engine/engine.hpp"
#include "core/engine/op_times.hpp"
#include "core/engine/point_run.hpp"
#include "core/engine/synchronizer.hpp"

namespace mpiarena {

namespace {

using timing::Runner;
using timing::Sample;

// Operations per sample: enough for their time (the barriers between them
// not counted) to last min_time / kShare, at least kMinOps, at most
// kMaxOps (--iterations: that many). The barriers double a sample's wall
// time at small sizes, so a sample is shorter than the loop's.
constexpr double kShare = 4;
constexpr std::int64_t kMinOps = 16;
constexpr std::int64_t kMaxOps = 20000;

std::int64_t ops_for(double per_op, const MeasureOptions& opt) {
  if (opt.iterations > 0) return opt.iterations;
  const double want = opt.min_time / kShare / std::max(per_op, 1e-9);
  const auto n = static_cast<std::int64_t>(std::ceil(want));
  return std::clamp(n, kMinOps, kMaxOps);
}

// One sample: `ops` operations, each after a barrier of the harness (a
// sleeping one first where ranks outnumber cores), each timed alone on
// every rank; phases as Runner::run.
Sample run_single(Runner& r, std::int64_t ops, double expected,
                  const char* what) {
  const double core_to_core = r.state ? r.state->measure() : 0;
  if (r.noise) r.noise->start();
  const std::size_t n = static_cast<std::size_t>(ops);
  // [took..., -took..., invalid (none)...] reduced with MAX; took with SUM.
  std::vector<double> mx(3 * n);
  const Runner::Timed t = r.timed(what, expected, [&] {
    for (std::size_t i = 0; i < n; ++i) {
      if (r.sleep_when_waiting) sleeping_barrier(r.harness);
      MPIARENA_CHECK(MPI_Barrier(r.harness));
      const double t0 = MPI_Wtime();
      r.s.execute();
      mx[i] = MPI_Wtime() - t0;
    }
  });
  const NoiseReading seen = r.noise ? r.noise->stop() : NoiseReading{};
  // Reduced first as the loop (barriers included: its wall time, the
  // phases' totals), then as its operations.
  Sample out = r.reduce(t.local, t.seconds_per_tick, t.error, core_to_core,
                        seen, expected, what);
  out.loop_s = out.max;
  per_operation_figures(out, mx, ops, r.harness, r.nranks);
  return out;
}

class SingleSync : public Synchronizer {
 public:
  using Synchronizer::Synchronizer;

  // One untimed operation sizes the samples: no calibrated loop.
  bool calibrates() const override { return false; }

  void calibrated(PartRun& pr, double per_op,
                  const MeasureOptions& opt) const override {
    pr.iters = ops_for(per_op, opt);
    pr.expected = static_cast<double>(pr.iters) * per_op;
    pr.pt.inner_iterations = pr.iters;
  }

  Sample sample(Runner& runner, PartRun& pr,
                const MeasureOptions& /*opt*/) const override {
    return run_single(runner, pr.iters, pr.expected, pr.timed.c_str());
  }

  // The loop's time, barriers included (what the noise judgement and
  // --max-time count), the slowest rank's.
  double wall(const PartRun& /*pr*/, const Sample& s) const override {
    return s.loop_s;
  }

  // The next sample's bound follows the slowest loop yet.
  void kept(PartRun& pr, const Sample& s) const override {
    pr.expected = std::max(pr.expected, s.loop_s);
  }

  void record(Record& rec, const std::vector<PartRun>& /*runs*/,
              const PartRun& /*headline*/) const override {
    rec.definition["sync"] = name();
  }
};

}  // namespace

std::unique_ptr<Synchronizer> make_single_sync(
    const SyncMethodInfo& info, const SyncSettings& /*settings*/) {
  return std::make_unique<SingleSync>(info);
}

}  // namespace mpiarena
