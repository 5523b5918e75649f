// The payloads and checks of the collectives with per-rank counts (the v-
// and w-collectives) and of the scans, shared by their blocking methods
// (collective suite, plugins/collective/<name>) and their non-blocking ones
// (overlap suite, plugins/overlap/icoll_v): each class below holds one
// rank's buffers of one collective, builds them, poisons what the rank
// receives (-1) and checks it element by element; a method only makes the
// MPI call.
//
// Counts (collective_suite.hpp, the option "counts"): `count` is the ints
// per rank on average (the size of the point / sizeof(int), OSU's
// num_elements), laid out by v_layout(ranks, count, pattern); rank r's own
// count is layout.size(r). MPI_Reduce_scatter differs: as OSU's
// osu_reduce_scatter its size is the vector every rank contributes, split
// into the ranks' blocks (split_layout).
#pragma once

#include <mpi.h>

#include <cstddef>
#include <mpiarena/buffer.hpp>
#include <mpiarena/collective_suite.hpp>
#include <mpiarena/plugin.hpp>
#include <vector>

namespace mpiarena {

// Where one rank stands in a v-collective: its rank, the ranks, the root,
// the average count and the pattern of the counts.
struct VPoint {
  int rank = 0, ranks = 1, root = 0;
  std::size_t count = 0;
  Counts pattern = Counts::varied;
  bool is_root() const { return rank == root; }
};
// The point of `ctx` with `count` ints per rank on average (its counts
// option read with counts_of).
VPoint v_point(const RunContext& ctx, std::size_t count);

// `info` with counts_option() among its options (every v- and w-method).
StrategyInfo with_counts(StrategyInfo info);

// MPI_Gatherv (held at the root) and MPI_Allgatherv (held everywhere):
// rank r sends its layout.size(r) partials (partials_of); where held,
// `gathered` receives every rank's block at layout.first(r)
// (check_gathered_v names the block that is wrong).
class GathervData {
 public:
  void build(const VPoint& at, bool held);
  void reset();
  Verdict check() const;
  VLayout layout;
  Ints sent, gathered;  // gathered: empty where not held
  int sendcount() const { return static_cast<int>(sent.size()); }

 private:
  int ranks_ = 1;
  bool held_ = false;
};

// MPI_Scatterv: the root's `array` holds, in the layout, rank r's block of
// layout.size(r) partials of rank r (partials_of(r, ...)); rank r's
// `slice` receives its block, checked against partials_of(r, ...).
class ScattervData {
 public:
  void build(const VPoint& at);
  void reset();
  Verdict check() const;
  VLayout layout;
  Ints array, slice;  // array: empty except at the root
  int recvcount() const { return static_cast<int>(slice.size()); }

 private:
  int rank_ = 0, ranks_ = 1;
};

// MPI_Alltoallv: rank i sends pair_value(i, j, ...) to rank j in
// v_layout(ranks, count, pattern, i) (rotated by the rank, so the count
// from i to j is the one j expects from i) and receives in the same
// layout; check_alltoall_v names the sender of a wrong block.
class AlltoallvData {
 public:
  void build(const VPoint& at);
  void reset();
  Verdict check() const;
  VLayout layout;
  Ints sent, received;

 private:
  int rank_ = 0, ranks_ = 1;
};

// MPI_Alltoallw with a datatype per peer. The counts are the alltoallv's
// (rotated layout); the pair (i, j) of sender and receiver, n ints:
//   i + j even (a rank and itself among them): sent as n MPI_INT from a
//     contiguous block, received as n MPI_INT;
//   i + j odd: sent as ONE MPI_Type_vector(n, 1, 2, MPI_INT) from a block
//     of 2n ints whose odd places hold a marker (-2) that must never
//     arrive, received as ONE MPI_Type_contiguous(n, MPI_INT).
// With the option "types" (w_types_option()) at "int", every pair is
// sent and received as n MPI_INT, as OSU's osu_alltoallw runs.
// Both sides' type signatures are n ints, as MPI requires pairwise. The
// displacements are in bytes (MPI_Alltoallw's); every rank's `received`
// is contiguous in its layout and checked as the alltoallv's (a strided
// block read as contiguous shows the marker, a block sent to the wrong
// peer the wrong pair_value). Owns the derived types (freed by release()
// or the destructor; not copyable).
class AlltoallwData {
 public:
  AlltoallwData() = default;
  AlltoallwData(const AlltoallwData&) = delete;
  AlltoallwData& operator=(const AlltoallwData&) = delete;
  ~AlltoallwData() { release(); }
  // Throws SkipPoint when the send buffer's bytes exceed an int
  // displacement. mixed: the strided types between odd pairs (else
  // MPI_INT everywhere).
  void build(const VPoint& at, bool mixed = true);
  void release();
  void reset();
  Verdict check() const;
  bool strided(int from, int to) const {
    return mixed_ && (from + to) % 2 != 0;
  }
  VLayout layout;  // of the received blocks
  Ints sent, received;
  std::vector<int> sendcounts, sdispls, recvcounts, rdispls;  // bytes
  std::vector<MPI_Datatype> sendtypes, recvtypes;

 private:
  std::vector<MPI_Datatype> owned_;
  int rank_ = 0, ranks_ = 1;
  bool mixed_ = true;
};

// The w-methods' option "types": mixed (the default; the types above) or
// int (MPI_INT to every peer, OSU's); with_w_types adds it and the counts
// option to `info`, mixed_types reads it.
StrategyInfo with_w_types(StrategyInfo info);
bool mixed_types(const RunContext& ctx);

// MPI_Reduce_scatter (MPI_SUM) as OSU's osu_reduce_scatter: every rank
// contributes `total` ints (its partials, partials_of), rank r receives
// the sums of its block, recvcounts = split_layout(ranks, total, pattern),
// checked against partial_sum at the block's place in the vector.
// split_layout: v_layout(slots, total / slots, pattern) with one more int
// in each of the first total mod slots slots: uniform is OSU's split
// (portion + 1 for the first `remainder` ranks), varied keeps the total.
VLayout split_layout(int slots, std::size_t total, Counts pattern);
class ReduceScatterData {
 public:
  void build(const VPoint& at, std::size_t total);
  void reset();
  Verdict check() const;
  VLayout layout;
  Ints sent, received;

 private:
  int rank_ = 0, ranks_ = 1;
};

// MPI_Scan / MPI_Exscan (MPI_SUM) of `count` partials per rank: the
// closed form of element `index` of rank `rank`'s result, the sum of
// partial_value over ranks 0..rank (inclusive) or 0..rank-1 (exclusive),
// and the check of a rank's result; rank 0's MPI_Exscan result is
// undefined (MPI) and not checked.
long long prefix_sum(int rank, int ranks, std::size_t index, bool inclusive);
Verdict check_prefix_sums(const Ints& data, int rank, int ranks,
                          bool inclusive);

}  // namespace mpiarena
