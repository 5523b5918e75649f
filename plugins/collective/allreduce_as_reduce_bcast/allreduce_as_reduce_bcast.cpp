// allreduce_as_reduce_bcast: the guideline mock-up of MPI_Allreduce as
// MPI_Reduce to rank 0 then MPI_Bcast (ReproMPI's guidelines: the library's
// allreduce should never be slower); every rank's sum checked.
#include <mpiarena/collective_suite.hpp>
#include <mpiarena/mpi_check.hpp>

namespace {

class Mockup final : public mpiarena::CollectiveStrategy {
  void build() override {
    send_ = own_partials();
    recv_.assign(count(), -1);
  }
  void execute() override {
    MPIARENA_CHECK(MPI_Reduce(send_.data(), recv_.data(), icount(), MPI_INT,
                              MPI_SUM, root(), comm()));
    MPIARENA_CHECK(MPI_Bcast(recv_.data(), icount(), MPI_INT, root(), comm()));
  }
  void poison() override { recv_.assign(count(), -1); }
  mpiarena::Verdict verify() override {
    return mpiarena::check_sums(recv_, ranks());
  }
  mpiarena::Ints send_, recv_;
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<Mockup>(mpiarena::mockup_info(
    "allreduce", "reduce_bcast", "allreduce_as_reduce_bcast",
    "allreduce as MPI_Reduce + MPI_Bcast (guideline mock-up); every rank's "
    "sum checked")))
