#include <algorithm>
#include <mpiarena/collective_suite.hpp>
#include <string>
#include <utility>

namespace mpiarena {

StrategyInfo collective_info(std::string suite, std::string name,
                             std::string summary, int payload_copies,
                             int payload_copies_per_rank, int min_ranks) {
  StrategyInfo info;
  info.name = std::move(name);
  info.suite = std::move(suite);
  info.summary = std::move(summary);
  info.payloads = {"1d"};
  info.min_ranks = min_ranks;
  info.payload_copies = payload_copies;
  info.payload_copies_per_rank = payload_copies_per_rank;
  return info;
}

StrategyInfo mockup_info(const std::string& collective,
                         const std::string& guideline, std::string name,
                         std::string summary, int payload_copies,
                         int payload_copies_per_rank) {
  StrategyInfo info =
      collective_info("collective", std::move(name), std::move(summary),
                      payload_copies, payload_copies_per_rank);
  info.params = {{"collective", collective}, {"guideline", guideline}};
  info.operation = collective_operation(collective);
  return info;
}

Operation collective_operation(const std::string& collective) {
  static const std::vector<std::string> reductions{
      "allreduce", "reduce", "reduce_scatter", "reduce_scatter_block",
      "scan",      "exscan"};
  static const std::vector<std::string> rooted{
      "bcast", "reduce", "gather", "gatherv", "scatter", "scatterv"};
  auto among = [&](const std::vector<std::string>& names) {
    return std::find(names.begin(), names.end(), collective) != names.end();
  };
  Operation op;
  op.name = collective;
  op.semantics.emplace_back("datatype", "int");
  if (among(reductions)) op.semantics.emplace_back("op", "sum");
  if (among(rooted)) op.semantics.emplace_back("root", "0");
  return op;
}

int distribution_value(std::size_t index) {
  return static_cast<int>(index % 1000003) + 1;
}

// (index mod 1021) * ranks + rank + 1: distinct per rank, so a rank's
// contribution that is lost or counted twice shows in the sum.
int partial_value(int rank, int ranks, std::size_t index) {
  return static_cast<int>(index % 1021) * ranks + rank + 1;
}

long long partial_sum(int ranks, std::size_t index) {
  const long long p = ranks;
  return static_cast<long long>(index % 1021) * p * p + p * (p + 1) / 2;
}

int pair_value(int from, int to, int ranks, std::size_t index) {
  return static_cast<int>(index % 1021) * ranks * ranks + from * ranks + to + 1;
}

Verdict check_ints(const Ints& data,
                   const std::function<long long(std::size_t)>& expected,
                   const std::string& what) {
  for (std::size_t i = 0; i < data.size(); ++i) {
    const long long want = expected(i);
    if (data[i] != want)
      return {false, what + " element " + std::to_string(i) + " is " +
                         std::to_string(data[i]) + ", expected " +
                         std::to_string(want) +
                         (data[i] == -1 ? " (never written)" : "")};
  }
  return {};
}

Ints partials_of(int rank, int ranks, std::size_t n) {
  Ints out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = partial_value(rank, ranks, i);
  return out;
}

Verdict check_gathered(const Ints& data, int ranks, std::size_t n) {
  return check_ints(
      data,
      [&](std::size_t j) {
        return partial_value(static_cast<int>(j / n), ranks, j % n);
      },
      "gathered");
}

Verdict check_sums(const Ints& data, int ranks) {
  return check_ints(
      data, [&](std::size_t i) { return partial_sum(ranks, i); }, "sum");
}

Ints alltoall_send(int rank, int ranks, std::size_t n) {
  Ints out(n * static_cast<std::size_t>(ranks));
  for (std::size_t j = 0; j < out.size(); ++j)
    out[j] = pair_value(rank, static_cast<int>(j / n), ranks, j % n);
  return out;
}

Verdict check_alltoall(const Ints& data, int rank, int ranks, std::size_t n) {
  return check_ints(
      data,
      [&](std::size_t j) {
        return pair_value(static_cast<int>(j / n), rank, ranks, j % n);
      },
      "received");
}

std::size_t v_count(int slot, int slots, std::size_t count, Counts pattern) {
  if (pattern == Counts::uniform) return count;
  const std::size_t half = count / 2;
  if (slot < slots / 2) return count - half;
  if (slot >= slots - slots / 2) return count + half;
  return count;
}

VLayout v_layout(int slots, std::size_t count, Counts pattern, int rotate) {
  VLayout out;
  out.counts.resize(static_cast<std::size_t>(slots));
  out.displs.resize(static_cast<std::size_t>(slots));
  for (int s = 0; s < slots; ++s) {
    const std::size_t n = v_count((s + rotate) % slots, slots, count, pattern);
    out.counts[static_cast<std::size_t>(s)] = static_cast<int>(n);
    out.displs[static_cast<std::size_t>(s)] = static_cast<int>(out.total);
    out.total += n;
  }
  return out;
}

OptionInfo counts_option() {
  return OptionInfo::choice(
      "counts", "varied", {"varied", "uniform"},
      "per-rank counts: varied (ranks differ, same total; the check sees a "
      "misplaced block) or uniform (OSU's and IMB's)");
}

Counts counts_of(const RunContext& ctx) {
  return ctx.option("counts") == "uniform" ? Counts::uniform : Counts::varied;
}

Verdict check_gathered_v(const Ints& data, int ranks, const VLayout& layout) {
  if (data.size() != layout.total)
    return {false, "gathered holds " + std::to_string(data.size()) +
                       " ints, expected " + std::to_string(layout.total)};
  for (int from = 0; from < ranks; ++from)
    for (std::size_t i = 0; i < layout.size(from); ++i) {
      const std::size_t j = layout.first(from) + i;
      const int want = partial_value(from, ranks, i);
      if (data[j] != want)
        return {false, "gathered element " + std::to_string(j) +
                           " (block of rank " + std::to_string(from) + ") is " +
                           std::to_string(data[j]) + ", expected " +
                           std::to_string(want) +
                           (data[j] == -1 ? " (never written)" : "")};
    }
  return {};
}

Ints alltoall_send_v(int rank, int ranks, const VLayout& layout) {
  Ints out(layout.total);
  for (int to = 0; to < ranks; ++to)
    for (std::size_t i = 0; i < layout.size(to); ++i)
      out[layout.first(to) + i] = pair_value(rank, to, ranks, i);
  return out;
}

Verdict check_alltoall_v(const Ints& data, int rank, int ranks,
                         const VLayout& layout) {
  if (data.size() != layout.total)
    return {false, "received " + std::to_string(data.size()) +
                       " ints, expected " + std::to_string(layout.total)};
  for (int from = 0; from < ranks; ++from)
    for (std::size_t i = 0; i < layout.size(from); ++i) {
      const std::size_t j = layout.first(from) + i;
      const int want = pair_value(from, rank, ranks, i);
      if (data[j] != want)
        return {false, "received element " + std::to_string(j) +
                           " (from rank " + std::to_string(from) + ") is " +
                           std::to_string(data[j]) + ", expected " +
                           std::to_string(want) +
                           (data[j] == -1 ? " (never written)" : "")};
    }
  return {};
}

void CollectiveStrategy::prepare(const RunContext& ctx) {
  ctx_ = ctx;
  const std::size_t p = static_cast<std::size_t>(ctx.size);
  total_ =
      ctx.size_total ? ctx.bytes / sizeof(int) : ctx.bytes / sizeof(int) * p;
  count_ = total_ / p;
  // The sums stay below INT_MAX for up to ~1400 ranks; the whole array of a
  // distribution must have an int count.
  if (total_ > static_cast<std::size_t>(INT_MAX))
    throw SkipPoint(std::to_string(total_) + " ints over " +
                    std::to_string(ctx.size) +
                    " ranks exceed an int element count");
  build();
  setup();
}

void CollectiveStrategy::release() { teardown(); }

Ints CollectiveStrategy::own_partials() const {
  return partials_of(ctx_.rank, ctx_.size, count_);
}

Verdict CollectiveStrategy::check_gathered(const Ints& data) const {
  return mpiarena::check_gathered(data, ctx_.size, count_);
}

void DistributionStrategy::build() {
  const std::size_t p = static_cast<std::size_t>(ranks());
  counts_.assign(p, 0);
  displs_.assign(p, 0);
  for (std::size_t r = 0, first = 0; r < p; ++r) {
    counts_[r] = static_cast<int>(count() + (r < total() % p ? 1 : 0));
    displs_[r] = static_cast<int>(first);
    first += static_cast<std::size_t>(counts_[r]);
  }
  if (is_root()) {
    array_.resize(total());
    for (std::size_t j = 0; j < array_.size(); ++j)
      array_[j] = distribution_value(j);
  }
  slice_.assign(slice_count(rank()), -1);
}

void DistributionStrategy::poison() { slice_.assign(slice_.size(), -1); }

Verdict DistributionStrategy::verify() {
  const std::size_t first = slice_first(rank());
  if (slice_.size() != slice_count(rank()))
    return {false, "slice holds " + std::to_string(slice_.size()) +
                       " ints, expected " +
                       std::to_string(slice_count(rank()))};
  return check_ints(
      slice_, [&](std::size_t k) { return distribution_value(first + k); },
      "slice");
}

void GatheringStrategy::build() {
  sent_ = own_partials();
  gathered_.clear();
  poison();
}

void GatheringStrategy::poison() {
  if (holds())
    gathered_.assign(count() * static_cast<std::size_t>(ranks()), -1);
}

Verdict GatheringStrategy::verify() {
  return holds() ? check_gathered(gathered_) : Verdict{};
}

void CombinationStrategy::build() {
  partial_ = own_partials();
  if (is_root()) result_.assign(count(), -1);
}

void CombinationStrategy::poison() {
  if (is_root()) result_.assign(result_.size(), -1);
}

Verdict CombinationStrategy::verify() {
  if (!is_root()) return {};
  if (result_.size() != count())
    return {false, "result holds " + std::to_string(result_.size()) +
                       " ints, expected " + std::to_string(count())};
  return check_ints(
      result_, [&](std::size_t i) { return partial_sum(ranks(), i); }, "sum");
}

}  // namespace mpiarena
