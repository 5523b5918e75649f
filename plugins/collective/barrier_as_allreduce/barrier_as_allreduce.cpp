// barrier_as_allreduce: the guideline mock-up of MPI_Barrier as an
// MPI_Allreduce of one int (ReproMPI's "zero-byte allreduce": with a count
// of 0 a library may return at once, Open MPI does, which synchronises
// nothing); the sum checked, so every rank took part.
#include <mpiarena/collective_suite.hpp>
#include <mpiarena/mpi_check.hpp>
#include <string>

namespace {

class Mockup final : public mpiarena::CollectiveStrategy {
  void build() override { poison(); }
  void execute() override {
    const int one = 1;
    MPIARENA_CHECK(MPI_Allreduce(&one, &sum_, 1, MPI_INT, MPI_SUM, comm()));
  }
  void poison() override { sum_ = -1; }
  mpiarena::Verdict verify() override {
    if (sum_ == ranks()) return {};
    return {false, "the allreduce of one int per rank gave " +
                       std::to_string(sum_) + ", expected " +
                       std::to_string(ranks())};
  }
  int sum_ = -1;
};

mpiarena::StrategyInfo info() {
  mpiarena::StrategyInfo i = mpiarena::mockup_info(
      "barrier", "allreduce", "barrier_as_allreduce",
      "barrier as an MPI_Allreduce of one int (guideline mock-up); the sum "
      "checked",
      /*payload_copies=*/0);
  i.moves_data = false;
  return i;
}

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<Mockup>(info()))
