// gate_bcast: a correct MPI_Bcast transfer that, built with
// MPIARENA_GATE_SLOWDOWN=P, spins after every operation for P% of the time
// that operation took on this rank: a regression of P% of the operation,
// at every size, for bench/gate and the e2e tests of `runner ab` and the
// compare across launches. Built three times (P = 0, 10, 25), one
// directory each (tests/plugins_gate/p0, p10, p25), the method name the
// same in all three, as two builds of one plugin would be.
#include <algorithm>
#include <chrono>

#include "bcast_strategy.hpp"

#ifndef MPIARENA_GATE_SLOWDOWN
#define MPIARENA_GATE_SLOWDOWN 0
#endif

namespace {

class GateBcast final : public mpiarena_test::BcastStrategy {
  using clock = std::chrono::steady_clock;

  void execute() override {
    const auto start = clock::now();
    BcastStrategy::execute();
    if (MPIARENA_GATE_SLOWDOWN == 0) return;
    auto took = clock::now() - start;
    // Above 100%, P% of each operation feeds back: a rank's operation
    // includes its wait for the other's spin, which it then spins P% of,
    // and the ranks wait for each other without end. There the spin is P%
    // of the fastest operation this rank has seen, and of at least 50 us
    // (a root's eager MPI_Bcast returns in a fraction of a microsecond,
    // which P% of would not slow the point): a build far slower at any
    // size, for the e2e tests.
    if (MPIARENA_GATE_SLOWDOWN > 100) {
      if (fastest_ == clock::duration::zero() || took < fastest_)
        fastest_ = took;
      took = std::max<clock::duration>(fastest_, std::chrono::microseconds(50));
    }
    const auto until = clock::now() + took * MPIARENA_GATE_SLOWDOWN / 100;
    while (clock::now() < until) {
    }
  }

  clock::duration fastest_ = clock::duration::zero();
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<GateBcast>(mpiarena::transfer_info(
    "gate_bcast",
    "test plugin: MPI_Bcast, then a spin of MPIARENA_GATE_SLOWDOWN% of it",
    {"1d"})))
