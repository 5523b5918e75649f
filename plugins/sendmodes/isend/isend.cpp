// isend: MPI_Isend followed by its MPI_Wait (the send modes of the course
// exercise "Week 4 - MPI Communications").
// Fan-in: every client sends its message to rank 0, which receives them in
// rank order.
// Ping-pong variant pingpong_isend: both ranks send with MPI_Isend+MPI_Wait.
#include <mpiarena/fanin.hpp>
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/pingpong.hpp>

namespace {

void isend_wait(const unsigned char* data, std::size_t n, int dest, int tag,
                MPI_Comm comm) {
  MPI_Request req = MPI_REQUEST_NULL;
  MPIARENA_CHECK(
      MPI_Isend(data, static_cast<int>(n), MPI_BYTE, dest, tag, comm, &req));
  MPIARENA_CHECK(MPI_Wait(&req, MPI_STATUS_IGNORE));
}

class FanIn final : public mpiarena::FanInStrategy {
  void client_send(const unsigned char* data, std::size_t n) override {
    isend_wait(data, n, 0, kTagData, comm());
  }
};

class PingPong final : public mpiarena::PingPongStrategy {
  void send(const unsigned char* data, std::size_t n, int peer) override {
    isend_wait(data, n, peer, 0, comm());
  }
  void recv(unsigned char* data, std::size_t n, int peer) override {
    MPIARENA_CHECK(MPI_Recv(data, static_cast<int>(n), MPI_BYTE, peer, 0,
                            comm(), MPI_STATUS_IGNORE));
  }
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<FanIn>(mpiarena::fanin_info(
                    "isend",
                    "fan-in to rank 0, clients send with MPI_Isend + "
                    "MPI_Wait, root MPI_Recv in rank order")),
                mpiarena::make_entry<PingPong>(mpiarena::pingpong_info(
                    "pingpong_isend",
                    "ping-pong, MPI_Isend+MPI_Wait/MPI_Recv of MPI_BYTE")))
