// allgather_as_gather_bcast: the guideline mock-up of MPI_Allgather as
// MPI_Gather to rank 0 then MPI_Bcast of the whole; every rank checks every
// block.
#include <mpiarena/collective_suite.hpp>
#include <mpiarena/mpi_check.hpp>

namespace {

class Mockup final : public mpiarena::GatheringStrategy {
  void execute() override {
    MPIARENA_CHECK(MPI_Gather(sent().data(), icount(), MPI_INT,
                              gathered().data(), icount(), MPI_INT, root(),
                              comm()));
    MPIARENA_CHECK(MPI_Bcast(gathered().data(), icount() * ranks(), MPI_INT,
                             root(), comm()));
  }
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<Mockup>(mpiarena::mockup_info(
    "allgather", "gather_bcast", "allgather_as_gather_bcast",
    "allgather as MPI_Gather + MPI_Bcast (guideline mock-up); every rank "
    "checks every block",
    /*payload_copies=*/1, /*payload_copies_per_rank=*/1)))
