// measure_point() under MPI with 2 ranks: the world, the string
// collectives, verification of the test plugins and of local strategies,
// the order of the calls, failures on one rank; main() (rank 0 prints
// GoogleTest's output, the other ranks their failures, the exit code is the
// worst rank's). The other engine tests: test_engine_*_mpi.cpp (one binary,
// engine_mpi_fixture.hpp; GoogleTest runs them in the order of the files in
// tests/CMakeLists.txt).
#include "engine_mpi_fixture.hpp"

namespace {

using engine_test::Engine;
using engine_test::Record;
using engine_test::Recorder;
using engine_test::same_everywhere;

TEST_F(Engine, WorldHasTwoRanks) {
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  EXPECT_EQ(size, 2);
  EXPECT_NE(registry_->find("test_ok"), nullptr);
  EXPECT_NE(registry_->find("corrupt"), nullptr);
}

// The runner's string collectives (host names, placement, options), which
// replaced Boost.MPI's gather and broadcast of strings.
TEST(Strings, GatherPutsEveryRanksStringInRankOrderOnTheRoot) {
  const mpiarena::World world;
  const std::string mine = world.rank() == 0 ? "" : std::string("aaa\0b", 5);
  for (int root : {0, 1}) {
    const auto all = mpiarena::gather_strings(mine, root, world);
    if (world.rank() != root) {
      EXPECT_TRUE(all.empty());
      continue;
    }
    ASSERT_EQ(all.size(), 2u);
    EXPECT_EQ(all[0], "");
    EXPECT_EQ(all[1], std::string("aaa\0b", 5));
  }
}

TEST(Strings, BroadcastGivesEveryRankTheRootsList) {
  const mpiarena::World world;
  std::vector<std::string> mine = {"x", "",
                                   "rank " + std::to_string(world.rank())};
  if (world.rank() == 1) mine.push_back("only on rank 1");
  const auto got = mpiarena::bcast_strings(mine, 1, world);
  EXPECT_EQ(got,
            (std::vector<std::string>{"x", "", "rank 1", "only on rank 1"}));
  EXPECT_TRUE(mpiarena::bcast_strings({}, 0, world).empty());
}

// MPI_COMM_WORLD returns error codes (MpiSession), as Boost.MPI's
// environment made it: a bad call throws MpiError through MPIARENA_CHECK.
TEST(Session, WorldReturnsErrors) {
  MPI_Errhandler handler = MPI_ERRHANDLER_NULL;
  ASSERT_EQ(MPI_Comm_get_errhandler(MPI_COMM_WORLD, &handler), MPI_SUCCESS);
  EXPECT_TRUE(handler == MPI_ERRORS_RETURN);
  MPI_Errhandler_free(&handler);
  int v = 0;
  EXPECT_THROW(MPIARENA_CHECK(MPI_Bcast(&v, 1, MPI_INT, 7, MPI_COMM_WORLD)),
               mpiarena::MpiError);
}

TEST_F(Engine, CorrectPluginPasses1d) {
  const Record rec = measure("test_ok", "1d", 4096);
  expect_consistent(rec, "1d", 4096);
  EXPECT_EQ(rec.verification, "passed");
  EXPECT_EQ(rec.verification_message, "");
}

TEST_F(Engine, CorrectPluginPasses2d) {
  const Record rec = measure("test_ok", "2d", mpiarena::preset_bytes(50));
  expect_consistent(rec, "2d", 11000);
  EXPECT_EQ(rec.verification, "passed") << rec.verification_message;
}

TEST_F(Engine, CorrectPluginPassesWithAnotherRoot) {
  const Record rec = measure("test_ok", "2d", 2200, /*root=*/1);
  EXPECT_EQ(rec.verification, "passed") << rec.verification_message;
  const Record flat = measure("test_ok", "1d", 1000, /*root=*/1);
  EXPECT_EQ(flat.verification, "passed") << flat.verification_message;
}

TEST_F(Engine, EmptyPayloadPasses) {
  const Record rec = measure("test_ok", "1d", 0);
  expect_consistent(rec, "1d", 0);
  EXPECT_EQ(rec.verification, "passed") << rec.verification_message;
  const Record rows = measure("test_ok", "2d", 100);  // base 0: five empty rows
  EXPECT_EQ(rows.verification, "passed") << rows.verification_message;
}

TEST_F(Engine, CorruptPluginFailsVerification1d) {
  const Record rec = measure("corrupt", "1d", 4096);
  expect_consistent(rec, "1d", 4096);
  EXPECT_EQ(rec.verification, "failed");
  EXPECT_EQ(rec.verification_message.rfind("rank 1: 1d payload element 512", 0),
            0u)
      << rec.verification_message;
}

TEST_F(Engine, CorruptPluginFailsVerification2d) {
  const Record rec = measure("corrupt", "2d", 11000);
  EXPECT_EQ(rec.verification, "failed");
  EXPECT_EQ(rec.verification_message.rfind(
                "rank 1: 2d payload row element 625 of row 4", 0),
            0u)
      << rec.verification_message;
}

TEST_F(Engine, CorruptPluginFailsEvenWithNothingToFlip) {
  EXPECT_EQ(measure("corrupt", "1d", 0).verification, "failed");
  EXPECT_EQ(measure("corrupt", "2d", 0).verification, "failed");
}

TEST_F(Engine, NoVerifySkipsVerification) {
  options_.verify = false;
  const Record rec = measure("corrupt", "1d", 4096);
  EXPECT_EQ(rec.verification, "skipped");
  EXPECT_EQ(rec.verification_message, "--no-verify");
}

TEST_F(Engine, CallsTheStrategyInTheDocumentedOrder) {
  Recorder s;
  const Record rec =
      mpiarena::measure_point(s, context("1d", 8), options_, harness_);
  EXPECT_EQ(s.comm, comm_);  // the strategy's communicator, not the harness
  EXPECT_EQ(s.calls,
            (std::vector<std::string>{"prepare", "execute", "poison", "execute",
                                      "verify", "release"}));
  EXPECT_EQ(rec.verification, "passed");
  // warmup + calibration (>= 1 run) + repetitions * iters + 1 verification.
  EXPECT_GE(s.executes, options_.warmup + 1 +
                            options_.repetitions * rec.inner_iterations + 1);
  EXPECT_TRUE(same_everywhere(s.executes));
}

TEST_F(Engine, PrepareFailureOnOneRankIsAPointErrorEverywhere) {
  Recorder s;
  s.fail_prepare_on = 1;
  std::string what;
  try {
    mpiarena::measure_point(s, context("1d", 8), options_, harness_);
  } catch (const mpiarena::PointError& e) {
    what = e.what();
  }
  EXPECT_EQ(what, "prepare failed on rank 1: out of tea");
  EXPECT_EQ(s.executes, 0);
}

TEST_F(Engine, VerifyThrowingIsAPointErrorEverywhere) {
  Recorder s;
  s.fail_verify_on = 1;
  std::string what;
  try {
    mpiarena::measure_point(s, context("1d", 8), options_, harness_);
  } catch (const mpiarena::PointError& e) {
    what = e.what();
  }
  EXPECT_EQ(what, "verification failed on rank 1: verifier crashed");
}

// Transfer strategies written here, on the base class of the transfer suite.
class NoTransfer final : public mpiarena::TransferStrategy {
  void execute() override { MPIARENA_CHECK(MPI_Barrier(comm())); }
};

class RootScribbles final : public mpiarena::TransferStrategy {
  void execute() override {
    MPIARENA_CHECK(MPI_Bcast(flat().data(), static_cast<int>(flat().size()),
                             MPI_INT, root(), comm()));
    if (is_root())
      flat()[0] = 3;  // after sending: only the root's copy is wrong
  }
};

TEST_F(Engine, ReceiversThatGetNothingFailVerification) {
  NoTransfer flat_strategy;
  const Record flat = mpiarena::measure_point(flat_strategy, context("1d", 64),
                                              options_, harness_);
  EXPECT_EQ(flat.verification, "failed");
  EXPECT_EQ(flat.verification_message.rfind("rank 1: 1d payload element 0 ", 0),
            0u)
      << flat.verification_message;
  EXPECT_NE(flat.verification_message.find("never written"), std::string::npos)
      << flat.verification_message;
  NoTransfer rows_strategy;
  const Record rows = mpiarena::measure_point(
      rows_strategy, context("2d", 2200), options_, harness_);
  EXPECT_EQ(rows.verification, "failed");
  EXPECT_EQ(rows.verification_message,
            "rank 1: 2d payload has 0 rows, expected 5");
}

TEST_F(Engine, TheRootsOwnCopyIsVerifiedToo) {
  RootScribbles s;
  const Record rec =
      mpiarena::measure_point(s, context("1d", 64), options_, harness_);
  EXPECT_EQ(rec.verification, "failed");
  EXPECT_EQ(rec.verification_message.rfind(
                "rank 0: root's own 1d payload element 0", 0),
            0u)
      << rec.verification_message;
}

// Other ranks print only their failures, prefixed with the rank.
class RankFailurePrinter : public ::testing::EmptyTestEventListener {
 public:
  explicit RankFailurePrinter(int rank) : rank_(rank) {}
  void OnTestPartResult(const ::testing::TestPartResult& r) override {
    if (r.failed())
      std::fprintf(stderr, "[rank %d] %s:%d: Failure\n%s\n", rank_,
                   r.file_name() ? r.file_name() : "?", r.line_number(),
                   r.summary());
  }
  void OnTestEnd(const ::testing::TestInfo& info) override {
    if (info.result()->Failed())
      std::fprintf(stderr, "[rank %d] FAILED %s.%s\n", rank_,
                   info.test_suite_name(), info.name());
  }

 private:
  int rank_;
};

}  // namespace

int main(int argc, char** argv) {
  mpiarena::MpiSession env(argc, argv);
  ::testing::InitGoogleTest(&argc, argv);
  const int rank = engine_test::world_rank();
  if (rank != 0) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new RankFailurePrinter(rank));
  }
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2) {
    if (rank == 0)
      std::fprintf(stderr, "run with exactly 2 ranks (mpirun -n 2)\n");
    return 1;
  }
  const int mine = RUN_ALL_TESTS();
  int worst = 0;
  MPI_Allreduce(&mine, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return worst;
}
