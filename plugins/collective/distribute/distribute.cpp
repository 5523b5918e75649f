// Seed 003, distribution: the root holds count x ranks ints and each rank
// needs its own slice of count ints ("vector addition" set-up).
//   distribute_p2p      root MPI_Sends each slice, the others MPI_Recv
//   distribute_scatter  MPI_Scatter
//   distribute_bcast    MPI_Bcast of the whole array, each rank keeps its
//                       slice (moves ranks times more data: the seed's point)
#include <algorithm>
#include <mpiarena/collective_suite.hpp>
#include <mpiarena/mpi_check.hpp>
#include <vector>

namespace {

using mpiarena::DistributionStrategy;

class P2p final : public DistributionStrategy {
  void execute() override {
    if (!is_root()) {
      MPIARENA_CHECK(MPI_Recv(slice().data(), icount(), MPI_INT, root(), 0,
                              comm(), MPI_STATUS_IGNORE));
      return;
    }
    for (int r = 0; r < ranks(); ++r) {
      const int* from = root_array().data() + r * count();
      if (r == root())
        std::copy(from, from + count(), slice().begin());
      else
        MPIARENA_CHECK(MPI_Send(from, icount(), MPI_INT, r, 0, comm()));
    }
  }
};

class Scatter final : public DistributionStrategy {
  void execute() override {
    MPIARENA_CHECK(MPI_Scatter(is_root() ? root_array().data() : nullptr,
                               icount(), MPI_INT, slice().data(), icount(),
                               MPI_INT, root(), comm()));
  }
};

class Bcast final : public DistributionStrategy {
  void setup() override {
    whole_.resize(count() * static_cast<std::size_t>(ranks()));
  }
  void teardown() override { whole_.clear(); }
  void execute() override {
    if (is_root())
      std::copy(root_array().begin(), root_array().end(), whole_.begin());
    MPIARENA_CHECK(MPI_Bcast(whole_.data(), static_cast<int>(whole_.size()),
                             MPI_INT, root(), comm()));
    const int* mine = whole_.data() + rank() * count();
    std::copy(mine, mine + count(), slice().begin());
  }
  std::vector<int> whole_;  // the whole array, on every rank
};

}  // namespace

MPIARENA_PLUGIN(
    mpiarena::make_entry<P2p>(mpiarena::collective_info(
        "distribution", "distribute_p2p",
        "root MPI_Sends each rank its slice of count x ranks ints, the others "
        "MPI_Recv (seed 003)")),
    mpiarena::make_entry<Scatter>(mpiarena::collective_info(
        "distribution", "distribute_scatter",
        "MPI_Scatter of count x ranks ints from the root, count to each rank "
        "(seed 003)")),
    mpiarena::make_entry<Bcast>(mpiarena::collective_info(
        "distribution", "distribute_bcast",
        "MPI_Bcast of the whole count x ranks array, each rank keeps its "
        "slice: ranks times the data of a scatter (seed 003)",
        /*payload_copies=*/8)))
