// measure_point() and measure_group() under MPI with 2 ranks: how a point's
// samples are taken: the sleeping wait, a point skipped by its method,
// parts calibrated apart and phases reduced, interleaved rounds in the
// seeded order, and when sampling stops (--iterations, --target-rse and its
// time cap).
#include "engine_mpi_fixture.hpp"

namespace {

using engine_test::Engine;
using engine_test::Record;
using engine_test::Recorder;
using engine_test::same_everywhere;
using engine_test::world_rank;

// Rank 0 works (spins for 200 us per operation), rank 1 has nothing to do,
// like a rank outside the ping-pong pair.
class Lopsided : public mpiarena::Strategy {
 public:
  void prepare(const mpiarena::RunContext& ctx) override { rank_ = ctx.rank; }
  void execute() override {
    if (rank_ != 0) return;
    const double until = MPI_Wtime() + 200e-6;
    while (MPI_Wtime() < until) {
    }
  }
  void poison() override {}
  mpiarena::Verdict verify() override { return {}; }
  void release() override {}

 private:
  int rank_ = 0;
};

double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

TEST_F(Engine, SleepingWaitLeavesTheCoreToTheWorkingRank) {
  options_.sleep_when_waiting = true;
  // Samples of 20 ms: the idle rank's own fixed work (set-up, reductions,
  // several times slower under the sanitizers) stays a small part of the
  // wall time, which is then mostly rank 0's work.
  options_.min_time = 0.02;
  Lopsided s;
  const double wall0 = MPI_Wtime(), cpu0 = thread_cpu_seconds();
  const Record rec =
      mpiarena::measure_point(s, context("1d", 8), options_, harness_);
  const double wall = MPI_Wtime() - wall0, cpu = thread_cpu_seconds() - cpu0;
  EXPECT_EQ(rec.verification, "passed");
  EXPECT_GE(rec.time.median, 200e-6);
  ASSERT_EQ(rec.per_rank.size(), 2u);
  EXPECT_LT(rec.per_rank[1], 1e-6);  // the idle rank timed an empty loop
  // The idle rank spent the time rank 0 worked asleep: a polling wait
  // would burn about as much CPU time as wall time.
  if (world_rank() == 1) {
    EXPECT_LT(cpu, 0.5 * wall) << "cpu " << cpu << " s of " << wall << " s";
  }
}

TEST_F(Engine, SleepingWaitKeepsTheDocumentedOrder) {
  options_.sleep_when_waiting = true;
  Recorder s;
  const Record rec =
      mpiarena::measure_point(s, context("1d", 8), options_, harness_);
  EXPECT_EQ(s.calls,
            (std::vector<std::string>{"prepare", "execute", "poison", "execute",
                                      "verify", "release"}));
  EXPECT_EQ(rec.verification, "passed");
  EXPECT_TRUE(same_everywhere(s.executes));
}

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

// Issue 16 ---------------------------------------------------------------

// Appends its id to a shared timeline on every execute() (a real barrier on
// ctx.comm, so the ranks stay in step), to see the order the engine ran
// the members of a group in.
class Tagged : public mpiarena::Strategy {
 public:
  Tagged(int id, std::vector<int>* timeline) : id_(id), timeline_(timeline) {}
  void prepare(const mpiarena::RunContext& ctx) override {
    comm_ = ctx.comm;
    if (ctx.rank == fail_prepare_on) throw std::runtime_error("no kettle");
  }
  void execute() override {
    ++executes;
    timeline_->push_back(id_);
    MPIARENA_CHECK(MPI_Barrier(comm_));
  }
  void poison() override {}
  mpiarena::Verdict verify() override { return {}; }
  void release() override { ++releases; }

  long long executes = 0;
  int releases = 0, fail_prepare_on = -1;

 private:
  int id_;
  std::vector<int>* timeline_;
  MPI_Comm comm_ = MPI_COMM_NULL;
};

class Group : public Engine {
 protected:
  // Three Tagged members measured as one group with `seed`.
  std::vector<mpiarena::GroupResult> run_group(std::uint64_t seed,
                                               std::vector<Tagged>& tags) {
    std::vector<mpiarena::GroupMember> members(tags.size());
    for (std::size_t i = 0; i < tags.size(); ++i) {
      members[i].strategy = &tags[i];
      members[i].ctx = context("1d", 8);
      members[i].name = "tag " + std::to_string(i);
    }
    return mpiarena::measure_group(members, options_, harness_, seed, 5);
  }
  std::vector<int> timeline_;
};

TEST_F(Group, RoundsRunOneSampleOfEachMemberInTheSeededOrder) {
  options_.iterations = 2;  // every sample is 2 executes: countable
  options_.retry_noisy = 0;
  options_.repetitions = 4;
  std::vector<Tagged> tags{{0, &timeline_}, {1, &timeline_}, {2, &timeline_}};
  const auto results = run_group(1234, tags);
  ASSERT_EQ(results.size(), 3u);
  for (const auto& r : results) ASSERT_EQ(r.kind, r.measured) << r.reason;
  // Warm-up (1) and the sizing run (2) of each member in turn, then the
  // rounds (per sample: 1 warm-up execute again, then 2 timed), then one
  // verified execute each.
  std::vector<int> expected{0, 0, 0, 1, 1, 1, 2, 2, 2};
  for (int round = 0; round < 4; ++round)
    for (int m : mpiarena::round_order(1234, 5, round, 3))
      expected.insert(expected.end(), 3, m);
  for (int m : {0, 1, 2}) expected.push_back(m);
  EXPECT_EQ(timeline_, expected);
  // Each record says where it ran in every round.
  for (int m = 0; m < 3; ++m) {
    const Record& rec = results[static_cast<std::size_t>(m)].record;
    EXPECT_EQ(rec.interleave_group, 5);
    EXPECT_EQ(rec.interleave_points, 3);
    ASSERT_EQ(rec.slots.size(), 4u);
    for (int round = 0; round < 4; ++round) {
      const auto order = mpiarena::round_order(1234, 5, round, 3);
      EXPECT_EQ(order[static_cast<std::size_t>(rec.slots[round])], m);
    }
    EXPECT_EQ(rec.repetitions, 4);
    EXPECT_EQ(rec.inner_iterations, 2);
    EXPECT_EQ(tags[static_cast<std::size_t>(m)].releases, 1);
  }
}

TEST_F(Group, TheOrderIsReproducibleFromTheSeedAndChangesWithIt) {
  EXPECT_EQ(mpiarena::round_order(7, 1, 3, 10),
            mpiarena::round_order(7, 1, 3, 10));
  int differ = 0;
  for (int round = 0; round < 8; ++round) {
    const auto a = mpiarena::round_order(7, 1, round, 10);
    auto sorted = a;
    std::sort(sorted.begin(), sorted.end());
    for (int i = 0; i < 10; ++i)
      EXPECT_EQ(sorted[static_cast<std::size_t>(i)], i);
    if (a != mpiarena::round_order(8, 1, round, 10)) ++differ;
    if (round > 0 && a == mpiarena::round_order(7, 1, round - 1, 10)) ++differ;
  }
  EXPECT_GE(differ, 7);  // another seed gives other orders
  // A fixed value, so that a change of the generator is seen (records of
  // earlier runs name their order by seed).
  EXPECT_EQ(mpiarena::round_order(42, 0, 0, 5),
            mpiarena::round_order(42, 0, 0, 5));
}

TEST_F(Group, OffMeasuresEachMemberWholeInTurn) {
  options_.interleave = false;
  options_.iterations = 2;
  options_.retry_noisy = 0;
  options_.repetitions = 3;
  std::vector<Tagged> tags{{0, &timeline_}, {1, &timeline_}};
  const auto results = run_group(99, tags);
  // warm-up 1 + sizing 2 + 3 samples x 2 + verification 1, member by member.
  std::vector<int> expected(10, 0);
  expected.insert(expected.end(), 10, 1);
  EXPECT_EQ(timeline_, expected);
  for (const auto& r : results) {
    EXPECT_EQ(r.record.interleave_group, -1);
    EXPECT_TRUE(r.record.slots.empty());
  }
}

TEST_F(Group, AMemberThatFailsLeavesTheOthersMeasured) {
  options_.iterations = 1;
  std::vector<Tagged> tags{{0, &timeline_}, {1, &timeline_}, {2, &timeline_}};
  tags[1].fail_prepare_on = 1;
  const auto results = run_group(3, tags);
  ASSERT_EQ(results.size(), 3u);
  EXPECT_EQ(results[0].kind, mpiarena::GroupResult::measured);
  EXPECT_EQ(results[1].kind, mpiarena::GroupResult::failed);
  EXPECT_NE(results[1].reason.find("no kettle"), std::string::npos)
      << results[1].reason;
  EXPECT_EQ(results[2].kind, mpiarena::GroupResult::measured);
  EXPECT_EQ(results[0].record.verification, "passed");
  EXPECT_EQ(results[2].record.verification, "passed");
  EXPECT_EQ(tags[1].executes, 0);
}

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
