// scatter: MPI_Scatter of count ints to each rank from rank 0 (OSU
// osu_scatter, IMB Scatter); every rank checks its block.
#include <mpiarena/collective_suite.hpp>
#include <mpiarena/mpi_check.hpp>

namespace {

class Scatter final : public mpiarena::DistributionStrategy {
  void execute() override {
    MPIARENA_CHECK(MPI_Scatter(is_root() ? root_array().data() : nullptr,
                               icount(), MPI_INT, slice().data(), icount(),
                               MPI_INT, root(), comm()));
  }
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<Scatter>(mpiarena::chosen_by_library(
    "scatter",
    mpiarena::collective_info("collective", "scatter",
                              "MPI_Scatter of count ints to each rank from "
                              "rank 0; every block checked",
                              /*payload_copies=*/9))))
