// Internal: a synchronisation method (--sync; docs/architecture.md,
// "Adding a synchronisation method"): what it needs before the first point,
// how the ranks of a point start and stop a sample together and how the
// sample's time is taken, and what it records. One object per run, made by
// name (make_synchronizer) from the registry (sync_methods.hpp); each
// method is one file, sync_NAME.cpp, defining make_NAME_sync.
#pragma once

#include <mpi.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/engine/timed_run.hpp"
#include "core/results/records.hpp"
#include "core/results/sync_methods.hpp"

namespace spdlog {
class logger;
}  // namespace spdlog

namespace mpiarena {

struct MeasureOptions;
struct PartRun;

// What a method takes from the run's options.
struct SyncSettings {
  std::string clock_sync = "hca";  // --clock-sync: the global clock's
  double window_s = 0;             // --sync-window; 0: calibrated
  double step_bound = 1e9;         // a step's bound (--point-timeout)
  int repetitions = 7;             // samples a point (--repetitions)
};

class Synchronizer {
 public:
  explicit Synchronizer(const SyncMethodInfo& info) : info_(info) {}
  virtual ~Synchronizer() = default;
  Synchronizer(const Synchronizer&) = delete;
  Synchronizer& operator=(const Synchronizer&) = delete;

  const std::string& name() const { return info_.name; }
  const std::string& description() const { return info_.description; }

  // The run, collective over the launch's `world` (every rank, also those
  // outside a point's ranks):
  // before the first point, what the method needs (window: the global
  // clock), said on `log`;
  virtual void start(MPI_Comm /*world*/, spdlog::logger& /*log*/) {}
  // before every group of points (window: the clock checked);
  virtual void before_group() {}
  // after the last point, what the document's context gets (window:
  // its clock, checked once more).
  virtual void stop(Context& /*context*/) {}

  // The method a point of `suite` runs under: this one (auto: the
  // suite's own, suites.hpp suite_sync).
  virtual const Synchronizer& for_suite(const std::string& /*suite*/) const {
    return *this;
  }

  // Whether a point's calibration is the loop grown to --min-time
  // (PointRun::calibrate); false: one untimed operation sizes it.
  virtual bool calibrates() const { return true; }

  // A point, collective over its harness. The calibration runs after a
  // barrier whatever the method (timing::Runner::run); then, per part:
  // after its calibration (`per_op`: one operation's time, the largest
  // rank's), how its samples are sized (PartRun::iters, expected);
  virtual void calibrated(PartRun& /*pr*/, double /*per_op*/,
                          const MeasureOptions& /*opt*/) const {}
  // one sample of the part: its start, its operations, its stop, reduced
  // over the ranks (totals of the sample, timed_run.hpp's Sample);
  virtual timing::Sample sample(timing::Runner& runner, PartRun& pr,
                                const MeasureOptions& opt) const = 0;
  // the sample's wall time (what the noise judgement and --max-time count);
  virtual double wall(const PartRun& pr, const timing::Sample& s) const = 0;
  // after a sample is kept: what the part's next one expects, its counts;
  virtual void kept(PartRun& /*pr*/, const timing::Sample& /*s*/) const {}
  // at the end of the point, what goes into its record (`runs`: every
  // part's, `headline`: the headline part's).
  virtual void record(Record& /*rec*/, const std::vector<PartRun>& /*runs*/,
                      const PartRun& /*headline*/) const {}

 private:
  const SyncMethodInfo& info_;
};

// The method registered as `name` (sync_methods.hpp); throws
// std::invalid_argument naming the accepted ones when none is.
std::unique_ptr<Synchronizer> make_synchronizer(const std::string& name,
                                                const SyncSettings& settings);

// The method of a MeasureOptions that names none: barrier.
const Synchronizer& default_synchronizer();

}  // namespace mpiarena
