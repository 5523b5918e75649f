// Example (rma suite): a row of its own in the op x sync matrix. MPI_Rput
// + MPI_Wait is a put, checked as one (RmaOp::put); rma_entries' third
// argument names the row ("rput": methods rput_fence, rput_lock_bw...).
// Request-based operations need a passive-target epoch, so only the lock,
// flush and flush_local methods are offered.
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/rma.hpp>

namespace {

class Rput final : public mpiarena::RmaStrategy {
 public:
  using RmaStrategy::RmaStrategy;

 private:
  void issue(int k) override {
    MPI_Request r;
    MPIARENA_CHECK(MPI_Rput(origin(k), count(), MPI_BYTE, target(),
                            target_disp(k), count(), MPI_BYTE, win(), &r));
    MPIARENA_CHECK(MPI_Wait(&r, MPI_STATUS_IGNORE));
  }
};

std::vector<mpiarena::StrategyEntry> entries() {
  std::vector<mpiarena::StrategyEntry> out;
  for (auto& e : mpiarena::rma_entries<Rput>(
           mpiarena::RmaOp::put, "MPI_Rput + MPI_Wait of MPI_BYTE", "rput"))
    for (const auto& [key, value] : e.info.params)
      if (key == "sync" &&
          (value == "lock" || value == "flush" || value == "flush_local"))
        out.push_back(e);
  return out;
}

}  // namespace

MPIARENA_PLUGIN(entries())
