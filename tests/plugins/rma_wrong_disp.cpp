// Method "put_wrong_disp": MPI_Put's bandwidth method under lock_all +
// flush whose operation k lands in slot k + 1 (a wrong target
// displacement); verification must fail.
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/rma.hpp>

namespace {

class WrongDisp final : public mpiarena::RmaStrategy {
 public:
  WrongDisp()
      : RmaStrategy(mpiarena::RmaOp::put, mpiarena::RmaSync::flush, true) {}

 private:
  void issue(int k) override {
    const int wrong = (k + 1) % ops();
    MPIARENA_CHECK(MPI_Put(origin(k), count(), MPI_BYTE, target(),
                           target_disp(wrong), count(), MPI_BYTE, win()));
  }
};

mpiarena::StrategyEntry entry() {
  mpiarena::StrategyInfo info =
      mpiarena::rma_info(mpiarena::RmaOp::put, mpiarena::RmaSync::flush, true,
                         "MPI_Put to the next slot (a wrong displacement)");
  info.name = "put_wrong_disp";
  return mpiarena::make_entry<WrongDisp>(info);
}

}  // namespace

MPIARENA_PLUGIN(entry())
