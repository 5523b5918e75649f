// raw: point-to-point from the root to every receiver (the MPI &
// Boost benchmark's "Raw MPI").
// 2d sends the row count and the row sizes first, then each row.
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/transfer.hpp>

namespace {

constexpr int kTagCount = 0, kTagSizes = 1, kTagRow = 2;  // row r: kTagRow + r

class Raw final : public mpiarena::TransferStrategy {
  void execute() override {
    reqs_.clear();
    if (is_root())
      send();
    else if (is_2d())
      recv_2d();
    else
      MPIARENA_CHECK(MPI_Recv(flat().data(), static_cast<int>(flat().size()),
                              MPI_INT, root(), kTagRow, comm(),
                              MPI_STATUS_IGNORE));
    MPIARENA_CHECK(MPI_Waitall(static_cast<int>(reqs_.size()), reqs_.data(),
                               MPI_STATUSES_IGNORE));
  }

  void send() {
    nrows_ = static_cast<int>(rows().size());
    sizes_ = root_row_sizes();
    for (int dest = 0; dest < ctx().size; ++dest) {
      if (dest == root()) continue;
      if (!is_2d()) {
        isend(flat().data(), static_cast<int>(flat().size()), dest, kTagRow);
        continue;
      }
      isend(&nrows_, 1, dest, kTagCount);
      isend(sizes_.data(), nrows_, dest, kTagSizes);
      for (int r = 0; r < nrows_; ++r)
        isend(rows()[r].data(), sizes_[r], dest, kTagRow + r);
    }
  }

  void recv_2d() {
    int nrows = 0;
    MPIARENA_CHECK(MPI_Recv(&nrows, 1, MPI_INT, root(), kTagCount, comm(),
                            MPI_STATUS_IGNORE));
    std::vector<int> sizes(nrows);
    MPIARENA_CHECK(MPI_Recv(sizes.data(), nrows, MPI_INT, root(), kTagSizes,
                            comm(), MPI_STATUS_IGNORE));
    shape_rows(sizes);
    for (int r = 0; r < nrows; ++r) {
      reqs_.emplace_back();
      MPIARENA_CHECK(MPI_Irecv(rows()[r].data(), sizes[r], MPI_INT, root(),
                               kTagRow + r, comm(), &reqs_.back()));
    }
  }

  void isend(const int* buf, int count, int dest, int tag) {
    reqs_.emplace_back();
    MPIARENA_CHECK(
        MPI_Isend(buf, count, MPI_INT, dest, tag, comm(), &reqs_.back()));
  }

  std::vector<MPI_Request> reqs_;
  int nrows_ = 0;  // root: send buffers that live until MPI_Waitall
  std::vector<int> sizes_;
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<Raw>(mpiarena::with_copies(
    mpiarena::transfer_info(
        "raw",
        "MPI_Isend from the root to each receiver, MPI_Recv (1d); row count "
        "and row sizes, then each row by MPI_Isend/MPI_Irecv + MPI_Waitall "
        "(2d)",
        {"1d", "2d"}),
    0, true)))
