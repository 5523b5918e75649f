// scatter_as_bcast: the guideline mock-up of MPI_Scatter as MPI_Bcast of
// the root's whole array, each rank keeping its block; every rank checks its
// block.
#include <algorithm>
#include <mpiarena/collective_suite.hpp>
#include <mpiarena/mpi_check.hpp>

namespace {

class Mockup final : public mpiarena::DistributionStrategy {
  void setup() override { whole_.assign(total(), -1); }
  void execute() override {
    if (is_root())
      std::copy(root_array().begin(), root_array().end(), whole_.begin());
    MPIARENA_CHECK(MPI_Bcast(whole_.data(), static_cast<int>(total()), MPI_INT,
                             root(), comm()));
    const auto first = whole_.begin() + slice_first(rank());
    std::copy(first, first + slice_count(rank()), slice().begin());
  }
  mpiarena::Ints whole_;
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<Mockup>(mpiarena::mockup_info(
    "scatter", "bcast", "scatter_as_bcast",
    "scatter as MPI_Bcast of the whole array (guideline mock-up); every "
    "block checked",
    /*payload_copies=*/1, /*payload_copies_per_rank=*/2)))
