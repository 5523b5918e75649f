// late_rank: a correct MPI_Bcast transfer whose last rank is made late on
// purpose (tests/e2e/e2e_sync.py): before every MPIARENA_TEST_LATE_EVERY-th
// operation (default 20) it sleeps MPIARENA_TEST_LATE_US microseconds
// (default 3000). Under --sync window with a shorter window, that
// operation's window is valid but long, and the next one starts before the
// rank reaches it: that window is invalid, and counted.
#include <chrono>
#include <cstdlib>
#include <thread>

#include "bcast_strategy.hpp"

namespace {

long env_or(const char* name, long fallback) {
  const char* text = std::getenv(name);
  return text ? std::atol(text) : fallback;
}

class LateRank final : public mpiarena_test::BcastStrategy {
  void setup() override {
    every_ = env_or("MPIARENA_TEST_LATE_EVERY", 20);
    delay_ = std::chrono::microseconds(env_or("MPIARENA_TEST_LATE_US", 3000));
  }

  void execute() override {
    if (ctx().rank == ctx().size - 1 && every_ > 0 && ++calls_ % every_ == 0)
      std::this_thread::sleep_for(delay_);
    BcastStrategy::execute();
  }

  long every_ = 20, calls_ = 0;
  std::chrono::microseconds delay_{3000};
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<LateRank>(mpiarena::transfer_info(
    "late_rank",
    "test plugin: MPI_Bcast, the last rank late before every "
    "MPIARENA_TEST_LATE_EVERY-th operation by MPIARENA_TEST_LATE_US us",
    {"1d"})))
