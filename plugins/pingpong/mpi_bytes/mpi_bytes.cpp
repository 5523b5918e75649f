// mpi_bytes: ping-pong with MPI_Send / MPI_Recv of MPI_BYTE (Boost.MPI's
// NetPIPE comparison, "MPI": the unmodified NetPIPE).
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/pingpong.hpp>

namespace {

class MpiBytes final : public mpiarena::PingPongStrategy {
  void send(const unsigned char* data, std::size_t n, int peer) override {
    MPIARENA_CHECK(
        MPI_Send(data, static_cast<int>(n), MPI_BYTE, peer, 0, comm()));
  }
  void recv(unsigned char* data, std::size_t n, int peer) override {
    MPIARENA_CHECK(MPI_Recv(data, static_cast<int>(n), MPI_BYTE, peer, 0,
                            comm(), MPI_STATUS_IGNORE));
  }
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<MpiBytes>(mpiarena::pingpong_info(
    "mpi_bytes",
    "ping-pong, MPI_Send/MPI_Recv of MPI_BYTE (NetPIPE's MPI module)")))
