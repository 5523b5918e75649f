// corrupt: transfers like test_ok, then the first receiver alters its copy, so
// verification must fail. The end-to-end tests run it and expect the runner
// to exit non-zero: keep the method name "corrupt" and the library name
// mpiarena_corrupt.so.
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/transfer.hpp>

namespace {

class Corrupt final : public mpiarena::TransferStrategy {
  bool corrupts() const {
    return ctx().size > 1 && ctx().rank == (root() + 1) % ctx().size;
  }

  void setup() override { count_ = flat().size(); }

  void execute() override {
    if (!is_2d()) {
      flat().resize(count_);  // undo an earlier extra int: counts must match
      MPIARENA_CHECK(MPI_Bcast(flat().data(), static_cast<int>(flat().size()),
                               MPI_INT, root(), comm()));
      if (corrupts()) {
        // Flip one element; with nothing to flip, deliver one int too many.
        if (flat().empty()) flat().push_back(1);
        else flat()[flat().size() / 2] ^= 2;  // still odd: a wrong value, not poison
      }
      return;
    }
    bcast_shape();
    for (auto& row : rows())
      MPIARENA_CHECK(MPI_Bcast(row.data(), static_cast<int>(row.size()), MPI_INT,
                               root(), comm()));
    if (corrupts()) {
      auto& last = rows().back();
      if (last.empty()) last.push_back(1);
      else last[last.size() / 2] ^= 2;
    }
  }

  std::size_t count_ = 0;  // 1d ints, as prepared
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<Corrupt>(
    {"corrupt", "transfer",
     "test plugin: MPI_Bcast, then the first receiver flips one element",
     {"1d", "2d"}, 2}))
