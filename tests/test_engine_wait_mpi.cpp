// measure_point() under MPI with 2 ranks: the sleeping wait leaves the core
// to the rank that works and keeps the documented order of the calls.
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

}  // namespace
