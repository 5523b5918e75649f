// reduce: MPI_Reduce (MPI_SUM) of count ints per rank to rank 0 (OSU
// osu_reduce, IMB Reduce); the root's sum is checked.
// reduce_persistent: the same through MPI_Reduce_init once, then
// MPI_Start + MPI_Wait (OSU 7.3 osu_reduce_persistent).
#include <mpiarena/collective_suite.hpp>
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/persistent.hpp>

namespace {

class Reduce : public mpiarena::CombinationStrategy {
 public:
  template <class Call>
  int call(Call&& c) {
    return c(partial().data(), is_root() ? result().data() : nullptr, icount(),
             MPI_INT, MPI_SUM, root(), comm());
  }

 private:
  void execute() override { MPIARENA_CHECK(call(MPI_Reduce)); }
};

mpiarena::StrategyInfo info() {
  return mpiarena::chosen_by_library(
      "reduce", mpiarena::collective_info(
                    "collective", "reduce",
                    "MPI_Reduce (MPI_SUM) of count ints per rank to rank 0; "
                    "the root's sum checked"));
}

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<Reduce>(info()),
                mpiarena::make_entry<
                    mpiarena::Persistent<Reduce, mpiarena::persistent::Reduce>>(
                    mpiarena::persistent_info(info())))
