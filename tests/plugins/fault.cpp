// fault: a correct MPI_Allreduce "transfer" of one int that misbehaves on
// purpose, for the fault-injection tests (tests/e2e/e2e_faults.py).
//   MPIARENA_FAULT_STEP  prepare | execute | poison | verify_execute |
//                        verify | release        (unset: no fault)
//   MPIARENA_FAULT_KIND  throw | throw_int | hang | segv | collective
//                        (collective: one extra MPI_Barrier that the other
//                        ranks never enter, i.e. a collective that never
//                        returns)
//   MPIARENA_FAULT_RANK  the rank that misbehaves (default 1)
//   MPIARENA_FAULT_BYTES only at this size (default: every size)
// In prepare the fault comes before a plugin collective (MPI_Barrier), as a
// setup() that throws before creating a window would; execute faults on the
// 3rd call (inside calibration or the timed loop).
#include <mpi.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <mpiarena/plugin.hpp>
#include <stdexcept>
#include <string>
#include <thread>

namespace {

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

class Fault final : public mpiarena::Strategy {
 public:
  void prepare(const mpiarena::RunContext& ctx) override {
    ctx_ = ctx;
    const std::string bytes = env("MPIARENA_FAULT_BYTES");
    const std::string rank = env("MPIARENA_FAULT_RANK");
    armed_ = (bytes.empty() || std::stoul(bytes) == ctx.bytes) &&
             ctx.rank == (rank.empty() ? 1 : std::stoi(rank));
    step_ = env("MPIARENA_FAULT_STEP");
    kind_ = env("MPIARENA_FAULT_KIND");
    maybe("prepare");
    MPI_Barrier(ctx.comm);
  }
  void execute() override {
    if (++calls_ == 3) maybe("execute");
    if (verifying_) maybe("verify_execute");
    int mine = ctx_.rank == 0 ? 42 : 0;
    MPI_Allreduce(&mine, &value_, 1, MPI_INT, MPI_MAX, ctx_.comm);
  }
  void poison() override {
    maybe("poison");
    value_ = -1;
    verifying_ = true;
  }
  mpiarena::Verdict verify() override {
    maybe("verify");
    verifying_ = false;
    if (value_ != 42) return {false, "got " + std::to_string(value_)};
    return {};
  }
  void release() override { maybe("release"); }

 private:
  void maybe(const char* step) {
    if (!armed_ || step_ != step) return;
    if (kind_ == "throw")
      throw std::runtime_error(std::string("injected fault in ") + step);
    if (kind_ == "throw_int") throw 42;
    if (kind_ == "segv") std::raise(SIGSEGV);
    if (kind_ == "hang")
      for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
    if (kind_ == "collective") MPI_Barrier(ctx_.comm);
  }

  mpiarena::RunContext ctx_;
  bool armed_ = false, verifying_ = false;
  std::string step_, kind_;
  long calls_ = 0;
  int value_ = 0;
};

mpiarena::StrategyInfo info() {
  mpiarena::StrategyInfo i;
  i.name = "fault";
  i.suite = "harness";
  i.summary = "test plugin: an Allreduce that throws, hangs or crashes";
  i.payloads = {"1d"};
  i.min_ranks = 2;
  i.moves_data = false;
  i.payload_copies = 0;
  return i;
}

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<Fault>(info()))
