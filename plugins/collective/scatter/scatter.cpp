// scatter: MPI_Scatter of count ints to each rank from rank 0 (OSU
// osu_scatter, IMB Scatter); every rank checks its block.
// scatter_persistent: the same through MPI_Scatter_init once, then
// MPI_Start + MPI_Wait (OSU 7.3 osu_scatter_persistent).
#include <mpiarena/collective_suite.hpp>
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/persistent.hpp>

namespace {

class Scatter : public mpiarena::DistributionStrategy {
 public:
  template <class Call>
  int call(Call&& c) {
    return c(is_root() ? root_array().data() : nullptr, icount(), MPI_INT,
             slice().data(), icount(), MPI_INT, root(), comm());
  }

 private:
  void execute() override { MPIARENA_CHECK(call(MPI_Scatter)); }
};

mpiarena::StrategyInfo info() {
  return mpiarena::chosen_by_library(
      "scatter", mpiarena::collective_info("collective", "scatter",
                                           "MPI_Scatter of count ints to each "
                                           "rank from rank 0; every block "
                                           "checked",
                                           /*payload_copies=*/1,
                                           /*payload_copies_per_rank=*/1));
}

}  // namespace

MPIARENA_PLUGIN(
    mpiarena::make_entry<Scatter>(info()),
    mpiarena::make_entry<
        mpiarena::Persistent<Scatter, mpiarena::persistent::Scatter>>(
        mpiarena::persistent_info(info())))
