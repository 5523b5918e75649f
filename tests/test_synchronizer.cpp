// The synchronisation methods (core/engine/synchronizer.hpp): the registry
// (sync_methods.hpp) and the engine make the same methods by the same
// names, an unknown name is refused naming the accepted ones, and the
// steps of barrier and window that need no MPI: the wall time, what a kept
// sample leaves, W and the windows of a sample.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "core/engine/engine.hpp"
#include "core/engine/point_run.hpp"
#include "core/engine/synchronizer.hpp"
#include "core/results/sync_methods.hpp"

namespace {

using mpiarena::default_synchronizer;
using mpiarena::make_synchronizer;
using mpiarena::MeasureOptions;
using mpiarena::PartRun;
using mpiarena::SyncMethodInfo;
using mpiarena::SyncSettings;
using mpiarena::timing::Sample;

TEST(Synchronizer, TheRegistryHoldsAutoBarrierSingleWindow) {
  std::vector<std::string> names;
  for (const SyncMethodInfo& m : mpiarena::sync_methods())
    names.push_back(m.name);
  EXPECT_EQ(names, (std::vector<std::string>{"auto", "barrier", "single",
                                             "window"}));
  EXPECT_FALSE(mpiarena::sync_uses_global_clock("auto"));
  EXPECT_FALSE(mpiarena::sync_uses_global_clock("single"));
  EXPECT_FALSE(mpiarena::sync_uses_global_clock("barrier"));
  EXPECT_TRUE(mpiarena::sync_uses_global_clock("window"));
  EXPECT_FALSE(mpiarena::sync_uses_global_clock("clock"));
  EXPECT_EQ(mpiarena::find_sync_method("Window"), nullptr);
}

TEST(Synchronizer, TheEngineMakesEveryMethodTheRegistryNames) {
  for (const SyncMethodInfo& m : mpiarena::sync_methods()) {
    const auto sync = make_synchronizer(m.name, SyncSettings{});
    ASSERT_NE(sync, nullptr) << m.name;
    EXPECT_EQ(sync->name(), m.name);
    EXPECT_EQ(sync->description(), m.description);
    EXPECT_FALSE(sync->description().empty()) << m.name;
  }
  EXPECT_EQ(default_synchronizer().name(), "barrier");
}

TEST(Synchronizer, AnUnknownNameIsRefusedNamingTheAcceptedOnes) {
  try {
    make_synchronizer("clock", SyncSettings{});
    ADD_FAILURE() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "--sync 'clock' is not supported; accepted: auto, barrier, "
                 "single, window");
  }
}

// Barrier: the sample's time is the slowest rank's loop, and the next
// sample's bound follows the slowest sample yet.
TEST(Synchronizer, BarrierTakesTheSlowestLoop) {
  const auto sync = make_synchronizer("barrier", SyncSettings{});
  PartRun pr;
  pr.expected = 1.0;
  Sample s;
  s.max = 2.5;
  s.windows = 7;
  EXPECT_DOUBLE_EQ(sync->wall(pr, s), 2.5);
  sync->kept(pr, s);
  EXPECT_DOUBLE_EQ(pr.expected, 2.5);
  s.max = 0.5;
  sync->kept(pr, s);
  EXPECT_DOUBLE_EQ(pr.expected, 2.5);
  EXPECT_EQ(pr.windows, 0);
  MeasureOptions opt;
  pr.iters = 123;
  sync->calibrated(pr, 1e-3, opt);  // the calibrated count stays
  EXPECT_EQ(pr.iters, 123);
}

// Window: W twice an operation (at least 10 us more), enough windows to
// last --min-time and at least 50, --iterations as the count; a given W
// shorter than one operation is a usage error; the sample's wall time is
// its windows, and a kept sample's windows are counted.
TEST(Synchronizer, WindowSizesItsSamples) {
  const auto sync = make_synchronizer("window", SyncSettings{});
  const double op = 0.0009765625;  // 2^-10 s: the divisions exact
  MeasureOptions opt;
  opt.min_time = 0.25;
  PartRun pr;
  sync->calibrated(pr, op, opt);
  EXPECT_DOUBLE_EQ(pr.window, 2 * op);
  EXPECT_EQ(pr.iters, 128);
  EXPECT_EQ(pr.pt.inner_iterations, 128);
  EXPECT_DOUBLE_EQ(pr.expected, 0.25);
  opt.min_time = 0.005;
  sync->calibrated(pr, 1e-6, opt);
  EXPECT_DOUBLE_EQ(pr.window, 11e-6);
  EXPECT_EQ(pr.iters, 455);
  opt.min_time = 0.001;
  sync->calibrated(pr, op, opt);
  EXPECT_EQ(pr.iters, 50);
  opt.iterations = 9;
  sync->calibrated(pr, op, opt);
  EXPECT_EQ(pr.iters, 9);

  Sample s;
  s.max = 99;
  s.windows = 9;
  s.invalid = 2;
  EXPECT_DOUBLE_EQ(sync->wall(pr, s), pr.expected);
  sync->kept(pr, s);
  sync->kept(pr, s);
  EXPECT_EQ(pr.windows, 18);
  EXPECT_EQ(pr.invalid, 4);

  SyncSettings given;
  given.window_s = 1e-4;
  const auto fixed = make_synchronizer("window", given);
  EXPECT_THROW(fixed->calibrated(pr, 1e-3, opt), mpiarena::PointUsageError);
  fixed->calibrated(pr, 1e-5, opt);
  EXPECT_DOUBLE_EQ(pr.window, 1e-4);
}

}  // namespace
