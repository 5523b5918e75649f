// alltoallw: MPI_Alltoallw, count ints on average from every rank to every
// rank (the counts as the option "counts" says), a datatype per peer (OSU
// osu_alltoallw runs one MPI_INT for all, option types=int): between ranks
// i and j with i + j odd a strided MPI_Type_vector is sent from a buffer
// with gaps and received as an MPI_Type_contiguous, between the others
// MPI_INT both ways;
// every rank checks each block from each sender (v_collectives.hpp).
// alltoallw_persistent: the same through MPI_Alltoallw_init once, then
// MPI_Start + MPI_Wait (OSU 7.3 osu_alltoallw_persistent).
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/persistent.hpp>
#include <mpiarena/v_collectives.hpp>

namespace {

class Alltoallw : public mpiarena::CollectiveStrategy {
 public:
  template <class Call>
  int call(Call&& c) {
    mpiarena::AlltoallwData& d = data_;
    return c(d.sent.data(), d.sendcounts.data(), d.sdispls.data(),
             d.sendtypes.data(), d.received.data(), d.recvcounts.data(),
             d.rdispls.data(), d.recvtypes.data(), comm());
  }

 protected:
  void teardown() override { data_.release(); }

 private:
  void build() override {
    data_.build(mpiarena::v_point(ctx(), count()),
                mpiarena::mixed_types(ctx()));
  }
  void execute() override { MPIARENA_CHECK(call(MPI_Alltoallw)); }
  void poison() override { data_.reset(); }
  mpiarena::Verdict verify() override { return data_.check(); }
  mpiarena::AlltoallwData data_;
};

mpiarena::StrategyInfo info() {
  return mpiarena::chosen_by_library(
      "alltoallw",
      mpiarena::with_w_types(mpiarena::collective_info(
          "collective", "alltoallw",
          "MPI_Alltoallw of count ints on average (option counts) from every "
          "rank to every rank, MPI_INT to some peers, a strided vector to "
          "others (option types; int: MPI_INT to all, OSU's); each block "
          "checked",
          /*payload_copies=*/0, /*payload_copies_per_rank=*/3)));
}

}  // namespace

MPIARENA_PLUGIN(
    mpiarena::make_entry<Alltoallw>(info()),
    mpiarena::make_entry<
        mpiarena::Persistent<Alltoallw, mpiarena::persistent::Alltoallw>>(
        mpiarena::persistent_info(info())))
