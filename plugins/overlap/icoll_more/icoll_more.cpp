// More non-blocking collectives as OSU measures them (osu_ibarrier,
// osu_ireduce, osu_igather, osu_iscatter, osu_ireduce_scatter_block): posted,
// overlapped with the computation, waited for (overlap_suite.hpp). The size
// is OSU's: count ints per rank (igather: sent by each rank; iscatter:
// received by each rank; ireduce: reduced), except ireduce_scatter_block,
// where count ints is each rank's SEND buffer and each rank receives
// count / ranks of the sum. The root is rank 0, as OSU's default. Results
// are checked where MPI defines them: the root for ireduce and igather,
// every rank for iscatter and ireduce_scatter_block. ibarrier moves no data
// and checks nothing, as barrier (nothing is delivered to check).
#include <mpiarena/collective_suite.hpp>
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/overlap_suite.hpp>
#include <string>
#include <vector>

namespace {

using mpiarena::Ints;
using mpiarena::OverlapStrategy;
using mpiarena::Verdict;

// Send and receive buffers, and the root: rank 0 (RunContext::root).
class WithBuffers : public OverlapStrategy {
 protected:
  int root() const { return ctx().root; }
  bool is_root() const { return rank() == root(); }
  std::size_t all() const {
    return count() * static_cast<std::size_t>(ranks());
  }
  void reset() override { recv_.assign(recv_.size(), -1); }
  Ints send_, recv_;
};

class Ibarrier final : public OverlapStrategy {
  void build() override {}
  void post(std::vector<MPI_Request>& requests) override {
    requests.push_back(MPI_REQUEST_NULL);
    MPIARENA_CHECK(MPI_Ibarrier(comm(), &requests.back()));
  }
  void reset() override {}
  Verdict check() override { return {}; }  // nothing moved
};

class Ireduce final : public WithBuffers {
  void build() override {
    send_ = mpiarena::partials_of(rank(), ranks(), count());
    recv_.assign(is_root() ? count() : 0, -1);
  }
  void post(std::vector<MPI_Request>& requests) override {
    requests.push_back(MPI_REQUEST_NULL);
    MPIARENA_CHECK(MPI_Ireduce(send_.data(), is_root() ? recv_.data() : nullptr,
                               icount(), MPI_INT, MPI_SUM, root(), comm(),
                               &requests.back()));
  }
  Verdict check() override {
    return is_root() ? mpiarena::check_sums(recv_, ranks()) : Verdict{};
  }
};

class Igather final : public WithBuffers {
  void build() override {
    send_ = mpiarena::partials_of(rank(), ranks(), count());
    recv_.assign(is_root() ? all() : 0, -1);
  }
  void post(std::vector<MPI_Request>& requests) override {
    requests.push_back(MPI_REQUEST_NULL);
    MPIARENA_CHECK(MPI_Igather(send_.data(), icount(), MPI_INT,
                               is_root() ? recv_.data() : nullptr, icount(),
                               MPI_INT, root(), comm(), &requests.back()));
  }
  Verdict check() override {
    return is_root() ? mpiarena::check_gathered(recv_, ranks(), count())
                     : Verdict{};
  }
};

class Iscatter final : public WithBuffers {
  void build() override {
    send_.resize(is_root() ? all() : 0);
    for (std::size_t i = 0; i < send_.size(); ++i)
      send_[i] = mpiarena::distribution_value(i);
    recv_.assign(count(), -1);
  }
  void post(std::vector<MPI_Request>& requests) override {
    requests.push_back(MPI_REQUEST_NULL);
    MPIARENA_CHECK(MPI_Iscatter(is_root() ? send_.data() : nullptr, icount(),
                                MPI_INT, recv_.data(), icount(), MPI_INT,
                                root(), comm(), &requests.back()));
  }
  Verdict check() override {
    const std::size_t first = static_cast<std::size_t>(rank()) * count();
    return mpiarena::check_ints(
        recv_,
        [&](std::size_t i) { return mpiarena::distribution_value(first + i); },
        "scattered");
  }
};

// OSU's osu_ireduce_scatter_block: count ints sent per rank, count / ranks
// received (its `portion`); a point where that is no int is skipped.
class IreduceScatterBlock final : public WithBuffers {
  void build() override {
    portion_ = count() / static_cast<std::size_t>(ranks());
    if (portion_ == 0)
      throw mpiarena::SkipPoint(
          std::to_string(count()) + " ints per rank over " +
          std::to_string(ranks()) +
          " ranks: no int of the sum to receive (osu_ireduce_scatter_block's "
          "portion, count / ranks, is 0)");
    send_.resize(portion_ * static_cast<std::size_t>(ranks()));
    for (std::size_t j = 0; j < send_.size(); ++j)
      send_[j] = mpiarena::partial_value(rank(), ranks(), j);
    recv_.assign(portion_, -1);
  }
  void post(std::vector<MPI_Request>& requests) override {
    requests.push_back(MPI_REQUEST_NULL);
    MPIARENA_CHECK(MPI_Ireduce_scatter_block(
        send_.data(), recv_.data(), static_cast<int>(portion_), MPI_INT,
        MPI_SUM, comm(), &requests.back()));
  }
  Verdict check() override {
    const std::size_t first = static_cast<std::size_t>(rank()) * portion_;
    return mpiarena::check_ints(
        recv_,
        [&](std::size_t i) {
          return mpiarena::partial_sum(ranks(), first + i);
        },
        "sum");
  }
  std::size_t portion_ = 0;
};

mpiarena::StrategyInfo ibarrier_info() {
  mpiarena::StrategyInfo info = mpiarena::overlap_info(
      "ibarrier",
      "MPI_Ibarrier overlapped with computation (osu_ibarrier): no payload, "
      "the size means nothing to it; nothing to check",
      /*payload_copies=*/0);
  info.moves_data = false;
  return info;
}

}  // namespace

MPIARENA_PLUGIN(
    mpiarena::make_entry<Ibarrier>(ibarrier_info()),
    mpiarena::make_entry<Ireduce>(mpiarena::overlap_info(
        "ireduce",
        "MPI_Ireduce (MPI_SUM) of count ints per rank to rank 0 overlapped "
        "with computation (osu_ireduce); the root's sum checked")),
    mpiarena::make_entry<Igather>(mpiarena::overlap_info(
        "igather",
        "MPI_Igather of count ints per rank to rank 0 overlapped with "
        "computation (osu_igather); the root checks every block",
        /*payload_copies=*/1, /*payload_copies_per_rank=*/1)),
    mpiarena::make_entry<Iscatter>(mpiarena::overlap_info(
        "iscatter",
        "MPI_Iscatter of count ints to each rank from rank 0 overlapped with "
        "computation (osu_iscatter); every rank checks its block",
        /*payload_copies=*/1, /*payload_copies_per_rank=*/1)),
    mpiarena::make_entry<IreduceScatterBlock>(mpiarena::overlap_info(
        "ireduce_scatter_block",
        "MPI_Ireduce_scatter_block (MPI_SUM): count ints per rank in, count / "
        "ranks of the sum to each rank, overlapped with computation "
        "(osu_ireduce_scatter_block); every rank's block checked")))
