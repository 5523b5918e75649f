// neighbor_reversed: a neighbourhood alltoall that is wrong on purpose.
// MPI_Neighbor_alltoall, then the receive blocks put in reversed neighbour
// order: the neighbourhood check must fail it, naming the neighbour
// (tests/e2e/e2e_neighbor.py).
#include <algorithm>
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/neighbor_suite.hpp>

namespace {

class NeighborReversed final : public mpiarena::NeighborCollective {
 public:
  NeighborReversed()
      : NeighborCollective(mpiarena::NeighborOp::alltoall,
                           "MPI_Neighbor_alltoall") {}
  void execute() override {
    auto& x = exchange();
    MPIARENA_CHECK(MPI_Neighbor_alltoall(x.send(), x.count(), MPI_INT, x.recv(),
                                         x.count(), MPI_INT, x.comm()));
    const int n = x.count(), d = x.hood().degree();
    for (int j = 0; j < d / 2; ++j)
      std::swap_ranges(x.recv() + j * n, x.recv() + (j + 1) * n,
                       x.recv() + (d - 1 - j) * n);
  }
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<NeighborReversed>(mpiarena::neighbor_info(
    mpiarena::NeighborOp::alltoall, "neighbor_alltoall", "neighbor_reversed",
    "test plugin: MPI_Neighbor_alltoall, then the receive blocks in reversed "
    "neighbour order")))
