// hindexed: the whole 2d payload as ONE derived datatype. Row sizes are
// broadcast first; then an MPI_Type_create_hindexed of MPI_INT spans every
// row by absolute address (MPI_Get_address) and a single
// MPI_Bcast(MPI_BOTTOM, 1, type) moves all rows, with no application-side
// copy. The type holds this rank's row addresses, so it is cached and rebuilt
// only when a row's address or size differs from the cached one (a receiver's
// rows are reallocated only when poison() empties them or the shape changes).
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/transfer.hpp>

namespace {

class Hindexed final : public mpiarena::TransferStrategy {
  // One datatype spans the whole payload: keep its size within an int count
  // of bytes, the range Open MPI's collectives are known to handle.
  std::size_t max_payload_bytes() const override { return kIntBytes; }

  void teardown() override { free_type(); }

  void execute() override {
    bcast_shape();
    if (type_stale()) build_type();
    MPIARENA_CHECK(MPI_Bcast(MPI_BOTTOM, 1, type_, root(), comm()));
  }

  bool type_stale() const {
    if (type_ == MPI_DATATYPE_NULL || rows().size() != lengths_.size())
      return true;
    for (std::size_t r = 0; r < rows().size(); ++r)
      if (rows()[r].data() != bases_[r] ||
          static_cast<int>(rows()[r].size()) != lengths_[r])
        return true;
    return false;
  }

  void build_type() {
    free_type();
    const std::size_t n = rows().size();
    bases_.resize(n);
    lengths_.resize(n);
    std::vector<MPI_Aint> displs(n);
    for (std::size_t r = 0; r < n; ++r) {
      bases_[r] = rows()[r].data();
      lengths_[r] = static_cast<int>(rows()[r].size());
      MPIARENA_CHECK(MPI_Get_address(rows()[r].data(), &displs[r]));
    }
    MPIARENA_CHECK(MPI_Type_create_hindexed(
        static_cast<int>(n), lengths_.data(), displs.data(), MPI_INT, &type_));
    MPIARENA_CHECK(MPI_Type_commit(&type_));
  }

  void free_type() {
    if (type_ != MPI_DATATYPE_NULL) MPIARENA_CHECK(MPI_Type_free(&type_));
    bases_.clear();
    lengths_.clear();
  }

  // Cache key of type_: the row addresses and sizes it was built from.
  std::vector<const int*> bases_;
  std::vector<int> lengths_;
  MPI_Datatype type_ = MPI_DATATYPE_NULL;
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<Hindexed>(mpiarena::transfer_info(
        "hindexed",
        "Sizes by MPI_Bcast, then ONE MPI_Bcast(MPI_BOTTOM, 1, type) of an "
     "MPI_Type_create_hindexed spanning every row by absolute address "
     "(cached; rebuilt only when row addresses or sizes change) (2d)", {"2d"})))
