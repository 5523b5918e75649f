// Neighbourhood collectives, non-blocking (OSU 7.4's osu_ineighbor_allgather,
// _allgatherv, _alltoall, _alltoallv, _alltoallw): one MPI_Ineighbor_* call
// posted, overlapped with the overlap suite's computation, waited for, on
// the topology of the option "topology"; every rank checks every block
// against the neighbour it came from (neighbor_suite.hpp).
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/neighbor_suite.hpp>
#include <vector>

namespace {

using mpiarena::NeighborOp;
using mpiarena::NeighborOverlap;

MPI_Request* next(std::vector<MPI_Request>& requests) {
  requests.push_back(MPI_REQUEST_NULL);
  return &requests.back();
}

class Iallgather final : public NeighborOverlap {
 public:
  Iallgather()
      : NeighborOverlap(NeighborOp::allgather, "MPI_Ineighbor_allgather") {}
  void post(std::vector<MPI_Request>& requests) override {
    auto& x = exchange();
    MPIARENA_CHECK(MPI_Ineighbor_allgather(x.send(), x.count(), MPI_INT,
                                           x.recv(), x.count(), MPI_INT,
                                           x.comm(), next(requests)));
  }
};

class Iallgatherv final : public NeighborOverlap {
 public:
  Iallgatherv()
      : NeighborOverlap(NeighborOp::allgatherv, "MPI_Ineighbor_allgatherv") {}
  void post(std::vector<MPI_Request>& requests) override {
    auto& x = exchange();
    MPIARENA_CHECK(MPI_Ineighbor_allgatherv(
        x.send(), x.send_count(), MPI_INT, x.recv(), x.recv_counts(),
        x.recv_displs(), MPI_INT, x.comm(), next(requests)));
  }
};

class Ialltoall final : public NeighborOverlap {
 public:
  Ialltoall()
      : NeighborOverlap(NeighborOp::alltoall, "MPI_Ineighbor_alltoall") {}
  void post(std::vector<MPI_Request>& requests) override {
    auto& x = exchange();
    MPIARENA_CHECK(MPI_Ineighbor_alltoall(x.send(), x.count(), MPI_INT,
                                          x.recv(), x.count(), MPI_INT,
                                          x.comm(), next(requests)));
  }
};

class Ialltoallv final : public NeighborOverlap {
 public:
  Ialltoallv()
      : NeighborOverlap(NeighborOp::alltoallv, "MPI_Ineighbor_alltoallv") {}
  void post(std::vector<MPI_Request>& requests) override {
    auto& x = exchange();
    MPIARENA_CHECK(MPI_Ineighbor_alltoallv(
        x.send(), x.send_counts(), x.send_displs(), MPI_INT, x.recv(),
        x.recv_counts(), x.recv_displs(), MPI_INT, x.comm(), next(requests)));
  }
};

class Ialltoallw final : public NeighborOverlap {
 public:
  Ialltoallw()
      : NeighborOverlap(NeighborOp::alltoallw, "MPI_Ineighbor_alltoallw") {}
  void post(std::vector<MPI_Request>& requests) override {
    auto& x = exchange();
    MPIARENA_CHECK(MPI_Ineighbor_alltoallw(
        x.send(), x.send_wcounts(), x.send_wdispls(), x.send_types(), x.recv(),
        x.recv_wcounts(), x.recv_wdispls(), x.recv_types(), x.comm(),
        next(requests)));
  }
};

}  // namespace

MPIARENA_PLUGIN(
    mpiarena::make_entry<Iallgather>(mpiarena::ineighbor_info(
        NeighborOp::allgather, "ineighbor_allgather",
        "MPI_Ineighbor_allgather of count ints to every neighbour overlapped "
        "with computation (osu_ineighbor_allgather); every block checked")),
    mpiarena::make_entry<Iallgatherv>(mpiarena::ineighbor_info(
        NeighborOp::allgatherv, "ineighbor_allgatherv",
        "MPI_Ineighbor_allgatherv, counts by rank, overlapped with "
        "computation (osu_ineighbor_allgatherv); every block checked")),
    mpiarena::make_entry<Ialltoall>(mpiarena::ineighbor_info(
        NeighborOp::alltoall, "ineighbor_alltoall",
        "MPI_Ineighbor_alltoall of count ints per neighbour overlapped with "
        "computation (osu_ineighbor_alltoall); every block checked")),
    mpiarena::make_entry<Ialltoallv>(mpiarena::ineighbor_info(
        NeighborOp::alltoallv, "ineighbor_alltoallv",
        "MPI_Ineighbor_alltoallv, counts by neighbour, overlapped with "
        "computation (osu_ineighbor_alltoallv); every block checked")),
    mpiarena::make_entry<Ialltoallw>(mpiarena::ineighbor_info(
        NeighborOp::alltoallw, "ineighbor_alltoallw",
        "MPI_Ineighbor_alltoallw, MPI_INT and contiguous types by neighbour, "
        "overlapped with computation (osu_ineighbor_alltoallw); every block "
        "checked")))
