// measure_point() under MPI with 2 ranks: when sampling stops: --iterations,
// --target-rse and its time cap; the relative standard error.
#include "engine_mpi_fixture.hpp"

namespace {

using engine_test::Engine;
using engine_test::Record;
using engine_test::Recorder;
using engine_test::same_everywhere;

TEST_F(Engine, IterationsRunsExactlyNOperationsPerSample) {
  options_.iterations = 7;
  options_.retry_noisy = 0;
  Recorder s;
  const Record rec =
      mpiarena::measure_point(s, context("1d", 8), options_, harness_);
  EXPECT_EQ(rec.inner_iterations, 7);
  // warm-up + one sizing run + repetitions x 7 + the verified execute.
  EXPECT_EQ(s.executes, options_.warmup + 7 + options_.repetitions * 7 + 1);
}

TEST_F(Engine, TargetRseStopsOnTargetOrOnTheTimeCap) {
  options_.repetitions = 3;
  options_.target_rse = 0.5;  // any sane run of a barrier reaches 50%
  Recorder loose;
  const Record reached =
      mpiarena::measure_point(loose, context("1d", 8), options_, harness_);
  EXPECT_TRUE(same_everywhere(reached.repetitions));
  EXPECT_EQ(reached.stopped_by, "target_rse");
  EXPECT_GE(reached.repetitions, 3);
  EXPECT_LE(reached.rse, 0.5);
  EXPECT_DOUBLE_EQ(reached.rse,
                   mpiarena::relative_standard_error(reached.samples_max));

  options_.target_rse = 1e-12;  // never reached: the cap stops it
  options_.min_time = 0.0005;
  options_.retry_noisy = 0;  // retries count towards the cap, unrecorded
  options_.max_time = 0.03;  // about 60 samples of min_time 0.0005
  Recorder tight;
  const Record capped =
      mpiarena::measure_point(tight, context("1d", 8), options_, harness_);
  EXPECT_TRUE(same_everywhere(capped.repetitions));
  EXPECT_EQ(capped.stopped_by, "max_time");
  EXPECT_GT(capped.repetitions, 3);
  EXPECT_GT(capped.rse, 1e-12);
  double spent = 0;
  for (double t : capped.samples_max)
    spent += t * static_cast<double>(capped.inner_iterations);
  EXPECT_GE(spent, 0.03 * 0.9);  // the samples' time reached the cap
  EXPECT_EQ(capped.samples_max.size(),
            static_cast<std::size_t>(capped.repetitions));
}

TEST(Statistics, RelativeStandardErrorOfTheMean) {
  EXPECT_EQ(mpiarena::relative_standard_error({}), 0);
  EXPECT_EQ(mpiarena::relative_standard_error({3}), 0);
  // mean 2, s = 1, n = 3: 1 / sqrt(3) / 2.
  EXPECT_NEAR(mpiarena::relative_standard_error({1, 2, 3}),
              1 / std::sqrt(3.0) / 2, 1e-12);
}

}  // namespace
