// alltoallv: MPI_Alltoallv, count ints on average from every rank to every
// rank, the counts as the option "counts" says (OSU osu_alltoallv with
// counts=uniform); every rank checks each block from each sender
// (v_collectives.hpp).
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/v_collectives.hpp>

namespace {

class Alltoallv final : public mpiarena::CollectiveStrategy {
  void build() override { data_.build(mpiarena::v_point(ctx(), count())); }
  void execute() override {
    const mpiarena::VLayout& l = data_.layout;
    MPIARENA_CHECK(MPI_Alltoallv(data_.sent.data(), l.counts.data(),
                                 l.displs.data(), MPI_INT,
                                 data_.received.data(), l.counts.data(),
                                 l.displs.data(), MPI_INT, comm()));
  }
  void poison() override { data_.reset(); }
  mpiarena::Verdict verify() override { return data_.check(); }
  mpiarena::AlltoallvData data_;
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<Alltoallv>(mpiarena::chosen_by_library(
    "alltoallv",
    mpiarena::with_counts(mpiarena::collective_info(
        "collective", "alltoallv",
        "MPI_Alltoallv of count ints on average (option counts) from every "
        "rank to every rank; each block checked",
        /*payload_copies=*/24)))))
