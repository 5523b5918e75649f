// allgatherv: MPI_Allgatherv of count ints per rank on average, the ranks'
// counts as the option "counts" says (OSU osu_allgatherv with
// counts=uniform); every rank checks every block at its displacement
// (v_collectives.hpp).
// allgatherv_persistent: the same through MPI_Allgatherv_init once, then
// MPI_Start + MPI_Wait (OSU 7.3 osu_allgatherv_persistent).
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/persistent.hpp>
#include <mpiarena/v_collectives.hpp>

namespace {

class Allgatherv : public mpiarena::CollectiveStrategy {
 public:
  template <class Call>
  int call(Call&& c) {
    return c(data_.sent.data(), data_.sendcount(), MPI_INT,
             data_.gathered.data(), data_.layout.counts.data(),
             data_.layout.displs.data(), MPI_INT, comm());
  }

 private:
  void build() override {
    data_.build(mpiarena::v_point(ctx(), count()), true);
  }
  void execute() override { MPIARENA_CHECK(call(MPI_Allgatherv)); }
  void poison() override { data_.reset(); }
  mpiarena::Verdict verify() override { return data_.check(); }
  mpiarena::GathervData data_;
};

mpiarena::StrategyInfo info() {
  return mpiarena::chosen_by_library(
      "allgatherv",
      mpiarena::with_counts(mpiarena::collective_info(
          "collective", "allgatherv",
          "MPI_Allgatherv of count ints per rank on average (option counts); "
          "every rank checks every block at its displacement",
          /*payload_copies=*/2, /*payload_copies_per_rank=*/1)));
}

}  // namespace

MPIARENA_PLUGIN(
    mpiarena::make_entry<Allgatherv>(info()),
    mpiarena::make_entry<
        mpiarena::Persistent<Allgatherv, mpiarena::persistent::Allgatherv>>(
        mpiarena::persistent_info(info())))
