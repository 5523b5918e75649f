// A second library declaring method "test_ok" (or MPIARENA_DUPLICATE_OF,
// another method's name): the registry must keep the first one found and
// report this one as a duplicate.
#include "bcast_strategy.hpp"

#ifndef MPIARENA_DUPLICATE_OF
#define MPIARENA_DUPLICATE_OF "test_ok"
#endif

namespace {
class TestOkAgain final : public mpiarena_test::BcastStrategy {};
}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<TestOkAgain>(mpiarena::transfer_info(
        MPIARENA_DUPLICATE_OF,
        "test plugin: a duplicate of " MPIARENA_DUPLICATE_OF, {"1d"})))
