// rma suite, MPI_Fetch_and_op (MPI_SUM) (rma.hpp): latency and bandwidth
// methods over every synchronisation; the window kind is the point's payload.
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/rma.hpp>

namespace {

class Op final : public mpiarena::RmaStrategy {
 public:
  using RmaStrategy::RmaStrategy;

 private:
  void issue(int k) override {
    MPIARENA_CHECK(MPI_Fetch_and_op(origin(k), result(k), MPI_UINT64_T,
                                    target(), target_disp(k), MPI_SUM, win()));
  }
};

}  // namespace

MPIARENA_PLUGIN(
    mpiarena::rma_entries<Op>(mpiarena::RmaOp::fetch_and_op,
                              "MPI_Fetch_and_op of one MPI_UINT64_T, MPI_SUM"))
