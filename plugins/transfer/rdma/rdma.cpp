// rdma: one-sided MPI_Get from windows the root exposes (the MPI &
// Boost benchmark's "RDMA").
// Windows are created once, untimed; receivers expose 0 bytes. Each operation
// is an active-target epoch: fence, receivers MPI_Get, fence.
#include <climits>
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/transfer.hpp>
#include <stdexcept>

namespace {

class Rdma final : public mpiarena::TransferStrategy {
  void setup() override {
    if (!is_2d()) {
      expose(flat().data(), flat().size());
      return;
    }
    // One window per row; receivers learn how many (untimed).
    int nrows = static_cast<int>(rows().size());
    MPIARENA_CHECK(MPI_Bcast(&nrows, 1, MPI_INT, root(), comm()));
    for (int r = 0; r < nrows; ++r)
      expose(is_root() ? rows()[r].data() : nullptr,
             is_root() ? rows()[r].size() : 0);
  }

  void teardown() override {
    for (MPI_Win& win : wins_) MPIARENA_CHECK(MPI_Win_free(&win));
    wins_.clear();
  }

  void execute() override {
    if (is_2d()) bcast_shape();
    for (MPI_Win win : wins_) MPIARENA_CHECK(MPI_Win_fence(0, win));
    if (!is_root()) {
      if (is_2d()) {
        if (rows().size() != wins_.size())
          throw std::runtime_error(
              "rdma: row count differs from the window count");
        for (std::size_t r = 0; r < wins_.size(); ++r) get(rows()[r], wins_[r]);
      } else {
        get(flat(), wins_.front());
      }
    }
    for (MPI_Win win : wins_) MPIARENA_CHECK(MPI_Win_fence(0, win));
  }

  void expose(int* base, std::size_t count) {
    wins_.push_back(mpiarena::create_int_window(base, count, comm()));
  }

  void get(std::vector<int>& into, MPI_Win win) {
    const int n = static_cast<int>(into.size());
    MPIARENA_CHECK(
        MPI_Get(into.data(), n, MPI_INT, root(), 0, n, MPI_INT, win));
  }

  std::vector<MPI_Win> wins_;
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<Rdma>(mpiarena::transfer_info(
    "rdma",
    "Root exposes the data in MPI_Win_create windows built once (1d: one; 2d: "
    "one per row, "
    "sizes by MPI_Bcast); MPI_Win_fence, receivers MPI_Get, MPI_Win_fence",
    {"1d", "2d"})))
