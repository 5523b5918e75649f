// test_ok: a correct transfer plugin for the registry and engine tests.
#include "bcast_strategy.hpp"

namespace {
class TestOk final : public mpiarena_test::BcastStrategy {};
}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<TestOk>(mpiarena::transfer_info(
        "test_ok",
        "test plugin: MPI_Bcast of the buffer or of each row", {"1d", "2d"})))
