// reduce_as_rsb_gather: the guideline mock-up of MPI_Reduce as
// MPI_Reduce_scatter_block (a block of the sum to each rank, count padded
// to a multiple of the ranks) then MPI_Gather of the blocks to rank 0; the
// root's sum checked.
#include <mpiarena/collective_suite.hpp>
#include <mpiarena/mpi_check.hpp>

namespace {

class Mockup final : public mpiarena::CollectiveStrategy {
  void build() override {
    send_ = own_partials();
    send_.resize(block() * static_cast<std::size_t>(ranks()), 0);
    part_.assign(block(), -1);
    poison();
  }
  void execute() override {
    const int b = static_cast<int>(block());
    MPIARENA_CHECK(MPI_Reduce_scatter_block(send_.data(), part_.data(), b,
                                            MPI_INT, MPI_SUM, comm()));
    MPIARENA_CHECK(MPI_Gather(part_.data(), b, MPI_INT,
                              is_root() ? recv_.data() : nullptr, b, MPI_INT,
                              root(), comm()));
  }
  void poison() override {
    if (is_root()) recv_.assign(send_.size(), -1);
  }
  mpiarena::Verdict verify() override {
    if (!is_root()) return {};
    return mpiarena::check_sums(
        mpiarena::Ints(recv_.begin(), recv_.begin() + icount()), ranks());
  }
  mpiarena::Ints send_, part_, recv_;  // recv_: root only
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<Mockup>(mpiarena::mockup_info(
    "reduce", "reduce_scatter_block_gather", "reduce_as_rsb_gather",
    "reduce as MPI_Reduce_scatter_block + MPI_Gather (guideline mock-up); "
    "the root's sum checked",
    /*payload_copies=*/4)))
