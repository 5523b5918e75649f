// gather_as_allgather: the guideline mock-up of MPI_Gather as
// MPI_Allgather (every rank gets what the root needs); every rank checks
// every block.
#include <mpiarena/collective_suite.hpp>
#include <mpiarena/mpi_check.hpp>

namespace {

class Mockup final : public mpiarena::GatheringStrategy {
  void execute() override {
    MPIARENA_CHECK(MPI_Allgather(sent().data(), icount(), MPI_INT,
                                 gathered().data(), icount(), MPI_INT, comm()));
  }
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<Mockup>(mpiarena::mockup_info(
    "gather", "allgather", "gather_as_allgather",
    "gather as MPI_Allgather (guideline mock-up); every rank checks every "
    "block",
    /*payload_copies=*/1, /*payload_copies_per_rank=*/1)))
