// Base classes of the collective suite (the course exercise "Week 4 - MPI
// Communications", part 3: collective communications): every rank of the
// communicator takes part, and the size of a point is the PER-RANK message
// in bytes, as OSU and IMB count it (int elements: count = bytes / 4).
//
// Under runner --size-basis total the size is the whole array over the
// ranks instead (the exercise's N): a distribution splits its N ints into
// slices that differ by at most one int (the first N mod p ranks hold one
// more); the other methods use floor(N / p) ints per rank.
//
// Distribution (DistributionStrategy): the root holds an array of
// total() ints, count x ranks per rank (the exercise's "vector addition"
// set-up); after one execute() every rank holds its own slice,
// rank r the slice_count(r) elements from slice_first(r). A method writes
// execute() with root_array() (root only) and slice().
//
// Combination (CombinationStrategy): every rank holds `count` partial
// results; after one execute() the root holds their element-wise sum. A
// method writes execute() with partial() and (on the root) result(). The
// check compares the root's sum with a closed form computed apart from the
// data (integers, so the sums are exact).
//
// Gathering (GatheringStrategy): every rank sends its count() partial
// values (sent()); after one execute() gathered() holds every rank's
// block in rank order, count() x ranks() ints, on every rank, or on the
// root only for a method constructed with Gathered::at_root (MPI_Gather;
// gathered() is empty elsewhere). It is checked wherever it is held. A
// method writes execute() with sent() and gathered().
#pragma once

#include <climits>
#include <cstddef>
#include <functional>
#include <mpiarena/buffer.hpp>
#include <mpiarena/plugin.hpp>
#include <string>
#include <utility>
#include <vector>

namespace mpiarena {

// The StrategyInfo of a method of this family: `suite` is "distribution"
// or "combination" (the Week 4 exercise's two studies, ranked apart) or
// "collective" (the everyday collectives); payload "1d" (ints), at least
// `min_ranks` ranks, `payload_copies` per-rank payloads per rank, plus
// `payload_copies_per_rank` more per rank of the point (StrategyInfo).
StrategyInfo collective_info(std::string suite, std::string name,
                             std::string summary, int payload_copies = 2,
                             int payload_copies_per_rank = 0,
                             int min_ranks = 2);

// What the MPI collective `collective` computes on this family's ints
// (StrategyInfo::operation): the operation `collective` with the datatype
// "int", the reduction op "sum" for a reduction (allreduce, reduce,
// reduce_scatter(_block), scan, exscan) and the root "0" for a rooted one
// (bcast, reduce, gather(v), scatter(v)). A method doing the same with
// other calls declares the same and ranks with the library's method.
Operation collective_operation(const std::string& collective);

// `info` of a method whose execute() is one call of the MPI collective
// `collective`, whose algorithm the MPI library chooses
// (StrategyInfo::library_collective: runner --algorithms); recorded as the
// param "collective", which the report's guideline view reads, and
// declared as its operation (collective_operation; info's semantic
// options kept).
inline StrategyInfo chosen_by_library(std::string collective,
                                      StrategyInfo info) {
  info.params.emplace_back("collective", collective);
  const Operation op = collective_operation(collective);
  info.operation.name = op.name;
  info.operation.semantics = op.semantics;
  info.library_collective = std::move(collective);
  return info;
}

// A guideline mock-up (ReproMPI's self-consistent performance guidelines):
// method `name` does what `collective` does with other collectives
// (`guideline`, e.g. "reduce_bcast"), and should never beat the library's
// own `collective`; the report lists where it does (Guideline
// violations). Params "collective" and "guideline"; the operation of
// `collective` (collective_operation): it ranks with the library's method.
// A method whose option changes what it computes (op=max) names the option
// in info.operation.options and ranks apart at each value that differs.
StrategyInfo mockup_info(const std::string& collective,
                         const std::string& guideline, std::string name,
                         std::string summary, int payload_copies = 2,
                         int payload_copies_per_rank = 0);

// Element `index` of the distributed array (positive, below 2^20).
int distribution_value(std::size_t index);
// Element `index` of rank `rank`'s partial results among `ranks`, and
// the closed form of their sum over every rank.
int partial_value(int rank, int ranks, std::size_t index);
long long partial_sum(int ranks, std::size_t index);

// Value that rank `from` sends to rank `to` at element `index` of an
// alltoall (distinct for every (from, to) pair).
int pair_value(int from, int to, int ranks, std::size_t index);

// {} when data[i] == expected(i) for every i, else the first mismatch
// ("<what> element i is x, expected y").
Verdict check_ints(const Ints& data,
                   const std::function<long long(std::size_t)>& expected,
                   const std::string& what);

// The payloads and checks the collective methods of every suite share
// (collective, overlap), for `n` ints per rank among `ranks`:
// rank `rank`'s n partial values; every rank's n partials gathered in rank
// order; the element-wise sums of the partials; what rank `rank` sends to
// every rank in an alltoall (n ints each, by destination) and receives.
Ints partials_of(int rank, int ranks, std::size_t n);
Verdict check_gathered(const Ints& data, int ranks, std::size_t n);
Verdict check_sums(const Ints& data, int ranks);
Ints alltoall_send(int rank, int ranks, std::size_t n);
Verdict check_alltoall(const Ints& data, int rank, int ranks, std::size_t n);

// ------------------------------------------------- per-rank counts (v, w)
// The v- and w-collectives (MPI_Gatherv, MPI_Scatterv, MPI_Allgatherv,
// MPI_Alltoallv/w, MPI_Reduce_scatter, their non-blocking and neighbourhood
// forms) take one count per rank. Their option "counts" (counts_option())
// picks the pattern:
//   varied (the default): `count` ints per rank on average, slot s of p
//     holding count - count/2 for s < p/2, count + count/2 for s >= p - p/2
//     and count in the middle slot of an odd p: the slots differ (from
//     2 ints per rank), their total is OSU's, and a count or displacement
//     taken from the wrong rank puts data in the wrong place, which the
//     check sees; uniform counts hide such a bug;
//   uniform: every slot `count` ints, as OSU's and IMB's v-benchmarks run
//     (the figures to compare with theirs).
// A layout's slots are contiguous in slot order (displacements are the
// prefix sums, as OSU's). `rotate` shifts the pattern: slot s takes the
// count of pattern slot (s + rotate) mod p, so an alltoallv whose rank i
// sends v_layout(p, c, pattern, i) to the ranks receives from them the
// same layout (the count from i to j depends on i + j only).
enum class Counts { varied, uniform };
struct VLayout {
  std::vector<int> counts, displs;
  std::size_t total = 0;  // ints over every slot
  std::size_t first(int slot) const {
    return static_cast<std::size_t>(displs[static_cast<std::size_t>(slot)]);
  }
  std::size_t size(int slot) const {
    return static_cast<std::size_t>(counts[static_cast<std::size_t>(slot)]);
  }
};
// Slot `slot`'s count among `slots` for `count` ints on average.
std::size_t v_count(int slot, int slots, std::size_t count, Counts pattern);
VLayout v_layout(int slots, std::size_t count, Counts pattern, int rotate = 0);
// The option every v- and w-method declares, and its value at a point.
OptionInfo counts_option();
Counts counts_of(const RunContext& ctx);
// The check of every rank's block of partials (partials_of(s, ranks,
// layout.size(s))) gathered in `layout`, slot s = rank s.
Verdict check_gathered_v(const Ints& data, int ranks, const VLayout& layout);
// An alltoallv's send of rank `rank` (pair_value to each destination, in
// `layout`), and the check of what it received in `layout` from each rank.
Ints alltoall_send_v(int rank, int ranks, const VLayout& layout);
Verdict check_alltoall_v(const Ints& data, int rank, int ranks,
                         const VLayout& layout);

// The everyday collectives: a plugin derives from CollectiveStrategy and
// writes build(), execute(), poison() and verify() with the helpers above.
class CollectiveStrategy : public Strategy {
 public:
  void prepare(const RunContext& ctx) final;
  void release() final;

 protected:
  virtual void setup() {}
  virtual void teardown() {}
  // Builds the payload (prepare, before setup()).
  virtual void build() = 0;

  const RunContext& ctx() const { return ctx_; }
  MPI_Comm comm() const { return ctx_.comm; }
  bool is_root() const { return ctx_.rank == ctx_.root; }
  int root() const { return ctx_.root; }
  int rank() const { return ctx_.rank; }
  int ranks() const { return ctx_.size; }
  // Ints per rank (the size of the point / sizeof(int)), and as an MPI count.
  std::size_t count() const { return count_; }
  int icount() const { return static_cast<int>(count_); }
  // Ints over every rank: count() x ranks(), or under --size-basis total
  // the size / sizeof(int) (which ranks() may not divide).
  std::size_t total() const { return total_; }
  // count() rounded up to a multiple of ranks(), over ranks(): the block
  // of a mock-up that splits count() ints over the ranks (the last padded).
  std::size_t block() const {
    return (count_ + static_cast<std::size_t>(ctx_.size) - 1) /
           static_cast<std::size_t>(ctx_.size);
  }
  // This rank's count() partial values (partial_value), and the check of
  // every rank's block of them gathered in rank order.
  Ints own_partials() const;
  Verdict check_gathered(const Ints& data) const;

 private:
  RunContext ctx_;
  std::size_t count_ = 0, total_ = 0;
};

class DistributionStrategy : public CollectiveStrategy {
 public:
  void poison() final;
  Verdict verify() final;

 protected:
  void build() final;
  // Root: the whole array, count() x ranks() ints. Empty elsewhere.
  Ints& root_array() { return array_; }
  // This rank's slice, slice_count(rank()) ints (the root's too).
  Ints& slice() { return slice_; }
  // Rank r's slice of the array: its first element and its length, as
  // MPI_Scatterv's displacements and counts (every rank's, by rank).
  std::size_t slice_first(int r) const { return displs_[r]; }
  std::size_t slice_count(int r) const { return counts_[r]; }
  const int* displs() const { return displs_.data(); }
  const int* counts() const { return counts_.data(); }
  // Whether every slice holds count() ints (MPI_Scatter will do).
  bool even() const { return total() == count() * ranks(); }

 private:
  Ints array_, slice_;
  std::vector<int> counts_, displs_;
};

// Where a GatheringStrategy's gathered array is held and checked.
enum class Gathered { at_every_rank, at_root };

class GatheringStrategy : public CollectiveStrategy {
 public:
  void poison() final;
  Verdict verify() final;

 protected:
  explicit GatheringStrategy(Gathered where = Gathered::at_every_rank)
      : where_(where) {}
  // sent() = own_partials(); a method that sends more calls this first.
  void build() override;
  // This rank's count() partial values (what build() left there).
  Ints& sent() { return sent_; }
  // Where held: every rank's block in rank order, count() x ranks() ints.
  // Empty elsewhere (MPI_Gather ignores a non-root's receive buffer).
  Ints& gathered() { return gathered_; }

 private:
  bool holds() const { return where_ == Gathered::at_every_rank || is_root(); }
  Gathered where_;
  Ints sent_, gathered_;
};

class CombinationStrategy : public CollectiveStrategy {
 public:
  void poison() final;
  Verdict verify() final;

 protected:
  void build() final;
  // This rank's partial results, count() ints.
  Ints& partial() { return partial_; }
  // Root: the element-wise sum over every rank, count() ints. Empty
  // elsewhere.
  Ints& result() { return result_; }

 private:
  Ints partial_, result_;
};

}  // namespace mpiarena
