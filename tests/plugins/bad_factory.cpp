// A plugin whose factory throws. Built into a directory of its own, only the
// registry tests load it.
#include <mpiarena/transfer.hpp>
#include <stdexcept>

namespace {

class Unused final : public mpiarena::TransferStrategy {
  void execute() override {}
};

[[noreturn]] mpiarena::StrategyEntry broken_entry() {
  throw std::runtime_error(
      "bad_factory test plugin refuses to build its entries");
}

}  // namespace

MPIARENA_PLUGIN(broken_entry(),
                mpiarena::make_entry<Unused>(mpiarena::transfer_info(
        "bad_factory",
        "never listed", {"1d"})))
