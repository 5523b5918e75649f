// gatherv: MPI_Gatherv to rank 0 of count ints per rank on average, the
// ranks' counts as the option "counts" says (OSU osu_gatherv with
// counts=uniform); the root checks every block at its displacement
// (v_collectives.hpp).
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/v_collectives.hpp>

namespace {

class Gatherv final : public mpiarena::CollectiveStrategy {
  void build() override {
    data_.build(mpiarena::v_point(ctx(), count()), is_root());
  }
  void execute() override {
    MPIARENA_CHECK(
        MPI_Gatherv(data_.sent.data(), data_.sendcount(), MPI_INT,
                    data_.gathered.data(), data_.layout.counts.data(),
                    data_.layout.displs.data(), MPI_INT, root(), comm()));
  }
  void poison() override { data_.reset(); }
  mpiarena::Verdict verify() override { return data_.check(); }
  mpiarena::GathervData data_;
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<Gatherv>(mpiarena::chosen_by_library(
    "gatherv",
    mpiarena::with_counts(mpiarena::collective_info(
        "collective", "gatherv",
        "MPI_Gatherv of count ints per rank on average (option counts) to "
        "rank 0; the root checks every block at its displacement",
        /*payload_copies=*/14)))))
