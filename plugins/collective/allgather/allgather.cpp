// allgather: MPI_Allgather of count ints per rank (OSU osu_allgather, IMB
// Allgather); every rank checks every rank's block.
// allgather_persistent: the same through MPI_Allgather_init once, then
// MPI_Start + MPI_Wait (OSU 7.3 osu_allgather_persistent).
#include <mpiarena/collective_suite.hpp>
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/persistent.hpp>

namespace {

class Allgather : public mpiarena::GatheringStrategy {
 public:
  template <class Call>
  int call(Call&& c) {
    return c(sent().data(), icount(), MPI_INT, gathered().data(), icount(),
             MPI_INT, comm());
  }

 private:
  void execute() override { MPIARENA_CHECK(call(MPI_Allgather)); }
};

mpiarena::StrategyInfo info() {
  return mpiarena::chosen_by_library(
      "allgather",
      mpiarena::collective_info(
          "collective", "allgather",
          "MPI_Allgather of count ints per rank; every rank checks every block",
          /*payload_copies=*/1, /*payload_copies_per_rank=*/1));
}

}  // namespace

MPIARENA_PLUGIN(
    mpiarena::make_entry<Allgather>(info()),
    mpiarena::make_entry<
        mpiarena::Persistent<Allgather, mpiarena::persistent::Allgather>>(
        mpiarena::persistent_info(info())))
