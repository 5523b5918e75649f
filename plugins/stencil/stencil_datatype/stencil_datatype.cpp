// stencil_datatype: no pack or unpack loop. An MPI_Type_vector describes
// the strided face and ghost, sent and received in place: pack and unpack
// cost nothing and comm pays for the gather and scatter.
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/stencil_suite.hpp>

namespace {

class StencilDatatype final : public mpiarena::StencilStrategy {
  void setup() override {
    MPIARENA_CHECK(MPI_Type_vector(icount(), 1, static_cast<int>(step()),
                                   MPI_UINT64_T, &strided_));
    MPIARENA_CHECK(MPI_Type_commit(&strided_));
  }
  void teardown() override {
    if (strided_ != MPI_DATATYPE_NULL) MPI_Type_free(&strided_);
  }
  void exchange(int k) override {
    // Marked so that the table shows the phases a copy would have: empty.
    { auto t = phases().scope(kPack); }
    {
      auto t = phases().scope(kComm);
      MPI_Request r[2];
      MPIARENA_CHECK(
          MPI_Irecv(ghost(k), 1, strided_, from(k), k, comm(), &r[0]));
      MPIARENA_CHECK(MPI_Isend(face(k), 1, strided_, to(k), k, comm(), &r[1]));
      MPIARENA_CHECK(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
    }
    auto t = phases().scope(kUnpack);
  }
  MPI_Datatype strided_ = MPI_DATATYPE_NULL;
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<StencilDatatype>(mpiarena::stencil_info(
    "stencil_datatype",
    "MPI_Type_vector over the strided face and ghost, sent and received in "
    "place: no pack or unpack loop",
    /*extra_copies=*/0)))
