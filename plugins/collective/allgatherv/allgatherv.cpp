// allgatherv: MPI_Allgatherv of count ints per rank on average, the ranks'
// counts as the option "counts" says (OSU osu_allgatherv with
// counts=uniform); every rank checks every block at its displacement
// (v_collectives.hpp).
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/v_collectives.hpp>

namespace {

class Allgatherv final : public mpiarena::CollectiveStrategy {
  void build() override {
    data_.build(mpiarena::v_point(ctx(), count()), true);
  }
  void execute() override {
    MPIARENA_CHECK(MPI_Allgatherv(data_.sent.data(), data_.sendcount(), MPI_INT,
                                  data_.gathered.data(),
                                  data_.layout.counts.data(),
                                  data_.layout.displs.data(), MPI_INT, comm()));
  }
  void poison() override { data_.reset(); }
  mpiarena::Verdict verify() override { return data_.check(); }
  mpiarena::GathervData data_;
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<Allgatherv>(mpiarena::chosen_by_library(
    "allgatherv",
    mpiarena::with_counts(mpiarena::collective_info(
        "collective", "allgatherv",
        "MPI_Allgatherv of count ints per rank on average (option counts); "
        "every rank checks every block at its displacement",
        /*payload_copies=*/14)))))
