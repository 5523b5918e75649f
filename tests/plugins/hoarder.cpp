// hoarder: a correct MPI_Bcast transfer that keeps a copy of its payload
// after release(), in a static the strategy's destruction does not free:
// the runner must notice the memory a point holds past its release
// (e2e_cli.py memory-held). Keep the method name "hoarder".
#include <cstring>
#include <vector>

#include "bcast_strategy.hpp"

namespace {

std::vector<std::vector<char>>& hoard() {
  static std::vector<std::vector<char>> kept;
  return kept;
}

class Hoarder final : public mpiarena_test::BcastStrategy {
  void setup() override {
    std::vector<char> copy(ctx().bytes);
    std::memset(copy.data(), 1, copy.size());  // resident, not just mapped
    hoard().push_back(std::move(copy));
  }
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<Hoarder>(mpiarena::transfer_info(
    "hoarder", "test plugin: MPI_Bcast that keeps a copy past release()",
    {"1d"})))
