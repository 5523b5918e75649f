// allgather: MPI_Allgather of count ints per rank (OSU osu_allgather, IMB
// Allgather); every rank checks every rank's block.
#include <mpiarena/collective_suite.hpp>
#include <mpiarena/mpi_check.hpp>

namespace {

class Allgather final : public mpiarena::GatheringStrategy {
  void execute() override {
    MPIARENA_CHECK(MPI_Allgather(sent().data(), icount(), MPI_INT,
                                 gathered().data(), icount(), MPI_INT, comm()));
  }
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<Allgather>(mpiarena::chosen_by_library(
    "allgather",
    mpiarena::collective_info(
        "collective", "allgather",
        "MPI_Allgather of count ints per rank; every rank checks every block",
        /*payload_copies=*/9))))
