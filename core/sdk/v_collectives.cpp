#include <climits>
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/v_collectives.hpp>
#include <string>
#include <utility>

namespace mpiarena {

namespace {

// Every int of `data` set to -1 (never written).
void poison_ints(Ints& data) { data.assign(data.size(), -1); }

constexpr int kGap = -2;  // the odd places of a strided alltoallw block

}  // namespace

VPoint v_point(const RunContext& ctx, std::size_t count) {
  VPoint at;
  at.rank = ctx.rank;
  at.ranks = ctx.size;
  at.root = ctx.root;
  at.count = count;
  at.pattern = counts_of(ctx);
  return at;
}

StrategyInfo with_counts(StrategyInfo info) {
  info.options.push_back(counts_option());
  // Varied and uniform counts are two problems, not two ways of one.
  info.operation.options.push_back("counts");
  return info;
}

void GathervData::build(const VPoint& at, bool held) {
  ranks_ = at.ranks;
  held_ = held;
  layout = v_layout(at.ranks, at.count, at.pattern);
  sent = partials_of(at.rank, at.ranks, layout.size(at.rank));
  gathered.assign(held ? layout.total : 0, -1);
}

void GathervData::reset() { poison_ints(gathered); }

Verdict GathervData::check() const {
  return held_ ? check_gathered_v(gathered, ranks_, layout) : Verdict{};
}

void ScattervData::build(const VPoint& at) {
  rank_ = at.rank;
  ranks_ = at.ranks;
  layout = v_layout(at.ranks, at.count, at.pattern);
  array.clear();
  if (at.is_root()) {
    array.resize(layout.total);
    for (int r = 0; r < at.ranks; ++r)
      for (std::size_t i = 0; i < layout.size(r); ++i)
        array[layout.first(r) + i] = partial_value(r, at.ranks, i);
  }
  slice.assign(layout.size(at.rank), -1);
}

void ScattervData::reset() { poison_ints(slice); }

Verdict ScattervData::check() const {
  if (slice.size() != layout.size(rank_))
    return {false, "slice holds " + std::to_string(slice.size()) +
                       " ints, expected " + std::to_string(layout.size(rank_))};
  return check_ints(
      slice, [&](std::size_t i) { return partial_value(rank_, ranks_, i); },
      "slice of rank " + std::to_string(rank_));
}

void AlltoallvData::build(const VPoint& at) {
  rank_ = at.rank;
  ranks_ = at.ranks;
  layout = v_layout(at.ranks, at.count, at.pattern, at.rank);
  sent = alltoall_send_v(at.rank, at.ranks, layout);
  received.assign(layout.total, -1);
}

void AlltoallvData::reset() { poison_ints(received); }

Verdict AlltoallvData::check() const {
  return check_alltoall_v(received, rank_, ranks_, layout);
}

StrategyInfo with_w_types(StrategyInfo info) {
  info = with_counts(std::move(info));
  info.options.push_back(OptionInfo::choice(
      "types", "mixed", {"mixed", "int"},
      "datatypes: mixed (a strided vector received as a contiguous type "
      "between ranks i and j with i + j odd, MPI_INT between the others) "
      "or int (MPI_INT to every peer, OSU's)"));
  return info;
}

bool mixed_types(const RunContext& ctx) { return ctx.option("types") != "int"; }

void AlltoallwData::build(const VPoint& at, bool mixed) {
  release();
  mixed_ = mixed;
  rank_ = at.rank;
  ranks_ = at.ranks;
  layout = v_layout(at.ranks, at.count, at.pattern, at.rank);
  const std::size_t p = static_cast<std::size_t>(at.ranks);
  std::size_t send_ints = 0;
  for (int to = 0; to < at.ranks; ++to)
    send_ints += layout.size(to) * (strided(at.rank, to) ? 2 : 1);
  if (send_ints * sizeof(int) > static_cast<std::size_t>(INT_MAX))
    throw SkipPoint(std::to_string(send_ints) +
                    " ints to send exceed MPI_Alltoallw's int byte "
                    "displacements");
  sent.assign(send_ints, kGap);
  received.assign(layout.total, -1);
  sendcounts.assign(p, 0);
  sdispls.assign(p, 0);
  recvcounts.assign(p, 0);
  rdispls.assign(p, 0);
  sendtypes.assign(p, MPI_INT);
  recvtypes.assign(p, MPI_INT);
  std::size_t at_int = 0;
  for (int peer = 0; peer < at.ranks; ++peer) {
    const std::size_t s = static_cast<std::size_t>(peer);
    const std::size_t n = layout.size(peer);
    const int in = static_cast<int>(n);
    const bool stride = strided(at.rank, peer);
    for (std::size_t i = 0; i < n; ++i)
      sent[at_int + (stride ? 2 * i : i)] =
          pair_value(at.rank, peer, at.ranks, i);
    sdispls[s] = static_cast<int>(at_int * sizeof(int));
    rdispls[s] = static_cast<int>(layout.first(peer) * sizeof(int));
    at_int += stride ? 2 * n : n;
    if (!stride) {
      sendcounts[s] = recvcounts[s] = in;
      continue;
    }
    MPI_Datatype vec, contig;
    MPIARENA_CHECK(MPI_Type_vector(in, 1, 2, MPI_INT, &vec));
    owned_.push_back(vec);
    MPIARENA_CHECK(MPI_Type_commit(&owned_.back()));
    MPIARENA_CHECK(MPI_Type_contiguous(in, MPI_INT, &contig));
    owned_.push_back(contig);
    MPIARENA_CHECK(MPI_Type_commit(&owned_.back()));
    sendtypes[s] = vec;
    recvtypes[s] = contig;
    sendcounts[s] = recvcounts[s] = 1;
  }
}

void AlltoallwData::release() {
  for (MPI_Datatype& t : owned_) MPI_Type_free(&t);
  owned_.clear();
}

void AlltoallwData::reset() { poison_ints(received); }

Verdict AlltoallwData::check() const {
  return check_alltoall_v(received, rank_, ranks_, layout);
}

VLayout split_layout(int slots, std::size_t total, Counts pattern) {
  const std::size_t p = static_cast<std::size_t>(slots);
  VLayout out = v_layout(slots, total / p, pattern);
  const std::size_t extra = total % p;
  out.total = 0;
  for (std::size_t s = 0; s < p; ++s) {
    if (s < extra) ++out.counts[s];
    out.displs[s] = static_cast<int>(out.total);
    out.total += static_cast<std::size_t>(out.counts[s]);
  }
  return out;
}

void ReduceScatterData::build(const VPoint& at, std::size_t total) {
  rank_ = at.rank;
  ranks_ = at.ranks;
  layout = split_layout(at.ranks, total, at.pattern);
  sent = partials_of(at.rank, at.ranks, total);
  received.assign(layout.size(at.rank), -1);
}

void ReduceScatterData::reset() { poison_ints(received); }

Verdict ReduceScatterData::check() const {
  if (received.size() != layout.size(rank_))
    return {false, "received " + std::to_string(received.size()) +
                       " ints, expected " + std::to_string(layout.size(rank_))};
  const std::size_t first = layout.first(rank_);
  return check_ints(
      received, [&](std::size_t i) { return partial_sum(ranks_, first + i); },
      "rank " + std::to_string(rank_) + "'s block of the sum (vector from " +
          std::to_string(first) + ")");
}

// partial_value(q, p, i) = (i mod 1021) p + q + 1, summed over q < n:
// (i mod 1021) p n + n (n + 1) / 2.
long long prefix_sum(int rank, int ranks, std::size_t index, bool inclusive) {
  const long long n = inclusive ? rank + 1 : rank;
  return static_cast<long long>(index % 1021) * ranks * n + n * (n + 1) / 2;
}

Verdict check_prefix_sums(const Ints& data, int rank, int ranks,
                          bool inclusive) {
  if (!inclusive && rank == 0) return {};
  return check_ints(
      data,
      [&](std::size_t i) { return prefix_sum(rank, ranks, i, inclusive); },
      std::string(inclusive ? "scan" : "exscan") + " of rank " +
          std::to_string(rank));
}

}  // namespace mpiarena
