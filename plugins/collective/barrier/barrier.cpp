// barrier: MPI_Barrier, no payload: latency only (OSU osu_barrier, IMB
// Barrier). Runs at whatever size is asked; the size means nothing to it.
// barrier_persistent: MPI_Barrier_init once, then MPI_Start + MPI_Wait (OSU
// 7.3 osu_barrier_persistent).
#include <mpiarena/collective_suite.hpp>
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/persistent.hpp>

namespace {

class Barrier : public mpiarena::CollectiveStrategy {
 public:
  template <class Call>
  int call(Call&& c) {
    return c(comm());
  }

 private:
  void build() override {}
  void execute() override { MPIARENA_CHECK(call(MPI_Barrier)); }
  void poison() override {}
  mpiarena::Verdict verify() override { return {}; }  // nothing moved
};

mpiarena::StrategyInfo barrier_info() {
  mpiarena::StrategyInfo info = mpiarena::collective_info(
      "collective", "barrier", "MPI_Barrier: no payload, latency only",
      /*payload_copies=*/0);
  info.moves_data = false;
  info.library_collective = "barrier";
  return info;
}

}  // namespace

MPIARENA_PLUGIN(
    mpiarena::make_entry<Barrier>(barrier_info()),
    mpiarena::make_entry<
        mpiarena::Persistent<Barrier, mpiarena::persistent::Barrier>>(
        mpiarena::persistent_info(barrier_info())))
