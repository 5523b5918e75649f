// The line a rank fits to its offset measurements (clock_sync.hpp): a
// slope is kept only where the points show one, and the model's two
// directions invert each other.
#include <gtest/gtest.h>

#include <cmath>

#include "core/engine/clock_sync.hpp"
#include "runner/options.hpp"

namespace {

using mpiarena::clocks::ClockModel;
using mpiarena::clocks::fit_line;
using mpiarena::clocks::OffsetPoint;

TEST(ClockSync, AFitRecoversADriftTheMeasurementsShow) {
  std::vector<OffsetPoint> points;
  for (int i = 0; i < 8; ++i) {
    const double t = 10 + 0.01 * i;
    // offset 2 ms and a drift of 20 ppm, with +-5 ns of alternating error
    points.push_back({t, 2e-3 + 2e-5 * t + (i % 2 ? 5e-9 : -5e-9), 1e-6});
  }
  const ClockModel m = fit_line(points);
  EXPECT_NEAR(m.slope, 2e-5, 2e-6);
  EXPECT_NEAR(m.offset + m.slope * 10.035, 2e-3 + 2e-5 * 10.035, 1e-8);
}

// The same drift over 7 ms is not kept: over seconds, a slope from so short
// a span is the offsets' noise extrapolated.
TEST(ClockSync, ASlopeFromAShortSpanIsNotKept) {
  std::vector<OffsetPoint> points;
  for (int i = 0; i < 8; ++i) {
    const double t = 10 + 0.001 * i;
    points.push_back({t, 2e-3 + 2e-5 * t + (i % 2 ? 5e-9 : -5e-9), 1e-6});
  }
  const ClockModel m = fit_line(points);
  EXPECT_EQ(m.slope, 0);
  EXPECT_NEAR(m.offset, 2e-3 + 2e-5 * 10.0035, 1e-8);
}

TEST(ClockSync, NoiseWithoutDriftGivesNoSlope) {
  std::vector<OffsetPoint> points;
  const double noise[] = {3e-8, -2e-8, 1e-8, -4e-8, 2e-8, 0, -1e-8, 3e-8};
  for (int i = 0; i < 8; ++i)
    points.push_back({5 + 0.0005 * i, 1e-3 + noise[i], 1e-6});
  const ClockModel m = fit_line(points);
  EXPECT_EQ(m.slope, 0);
  EXPECT_NEAR(m.offset, 1e-3, 2e-8);
}

TEST(ClockSync, APointOfASlowRoundTripIsLeftOut) {
  std::vector<OffsetPoint> points;
  for (int i = 0; i < 6; ++i) points.push_back({1.0 + i, 2e-6, 500e-9});
  // descheduled during its best exchange: 40 us round trip, 15 us off
  points.push_back({7.0, 17e-6, 40e-6});
  const ClockModel m = fit_line(points);
  EXPECT_EQ(m.slope, 0);
  EXPECT_NEAR(m.offset, 2e-6, 1e-12);
}

TEST(ClockSync, ASlopeFromFewPointsOrBeyondAClocksDriftIsNoise) {
  // Three points in a line: too few to tell a drift from noise.
  EXPECT_EQ(
      fit_line({{1.0, 1e-6, 5e-7}, {1.001, 2e-6, 5e-7}, {1.002, 3e-6, 5e-7}})
          .slope,
      0);
  // Eight points in a line of 0.1 %: no clock drifts that much.
  std::vector<OffsetPoint> points;
  for (int i = 0; i < 8; ++i)
    points.push_back({1 + 0.01 * i, 1e-3 * i * 0.01, 5e-7});
  EXPECT_EQ(fit_line(points).slope, 0);
}

TEST(ClockSync, OnePointIsItsOffset) {
  const ClockModel m = fit_line({{3.0, -4e-6, 1e-6}});
  EXPECT_EQ(m.slope, 0);
  EXPECT_EQ(m.offset, -4e-6);
  EXPECT_EQ(fit_line({}).offset, 0);
}

TEST(ClockSync, EveryNameTheCommandLineTakesIsAnAlgorithm) {
  for (const std::string& name : mpiarena::kClockSyncAlgorithms) {
    mpiarena::clocks::Algorithm a;
    ASSERT_TRUE(mpiarena::clocks::parse_algorithm(name, a)) << name;
    EXPECT_EQ(mpiarena::clocks::algorithm_name(a), name);
  }
}

TEST(ClockSync, LocalAndGlobalInvertEachOther) {
  const ClockModel m{1.5e-3, 3e-6};
  for (double t : {0.0, 1.0, 1234.5}) {
    EXPECT_NEAR(m.local(m.global(t)), t, 1e-12);
    EXPECT_NEAR(m.global(t), t - 1.5e-3 - 3e-6 * t, 1e-15);
  }
}

}  // namespace
