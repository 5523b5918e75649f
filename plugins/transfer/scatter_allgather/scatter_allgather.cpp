// scatter_allgather: the large-message broadcast algorithm (van de Geijn)
// written with two collectives, for comparison with the library's MPI_Bcast:
// the root MPI_Scatterv's near-equal chunks (rank i gets chunk i), then
// MPI_Allgatherv (in place) gives every rank every chunk.
// 1d: counts and displacements are computed once in setup().
// 2d: the sizes arrive by MPI_Bcast, so each row's counts are derived from
// them in the operation; as bcast does with MPI_Ibcast, the rows proceed
// together: MPI_Iscatterv of every row + MPI_Waitall, then MPI_Iallgatherv of
// every row + MPI_Waitall.
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/transfer.hpp>

namespace {

// Chunk layout of one buffer: rank i holds [displs[i], displs[i] + counts[i]).
struct Chunks {
  std::vector<int> counts, displs;
};

class ScatterAllgather final : public mpiarena::TransferStrategy {
  void setup() override {
    if (!is_2d()) flat_chunks_ = split(static_cast<int>(flat().size()));
  }

  void execute() override {
    if (!is_2d()) {
      scatter(flat().data(), flat_chunks_, nullptr);
      allgather(flat().data(), flat_chunks_, nullptr);
      return;
    }
    bcast_shape();
    const std::size_t n = rows().size();
    row_chunks_.resize(n);
    for (std::size_t r = 0; r < n; ++r)
      row_chunks_[r] = split(static_cast<int>(rows()[r].size()));
    reqs_.assign(n, MPI_REQUEST_NULL);
    for (std::size_t r = 0; r < n; ++r)
      scatter(rows()[r].data(), row_chunks_[r], &reqs_[r]);
    wait_all();
    for (std::size_t r = 0; r < n; ++r)
      allgather(rows()[r].data(), row_chunks_[r], &reqs_[r]);
    wait_all();
  }

  // Near-equal split of `count` ints: the first count % size ranks get one
  // more.
  Chunks split(int count) const {
    const int p = ctx().size;
    Chunks c{std::vector<int>(p), std::vector<int>(p)};
    for (int i = 0, at = 0; i < p; ++i) {
      c.counts[i] = count / p + (i < count % p ? 1 : 0);
      c.displs[i] = at;
      at += c.counts[i];
    }
    return c;
  }

  // Blocking when req is null, else nonblocking into *req.
  void scatter(int* data, const Chunks& c, MPI_Request* req) {
    const int me = ctx().rank;
    void* recv = is_root() ? MPI_IN_PLACE : data + c.displs[me];
    if (req)
      MPIARENA_CHECK(MPI_Iscatterv(data, c.counts.data(), c.displs.data(),
                                   MPI_INT, recv, c.counts[me], MPI_INT, root(),
                                   comm(), req));
    else
      MPIARENA_CHECK(MPI_Scatterv(data, c.counts.data(), c.displs.data(),
                                  MPI_INT, recv, c.counts[me], MPI_INT, root(),
                                  comm()));
  }

  void allgather(int* data, const Chunks& c, MPI_Request* req) {
    if (req)
      MPIARENA_CHECK(MPI_Iallgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, data,
                                     c.counts.data(), c.displs.data(), MPI_INT,
                                     comm(), req));
    else
      MPIARENA_CHECK(MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, data,
                                    c.counts.data(), c.displs.data(), MPI_INT,
                                    comm()));
  }

  void wait_all() {
    MPIARENA_CHECK(MPI_Waitall(static_cast<int>(reqs_.size()), reqs_.data(),
                               MPI_STATUSES_IGNORE));
  }

  Chunks flat_chunks_;
  std::vector<Chunks> row_chunks_;
  std::vector<MPI_Request> reqs_;
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<ScatterAllgather>(mpiarena::transfer_info(
        "scatter_allgather",
        "MPI_Scatterv of near-equal chunks from the root + in-place "
     "MPI_Allgatherv (1d); sizes by MPI_Bcast, then MPI_Iscatterv of every "
     "row + MPI_Waitall, MPI_Iallgatherv of every row + MPI_Waitall (2d)", {"1d", "2d"})))
