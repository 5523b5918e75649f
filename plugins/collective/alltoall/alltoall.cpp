// alltoall: MPI_Alltoall, count ints from every rank to every rank (OSU
// osu_alltoall, IMB Alltoall); each rank checks what every sender meant
// for it.
#include <mpiarena/collective_suite.hpp>
#include <mpiarena/mpi_check.hpp>

namespace {

class Alltoall final : public mpiarena::CollectiveStrategy {
  void build() override {
    send_ = mpiarena::alltoall_send(rank(), ranks(), count());
    poison();
  }
  void execute() override {
    MPIARENA_CHECK(MPI_Alltoall(send_.data(), icount(), MPI_INT, recv_.data(),
                                icount(), MPI_INT, comm()));
  }
  void poison() override { recv_.assign(send_.size(), -1); }
  mpiarena::Verdict verify() override {
    return mpiarena::check_alltoall(recv_, rank(), ranks(), count());
  }
  mpiarena::Ints send_, recv_;
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<Alltoall>(mpiarena::chosen_by_library(
    "alltoall",
    mpiarena::collective_info(
        "collective", "alltoall",
        "MPI_Alltoall of count ints from every rank to every rank; each block "
        "checked",
        /*payload_copies=*/16))))
