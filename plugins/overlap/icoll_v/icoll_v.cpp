// The non-blocking collectives with per-rank counts as OSU measures them
// (osu_iallgatherv, osu_ialltoallv, osu_ialltoallw, osu_igatherv,
// osu_iscatterv, osu_ireduce_scatter): posted, overlapped with the
// computation, waited for. Counts, datatypes and checks are their blocking
// twins' (v_collectives.hpp): count ints per rank on average, the option
// "counts" (varied or uniform, OSU's); ireduce_scatter's size is the
// vector every rank contributes, as osu_ireduce_scatter's.
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/overlap_suite.hpp>
#include <mpiarena/v_collectives.hpp>
#include <vector>

namespace {

using mpiarena::OverlapStrategy;
using mpiarena::Verdict;

// The request a method's post() appends.
MPI_Request* next(std::vector<MPI_Request>& requests) {
  requests.push_back(MPI_REQUEST_NULL);
  return &requests.back();
}

class Igatherv final : public OverlapStrategy {
  void build() override {
    const mpiarena::VPoint at = mpiarena::v_point(ctx(), count());
    data_.build(at, at.is_root());
    root_ = at.root;
  }
  void post(std::vector<MPI_Request>& requests) override {
    MPIARENA_CHECK(MPI_Igatherv(
        data_.sent.data(), data_.sendcount(), MPI_INT, data_.gathered.data(),
        data_.layout.counts.data(), data_.layout.displs.data(), MPI_INT, root_,
        comm(), next(requests)));
  }
  void reset() override { data_.reset(); }
  Verdict check() override { return data_.check(); }
  mpiarena::GathervData data_;
  int root_ = 0;
};

class Iallgatherv final : public OverlapStrategy {
  void build() override {
    data_.build(mpiarena::v_point(ctx(), count()), true);
  }
  void post(std::vector<MPI_Request>& requests) override {
    MPIARENA_CHECK(MPI_Iallgatherv(
        data_.sent.data(), data_.sendcount(), MPI_INT, data_.gathered.data(),
        data_.layout.counts.data(), data_.layout.displs.data(), MPI_INT, comm(),
        next(requests)));
  }
  void reset() override { data_.reset(); }
  Verdict check() override { return data_.check(); }
  mpiarena::GathervData data_;
};

class Iscatterv final : public OverlapStrategy {
  void build() override {
    const mpiarena::VPoint at = mpiarena::v_point(ctx(), count());
    data_.build(at);
    root_ = at.root;
  }
  void post(std::vector<MPI_Request>& requests) override {
    MPIARENA_CHECK(MPI_Iscatterv(data_.array.data(), data_.layout.counts.data(),
                                 data_.layout.displs.data(), MPI_INT,
                                 data_.slice.data(), data_.recvcount(), MPI_INT,
                                 root_, comm(), next(requests)));
  }
  void reset() override { data_.reset(); }
  Verdict check() override { return data_.check(); }
  mpiarena::ScattervData data_;
  int root_ = 0;
};

class Ialltoallv final : public OverlapStrategy {
  void build() override { data_.build(mpiarena::v_point(ctx(), count())); }
  void post(std::vector<MPI_Request>& requests) override {
    const mpiarena::VLayout& l = data_.layout;
    MPIARENA_CHECK(
        MPI_Ialltoallv(data_.sent.data(), l.counts.data(), l.displs.data(),
                       MPI_INT, data_.received.data(), l.counts.data(),
                       l.displs.data(), MPI_INT, comm(), next(requests)));
  }
  void reset() override { data_.reset(); }
  Verdict check() override { return data_.check(); }
  mpiarena::AlltoallvData data_;
};

class Ialltoallw final : public OverlapStrategy {
  void build() override {
    data_.build(mpiarena::v_point(ctx(), count()),
                mpiarena::mixed_types(ctx()));
  }
  void teardown() override { data_.release(); }
  void post(std::vector<MPI_Request>& requests) override {
    mpiarena::AlltoallwData& d = data_;
    MPIARENA_CHECK(MPI_Ialltoallw(
        d.sent.data(), d.sendcounts.data(), d.sdispls.data(),
        d.sendtypes.data(), d.received.data(), d.recvcounts.data(),
        d.rdispls.data(), d.recvtypes.data(), comm(), next(requests)));
  }
  void reset() override { data_.reset(); }
  Verdict check() override { return data_.check(); }
  mpiarena::AlltoallwData data_;
};

class IreduceScatter final : public OverlapStrategy {
  void build() override {
    data_.build(mpiarena::v_point(ctx(), count()), count());
  }
  void post(std::vector<MPI_Request>& requests) override {
    MPIARENA_CHECK(MPI_Ireduce_scatter(data_.sent.data(), data_.received.data(),
                                       data_.layout.counts.data(), MPI_INT,
                                       MPI_SUM, comm(), next(requests)));
  }
  void reset() override { data_.reset(); }
  Verdict check() override { return data_.check(); }
  mpiarena::ReduceScatterData data_;
};

mpiarena::StrategyInfo info(std::string name, std::string summary,
                            int payload_copies, int payload_copies_per_rank) {
  return mpiarena::with_counts(
      mpiarena::overlap_info(std::move(name), std::move(summary),
                             payload_copies, payload_copies_per_rank));
}

}  // namespace

MPIARENA_PLUGIN(
    mpiarena::make_entry<Igatherv>(
        info("igatherv",
             "MPI_Igatherv of count ints per rank on average (option counts) "
             "to rank 0 overlapped with computation (osu_igatherv); the root "
             "checks every block",
             /*payload_copies=*/2, /*payload_copies_per_rank=*/1)),
    mpiarena::make_entry<Iallgatherv>(
        info("iallgatherv",
             "MPI_Iallgatherv of count ints per rank on average (option "
             "counts) overlapped with computation (osu_iallgatherv); every "
             "rank checks every block",
             /*payload_copies=*/2, /*payload_copies_per_rank=*/1)),
    mpiarena::make_entry<Iscatterv>(
        info("iscatterv",
             "MPI_Iscatterv of count ints per rank on average (option counts) "
             "from rank 0 overlapped with computation (osu_iscatterv); every "
             "rank checks its block",
             /*payload_copies=*/2, /*payload_copies_per_rank=*/1)),
    mpiarena::make_entry<Ialltoallv>(
        info("ialltoallv",
             "MPI_Ialltoallv of count ints on average (option counts) between "
             "every pair overlapped with computation (osu_ialltoallv); each "
             "block checked",
             /*payload_copies=*/0, /*payload_copies_per_rank=*/2)),
    mpiarena::make_entry<Ialltoallw>(mpiarena::with_w_types(
        mpiarena::overlap_info("ialltoallw",
                               "MPI_Ialltoallw of count ints on average "
                               "(option counts), MPI_INT to some peers, a "
                               "strided vector to others (option types; int: "
                               "MPI_INT to all, OSU's), overlapped with "
                               "computation (osu_ialltoallw); each block "
                               "checked",
                               /*payload_copies=*/0,
                               /*payload_copies_per_rank=*/3))),
    mpiarena::make_entry<IreduceScatter>(
        info("ireduce_scatter",
             "MPI_Ireduce_scatter (MPI_SUM) of a vector of size/4 ints per "
             "rank split over the ranks (option counts) overlapped with "
             "computation (osu_ireduce_scatter); every block checked",
             /*payload_copies=*/3, /*payload_copies_per_rank=*/0)))
