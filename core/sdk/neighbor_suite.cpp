// The payloads, checks and bases of the neighbourhood collectives
// (neighbor_suite.hpp); the topologies are in neighbor_topology.cpp.
#include <climits>
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/neighbor_suite.hpp>
#include <string>
#include <vector>

namespace mpiarena {

namespace {

constexpr long long kValues = 2147483646;  // values 1..kValues
constexpr long long kStep = 7919;

bool is_gather(NeighborOp op) {
  return op == NeighborOp::allgather || op == NeighborOp::allgatherv;
}

std::size_t at(int i) { return static_cast<std::size_t>(i); }

// The code of the block `from` sends in its block `slot` to `to`.
long long pair_code(int from, int to, int slot, int ranks, int degree) {
  return (static_cast<long long>(from) * ranks + to) * degree + slot;
}

// What a wrong value is: whose block it belongs to, where that shows.
std::string whose(NeighborOp op, int value, std::size_t index, int ranks,
                  int degree) {
  if (value == -1) return " (never written)";
  if (value < 1) return "";
  const long long code =
      ((value - 1 - static_cast<long long>(index % 1000003) * kStep) % kValues +
       kValues) %
      kValues;
  if (is_gather(op))
    return code < ranks ? ", the block of rank " + std::to_string(code) : "";
  const long long per = static_cast<long long>(ranks) * degree;
  if (code >= per * ranks) return "";
  return ", rank " + std::to_string(code / per) + "'s block " +
         std::to_string(code % degree) + " (to rank " +
         std::to_string(code / degree % ranks) + ")";
}

// Prefix sums of `counts` into `displs`; the total.
std::size_t prefix(const std::vector<int>& counts, std::vector<int>& displs) {
  std::size_t total = 0;
  displs.clear();
  for (int c : counts) {
    displs.push_back(static_cast<int>(total));
    total += at(c);
  }
  return total;
}

}  // namespace

int neighbor_value(long long code, std::size_t index) {
  return static_cast<int>(
             (code + static_cast<long long>(index % 1000003) * kStep) %
             kValues) +
         1;
}

void NeighborExchange::build(NeighborOp op, const RunContext& ctx,
                             std::size_t count) {
  op_ = op;
  rank_ = ctx.rank;
  ranks_ = ctx.size;
  count_ = count;
  hood_ = make_neighborhood(ctx);
  const bool varied =
      (op == NeighborOp::allgatherv || op == NeighborOp::alltoallv ||
       op == NeighborOp::alltoallw);
  lay_out(varied ? counts_of(ctx) : Counts::uniform);
}

void NeighborExchange::lay_out(Counts pattern) {
  free_types();
  pattern_ = pattern;
  const int degree = hood_.degree();
  const NeighborOp op = op_;
  const std::size_t count = count_;
  send_counts_.clear();
  recv_counts_.clear();
  if (is_gather(op)) {
    send_counts_.push_back(
        static_cast<int>(v_count(rank_, ranks_, count, pattern)));
    for (int s : hood_.sources)
      recv_counts_.push_back(
          static_cast<int>(v_count(s, ranks_, count, pattern)));
  } else {
    for (int k = 0; k < degree; ++k)
      send_counts_.push_back(
          static_cast<int>(v_count(k, degree, count, pattern)));
    for (int k : hood_.source_slot)
      recv_counts_.push_back(
          static_cast<int>(v_count(k, degree, count, pattern)));
  }
  const std::size_t sent = prefix(send_counts_, send_displs_);
  const std::size_t received = prefix(recv_counts_, recv_displs_);
  if (sent > static_cast<std::size_t>(INT_MAX) ||
      received > static_cast<std::size_t>(INT_MAX)) {
    free_neighborhood(hood_);
    throw SkipPoint(std::to_string(received) + " ints from " +
                    std::to_string(degree) +
                    " neighbours exceed an int displacement");
  }
  send_.resize(sent);
  for (std::size_t k = 0; k < send_counts_.size(); ++k) {
    const long long code = is_gather(op)
                               ? rank_
                               : pair_code(rank_, hood_.destinations[k],
                                           static_cast<int>(k), ranks_, degree);
    for (std::size_t i = 0; i < at(send_counts_[k]); ++i)
      send_[at(send_displs_[k]) + i] = neighbor_value(code, i);
  }
  recv_.assign(received, -1);
  if (op == NeighborOp::alltoallw) build_w();
}

// Even send blocks as count x MPI_INT, odd ones as one contiguous type of
// count ints; the receive blocks the other way round.
void NeighborExchange::build_w() {
  auto typed = [&](const std::vector<int>& counts,
                   const std::vector<int>& displs, int contiguous_parity,
                   std::vector<int>& wcounts, std::vector<MPI_Aint>& wdispls,
                   std::vector<MPI_Datatype>& types) {
    wcounts.clear();
    wdispls.clear();
    types.clear();
    for (std::size_t k = 0; k < counts.size(); ++k) {
      wdispls.push_back(static_cast<MPI_Aint>(displs[k]) *
                        static_cast<MPI_Aint>(sizeof(int)));
      if (static_cast<int>(k % 2) != contiguous_parity) {
        wcounts.push_back(counts[k]);
        types.push_back(MPI_INT);
        continue;
      }
      MPI_Datatype t = MPI_DATATYPE_NULL;
      MPIARENA_CHECK(MPI_Type_contiguous(counts[k], MPI_INT, &t));
      MPIARENA_CHECK(MPI_Type_commit(&t));
      owned_types_.push_back(t);
      wcounts.push_back(1);
      types.push_back(t);
    }
  };
  typed(send_counts_, send_displs_, 1, send_wcounts_, send_wdispls_,
        send_types_);
  typed(recv_counts_, recv_displs_, 0, recv_wcounts_, recv_wdispls_,
        recv_types_);
}

void NeighborExchange::free_types() {
  for (MPI_Datatype& t : owned_types_) MPIARENA_CHECK(MPI_Type_free(&t));
  owned_types_.clear();
}

void NeighborExchange::release() {
  free_types();
  free_neighborhood(hood_);
}

void NeighborExchange::poison() { recv_.assign(recv_.size(), -1); }

Verdict NeighborExchange::check() const {
  return check_with(hood_.source_slot);
}

Verdict NeighborExchange::check_with(
    const std::vector<int>& source_slot) const {
  const int degree = hood_.degree();
  for (std::size_t j = 0; j < hood_.sources.size(); ++j) {
    const int from = hood_.sources[j];
    const long long code =
        is_gather(op_) ? from
                       : pair_code(from, rank_, source_slot[j], ranks_, degree);
    for (std::size_t i = 0; i < at(recv_counts_[j]); ++i) {
      const std::size_t e = at(recv_displs_[j]) + i;
      const int want = neighbor_value(code, i);
      if (recv_[e] == want) continue;
      std::string from_where = "neighbour rank " + std::to_string(from);
      if (!is_gather(op_))
        from_where += ", its block " + std::to_string(source_slot[j]);
      return {false, "receive block " + std::to_string(j) + " (from " +
                         from_where + ") element " + std::to_string(i) +
                         " is " + std::to_string(recv_[e]) + ", expected " +
                         std::to_string(want) +
                         whose(op_, recv_[e], i, ranks_, degree) + " on " +
                         hood_.describe()};
    }
  }
  return {};
}

bool NeighborExchange::needs_probe() const {
  return !is_gather(op_) && hood_.repeated();
}

void NeighborExchange::skip_if_misordered(const std::string& call) {
  // Max over ranks of [failed, failed and not in list order, failed and
  // not in reverse order].
  const bool failed = !check().ok;
  int local[3] = {failed, failed && !check_with(hood_.matched_slot[0]).ok,
                  failed && !check_with(hood_.matched_slot[1]).ok};
  int any[3] = {0, 0, 0};
  MPIARENA_CHECK(MPI_Allreduce(local, any, 3, MPI_INT, MPI_MAX, hood_.comm));
  if (!any[0] || (any[1] && any[2])) return;
  const std::string where = hood_.describe();
  const std::string order = !any[1] ? "list order (the k-th edge to a rank "
                                      "with the k-th from it)"
                                    : "reverse order (the k-th edge to a rank "
                                      "with the last-but-k from it)";
  release();
  throw SkipPoint(
      std::string("this MPI library's (") + kMpiImplementation + ") " + call +
      " matches the repeated edges between two ranks in " + order +
      ", against MPI-4.1 §8.6 (list order on a graph topology; on a "
      "Cartesian one block s into block s^1), on the " +
      where +
      ": its data would be wrong (open-mpi/ompi#14430, pmodels/mpich#7945); "
      "a topology without repeated neighbours runs (osu on 3 ranks or more, "
      "a cart grid whose dimensions all hold 3 ranks or more)");
}

void NeighborCollective::build() { x_.build(op_, ctx(), count()); }

// One exchange of uniform counts before anything is timed: a library that
// misplaces the blocks of repeated neighbours is named
// (skip_if_misordered).
void NeighborCollective::setup() {
  if (!x_.needs_probe()) return;
  const Counts pattern = x_.pattern();
  x_.lay_out(Counts::uniform);
  execute();
  x_.skip_if_misordered(call_);
  x_.lay_out(pattern);
}

void NeighborOverlap::build() {
  x_.build(op_, ctx(), count());
  if (!x_.needs_probe()) return;
  const Counts pattern = x_.pattern();
  x_.lay_out(Counts::uniform);
  std::vector<MPI_Request> requests;
  post(requests);
  MPIARENA_CHECK(MPI_Waitall(static_cast<int>(requests.size()), requests.data(),
                             MPI_STATUSES_IGNORE));
  x_.skip_if_misordered(call_);
  x_.lay_out(pattern);
}

}  // namespace mpiarena
