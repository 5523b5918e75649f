// Neighbourhood collectives, blocking (OSU 7.4's osu_neighbor_allgather,
// _allgatherv, _alltoall, _alltoallv, _alltoallw): one MPI_Neighbor_* call
// on the topology of the option "topology" (OSU's graph or a Cartesian
// grid), count ints per neighbour; every rank checks every block against
// the neighbour it came from (neighbor_suite.hpp).
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/neighbor_suite.hpp>

namespace {

using mpiarena::NeighborCollective;
using mpiarena::NeighborOp;

class Allgather final : public NeighborCollective {
 public:
  Allgather()
      : NeighborCollective(NeighborOp::allgather, "MPI_Neighbor_allgather") {}
  void execute() override {
    auto& x = exchange();
    MPIARENA_CHECK(MPI_Neighbor_allgather(
        x.send(), x.count(), MPI_INT, x.recv(), x.count(), MPI_INT, x.comm()));
  }
};

class Allgatherv final : public NeighborCollective {
 public:
  Allgatherv()
      : NeighborCollective(NeighborOp::allgatherv, "MPI_Neighbor_allgatherv") {}
  void execute() override {
    auto& x = exchange();
    MPIARENA_CHECK(MPI_Neighbor_allgatherv(x.send(), x.send_count(), MPI_INT,
                                           x.recv(), x.recv_counts(),
                                           x.recv_displs(), MPI_INT, x.comm()));
  }
};

class Alltoall final : public NeighborCollective {
 public:
  Alltoall()
      : NeighborCollective(NeighborOp::alltoall, "MPI_Neighbor_alltoall") {}
  void execute() override {
    auto& x = exchange();
    MPIARENA_CHECK(MPI_Neighbor_alltoall(x.send(), x.count(), MPI_INT, x.recv(),
                                         x.count(), MPI_INT, x.comm()));
  }
};

class Alltoallv final : public NeighborCollective {
 public:
  Alltoallv()
      : NeighborCollective(NeighborOp::alltoallv, "MPI_Neighbor_alltoallv") {}
  void execute() override {
    auto& x = exchange();
    MPIARENA_CHECK(MPI_Neighbor_alltoallv(
        x.send(), x.send_counts(), x.send_displs(), MPI_INT, x.recv(),
        x.recv_counts(), x.recv_displs(), MPI_INT, x.comm()));
  }
};

class Alltoallw final : public NeighborCollective {
 public:
  Alltoallw()
      : NeighborCollective(NeighborOp::alltoallw, "MPI_Neighbor_alltoallw") {}
  void execute() override {
    auto& x = exchange();
    MPIARENA_CHECK(MPI_Neighbor_alltoallw(
        x.send(), x.send_wcounts(), x.send_wdispls(), x.send_types(), x.recv(),
        x.recv_wcounts(), x.recv_wdispls(), x.recv_types(), x.comm()));
  }
};

}  // namespace

MPIARENA_PLUGIN(
    mpiarena::make_entry<Allgather>(mpiarena::neighbor_info(
        NeighborOp::allgather, "neighbor_allgather", "neighbor_allgather",
        "MPI_Neighbor_allgather of count ints to every neighbour "
        "(osu_neighbor_allgather); every block checked against its source")),
    mpiarena::make_entry<Allgatherv>(mpiarena::neighbor_info(
        NeighborOp::allgatherv, "neighbor_allgatherv", "neighbor_allgatherv",
        "MPI_Neighbor_allgatherv, counts by rank (osu_neighbor_allgatherv); "
        "every block checked against its source")),
    mpiarena::make_entry<Alltoall>(mpiarena::neighbor_info(
        NeighborOp::alltoall, "neighbor_alltoall", "neighbor_alltoall",
        "MPI_Neighbor_alltoall of count ints per neighbour "
        "(osu_neighbor_alltoall); every block checked against its sender")),
    mpiarena::make_entry<Alltoallv>(mpiarena::neighbor_info(
        NeighborOp::alltoallv, "neighbor_alltoallv", "neighbor_alltoallv",
        "MPI_Neighbor_alltoallv, counts by neighbour "
        "(osu_neighbor_alltoallv); every block checked against its sender")),
    mpiarena::make_entry<Alltoallw>(mpiarena::neighbor_info(
        NeighborOp::alltoallw, "neighbor_alltoallw", "neighbor_alltoallw",
        "MPI_Neighbor_alltoallw, MPI_INT and contiguous types by neighbour "
        "(osu_neighbor_alltoallw); every block checked against its sender")))
