// allgather_as_alltoall: the guideline mock-up of MPI_Allgather as
// MPI_Alltoall of the rank's block, sent to every rank; every rank checks
// every block.
#include <mpiarena/collective_suite.hpp>
#include <mpiarena/mpi_check.hpp>

namespace {

class Mockup final : public mpiarena::GatheringStrategy {
  void build() override {
    GatheringStrategy::build();
    const mpiarena::Ints mine = sent();
    // One allocation: growing block by block would hold the old and the
    // new array at once, up to 3 x ranks payloads.
    sent().reserve(mine.size() * static_cast<std::size_t>(ranks()));
    for (int r = 1; r < ranks(); ++r)
      sent().insert(sent().end(), mine.begin(), mine.end());
  }
  void execute() override {
    MPIARENA_CHECK(MPI_Alltoall(sent().data(), icount(), MPI_INT,
                                gathered().data(), icount(), MPI_INT, comm()));
  }
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<Mockup>(mpiarena::mockup_info(
    "allgather", "alltoall", "allgather_as_alltoall",
    "allgather as MPI_Alltoall of the rank's block (guideline mock-up); "
    "every rank checks every block",
    /*payload_copies=*/1, /*payload_copies_per_rank=*/2)))
