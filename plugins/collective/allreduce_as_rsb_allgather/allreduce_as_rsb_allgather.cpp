// allreduce_as_rsb_allgather: the guideline mock-up of MPI_Allreduce as
// MPI_Reduce_scatter_block (a block of the sum to each rank, count padded
// to a multiple of the ranks) then MPI_Allgather of the blocks; every
// rank's sum checked.
#include <mpiarena/collective_suite.hpp>
#include <mpiarena/mpi_check.hpp>

namespace {

class Mockup final : public mpiarena::CollectiveStrategy {
  void build() override {
    const std::size_t padded = block() * static_cast<std::size_t>(ranks());
    send_ = own_partials();
    send_.resize(padded, 0);
    part_.assign(block(), -1);
    recv_.assign(padded, -1);
  }
  void execute() override {
    const int b = static_cast<int>(block());
    MPIARENA_CHECK(MPI_Reduce_scatter_block(send_.data(), part_.data(), b,
                                            MPI_INT, MPI_SUM, comm()));
    MPIARENA_CHECK(MPI_Allgather(part_.data(), b, MPI_INT, recv_.data(), b,
                                 MPI_INT, comm()));
  }
  void poison() override { std::fill(recv_.begin(), recv_.end(), -1); }
  mpiarena::Verdict verify() override {
    return mpiarena::check_sums(
        mpiarena::Ints(recv_.begin(), recv_.begin() + icount()), ranks());
  }
  mpiarena::Ints send_, part_, recv_;
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<Mockup>(mpiarena::mockup_info(
    "allreduce", "reduce_scatter_block_allgather", "allreduce_as_rsb_allgather",
    "allreduce as MPI_Reduce_scatter_block + MPI_Allgather (guideline "
    "mock-up); every rank's sum checked",
    /*payload_copies=*/4)))
