// rdma_passive: one-sided MPI_Get under passive-target synchronisation.
// Untimed setup: the root exposes its data in MPI_Win_create windows
// (receivers expose 0 bytes) and every rank opens one MPI_Win_lock_all epoch
// per window, closed in teardown. 2d: one window per row plus a header window
// holding {row count, row sizes}; receivers learn the number of windows by
// MPI_Bcast in setup (window creation is collective and fixes the shape).
// Each operation:
//   root:      MPI_Win_sync (publish its stores), MPI_Barrier "data ready",
//              MPI_Barrier "every receiver has finished reading";
//   receivers: MPI_Barrier "data ready", [2d: MPI_Get of the header +
//              MPI_Win_flush, then shape the rows], MPI_Get of the data +
//              MPI_Win_flush, MPI_Barrier "finished reading".
// After the second barrier the root may modify its data again.
#include <algorithm>
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/transfer.hpp>
#include <stdexcept>

namespace {

class RdmaPassive final : public mpiarena::TransferStrategy {
  void setup() override {
    if (!is_2d()) {
      expose(flat().data(), flat().size());
    } else {
      int nrows = static_cast<int>(rows().size());
      MPIARENA_CHECK(MPI_Bcast(&nrows, 1, MPI_INT, root(), comm()));
      header_.assign(1 + static_cast<std::size_t>(nrows), 0);
      if (is_root()) {
        header_[0] = nrows;
        const std::vector<int> sizes = root_row_sizes();
        std::copy(sizes.begin(), sizes.end(), header_.begin() + 1);
      }
      expose(header_.data(), is_root() ? header_.size() : 0);
      for (int r = 0; r < nrows; ++r)
        expose(is_root() ? rows()[r].data() : nullptr,
               is_root() ? rows()[r].size() : 0);
    }
    // Shared locks only, never an exclusive one: MPI_MODE_NOCHECK is valid.
    for (MPI_Win win : wins_)
      MPIARENA_CHECK(MPI_Win_lock_all(MPI_MODE_NOCHECK, win));
  }

  void teardown() override {
    for (MPI_Win& win : wins_) {
      MPIARENA_CHECK(MPI_Win_unlock_all(win));
      MPIARENA_CHECK(MPI_Win_free(&win));
    }
    wins_.clear();
  }

  void execute() override {
    if (is_root())
      for (MPI_Win win : wins_) MPIARENA_CHECK(MPI_Win_sync(win));
    MPIARENA_CHECK(MPI_Barrier(comm()));  // root's data is ready
    if (!is_root()) {
      if (!is_2d()) {
        get(flat(), wins_[0]);
      } else {
        get(header_, wins_[0]);  // header: {row count, row sizes}
        if (header_[0] != static_cast<int>(wins_.size()) - 1)
          throw std::runtime_error(
              "rdma_passive: row count differs from the window count");
        shape_rows(std::vector<int>(header_.begin() + 1, header_.end()));
        for (std::size_t r = 0; r < rows().size(); ++r)
          get(rows()[r], wins_[r + 1], false);
        for (std::size_t r = 1; r < wins_.size(); ++r)
          MPIARENA_CHECK(MPI_Win_flush(root(), wins_[r]));
      }
    }
    MPIARENA_CHECK(MPI_Barrier(comm()));  // every receiver finished reading
  }

  void expose(int* base, std::size_t count) {
    wins_.push_back(mpiarena::create_int_window(base, count, comm()));
  }

  // MPI_Get of all of `into` from the root's window; then MPI_Win_flush
  // unless the caller flushes several windows itself.
  void get(std::vector<int>& into, MPI_Win win, bool flush = true) {
    const int n = static_cast<int>(into.size());
    MPIARENA_CHECK(
        MPI_Get(into.data(), n, MPI_INT, root(), 0, n, MPI_INT, win));
    if (flush) MPIARENA_CHECK(MPI_Win_flush(root(), win));
  }

  std::vector<int> header_;  // root: exposed; receivers: Get target
  std::vector<MPI_Win> wins_;
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<RdmaPassive>(mpiarena::transfer_info(
    "rdma_passive",
    "Passive target on MPI_Win_create windows built and MPI_Win_lock_all'ed "
    "once: root MPI_Win_sync, MPI_Barrier, receivers MPI_Get + "
    "MPI_Win_flush (2d: header {count, sizes} Get + flush first, then one "
    "Get per row window), MPI_Barrier",
    {"1d", "2d"})))
