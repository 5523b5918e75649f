// Methods "put_wrong_disp": MPI_Put's bandwidth method under lock_all +
// flush whose operation k lands in slot k + 1 (a wrong target
// displacement), and "put_wrong_disp_bibw": the bidirectional method
// under pscw in which only the odd rank of a pair puts at the wrong
// displacement, so that only the even rank's window (a target only in the
// bidirectional mode) is wrong; verification must fail in both.
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/rma.hpp>

namespace {

class WrongDisp final : public mpiarena::RmaStrategy {
 public:
  WrongDisp(mpiarena::RmaSync sync, mpiarena::RmaMode mode)
      : RmaStrategy(mpiarena::RmaOp::put, sync, mode),
        odd_only_(mode == mpiarena::RmaMode::bidirectional) {}

 private:
  void issue(int k) override {
    const bool wrong = !odd_only_ || ctx().rank % 2 == 1;
    const int slot = wrong ? (k + 1) % ops() : k;
    MPIARENA_CHECK(MPI_Put(origin(k), count(), MPI_BYTE, target(),
                           target_disp(slot), count(), MPI_BYTE, win()));
  }
  bool odd_only_;
};

mpiarena::StrategyEntry entry(mpiarena::RmaSync sync, mpiarena::RmaMode mode,
                              const char* name) {
  mpiarena::StrategyInfo info =
      mpiarena::rma_info(mpiarena::RmaOp::put, sync, mode,
                         "MPI_Put to the next slot (a wrong displacement)");
  info.name = name;
  return {
      info, [sync, mode] {
        return std::unique_ptr<mpiarena::Strategy>(new WrongDisp(sync, mode));
      }};
}

}  // namespace

MPIARENA_PLUGIN(entry(mpiarena::RmaSync::flush, mpiarena::RmaMode::bandwidth,
                      "put_wrong_disp"),
                entry(mpiarena::RmaSync::pscw, mpiarena::RmaMode::bidirectional,
                      "put_wrong_disp_bibw"))
