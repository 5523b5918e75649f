// rma suite, MPI_Put (rma.hpp): latency and bandwidth methods over every
// synchronisation, and both ways at once under fence and pscw
// (osu_put_bibw: put_fence_bibw, put_pscw_bibw); the window kind is the
// point's payload.
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/rma.hpp>

namespace {

class Op final : public mpiarena::RmaStrategy {
 public:
  using RmaStrategy::RmaStrategy;

 private:
  void issue(int k) override {
    MPIARENA_CHECK(MPI_Put(origin(k), count(), MPI_BYTE, target(),
                           target_disp(k), count(), MPI_BYTE, win()));
  }
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::rma_entries<Op>(mpiarena::RmaOp::put,
                                          "MPI_Put of MPI_BYTE", "",
                                          /*bidirectional=*/true))
