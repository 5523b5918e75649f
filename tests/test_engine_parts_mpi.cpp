// measure_point() under MPI with 2 ranks: a point skipped by its method,
// parts calibrated apart and phases reduced over the ranks.
#include "engine_mpi_fixture.hpp"

namespace {

using engine_test::Engine;
using engine_test::Record;
using engine_test::same_everywhere;

// A method that cannot take a size throws SkipPoint on every rank: the point
// is skipped with its reason (PointSkipped), not failed.
class TooBig : public mpiarena::Strategy {
 public:
  void prepare(const mpiarena::RunContext& ctx) override {
    throw mpiarena::SkipPoint("a message of " + std::to_string(ctx.bytes) +
                              " bytes exceeds this method's limit");
  }
  void execute() override {}
  void poison() override {}
  mpiarena::Verdict verify() override { return {}; }
};

TEST_F(Engine, SkipPointIsASkipNotAFailure) {
  TooBig s;
  std::string skipped;
  try {
    mpiarena::measure_point(s, context("1d", 8), options_, harness_);
  } catch (const mpiarena::PointSkipped& e) {
    skipped = e.what();
  }
  EXPECT_EQ(skipped, "a message of 8 bytes exceeds this method's limit");
}

// Contract v4 under MPI: parts, phases and a metric, every rank alike.
class TwoParts : public mpiarena::Strategy {
 public:
  void prepare(const mpiarena::RunContext& ctx) override { ctx_ = ctx; }
  void execute() override {
    ++runs[ctx_.part()];
    auto t = ctx_.phases->scope(0);
    const double until = MPI_Wtime() + (ctx_.part() == 0 ? 20e-6 : 40e-6);
    while (MPI_Wtime() < until) {
    }
  }
  void poison() override {}
  mpiarena::Verdict verify() override { return {}; }
  long runs[2] = {0, 0};

 private:
  mpiarena::RunContext ctx_;
};

TEST_F(Engine, PartsAreCalibratedApartAndPhasesReduced) {
  mpiarena::StrategyInfo info;
  info.name = "two_parts";
  info.phases = {"spin"};
  info.parts = {"short", "long"};
  info.headline = "long";
  info.metrics = {{"ratio", "x", false, [](const mpiarena::MetricInput& in) {
                     return in.part("long") / in.part("short");
                   }}};
  options_.info = &info;
  TwoParts s;
  const Record rec =
      mpiarena::measure_point(s, context("1d", 8), options_, harness_);
  EXPECT_TRUE(same_everywhere(rec.inner_iterations));
  ASSERT_EQ(rec.parts.size(), 2u);
  EXPECT_EQ(rec.headline_part, "long");
  EXPECT_EQ(rec.time.median, rec.parts[1].time.median);
  EXPECT_GT(s.runs[0], 0);
  EXPECT_GT(s.runs[1], 0);
  // The phase covers (nearly) the whole operation, never more than it.
  ASSERT_EQ(rec.phases.size(), 1u);
  EXPECT_LE(rec.phases[0].time.median, rec.time.median * 1.0001);
  EXPECT_GE(rec.phases[0].time.median, rec.time.median * 0.5);
  ASSERT_EQ(rec.metrics.size(), 1u);
  // The formula applied to the parts' medians (times themselves are not
  // asserted: this machine is noisy).
  EXPECT_DOUBLE_EQ(rec.metrics[0].value,
                   rec.parts[1].time.median / rec.parts[0].time.median);
  EXPECT_EQ(rec.metrics[0].samples.size(),
            static_cast<std::size_t>(options_.repetitions));
  EXPECT_TRUE(same_everywhere(rec.metrics[0].value));
}

}  // namespace
