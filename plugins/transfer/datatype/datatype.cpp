// datatype: derived datatypes (MPI_Type_contiguous) sent point-to-point from
// the root (the MPI & Boost benchmark's "Datatype MPI"). The 2d row types
// depend on sizes a receiver learns during the operation, so they are built and
// freed in it.
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/transfer.hpp>

namespace {

constexpr int kTagRow = 0;  // row r: kTagRow + r (1d: kTagRow)

class Datatype final : public mpiarena::TransferStrategy {
  void setup() override {
    if (is_2d()) return;
    MPIARENA_CHECK(MPI_Type_contiguous(static_cast<int>(flat().size()), MPI_INT,
                                       &flat_type_));
    MPIARENA_CHECK(MPI_Type_commit(&flat_type_));
  }

  void teardown() override {
    if (flat_type_ != MPI_DATATYPE_NULL)
      MPIARENA_CHECK(MPI_Type_free(&flat_type_));
  }

  void execute() override {
    reqs_.clear();
    if (!is_2d()) {
      transfer(flat().data(), flat_type_, kTagRow);
    } else {
      bcast_shape();
      types_.assign(rows().size(), MPI_DATATYPE_NULL);
      for (std::size_t r = 0; r < rows().size(); ++r) {
        MPIARENA_CHECK(MPI_Type_contiguous(static_cast<int>(rows()[r].size()),
                                           MPI_INT, &types_[r]));
        MPIARENA_CHECK(MPI_Type_commit(&types_[r]));
        transfer(rows()[r].data(), types_[r], kTagRow + static_cast<int>(r));
      }
    }
    MPIARENA_CHECK(MPI_Waitall(static_cast<int>(reqs_.size()), reqs_.data(),
                               MPI_STATUSES_IGNORE));
    for (MPI_Datatype& t : types_) MPIARENA_CHECK(MPI_Type_free(&t));
    types_.clear();
  }

  // Root: one MPI_Isend per receiver; receiver: one MPI_Irecv. Count 1 of
  // `type`.
  void transfer(int* data, MPI_Datatype type, int tag) {
    if (!is_root()) {
      reqs_.emplace_back();
      MPIARENA_CHECK(
          MPI_Irecv(data, 1, type, root(), tag, comm(), &reqs_.back()));
      return;
    }
    for (int dest = 0; dest < ctx().size; ++dest) {
      if (dest == root()) continue;
      reqs_.emplace_back();
      MPIARENA_CHECK(
          MPI_Isend(data, 1, type, dest, tag, comm(), &reqs_.back()));
    }
  }

  MPI_Datatype flat_type_ = MPI_DATATYPE_NULL;
  std::vector<MPI_Datatype> types_;
  std::vector<MPI_Request> reqs_;
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<Datatype>(mpiarena::with_copies(
    mpiarena::transfer_info(
        "datatype",
        "MPI_Type_contiguous of the buffer (built once) (1d) or of each row "
        "(built and freed each operation, sizes by MPI_Bcast) (2d), "
        "MPI_Isend to each receiver / MPI_Irecv + MPI_Waitall",
        {"1d", "2d"}),
    0, true)))
