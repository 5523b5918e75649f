// Window timing of a point (point_run.hpp; docs/methodology.md "Window
// timing"): W and the windows per sample, a sample measured again with W
// doubled while too many of its windows are invalid, and the record.
#include <algorithm>
#include <cmath>

#include "core/engine/point_run.hpp"
#include "core/results/units.hpp"

namespace mpiarena {

namespace {

// Windows per sample: enough to last min_time (--iterations: that many).
std::int64_t windows_for(double window, const MeasureOptions& opt) {
  if (opt.iterations > 0) return opt.iterations;
  const auto n = static_cast<std::int64_t>(std::ceil(opt.min_time / window));
  return std::clamp(n, kMinWindows, kMaxWindows);
}

}  // namespace

void PointRun::size_windows(PartRun& pr, double per_op) {
  // per_op: the largest rank's, so the same on every rank.
  if (opt_.sync.window_s > 0 && opt_.sync.window_s < per_op)
    throw PointUsageError(
        "--sync-window " + format_seconds(opt_.sync.window_s) +
        " is shorter than one operation of this point (" +
        format_seconds(per_op) +
        " calibrated): every window would end before its operation; give "
        "at least twice that, or leave --sync-window out (W is then twice "
        "each point's own time)");
  pr.window = opt_.sync.window_s > 0
                  ? opt_.sync.window_s
                  : std::max(kWindowMargin * per_op, per_op + kMinWindow);
  pr.iters = windows_for(pr.window, opt_);
  pr.expected = static_cast<double>(pr.iters) * pr.window;
  pr.pt.inner_iterations = pr.iters;
}

timing::Sample PointRun::windowed_sample(PartRun& pr) {
  for (;;) {
    timing::Sample s =
        runner_.run_windowed(pr.iters, pr.window, pr.timed.c_str());
    // From reduced figures: the same decision on every rank.
    const bool too_many = static_cast<double>(s.invalid) >
                          kInvalidBound * static_cast<double>(s.windows);
    if (!too_many) return s;
    // A W given (--sync-window) stays; a calibrated one doubles.
    const bool given = opt_.sync.window_s > 0;
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
    pr.iters = windows_for(pr.window, opt_);
    pr.expected = static_cast<double>(pr.iters) * pr.window;
    pr.pt.inner_iterations = pr.iters;
  }
}

void PointRun::record_windows() {
  SyncTiming& t = rec_.sync;
  t.windowed = true;
  t.clock = opt_.sync.algorithm;
  t.residual_s = opt_.sync.residual_s;
  t.window_s = headline_run().window;
  for (const PartRun& pr : runs_) {
    t.windows += pr.windows;
    t.invalid += pr.invalid;
    t.grew += pr.grew;
  }
  rec_.definition["sync"] = "window";
  if (t.invalid_fraction() > kInvalidBound)
    rec_.notes.push_back(
        "window timing: " + std::to_string(t.invalid) + " of " +
        std::to_string(t.windows) + " windows invalid, above the bound of " +
        std::to_string(static_cast<int>(kInvalidBound * 100)) + "% " +
        (opt_.sync.window_s > 0
             ? "with the W given (--sync-window " + format_seconds(t.window_s) +
                   ")."
             : "also after W doubled " + std::to_string(t.grew) +
                   " times (to " + format_seconds(t.window_s) + ")."));
}

}  // namespace mpiarena
