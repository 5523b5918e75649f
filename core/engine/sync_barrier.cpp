// --sync barrier (synchronizer.hpp): every sample starts after a barrier
// (timing::Runner::run, as the calibration), each rank's loop timed alone,
// then reduced over the ranks: OSU's and IMB's way. Needs nothing before
// the first point and records nothing of its own.
#include <algorithm>

#include "core/engine/point_run.hpp"
#include "core/engine/synchronizer.hpp"

namespace mpiarena {

namespace {

class BarrierSync : public Synchronizer {
 public:
  using Synchronizer::Synchronizer;

  timing::Sample sample(timing::Runner& runner, PartRun& pr,
                        const MeasureOptions& /*opt*/) const override {
    return runner.run(pr.iters, pr.expected, pr.timed.c_str());
  }

  // The loop's own time, the slowest rank's.
  double wall(const PartRun& /*pr*/, const timing::Sample& s) const override {
    return s.max;
  }

  // The watchdog's bound of the next sample follows the slowest one yet.
  void kept(PartRun& pr, const timing::Sample& s) const override {
    pr.expected = std::max(pr.expected, s.max);
  }
};

}  // namespace

std::unique_ptr<Synchronizer> make_barrier_sync(
    const SyncMethodInfo& info, const SyncSettings& /*settings*/) {
  return std::make_unique<BarrierSync>(info);
}

}  // namespace mpiarena
