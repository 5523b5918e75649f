// barrier: MPI_Barrier, no payload: latency only (OSU osu_barrier, IMB
// Barrier). Runs at whatever size is asked; the size means nothing to it.
#include <mpiarena/collective_suite.hpp>
#include <mpiarena/mpi_check.hpp>

namespace {

class Barrier final : public mpiarena::CollectiveStrategy {
  void build() override {}
  void execute() override { MPIARENA_CHECK(MPI_Barrier(comm())); }
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

MPIARENA_PLUGIN(mpiarena::make_entry<Barrier>(barrier_info()))
