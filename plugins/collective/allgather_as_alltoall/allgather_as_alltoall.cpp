// allgather_as_alltoall: the guideline mock-up of MPI_Allgather as
// MPI_Alltoall of the rank's block, sent to every rank; every rank checks
// every block.
#include <mpiarena/collective_suite.hpp>
#include <mpiarena/mpi_check.hpp>

namespace {

class Mockup final : public mpiarena::CollectiveStrategy {
  void build() override {
    const mpiarena::Ints mine = own_partials();
    send_.clear();
    for (int r = 0; r < ranks(); ++r)
      send_.insert(send_.end(), mine.begin(), mine.end());
    poison();
  }
  void execute() override {
    MPIARENA_CHECK(MPI_Alltoall(send_.data(), icount(), MPI_INT, recv_.data(),
                                icount(), MPI_INT, comm()));
  }
  void poison() override {
    recv_.assign(count() * static_cast<std::size_t>(ranks()), -1);
  }
  mpiarena::Verdict verify() override { return check_gathered(recv_); }
  mpiarena::Ints send_, recv_;
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<Mockup>(mpiarena::mockup_info(
    "allgather", "alltoall", "allgather_as_alltoall",
    "allgather as MPI_Alltoall of the rank's block (guideline mock-up); "
    "every rank checks every block",
    /*payload_copies=*/16)))
