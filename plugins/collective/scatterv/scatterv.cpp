// scatterv: MPI_Scatterv from rank 0 of count ints per rank on average,
// the ranks' counts as the option "counts" says (OSU osu_scatterv with
// counts=uniform); every rank checks its block (v_collectives.hpp).
// scatterv_persistent: the same through MPI_Scatterv_init once, then MPI_Start
// + MPI_Wait (OSU 7.3 osu_scatterv_persistent).
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/persistent.hpp>
#include <mpiarena/v_collectives.hpp>

namespace {

class Scatterv : public mpiarena::CollectiveStrategy {
 public:
  template <class Call>
  int call(Call&& c) {
    return c(data_.array.data(), data_.layout.counts.data(),
             data_.layout.displs.data(), MPI_INT, data_.slice.data(),
             data_.recvcount(), MPI_INT, root(), comm());
  }

 private:
  void build() override { data_.build(mpiarena::v_point(ctx(), count())); }
  void execute() override { MPIARENA_CHECK(call(MPI_Scatterv)); }
  void poison() override { data_.reset(); }
  mpiarena::Verdict verify() override { return data_.check(); }
  mpiarena::ScattervData data_;
};

mpiarena::StrategyInfo info() {
  return mpiarena::chosen_by_library(
      "scatterv",
      mpiarena::with_counts(mpiarena::collective_info(
          "collective", "scatterv",
          "MPI_Scatterv of count ints per rank on average (option counts) from "
          "rank 0; every rank checks its block",
          /*payload_copies=*/2, /*payload_copies_per_rank=*/1)));
}

}  // namespace

MPIARENA_PLUGIN(
    mpiarena::make_entry<Scatterv>(info()),
    mpiarena::make_entry<
        mpiarena::Persistent<Scatterv, mpiarena::persistent::Scatterv>>(
        mpiarena::persistent_info(info())))
