// main() of the engine tests under MPI (test_engine*_mpi.cpp): MPI up,
// rank 0 prints GoogleTest's output, the other ranks their failures, and
// the exit code is the worst rank's.
#include "engine_mpi_fixture.hpp"

namespace {

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
