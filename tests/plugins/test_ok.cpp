// test_ok: a correct transfer plugin for the registry and engine tests.
// 1d: one MPI_Bcast of the buffer; 2d: bcast_shape(), then one MPI_Bcast per row.
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/transfer.hpp>

namespace {

class TestOk final : public mpiarena::TransferStrategy {
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

MPIARENA_PLUGIN(mpiarena::make_entry<TestOk>(
    {"test_ok", "transfer", "test plugin: MPI_Bcast of the buffer or of each row",
     {"1d", "2d"}, 2}))
