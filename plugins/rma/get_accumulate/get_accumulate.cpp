// rma suite, MPI_Get_accumulate (MPI_SUM) (rma.hpp): latency and bandwidth
// methods over every synchronisation; the window kind is the point's payload.
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/rma.hpp>

namespace {

class Op final : public mpiarena::RmaStrategy {
 public:
  using RmaStrategy::RmaStrategy;

 private:
  void issue(int k) override {
    MPIARENA_CHECK(MPI_Get_accumulate(
        origin(k), count(), MPI_UINT64_T, result(k), count(), MPI_UINT64_T,
        target(), target_disp(k), count(), MPI_UINT64_T, MPI_SUM, win()));
  }
};

}  // namespace

MPIARENA_PLUGIN(
    mpiarena::rma_entries<Op>(mpiarena::RmaOp::get_accumulate,
                              "MPI_Get_accumulate of MPI_UINT64_T, MPI_SUM"))
