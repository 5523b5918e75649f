// Distribution, the first collective study of the course exercise "Week 4
// - MPI Communications" (vector_scatter.c): the root holds total() ints and
// each rank needs its own slice ("vector addition" set-up); the slices are even
// unless runner --size-basis total gives an array the ranks do not divide.
//   distribute_p2p      root MPI_Sends each slice, the others MPI_Recv
//   distribute_scatter  MPI_Scatter, MPI_Scatterv when the slices differ
//   distribute_bcast    MPI_Bcast of the whole array, each rank keeps its
//                       slice (moves ranks times more data: the exercise's
//                       point)
#include <algorithm>
#include <mpiarena/collective_suite.hpp>
#include <mpiarena/mpi_check.hpp>
#include <vector>

namespace {

using mpiarena::DistributionStrategy;

class P2p final : public DistributionStrategy {
  void execute() override {
    if (!is_root()) {
      MPIARENA_CHECK(MPI_Recv(slice().data(), counts()[rank()], MPI_INT, root(),
                              0, comm(), MPI_STATUS_IGNORE));
      return;
    }
    for (int r = 0; r < ranks(); ++r) {
      const int* from = root_array().data() + slice_first(r);
      if (r == root())
        std::copy(from, from + slice_count(r), slice().begin());
      else
        MPIARENA_CHECK(MPI_Send(from, counts()[r], MPI_INT, r, 0, comm()));
    }
  }
};

class Scatter final : public DistributionStrategy {
  void execute() override {
    const int* from = is_root() ? root_array().data() : nullptr;
    if (even())
      MPIARENA_CHECK(MPI_Scatter(from, icount(), MPI_INT, slice().data(),
                                 icount(), MPI_INT, root(), comm()));
    else
      MPIARENA_CHECK(MPI_Scatterv(from, counts(), displs(), MPI_INT,
                                  slice().data(), counts()[rank()], MPI_INT,
                                  root(), comm()));
  }
};

class Bcast final : public DistributionStrategy {
  void setup() override { whole_.resize(total()); }
  void teardown() override { whole_.clear(); }
  void execute() override {
    if (is_root())
      std::copy(root_array().begin(), root_array().end(), whole_.begin());
    MPIARENA_CHECK(MPI_Bcast(whole_.data(), static_cast<int>(whole_.size()),
                             MPI_INT, root(), comm()));
    const int* mine = whole_.data() + slice_first(rank());
    std::copy(mine, mine + slice_count(rank()), slice().begin());
  }
  mpiarena::Ints whole_;  // the whole array, on every rank
};

}  // namespace

MPIARENA_PLUGIN(
    mpiarena::make_entry<P2p>(mpiarena::collective_info(
        "distribution", "distribute_p2p",
        "root MPI_Sends each rank its slice of count x ranks ints, the others "
        "MPI_Recv (Week 4 MPI exercise)",
        /*payload_copies=*/1, /*payload_copies_per_rank=*/1)),
    mpiarena::make_entry<Scatter>(mpiarena::collective_info(
        "distribution", "distribute_scatter",
        "MPI_Scatter of count x ranks ints from the root, count to each rank; "
        "MPI_Scatterv when the ranks do not divide the array (Week 4 MPI "
        "exercise)",
        /*payload_copies=*/1, /*payload_copies_per_rank=*/1)),
    mpiarena::make_entry<Bcast>(mpiarena::collective_info(
        "distribution", "distribute_bcast",
        "MPI_Bcast of the whole count x ranks array, each rank keeps its "
        "slice: ranks times the data of a scatter (Week 4 MPI exercise)",
        /*payload_copies=*/1, /*payload_copies_per_rank=*/2)))
