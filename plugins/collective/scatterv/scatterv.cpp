// scatterv: MPI_Scatterv from rank 0 of count ints per rank on average,
// the ranks' counts as the option "counts" says (OSU osu_scatterv with
// counts=uniform); every rank checks its block (v_collectives.hpp).
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/v_collectives.hpp>

namespace {

class Scatterv final : public mpiarena::CollectiveStrategy {
  void build() override { data_.build(mpiarena::v_point(ctx(), count())); }
  void execute() override {
    MPIARENA_CHECK(MPI_Scatterv(data_.array.data(), data_.layout.counts.data(),
                                data_.layout.displs.data(), MPI_INT,
                                data_.slice.data(), data_.recvcount(), MPI_INT,
                                root(), comm()));
  }
  void poison() override { data_.reset(); }
  mpiarena::Verdict verify() override { return data_.check(); }
  mpiarena::ScattervData data_;
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<Scatterv>(mpiarena::chosen_by_library(
    "scatterv",
    mpiarena::with_counts(mpiarena::collective_info(
        "collective", "scatterv",
        "MPI_Scatterv of count ints per rank on average (option counts) from "
        "rank 0; every rank checks its block",
        /*payload_copies=*/14)))))
