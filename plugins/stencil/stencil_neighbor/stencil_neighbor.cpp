// stencil_neighbor: the exchanges as neighbourhood collectives on a
// periodic 1D Cartesian topology (MPI_Cart_create): exchanges k (to the
// right) and k + 1 (to the left) are one MPI_Neighbor_alltoall, with
// OPBench's pack and unpack loops around it.
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/stencil_suite.hpp>
#include <vector>

namespace {

class StencilNeighbor final : public mpiarena::StencilStrategy {
  void setup() override {
    int dims[1] = {ranks()}, periods[1] = {1};
    MPIARENA_CHECK(MPI_Cart_create(comm(), 1, dims, periods, 0, &cart_));
    send_.assign(2 * count(), 0);
    recv_.assign(2 * count(), 0);
  }
  void teardown() override {
    if (cart_ != MPI_COMM_NULL) MPI_Comm_free(&cart_);
  }
  // Block 0 goes to / comes from the left neighbour (the negative
  // direction), block 1 the right one: face k + 1 left, face k right; ghost
  // k from the left, ghost k + 1 from the right.
  void exchange(int k) override {
    if (k % 2 == 1) return;  // done with exchange k - 1
    {
      auto t = phases().scope(kPack);
      pack_into(send_.data(), k + 1);
      pack_into(send_.data() + count(), k);
    }
    {
      auto t = phases().scope(kComm);
      MPIARENA_CHECK(MPI_Neighbor_alltoall(send_.data(), icount(), MPI_UINT64_T,
                                           recv_.data(), icount(), MPI_UINT64_T,
                                           cart_));
    }
    auto t = phases().scope(kUnpack);
    unpack_from(recv_.data(), k);
    unpack_from(recv_.data() + count(), k + 1);
  }
  MPI_Comm cart_ = MPI_COMM_NULL;
  std::vector<std::uint64_t> send_, recv_;
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<StencilNeighbor>(mpiarena::stencil_info(
    "stencil_neighbor",
    "OPBench's pack and unpack loops, each pair of exchanges one "
    "MPI_Neighbor_alltoall on a periodic 1D Cartesian topology",
    /*extra_copies=*/4)))
