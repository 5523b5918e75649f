// --sync window (synchronizer.hpp; docs/methodology.md "Window timing"):
// the run's global clock before the first point, checked before every
// group; per part, W and the windows of a sample; a sample whose
// operations each start at an agreed time on the global clock, measured
// again with W doubled while too many of its windows are invalid; the
// record's window timing. ReproMPI's way.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/stats.hpp>
#include <thread>

#include "core/engine/global_clock.hpp"
#include "core/engine/op_times.hpp"
#include "core/engine/point_run.hpp"
#include "core/engine/synchronizer.hpp"
#include "core/results/units.hpp"

namespace mpiarena {

namespace {

using timing::Runner;
using timing::Sample;

// W from the calibrated time of an operation (max over ranks), when not
// given: kWindowMargin times it, and at least kMinWindow more than it; the
// windows of a sample: enough to last min_time, at least kMinWindows. A
// sample with more than kInvalidBound of its windows invalid is measured
// again with a calibrated W doubled, up to kMaxGrowth times (a W given
// stays: the sample is kept, and the record says so).
constexpr double kWindowMargin = 2.0;
constexpr double kMinWindow = 10e-6;
constexpr std::int64_t kMinWindows = 50;
constexpr std::int64_t kMaxWindows = 100000;
constexpr double kInvalidBound = 0.1;
constexpr int kMaxGrowth = 10;

// Windows per sample: enough to last min_time (--iterations: that many).
std::int64_t windows_for(double window, const MeasureOptions& opt) {
  if (opt.iterations > 0) return opt.iterations;
  const auto n = static_cast<std::int64_t>(std::ceil(opt.min_time / window));
  return std::clamp(n, kMinWindows, kMaxWindows);
}

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

// One sample on the global clock `clock`: operation k starts on every rank
// at t0 + k x `window` (t0 agreed after a barrier); a rank that reaches
// the start late, or leaves after the window's end, invalidates the window
// (ReproMPI's rule). A window's time is the max over ranks of (exit -
// start); the sample's max, min and avg are `windows` times the medians
// over its valid windows of the max, min and mean over ranks, each rank's
// (per_rank) its own median; phases as Runner::run. With no valid window,
// max is 0.
Sample run_windowed(Runner& r, const clocks::ClockModel& clock,
                    std::int64_t windows, double window, const char* what) {
  const double core_to_core = r.state ? r.state->measure() : 0;
  const double expected = static_cast<double>(windows) * window;
  if (r.noise) r.noise->start();
  double t0 = 0;
  {
    Armed armed(what, r.bound(0), Role::waiting);
    if (r.sleep_when_waiting) sleeping_barrier(r.harness);
    MPIARENA_CHECK(MPI_Barrier(r.harness));
    // t0: after the latest rank's global now, by three times the slowest
    // agreement on it and one window (the same value on every rank).
    double mine[2] = {clock.global(MPI_Wtime()), 0}, agreed[2] = {0, 0};
    const double before = MPI_Wtime();
    MPIARENA_CHECK(
        MPI_Allreduce(mine, agreed, 1, MPI_DOUBLE, MPI_MAX, r.harness));
    mine[1] = MPI_Wtime() - before;
    MPIARENA_CHECK(MPI_Allreduce(&mine[1], &agreed[1], 1, MPI_DOUBLE, MPI_MAX,
                                 r.harness));
    t0 = agreed[0] + 3 * agreed[1] + window;
  }
  const std::size_t n = static_cast<std::size_t>(windows);
  // [took..., -took..., late...] reduced with MAX; took with SUM.
  std::vector<double> mx(3 * n);
  const Runner::Timed t = r.timed(what, expected, [&] {
    for (std::size_t i = 0; i < n; ++i) {
      const double start = t0 + static_cast<double>(i) * window;
      if (!wait_until(clock.local(start), r.sleep_when_waiting))
        mx[2 * n + i] = 1;  // late
      r.s.execute();
      const double exit = clock.global(MPI_Wtime());
      mx[i] = exit - start;
      if (exit > start + window) mx[2 * n + i] = 1;  // overran
    }
  });
  const NoiseReading seen = r.noise ? r.noise->stop() : NoiseReading{};
  Sample out = r.reduce(t.local, t.seconds_per_tick, t.error, core_to_core,
                        seen, expected, what);
  per_operation_figures(out, mx, windows, r.harness, r.nranks);
  return out;
}

class WindowSync : public Synchronizer {
 public:
  WindowSync(const SyncMethodInfo& info, const SyncSettings& settings)
      : Synchronizer(info), settings_(settings) {}

  void start(MPI_Comm world, spdlog::logger& log) override;
  void before_group() override { clock_->check(); }
  // The residual and the drift at the end.
  void stop(Context& context) override {
    clock_->check();
    context.clock = clock_->context();
  }

  void calibrated(PartRun& pr, double per_op,
                  const MeasureOptions& opt) const override;
  Sample sample(Runner& runner, PartRun& pr,
                const MeasureOptions& opt) const override;
  // The sample's windows.
  double wall(const PartRun& pr, const Sample& /*s*/) const override {
    return pr.expected;
  }
  void kept(PartRun& pr, const Sample& s) const override {
    pr.windows += s.windows;
    pr.invalid += s.invalid;
  }
  void record(Record& rec, const std::vector<PartRun>& runs,
              const PartRun& headline) const override;

 private:
  void resize(PartRun& pr, const MeasureOptions& opt) const {
    pr.iters = windows_for(pr.window, opt);
    pr.expected = static_cast<double>(pr.iters) * pr.window;
    pr.pt.inner_iterations = pr.iters;
  }

  SyncSettings settings_;
  std::unique_ptr<GlobalClock> clock_;
};

void WindowSync::start(MPI_Comm world, spdlog::logger& log) {
  clocks::Algorithm a = clocks::Algorithm::hca;
  clocks::parse_algorithm(settings_.clock_sync, a);  // checked
  clock_ = std::make_unique<GlobalClock>(a, world, kClockResidualBound,
                                         settings_.step_bound);
  log.info("clocks synchronized ({}): largest residual {}",
           settings_.clock_sync, format_seconds(clock_->residual()));
  // A given W makes every sample at least kMinWindows windows long: a long
  // one makes long points, said before they run.
  const double w = settings_.window_s;
  const double least = w * static_cast<double>(kMinWindows) *
                       static_cast<double>(settings_.repetitions);
  if (w > 0 && least > 10)
    log.warn(
        "--sync-window {}: each point takes at least {} ({} windows a "
        "sample, {} samples)",
        format_seconds(w), format_seconds(least), kMinWindows,
        settings_.repetitions);
}

void WindowSync::calibrated(PartRun& pr, double per_op,
                            const MeasureOptions& opt) const {
  // per_op: the largest rank's, so the same on every rank.
  const double given = settings_.window_s;
  if (given > 0 && given < per_op)
    throw PointUsageError(
        "--sync-window " + format_seconds(given) +
        " is shorter than one operation of this point (" +
        format_seconds(per_op) +
        " calibrated): every window would end before its operation; give "
        "at least twice that, or leave --sync-window out (W is then twice "
        "each point's own time)");
  pr.window = given > 0 ? given
                        : std::max(kWindowMargin * per_op, per_op + kMinWindow);
  resize(pr, opt);
}

Sample WindowSync::sample(Runner& runner, PartRun& pr,
                          const MeasureOptions& opt) const {
  for (;;) {
    Sample s = run_windowed(runner, clock_->model(), pr.iters, pr.window,
                            pr.timed.c_str());
    // From reduced figures: the same decision on every rank.
    const bool too_many = static_cast<double>(s.invalid) >
                          kInvalidBound * static_cast<double>(s.windows);
    if (!too_many) return s;
    // A W given (--sync-window) stays; a calibrated one doubles.
    const bool given = settings_.window_s > 0;
    if (given || pr.grew >= kMaxGrowth) {
      if (s.max > 0) return s;  // recorded with its fraction, and a note
      throw PointError(
          "window timing: every window of a sample was invalid (a rank "
          "reached each start late or overran its end) with W " +
          format_seconds(pr.window) +
          (given ? " (--sync-window): give a longer window"
                 : " after " + std::to_string(pr.grew) + " doublings"));
    }
    pr.window *= 2;
    ++pr.grew;
    resize(pr, opt);
  }
}

void WindowSync::record(Record& rec, const std::vector<PartRun>& runs,
                        const PartRun& headline) const {
  SyncTiming& t = rec.sync;
  t.windowed = true;
  t.clock = settings_.clock_sync;
  t.residual_s = clock_->residual();
  t.window_s = headline.window;
  for (const PartRun& pr : runs) {
    t.windows += pr.windows;
    t.invalid += pr.invalid;
    t.grew += pr.grew;
  }
  rec.definition["sync"] = name();
  if (t.invalid_fraction() > kInvalidBound)
    rec.notes.push_back(
        "window timing: " + std::to_string(t.invalid) + " of " +
        std::to_string(t.windows) + " windows invalid, above the bound of " +
        std::to_string(static_cast<int>(kInvalidBound * 100)) + "% " +
        (settings_.window_s > 0
             ? "with the W given (--sync-window " + format_seconds(t.window_s) +
                   ")."
             : "also after W doubled " + std::to_string(t.grew) +
                   " times (to " + format_seconds(t.window_s) + ")."));
}

}  // namespace

std::unique_ptr<Synchronizer> make_window_sync(const SyncMethodInfo& info,
                                               const SyncSettings& settings) {
  return std::make_unique<WindowSync>(info, settings);
}

}  // namespace mpiarena
