// A second library declaring method "test_ok": the registry must keep the
// first one found and report this one as a duplicate.
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/transfer.hpp>

namespace {

class TestOkAgain final : public mpiarena::TransferStrategy {
  void execute() override {
    if (!is_2d()) {
      MPIARENA_CHECK(MPI_Bcast(flat().data(), static_cast<int>(flat().size()),
                               MPI_INT, root(), comm()));
      return;
    }
    bcast_shape();
    for (auto& row : rows())
      MPIARENA_CHECK(MPI_Bcast(row.data(), static_cast<int>(row.size()), MPI_INT,
                               root(), comm()));
  }
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<TestOkAgain>(
    {"test_ok", "transfer", "test plugin: a duplicate of test_ok", {"1d"}, 2}))
