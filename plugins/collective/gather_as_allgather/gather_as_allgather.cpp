// gather_as_allgather: the guideline mock-up of MPI_Gather as
// MPI_Allgather (every rank gets what the root needs); the root checks every
// block.
#include <mpiarena/collective_suite.hpp>
#include <mpiarena/mpi_check.hpp>

namespace {

class Mockup final : public mpiarena::CollectiveStrategy {
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
  mpiarena::Verdict verify() override {
    return is_root() ? check_gathered(recv_) : mpiarena::Verdict{};
  }
  mpiarena::Ints send_, recv_;
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<Mockup>(mpiarena::mockup_info(
    "gather", "allgather", "gather_as_allgather",
    "gather as MPI_Allgather (guideline mock-up); the root checks every "
    "block",
    /*payload_copies=*/9)))
