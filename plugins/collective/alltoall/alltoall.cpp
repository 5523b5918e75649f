// alltoall: MPI_Alltoall, count ints from every rank to every rank (OSU
// osu_alltoall, IMB Alltoall); each rank checks what every sender meant
// for it.
// alltoall_persistent: the same through MPI_Alltoall_init once, then
// MPI_Start + MPI_Wait (OSU 7.3 osu_alltoall_persistent).
#include <mpiarena/collective_suite.hpp>
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/persistent.hpp>

namespace {

class Alltoall : public mpiarena::CollectiveStrategy {
 public:
  template <class Call>
  int call(Call&& c) {
    return c(send_.data(), icount(), MPI_INT, recv_.data(), icount(), MPI_INT,
             comm());
  }

 private:
  void build() override {
    send_ = mpiarena::alltoall_send(rank(), ranks(), count());
    poison();
  }
  void execute() override { MPIARENA_CHECK(call(MPI_Alltoall)); }
  void poison() override { recv_.assign(send_.size(), -1); }
  mpiarena::Verdict verify() override {
    return mpiarena::check_alltoall(recv_, rank(), ranks(), count());
  }
  mpiarena::Ints send_, recv_;
};

mpiarena::StrategyInfo info() {
  return mpiarena::chosen_by_library(
      "alltoall", mpiarena::collective_info(
                      "collective", "alltoall",
                      "MPI_Alltoall of count ints from every rank to every "
                      "rank; each block checked",
                      /*payload_copies=*/0,
                      /*payload_copies_per_rank=*/2));
}

}  // namespace

MPIARENA_PLUGIN(
    mpiarena::make_entry<Alltoall>(info()),
    mpiarena::make_entry<
        mpiarena::Persistent<Alltoall, mpiarena::persistent::Alltoall>>(
        mpiarena::persistent_info(info())))
