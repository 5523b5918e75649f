// rma suite, MPI_Compare_and_swap (rma.hpp): latency and bandwidth methods over
// every synchronisation; the window kind is the point's payload.
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/rma.hpp>

namespace {

class Op final : public mpiarena::RmaStrategy {
 public:
  using RmaStrategy::RmaStrategy;

 private:
  void issue(int k) override {
    MPIARENA_CHECK(MPI_Compare_and_swap(origin(k), compare(k), result(k),
                                        MPI_UINT64_T, target(), target_disp(k),
                                        win()));
  }
};

}  // namespace

MPIARENA_PLUGIN(
    mpiarena::rma_entries<Op>(mpiarena::RmaOp::compare_and_swap,
                              "MPI_Compare_and_swap of one MPI_UINT64_T"))
