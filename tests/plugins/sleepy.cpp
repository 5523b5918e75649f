// sleepy: a correct MPI_Bcast transfer slowed down on purpose. Every
// operation first sleeps MPIARENA_TEST_DELAY_US microseconds on every rank
// (0 or unset: no delay), so the end-to-end test of `runner compare` can
// make one run of the same method slower than another and expect a
// regression (e2e.py compare). Keep the method name "sleepy".
#include <chrono>
#include <cstdlib>
#include <thread>

#include "bcast_strategy.hpp"

namespace {

class Sleepy final : public mpiarena_test::BcastStrategy {
  void setup() override {
    const char* text = std::getenv("MPIARENA_TEST_DELAY_US");
    delay_ = std::chrono::microseconds(text ? std::atol(text) : 0);
  }

  void execute() override {
    if (delay_.count() > 0) std::this_thread::sleep_for(delay_);
    BcastStrategy::execute();
  }

  std::chrono::microseconds delay_{0};
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<Sleepy>(mpiarena::transfer_info(
        "sleepy",
        "test plugin: MPI_Bcast after sleeping MPIARENA_TEST_DELAY_US us", {"1d", "2d"})))
