// allreduce: MPI_Allreduce (MPI_SUM) of count ints per rank; every rank
// checks the sum against its closed form (OSU osu_allreduce, IMB Allreduce).
#include <mpiarena/collective_suite.hpp>
#include <mpiarena/mpi_check.hpp>

namespace {

class Allreduce final : public mpiarena::CollectiveStrategy {
  void build() override {
    send_ = own_partials();
    recv_.assign(count(), -1);
  }
  void execute() override {
    MPIARENA_CHECK(MPI_Allreduce(send_.data(), recv_.data(), icount(), MPI_INT,
                                 MPI_SUM, comm()));
  }
  void poison() override { recv_.assign(count(), -1); }
  mpiarena::Verdict verify() override {
    return mpiarena::check_sums(recv_, ranks());
  }
  mpiarena::Ints send_, recv_;
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<Allreduce>(mpiarena::chosen_by_library(
    "allreduce",
    mpiarena::collective_info(
        "collective", "allreduce",
        "MPI_Allreduce (MPI_SUM) of count ints per rank; every rank's sum "
        "checked"))))
