// bcast: collective broadcast (the MPI & Boost benchmark's "Bcast MPI").
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/transfer.hpp>

namespace {

class Bcast final : public mpiarena::TransferStrategy {
  void execute() override {
    if (!is_2d()) {
      MPIARENA_CHECK(MPI_Bcast(flat().data(), static_cast<int>(flat().size()),
                               MPI_INT, root(), comm()));
      return;
    }
    bcast_shape();
    reqs_.assign(rows().size(), MPI_REQUEST_NULL);
    for (std::size_t r = 0; r < rows().size(); ++r)
      MPIARENA_CHECK(MPI_Ibcast(rows()[r].data(),
                                static_cast<int>(rows()[r].size()), MPI_INT,
                                root(), comm(), &reqs_[r]));
    MPIARENA_CHECK(MPI_Waitall(static_cast<int>(reqs_.size()), reqs_.data(),
                               MPI_STATUSES_IGNORE));
  }

  std::vector<MPI_Request> reqs_;
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<Bcast>(mpiarena::with_copies(
    mpiarena::transfer_info("bcast",
                            "MPI_Bcast of the buffer (1d); sizes by "
                            "MPI_Bcast, rows by MPI_Ibcast + MPI_Waitall (2d)",
                            {"1d", "2d"}),
    0, true)))
