// A second library declaring method "test_ok": the registry must keep the
// first one found and report this one as a duplicate.
#include "bcast_strategy.hpp"

namespace {
class TestOkAgain final : public mpiarena_test::BcastStrategy {};
}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<TestOkAgain>(mpiarena::transfer_info(
        "test_ok",
        "test plugin: a duplicate of test_ok", {"1d"})))
