// alltoallv: MPI_Alltoallv, count ints on average from every rank to every
// rank, the counts as the option "counts" says (OSU osu_alltoallv with
// counts=uniform); every rank checks each block from each sender
// (v_collectives.hpp).
// alltoallv_persistent: the same through MPI_Alltoallv_init once, then
// MPI_Start + MPI_Wait (OSU 7.3 osu_alltoallv_persistent).
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/persistent.hpp>
#include <mpiarena/v_collectives.hpp>

namespace {

class Alltoallv : public mpiarena::CollectiveStrategy {
 public:
  template <class Call>
  int call(Call&& c) {
    const mpiarena::VLayout& l = data_.layout;
    return c(data_.sent.data(), l.counts.data(), l.displs.data(), MPI_INT,
             data_.received.data(), l.counts.data(), l.displs.data(), MPI_INT,
             comm());
  }

 private:
  void build() override { data_.build(mpiarena::v_point(ctx(), count())); }
  void execute() override { MPIARENA_CHECK(call(MPI_Alltoallv)); }
  void poison() override { data_.reset(); }
  mpiarena::Verdict verify() override { return data_.check(); }
  mpiarena::AlltoallvData data_;
};

mpiarena::StrategyInfo info() {
  return mpiarena::chosen_by_library(
      "alltoallv",
      mpiarena::with_counts(mpiarena::collective_info(
          "collective", "alltoallv",
          "MPI_Alltoallv of count ints on average (option counts) from every "
          "rank to every rank; each block checked",
          /*payload_copies=*/0, /*payload_copies_per_rank=*/2)));
}

}  // namespace

MPIARENA_PLUGIN(
    mpiarena::make_entry<Alltoallv>(info()),
    mpiarena::make_entry<
        mpiarena::Persistent<Alltoallv, mpiarena::persistent::Alltoallv>>(
        mpiarena::persistent_info(info())))
