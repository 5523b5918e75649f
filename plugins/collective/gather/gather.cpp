// gather: MPI_Gather of count ints per rank to rank 0 (OSU osu_gather, IMB
// Gather); the root checks every block.
#include <mpiarena/collective_suite.hpp>
#include <mpiarena/mpi_check.hpp>

namespace {

class Gather final : public mpiarena::GatheringStrategy {
 public:
  Gather() : GatheringStrategy(mpiarena::Gathered::at_root) {}

 private:
  void execute() override {
    MPIARENA_CHECK(MPI_Gather(sent().data(), icount(), MPI_INT,
                              gathered().data(), icount(), MPI_INT, root(),
                              comm()));
  }
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<Gather>(mpiarena::chosen_by_library(
    "gather",
    mpiarena::collective_info(
        "collective", "gather",
        "MPI_Gather of count ints per rank to rank 0; the root checks every "
        "block",
        /*payload_copies=*/9))))
