// reduce_scatter_block: MPI_Reduce_scatter_block (MPI_SUM), count ints of
// the sum to each rank out of count x ranks per rank (IMB
// Reduce_scatter_block); every rank checks its block of the sum.
#include <mpiarena/collective_suite.hpp>
#include <mpiarena/mpi_check.hpp>

namespace {

class ReduceScatterBlock final : public mpiarena::CollectiveStrategy {
  void build() override {
    send_.resize(count() * static_cast<std::size_t>(ranks()));
    for (std::size_t j = 0; j < send_.size(); ++j)
      send_[j] = mpiarena::partial_value(rank(), ranks(), j);
    poison();
  }
  void execute() override {
    MPIARENA_CHECK(MPI_Reduce_scatter_block(
        send_.data(), recv_.data(), icount(), MPI_INT, MPI_SUM, comm()));
  }
  void poison() override { recv_.assign(count(), -1); }
  mpiarena::Verdict verify() override {
    const std::size_t first = static_cast<std::size_t>(rank()) * count();
    return mpiarena::check_ints(
        recv_,
        [&](std::size_t i) {
          return mpiarena::partial_sum(ranks(), first + i);
        },
        "sum");
  }
  mpiarena::Ints send_, recv_;
};

}  // namespace

// Copies: the send vector (count x ranks ints) and the receive block, and
// the library's temporaries: at 4 ranks Open MPI 4.1's root held about
// 1 + 3 x ranks payloads (reduce, then scatter, of the whole vector).
MPIARENA_PLUGIN(
    mpiarena::make_entry<ReduceScatterBlock>(mpiarena::chosen_by_library(
        "reduce_scatter_block",
        mpiarena::collective_info(
            "collective", "reduce_scatter_block",
            "MPI_Reduce_scatter_block (MPI_SUM): count ints of the sum to each "
            "rank; every block checked",
            /*payload_copies=*/1, /*payload_copies_per_rank=*/3))))
