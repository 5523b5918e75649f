// gather: MPI_Gather of count ints per rank to rank 0 (OSU osu_gather, IMB
// Gather); the root checks every block.
// gather_persistent: the same through MPI_Gather_init once, then
// MPI_Start + MPI_Wait (OSU 7.3 osu_gather_persistent).
#include <mpiarena/collective_suite.hpp>
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/persistent.hpp>

namespace {

class Gather : public mpiarena::GatheringStrategy {
 public:
  Gather() : GatheringStrategy(mpiarena::Gathered::at_root) {}
  template <class Call>
  int call(Call&& c) {
    return c(sent().data(), icount(), MPI_INT, gathered().data(), icount(),
             MPI_INT, root(), comm());
  }

 private:
  void execute() override { MPIARENA_CHECK(call(MPI_Gather)); }
};

mpiarena::StrategyInfo info() {
  return mpiarena::chosen_by_library(
      "gather", mpiarena::collective_info("collective", "gather",
                                          "MPI_Gather of count ints per rank "
                                          "to rank 0; the root checks every "
                                          "block",
                                          /*payload_copies=*/1,
                                          /*payload_copies_per_rank=*/1));
}

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<Gather>(info()),
                mpiarena::make_entry<
                    mpiarena::Persistent<Gather, mpiarena::persistent::Gather>>(
                    mpiarena::persistent_info(info())))
