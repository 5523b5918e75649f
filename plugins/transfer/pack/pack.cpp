// pack: MPI_Pack into one contiguous buffer, broadcast it, MPI_Unpack
// (the MPI & Boost benchmark's "Packed MPI"). Packing and unpacking are part of
// the operation.
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/transfer.hpp>

namespace {

class Pack final : public mpiarena::TransferStrategy {
  // The payload travels as bytes with one int count (room left for headers).
  std::size_t max_payload_bytes() const override { return kIntBytes; }

  void setup() override {
    // Open MPI rejects a NULL pack buffer even for 0 bytes: never leave it
    // empty.
    buf_.assign(1, 0);
    if (!is_root()) return;  // receivers grow theirs from each operation's size
    int total = 0;
    if (is_2d()) {
      total = pack_size(1) + pack_size(static_cast<int>(rows().size()));
      for (const auto& row : rows())
        total += pack_size(static_cast<int>(row.size()));
    } else {
      total = pack_size(static_cast<int>(flat().size()));
    }
    if (total > 0) buf_.resize(static_cast<std::size_t>(total));
  }

  void teardown() override { std::vector<char>().swap(buf_); }

  void execute() override {
    int packed = 0;
    if (is_root()) {
      if (is_2d()) {
        int nrows = static_cast<int>(rows().size());
        const std::vector<int> sizes = root_row_sizes();
        pack(&nrows, 1, packed);
        pack(sizes.data(), nrows, packed);
        for (int r = 0; r < nrows; ++r)
          pack(rows()[r].data(), sizes[r], packed);
      } else {
        pack(flat().data(), static_cast<int>(flat().size()), packed);
      }
    }
    ibcast_wait(&packed, 1, MPI_INT);
    if (!is_root() && is_2d() &&
        ctx().receive_fresh)  // as MPI & Boost: new buffer
      std::vector<char>(static_cast<std::size_t>(packed)).swap(buf_);
    else if (!is_root() && buf_.size() < static_cast<std::size_t>(packed))
      buf_.resize(static_cast<std::size_t>(packed));
    ibcast_wait(buf_.data(), packed, MPI_PACKED);
    if (is_root()) return;

    int pos = 0;
    if (is_2d()) {
      int nrows = 0;
      unpack(&nrows, 1, packed, pos);
      std::vector<int> sizes(nrows);
      unpack(sizes.data(), nrows, packed, pos);
      shape_rows(sizes);
      for (int r = 0; r < nrows; ++r)
        unpack(rows()[r].data(), sizes[r], packed, pos);
    } else {
      unpack(flat().data(), static_cast<int>(flat().size()), packed, pos);
    }
  }

  int pack_size(int count) const {
    int bytes = 0;
    MPIARENA_CHECK(MPI_Pack_size(count, MPI_INT, comm(), &bytes));
    return bytes;
  }
  void pack(const int* data, int count, int& pos) {
    MPIARENA_CHECK(MPI_Pack(data, count, MPI_INT, buf_.data(),
                            static_cast<int>(buf_.size()), &pos, comm()));
  }
  void unpack(int* data, int count, int packed, int& pos) {
    MPIARENA_CHECK(
        MPI_Unpack(buf_.data(), packed, &pos, data, count, MPI_INT, comm()));
  }
  void ibcast_wait(void* data, int count, MPI_Datatype type) {
    MPI_Request req = MPI_REQUEST_NULL;
    MPIARENA_CHECK(MPI_Ibcast(data, count, type, root(), comm(), &req));
    MPIARENA_CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE));
  }

  std::vector<char> buf_;
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<Pack>(mpiarena::with_copies(
    mpiarena::transfer_info("pack",
                            "MPI_Pack on the root (2d: row count, sizes, "
                            "rows), MPI_Ibcast of the packed size "
                            "then of the buffer, MPI_Unpack on receivers",
                            {"1d", "2d"}, 2),
    2, true)))
