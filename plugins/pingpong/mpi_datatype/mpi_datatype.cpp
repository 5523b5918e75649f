// mpi_datatype: ping-pong with MPI_Send / MPI_Recv of a derived datatype
// that holds a single MPI_BYTE (Boost.MPI's NetPIPE comparison,
// "MPI (Datatypes)").
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/pingpong.hpp>

namespace {

class MpiDatatype final : public mpiarena::PingPongStrategy {
  void setup() override {
    MPIARENA_CHECK(MPI_Type_contiguous(1, MPI_BYTE, &type_));
    MPIARENA_CHECK(MPI_Type_commit(&type_));
  }
  void teardown() override {
    if (type_ != MPI_DATATYPE_NULL) MPIARENA_CHECK(MPI_Type_free(&type_));
  }
  void send(const unsigned char* data, std::size_t n, int peer) override {
    MPIARENA_CHECK(MPI_Send(data, static_cast<int>(n), type_, peer, 0, comm()));
  }
  void recv(unsigned char* data, std::size_t n, int peer) override {
    MPIARENA_CHECK(MPI_Recv(data, static_cast<int>(n), type_, peer, 0, comm(),
                            MPI_STATUS_IGNORE));
  }

  MPI_Datatype type_ = MPI_DATATYPE_NULL;
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<MpiDatatype>(mpiarena::pingpong_info(
    "mpi_datatype",
    "ping-pong, MPI_Send/MPI_Recv of a derived datatype holding one MPI_BYTE")))
