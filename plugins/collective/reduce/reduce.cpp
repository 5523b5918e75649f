// reduce: MPI_Reduce (MPI_SUM) of count ints per rank to rank 0 (OSU
// osu_reduce, IMB Reduce); the root's sum is checked.
#include <mpiarena/collective_suite.hpp>
#include <mpiarena/mpi_check.hpp>

namespace {

class Reduce final : public mpiarena::CombinationStrategy {
  void execute() override {
    MPIARENA_CHECK(MPI_Reduce(partial().data(),
                              is_root() ? result().data() : nullptr, icount(),
                              MPI_INT, MPI_SUM, root(), comm()));
  }
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<Reduce>(mpiarena::chosen_by_library(
    "reduce",
    mpiarena::collective_info(
        "collective", "reduce",
        "MPI_Reduce (MPI_SUM) of count ints per rank to rank 0; the root's sum "
        "checked"))))
