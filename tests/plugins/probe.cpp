// probe: exercises contract v4 end to end (tests/e2e/e2e_faults.py probe).
//
// Method "probe": an MPI_Iallreduce of the payload's ints overlapped with a
// fixed amount of computation. Parts "comm" (the Iallreduce and its wait),
// "compute" (the computation alone) and "both" (Iallreduce, computation,
// wait: the headline); phases "app" (the computation) and "comm" (the rest);
// metric "overlap" (%) by seed 002's formula. MPIARENA_PROBE_SPIN scales the
// computation (default 2000 iterations of a dependent multiply-add), so a
// test can make the overlap change between two runs.
//
// Method "probe_marks": the cost of one PhaseTimer mark. Part "marks" makes
// 1000 mark() calls per operation, part "empty" the same loop without them;
// metric "ns_per_mark" = (marks - empty) / 1000 in ns.
#include <mpi.h>

#include <algorithm>
#include <cstdlib>
#include <mpiarena/plugin.hpp>
#include <string>
#include <vector>

namespace {

enum Part { kComm, kCompute, kBoth };
enum Phase { kApp, kCommPhase };

double overlap_percent(const mpiarena::MetricInput& in) {
  const double pure = in.part("comm"), comp = in.part("compute"),
               ovrl = in.part("both");
  const double tmin = std::min(pure, comp);
  if (tmin <= 0) return 0;
  // The fraction first, so that full overlap is exactly 100 (100 * t / t
  // can round above it).
  return 100 * (std::max(0.0, std::min(pure + comp - ovrl, tmin)) / tmin);
}

class Probe final : public mpiarena::Strategy {
 public:
  void prepare(const mpiarena::RunContext& ctx) override {
    ctx_ = ctx;
    const std::size_t n = std::max<std::size_t>(1, ctx.bytes / sizeof(int));
    send_.assign(n, ctx.rank + 1);
    recv_.assign(n, 0);
    const char* spin = std::getenv("MPIARENA_PROBE_SPIN");
    spin_ = spin ? std::atol(spin) : 2000;
  }
  void execute() override {
    mpiarena::PhaseTimer& t = *ctx_.phases;
    MPI_Request req = MPI_REQUEST_NULL;
    const int part = ctx_.part();
    if (part != kCompute) {
      t.mark(kCommPhase);
      MPI_Iallreduce(send_.data(), recv_.data(), static_cast<int>(send_.size()),
                     MPI_INT, MPI_SUM, ctx_.comm, &req);
    }
    if (part != kComm) {
      t.mark(kApp);
      compute();
    }
    if (part != kCompute) {
      t.mark(kCommPhase);
      MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
    t.stop();
  }
  void poison() override { std::fill(recv_.begin(), recv_.end(), -1); }
  mpiarena::Verdict verify() override {
    if (ctx_.part() == kCompute) return {};  // nothing moved
    const int expected = ctx_.size * (ctx_.size + 1) / 2;
    for (std::size_t i = 0; i < recv_.size(); ++i)
      if (recv_[i] != expected)
        return {false, "element " + std::to_string(i) + " is " +
                           std::to_string(recv_[i]) + ", expected " +
                           std::to_string(expected)};
    return {};
  }

 private:
  void compute() {
    double x = 1;
    for (long i = 0; i < spin_; ++i) x = x * 1.0000001 + 1e-9;
    sink_ = x;
  }
  mpiarena::RunContext ctx_;
  std::vector<int> send_, recv_;
  long spin_ = 0;
  volatile double sink_ = 0;
};

class Marks final : public mpiarena::Strategy {
 public:
  void prepare(const mpiarena::RunContext& ctx) override { ctx_ = ctx; }
  void execute() override {
    mpiarena::PhaseTimer& t = *ctx_.phases;
    if (ctx_.part() == 0) {
      for (int i = 0; i < kMarks; ++i) t.mark(i & 1);
      t.stop();
    } else {
      for (int i = 0; i < kMarks; ++i) sink_ = i;  // the same loop, no mark
    }
  }
  void poison() override {}
  mpiarena::Verdict verify() override { return {}; }
  static constexpr int kMarks = 1000;

 private:
  mpiarena::RunContext ctx_;
  volatile int sink_ = 0;
};

mpiarena::StrategyInfo probe_info() {
  mpiarena::StrategyInfo i;
  i.name = "probe";
  i.suite = "harness";
  i.summary =
      "test plugin: MPI_Iallreduce overlapped with computation; parts, "
      "phases and an overlap metric";
  i.payloads = {"bytes"};
  i.min_ranks = 2;
  i.version = "probe-1.0";
  i.phases = {"app", "comm"};
  i.parts = {"comm", "compute", "both"};
  i.headline = "both";
  i.metrics = {{"overlap", "%", /*higher_is_better=*/true, overlap_percent}};
  return i;
}

mpiarena::StrategyInfo marks_info() {
  mpiarena::StrategyInfo i;
  i.name = "probe_marks";
  i.suite = "harness";
  i.summary = "test plugin: the cost of one phase mark";
  i.payloads = {"bytes"};
  i.min_ranks = 1;
  i.moves_data = false;
  i.payload_copies = 0;
  i.phases = {"even", "odd"};
  i.parts = {"marks", "empty"};
  i.metrics = {{"ns_per_mark", "ns", /*higher_is_better=*/false,
                [](const mpiarena::MetricInput& in) {
                  return (in.part("marks") - in.part("empty")) * 1e9 /
                         Marks::kMarks;
                }}};
  return i;
}

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<Probe>(probe_info()),
                mpiarena::make_entry<Marks>(marks_info()))
