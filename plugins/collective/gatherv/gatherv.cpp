// gatherv: MPI_Gatherv to rank 0 of count ints per rank on average, the
// ranks' counts as the option "counts" says (OSU osu_gatherv with
// counts=uniform); the root checks every block at its displacement
// (v_collectives.hpp).
// gatherv_persistent: the same through MPI_Gatherv_init once, then MPI_Start +
// MPI_Wait (OSU 7.3 osu_gatherv_persistent).
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/persistent.hpp>
#include <mpiarena/v_collectives.hpp>

namespace {

class Gatherv : public mpiarena::CollectiveStrategy {
 public:
  template <class Call>
  int call(Call&& c) {
    return c(data_.sent.data(), data_.sendcount(), MPI_INT,
             data_.gathered.data(), data_.layout.counts.data(),
             data_.layout.displs.data(), MPI_INT, root(), comm());
  }

 private:
  void build() override {
    data_.build(mpiarena::v_point(ctx(), count()), is_root());
  }
  void execute() override { MPIARENA_CHECK(call(MPI_Gatherv)); }
  void poison() override { data_.reset(); }
  mpiarena::Verdict verify() override { return data_.check(); }
  mpiarena::GathervData data_;
};

mpiarena::StrategyInfo info() {
  return mpiarena::chosen_by_library(
      "gatherv",
      mpiarena::with_counts(mpiarena::collective_info(
          "collective", "gatherv",
          "MPI_Gatherv of count ints per rank on average (option counts) to "
          "rank 0; the root checks every block at its displacement",
          /*payload_copies=*/2, /*payload_copies_per_rank=*/1)));
}

}  // namespace

MPIARENA_PLUGIN(
    mpiarena::make_entry<Gatherv>(info()),
    mpiarena::make_entry<
        mpiarena::Persistent<Gatherv, mpiarena::persistent::Gatherv>>(
        mpiarena::persistent_info(info())))
