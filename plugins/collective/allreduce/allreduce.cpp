// allreduce: MPI_Allreduce (MPI_SUM) of count ints per rank; every rank
// checks the sum against its closed form (OSU osu_allreduce, IMB Allreduce).
// allreduce_persistent: the same through MPI_Allreduce_init once, then
// MPI_Start + MPI_Wait (OSU 7.3 osu_allreduce_persistent).
#include <mpiarena/collective_suite.hpp>
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/persistent.hpp>

namespace {

class Allreduce : public mpiarena::CollectiveStrategy {
 public:
  template <class Call>
  int call(Call&& c) {
    return c(send_.data(), recv_.data(), icount(), MPI_INT, MPI_SUM, comm());
  }

 private:
  void build() override {
    send_ = own_partials();
    recv_.assign(count(), -1);
  }
  void execute() override { MPIARENA_CHECK(call(MPI_Allreduce)); }
  void poison() override { recv_.assign(count(), -1); }
  mpiarena::Verdict verify() override {
    return mpiarena::check_sums(recv_, ranks());
  }
  mpiarena::Ints send_, recv_;
};

mpiarena::StrategyInfo info() {
  return mpiarena::chosen_by_library(
      "allreduce", mpiarena::collective_info(
                       "collective", "allreduce",
                       "MPI_Allreduce (MPI_SUM) of count ints per rank; every "
                       "rank's sum checked"));
}

}  // namespace

MPIARENA_PLUGIN(
    mpiarena::make_entry<Allreduce>(info()),
    mpiarena::make_entry<
        mpiarena::Persistent<Allreduce, mpiarena::persistent::Allreduce>>(
        mpiarena::persistent_info(info())))
