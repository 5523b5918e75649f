// The overlap suite's formulas (seed 002's and OSU's) on hand-computed
// cases, and its computation kernel.
#include <gtest/gtest.h>

#include <mpiarena/overlap_suite.hpp>
#include <mpiarena/stats.hpp>

#include "core/engine/point_notes.hpp"

using mpiarena::nob_overlap_percent;
using mpiarena::osu_overlap_percent;

// pure = comm alone, comp = computation alone, ovrl = both together.
TEST(Overlap, NoOverlapWhenBothTakeTheSum) {
  EXPECT_DOUBLE_EQ(nob_overlap_percent(10, 10, 20), 0);
  EXPECT_DOUBLE_EQ(osu_overlap_percent(10, 10, 20), 0);
}

TEST(Overlap, FullOverlapWhenBothTakeTheLonger) {
  EXPECT_DOUBLE_EQ(nob_overlap_percent(10, 10, 10), 100);
  EXPECT_DOUBLE_EQ(osu_overlap_percent(10, 10, 10), 100);
  // Computation longer than the communication: hidden entirely.
  EXPECT_DOUBLE_EQ(nob_overlap_percent(4, 10, 10), 100);
  EXPECT_DOUBLE_EQ(osu_overlap_percent(4, 10, 10), 100);
  // Never above 100, even where 100 * t / t rounds up (seen under MPICH).
  const double t = 0.0013445080768799;
  EXPECT_LE(nob_overlap_percent(t, 2 * t, 2 * t), 100.0);
  EXPECT_LE(nob_overlap_percent(t, t, t), 100.0);
}

TEST(Overlap, PartialOverlap) {
  // 20 - 15 = 5 us saved of the 10 that could be: 50%.
  EXPECT_DOUBLE_EQ(nob_overlap_percent(10, 10, 15), 50);
  // OSU: 1 - (15 - 10) / 10 = 0.5.
  EXPECT_DOUBLE_EQ(osu_overlap_percent(10, 10, 15), 50);
  // Unequal parts: pure 8, comp 12, both 14: saved 6 of min 8 = 75%;
  // OSU 1 - (14 - 12) / 8 = 75%.
  EXPECT_DOUBLE_EQ(nob_overlap_percent(8, 12, 14), 75);
  EXPECT_DOUBLE_EQ(osu_overlap_percent(8, 12, 14), 75);
  // The two differ when the computation is the shorter: pure 12, comp 8,
  // both 14: seed 002 saved 6 of min 8 = 75%, OSU 1 - 6 / 12 = 50%.
  EXPECT_DOUBLE_EQ(nob_overlap_percent(12, 8, 14), 75);
  EXPECT_DOUBLE_EQ(osu_overlap_percent(12, 8, 14), 50);
}

TEST(Overlap, SlowerThanTheSumIsZeroNotNegative) {
  EXPECT_DOUBLE_EQ(nob_overlap_percent(10, 10, 25), 0);
  EXPECT_DOUBLE_EQ(osu_overlap_percent(10, 10, 25), 0);
}

TEST(Overlap, FasterThanEitherPartIsClampedTo100) {
  EXPECT_DOUBLE_EQ(nob_overlap_percent(10, 10, 5), 100);
  EXPECT_DOUBLE_EQ(osu_overlap_percent(10, 10, 5), 100);
}

TEST(Overlap, NothingToOverlapIsZero) {
  EXPECT_DOUBLE_EQ(nob_overlap_percent(0, 10, 10), 0);
  EXPECT_DOUBLE_EQ(osu_overlap_percent(0, 10, 10), 0);
}

TEST(Overlap, KernelIsADeterministicChain) {
  using K = mpiarena::OverlapStrategy;
  EXPECT_EQ(K::kernel(1, 0), 1u);
  EXPECT_EQ(K::kernel(1, 5), K::kernel(K::kernel(1, 2), 3));
  EXPECT_NE(K::kernel(1, 5), K::kernel(2, 5));
  EXPECT_NE(K::kernel(1, 5), K::kernel(1, 6));
}

// A point whose computation did not come out as long as the communication
// says so, with the communication's spread.
TEST(Overlap, PointNotesACalibrationThatDidNotHold) {
  mpiarena::Record r;
  r.suite = "overlap";
  mpiarena::PartTiming comm;
  comm.name = "comm";
  comm.samples_max = {10e-6, 12e-6, 14e-6};
  comm.time = mpiarena::summarize(comm.samples_max);
  r.parts = {comm};
  mpiarena::MetricValue ratio;
  ratio.name = "comp_over_comm";
  ratio.value = 1.2;
  r.metrics = {ratio};
  const auto notes = mpiarena::point_notes(r);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("1.20x"), std::string::npos) << notes[0];
  EXPECT_NE(notes[0].find("10.00 us to 14.00 us"), std::string::npos)
      << notes[0];
  r.metrics[0].value = 1.03;
  EXPECT_TRUE(mpiarena::point_notes(r).empty());
  r.metrics[0].value = 1.2;
  r.suite = "collective";
  EXPECT_TRUE(mpiarena::point_notes(r).empty());
}
