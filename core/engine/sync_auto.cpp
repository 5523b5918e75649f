// --sync auto, the default (synchronizer.hpp): each suite's own method
// (suites.hpp, suite_sync): single for the collectives, whose small
// operations pipeline in a loop, barrier (the calibrated loop) for the
// others. Needs nothing before the first point and records what the
// method it chose records.
#include "core/engine/point_run.hpp"
#include "core/engine/synchronizer.hpp"
#include "core/results/suites.hpp"

namespace mpiarena {

namespace {

class AutoSync : public Synchronizer {
 public:
  AutoSync(const SyncMethodInfo& info, const SyncSettings& settings)
      : Synchronizer(info),
        barrier_(make_synchronizer("barrier", settings)),
        single_(make_synchronizer("single", settings)) {}

  const Synchronizer& for_suite(const std::string& suite) const override {
    return suite_sync(suite) == "single" ? *single_ : *barrier_;
  }

  // A point always runs under for_suite's method; these are barrier's.
  timing::Sample sample(timing::Runner& runner, PartRun& pr,
                        const MeasureOptions& opt) const override {
    return barrier_->sample(runner, pr, opt);
  }
  double wall(const PartRun& pr, const timing::Sample& s) const override {
    return barrier_->wall(pr, s);
  }

 private:
  std::unique_ptr<Synchronizer> barrier_, single_;
};

}  // namespace

std::unique_ptr<Synchronizer> make_auto_sync(const SyncMethodInfo& info,
                                             const SyncSettings& settings) {
  return std::make_unique<AutoSync>(info, settings);
}

}  // namespace mpiarena
