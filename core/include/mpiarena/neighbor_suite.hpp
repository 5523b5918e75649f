// Neighbourhood collectives (MPI_Neighbor_* and MPI_Ineighbor_*, OSU's
// osu_neighbor_* and osu_ineighbor_*): the topology, the neighbour lists,
// the per-neighbour payload and its check, shared by the ten methods. The
// blocking ones are of the collective suite (NeighborCollective), the
// non-blocking ones of the overlap suite (NeighborOverlap); a method writes
// the one MPI call, with the arguments of exchange().
//
// The size of a point is the message to each neighbour in bytes, as OSU's
// (count ints per neighbour; the v- and w-methods that many on average).
//
// Topology, the option "topology" of every method:
//   osu   the graph OSU 7.4 builds by default (omb_neighborhood_create,
//         -N cart:dim:rad, dim 1 and rad 1): MPI_Dims_create over the ranks
//         in `dim` dimensions, a periodic Cartesian grid, and as neighbours
//         (sources and destinations alike) the Moore neighbourhood of
//         radius `radius`, one per non-zero displacement in -r..r per
//         dimension, the last dimension fastest: (2r+1)^dim - 1 of them,
//         handed to MPI_Dist_graph_create_adjacent (weights 1, no
//         reordering). OSU refuses a radius above (d_min - 1) / 2 (d_min:
//         the smallest dimension of the grid), where neighbours repeat;
//         mpiarena builds them, repeated (MPI allows several edges between
//         two ranks: the k-th to a rank is matched with its k-th from this
//         one), so that 2 ranks run (both neighbours of a ring of two are
//         the other rank). A radius of d_min or more would make a rank its
//         own neighbour: the point is skipped with the reason.
//   cart  MPI_Cart_create over an MPI_Dims_create grid in `dim` dimensions
//         (2 by default), periodic, no reordering: MPI's own Cartesian
//         neighbourhood, the 2 dim face neighbours in MPI_Cart_shift order
//         (per dimension the rank below, then the rank above), as stencil
//         codes use it. A dimension of 1 or 2 ranks makes the rank its own
//         neighbour, or the same rank both neighbours: MPI-4.1 §8.6 has
//         block s of the sender land in block s^1 of the receiver in every
//         dimension, which the check requires.
// Where neighbours repeat, an alltoall first runs one exchange: a library
// that matches the repeated edges in the other order than MPI-4.1's has the
// point skipped, naming it (NeighborExchange::skip_if_misordered).
#pragma once

#include <mpi.h>

#include <cstddef>
#include <mpiarena/collective_suite.hpp>
#include <mpiarena/overlap_suite.hpp>
#include <mpiarena/plugin.hpp>
#include <string>
#include <vector>

namespace mpiarena {

enum class NeighborOp { allgather, allgatherv, alltoall, alltoallv, alltoallw };

// The options of a neighbourhood method: "topology" (osu, cart), "dim"
// (0: the topology's default, 1 for osu as OSU, 2 for cart), "radius"
// (osu only), and "counts" (counts_option()) for the v- and w-methods.
std::vector<OptionInfo> neighbor_options(NeighborOp op);

// The StrategyInfo of a blocking method (suite "collective", param
// "collective" = `call`, e.g. "neighbor_allgather") and of a non-blocking
// one (suite "overlap"), with neighbor_options(op).
StrategyInfo neighbor_info(NeighborOp op, std::string call, std::string name,
                           std::string summary);
StrategyInfo ineighbor_info(NeighborOp op, std::string name,
                            std::string summary);

// A topology built over a communicator: its own communicator (a
// distributed graph or a Cartesian one) and, in MPI's order
// (MPI_Dist_graph_neighbors, MPI_Cart_shift), the ranks this one receives
// from and sends to. source_slot[j]: the block of sources[j]'s send buffer
// that lands in receive block j.
struct Neighborhood {
  MPI_Comm comm = MPI_COMM_NULL;
  std::string topology;  // "osu" or "cart"
  std::vector<int> dims;
  std::vector<int> sources, destinations, source_slot;
  // The source_slot of a library that matches the repeated edges between
  // two ranks in list order ([0]: the k-th edge to a rank with its k-th
  // edge from it, a graph's rule; on cart, block s of a dimension of 1 or 2
  // ranks into block s) or in reverse order ([1]: the k-th with the
  // last-but-k; on cart, s into s^1).
  std::vector<int> matched_slot[2];
  // Whether a rank is a neighbour twice (cart: a dimension of 1 or 2
  // ranks; osu: a radius above (d_min - 1) / 2).
  bool repeated() const;
  int degree() const { return static_cast<int>(destinations.size()); }
  std::string describe() const;  // e.g. "cart 2x1 grid"
};

// Builds the topology the options of `ctx` name over ctx.comm (collective
// over it). A combination that cannot be built throws SkipPoint on every
// rank, naming it.
Neighborhood make_neighborhood(const RunContext& ctx);
void free_neighborhood(Neighborhood& hood);

// Element `index` of the block with code `code` (1..2^31-2, never -1;
// distinct codes give distinct values below 2^31-2 codes).
int neighbor_value(long long code, std::size_t index);

// The buffers, counts, datatypes and check of one exchange of `op` with
// `count` ints per neighbour (on average for the v- and w-methods):
//   allgather(v): this rank's one block (its count: v_count(rank, ranks)
//     for v), received from every source in its slot;
//   alltoall(v,w): block k to destination k, distinct per (sender,
//     receiver, sender's block): v and w with v_count(k, degree) ints in
//     block k (the receiver's block j: the count of the sender's block
//     source_slot[j]); w sends even blocks as count x MPI_INT and odd ones
//     as one MPI_Type_contiguous of count ints, and receives the other way
//     round (even blocks contiguous, odd ones MPI_INT).
// The check names the receive block, the neighbour it came from and, for a
// wrong block, whose block it holds.
class NeighborExchange {
 public:
  // The topology (make_neighborhood) and the layout of ctx's counts.
  void build(NeighborOp op, const RunContext& ctx, std::size_t count);
  // The buffers, counts and types for `pattern` (build: the option
  // "counts" of a v- or w-method, else uniform).
  void lay_out(Counts pattern);
  Counts pattern() const { return pattern_; }
  void release();
  void poison();
  Verdict check() const;

  MPI_Comm comm() const { return hood_.comm; }
  const Neighborhood& hood() const { return hood_; }
  const int* send() const { return send_.data(); }
  int* recv() { return recv_.data(); }
  int count() const { return static_cast<int>(count_); }  // allgather, alltoall
  int send_count() const { return send_counts_.at(0); }   // allgatherv
  const int* send_counts() const { return send_counts_.data(); }
  const int* send_displs() const { return send_displs_.data(); }
  const int* recv_counts() const { return recv_counts_.data(); }
  const int* recv_displs() const { return recv_displs_.data(); }
  // alltoallw: counts in datatypes, displacements in bytes.
  const int* send_wcounts() const { return send_wcounts_.data(); }
  const MPI_Aint* send_wdispls() const { return send_wdispls_.data(); }
  const MPI_Datatype* send_types() const { return send_types_.data(); }
  const int* recv_wcounts() const { return recv_wcounts_.data(); }
  const MPI_Aint* recv_wdispls() const { return recv_wdispls_.data(); }
  const MPI_Datatype* recv_types() const { return recv_types_.data(); }

  // Whether skip_if_misordered() has something to find: an alltoall on a
  // topology with repeated neighbours.
  bool needs_probe() const;
  // After one exchange of uniform counts (a library that pairs wrongly
  // would truncate unequal ones), collective: when the library matched the
  // repeated edges between two ranks in the other order than MPI-4.1 §8.6
  // requires (list order on a graph, s into s^1 on a Cartesian grid) and
  // everything else arrived right, releases and throws SkipPoint naming
  // the defect and `call` (Open MPI 4.1's non-blocking alltoalls on cart,
  // MPICH 4.0's alltoall on graphs, its alltoallv and alltoallw on cart).
  void skip_if_misordered(const std::string& call);

 private:
  Verdict check_with(const std::vector<int>& source_slot) const;
  void build_w();
  void free_types();

  NeighborOp op_ = NeighborOp::allgather;
  Neighborhood hood_;
  int rank_ = 0, ranks_ = 0;
  std::size_t count_ = 0;
  Counts pattern_ = Counts::uniform;
  Ints send_, recv_;
  std::vector<int> send_counts_, send_displs_, recv_counts_, recv_displs_;
  std::vector<int> send_wcounts_, recv_wcounts_;
  std::vector<MPI_Aint> send_wdispls_, recv_wdispls_;
  std::vector<MPI_Datatype> send_types_, recv_types_, owned_types_;
};

// The blocking methods: execute() is one MPI_Neighbor_* call with the
// arguments of exchange().
class NeighborCollective : public CollectiveStrategy {
 public:
  void poison() final { x_.poison(); }
  Verdict verify() final { return x_.check(); }

 protected:
  NeighborCollective(NeighborOp op, std::string call)
      : op_(op), call_(std::move(call)) {}
  NeighborExchange& exchange() { return x_; }

 private:
  void build() final;
  void setup() final;
  void teardown() final { x_.release(); }
  NeighborOp op_;
  std::string call_;
  NeighborExchange x_;
};

// The non-blocking methods: post() starts one MPI_Ineighbor_* call with the
// arguments of exchange(), overlapped with the overlap suite's computation.
class NeighborOverlap : public OverlapStrategy {
 protected:
  NeighborOverlap(NeighborOp op, std::string call)
      : op_(op), call_(std::move(call)) {}
  NeighborExchange& exchange() { return x_; }

 private:
  void build() final;
  void teardown() final { x_.release(); }
  void reset() final { x_.poison(); }
  Verdict check() final { return x_.check(); }
  NeighborOp op_;
  std::string call_;
  NeighborExchange x_;
};

}  // namespace mpiarena
