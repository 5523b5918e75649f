// fault: a correct MPI_Allreduce "transfer" of one int that misbehaves on
// purpose, for the fault-injection tests (tests/e2e/e2e_faults.py).
//   MPIARENA_FAULT_STEP  prepare | execute | poison | verify_execute |
//                        verify | release        (unset: no fault)
//   MPIARENA_FAULT_KIND  throw | throw_int | hang | segv | collective |
//                        heap | abort0 | exit0 | metric_int | metric_nan
//                        (collective: one extra MPI_Barrier that the other
//                        ranks never enter, i.e. a collective that never
//                        returns; heap: 16 MB written past a 64-byte heap
//                        block; abort0: MPI_Abort(MPI_COMM_WORLD, 0); exit0:
//                        exit(0); metric_int: the plugin has a metric whose
//                        formula throws 7 at MPIARENA_FAULT_BYTES, on every
//                        rank, whatever the step; metric_nan: a metric
//                        whose value for the first repetition, of -r 3,
//                        is NaN)
//   MPIARENA_FAULT_RANK  the rank that misbehaves (default 1)
//   MPIARENA_FAULT_BYTES only at this size (default: every size)
// In prepare the fault comes before a plugin collective (MPI_Barrier), as a
// setup() that throws before creating a window would; execute faults on the
// 3rd call (inside calibration or the timed loop).
#include <mpi.h>

#include <chrono>
#include <cmath>
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
    if (kind_ == "heap") {
      // A plugin that corrupts the heap: past its block, over the heap's
      // own bookkeeping, until it faults or the next malloc notices.
      // Through a volatile pointer: the compiler must not know (and warn
      // about) the block's size.
      char* volatile hidden = static_cast<char*>(std::malloc(64));
      volatile char* block = hidden;
      for (std::size_t i = 0; i < (std::size_t{16} << 20); ++i)
        block[64 + i] = static_cast<char>(0xff);
      std::free(std::malloc(1 << 20));
    }
    if (kind_ == "abort0") MPI_Abort(MPI_COMM_WORLD, 0);
    if (kind_ == "exit0") std::exit(0);
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
  if (env("MPIARENA_FAULT_KIND") == "metric_int") {
    const std::string bytes = env("MPIARENA_FAULT_BYTES");
    i.metrics.push_back({"fault_metric", "calls", true,
                         [bytes](const mpiarena::MetricInput& in) {
                           if (bytes.empty() || std::stoul(bytes) == in.bytes)
                             throw 7;
                           return 1.0;
                         }});
  }
  if (env("MPIARENA_FAULT_KIND") == "metric_nan") {
    // The formula's calls of a point: the medians', then one a repetition
    // (-r 3): the first repetition's is NaN.
    i.metrics.push_back({"fault_metric", "calls", true,
                         [calls = 0](const mpiarena::MetricInput&) mutable {
                           return calls++ % 4 == 1 ? std::nan("") : 1.0;
                         }});
  }
  return i;
}

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<Fault>(info()))
