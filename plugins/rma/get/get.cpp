// rma suite, MPI_Get (rma.hpp): latency and bandwidth methods over every
// synchronisation; the window kind is the point's payload.
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/rma.hpp>

namespace {

class Op final : public mpiarena::RmaStrategy {
 public:
  using RmaStrategy::RmaStrategy;

 private:
  void issue(int k) override {
    MPIARENA_CHECK(MPI_Get(result(k), count(), MPI_BYTE, target(),
                           target_disp(k), count(), MPI_BYTE, win()));
  }
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::rma_entries<Op>(mpiarena::RmaOp::get,
                                          "MPI_Get of MPI_BYTE"))
