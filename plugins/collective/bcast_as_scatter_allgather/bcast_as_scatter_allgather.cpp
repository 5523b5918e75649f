// bcast_as_scatter_allgather: the guideline mock-up of MPI_Bcast as
// MPI_Scatter of the root's data in blocks (padded to a multiple of the
// ranks) then MPI_Allgather of the blocks; every rank checks the data.
#include <mpiarena/collective_suite.hpp>
#include <mpiarena/mpi_check.hpp>

namespace {

class Mockup final : public mpiarena::CollectiveStrategy {
  void build() override {
    part_.assign(block(), -1);
    poison();
  }
  void execute() override {
    const int b = static_cast<int>(block());
    MPIARENA_CHECK(MPI_Scatter(data_.data(), b, MPI_INT, part_.data(), b,
                               MPI_INT, root(), comm()));
    MPIARENA_CHECK(MPI_Allgather(part_.data(), b, MPI_INT, data_.data(), b,
                                 MPI_INT, comm()));
  }
  void poison() override {
    data_.assign(block() * static_cast<std::size_t>(ranks()), -1);
    if (is_root())
      for (std::size_t i = 0; i < count(); ++i)
        data_[i] = mpiarena::distribution_value(i);
  }
  mpiarena::Verdict verify() override {
    return mpiarena::check_ints(
        mpiarena::Ints(data_.begin(), data_.begin() + icount()),
        [](std::size_t i) { return mpiarena::distribution_value(i); },
        "broadcast");
  }
  mpiarena::Ints data_, part_;
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<Mockup>(mpiarena::mockup_info(
    "bcast", "scatter_allgather", "bcast_as_scatter_allgather",
    "bcast as MPI_Scatter + MPI_Allgather (guideline mock-up); every rank "
    "checks the data",
    /*payload_copies=*/3)))
