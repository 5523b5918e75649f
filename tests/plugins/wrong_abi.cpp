// A plugin built against another plugin ABI: it reports kAbiVersion + 1000.
// Written by hand, since MPIARENA_PLUGIN always reports kAbiVersion.
#include <mpiarena/transfer.hpp>

namespace {

class WrongAbi final : public mpiarena::TransferStrategy {
  void execute() override {}
};

}  // namespace

extern "C" BOOST_SYMBOL_EXPORT std::uint32_t mpiarena_abi_version() {
  return ::mpiarena::kAbiVersion + 1000;
}

namespace wrong_abi_local {
std::vector<::mpiarena::StrategyEntry> factory() {
  return {
      mpiarena::make_entry<WrongAbi>(mpiarena::transfer_info(
        "wrong_abi",
        "test plugin with a foreign ABI version", {"1d"}))};
}
}  // namespace wrong_abi_local

BOOST_DLL_ALIAS(wrong_abi_local::factory, mpiarena_factory)
