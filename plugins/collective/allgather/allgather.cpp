// allgather: MPI_Allgather of count ints per rank (OSU osu_allgather, IMB
// Allgather); every rank checks every rank's block.
#include <mpiarena/collective_suite.hpp>
#include <mpiarena/mpi_check.hpp>

namespace {

class Allgather final : public mpiarena::CollectiveStrategy {
  void build() override {
    send_ = own_partials();
    poison();
  }
  void execute() override {
    MPIARENA_CHECK(MPI_Allgather(send_.data(), icount(), MPI_INT, recv_.data(),
                                 icount(), MPI_INT, comm()));
  }
  void poison() override {
    recv_.assign(count() * static_cast<std::size_t>(ranks()), -1);
  }
  mpiarena::Verdict verify() override { return check_gathered(recv_); }
  mpiarena::Ints send_, recv_;
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<Allgather>(mpiarena::chosen_by_library(
    "allgather",
    mpiarena::collective_info(
        "collective", "allgather",
        "MPI_Allgather of count ints per rank; every rank checks every block",
        /*payload_copies=*/9))))
