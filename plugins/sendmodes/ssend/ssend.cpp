// ssend: MPI_Ssend, synchronous mode (the send modes of the course
// exercise "Week 4 - MPI Communications").
// Fan-in: every client sends its message to rank 0, which receives them in
// rank order.
// Ping-pong variant pingpong_ssend: both ranks send with MPI_Ssend.
#include <mpiarena/fanin.hpp>
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/pingpong.hpp>

namespace {

class FanIn final : public mpiarena::FanInStrategy {
  void client_send(const unsigned char* data, std::size_t n) override {
    MPIARENA_CHECK(
        MPI_Ssend(data, static_cast<int>(n), MPI_BYTE, 0, kTagData, comm()));
  }
};

class PingPong final : public mpiarena::PingPongStrategy {
  void send(const unsigned char* data, std::size_t n, int peer) override {
    MPIARENA_CHECK(
        MPI_Ssend(data, static_cast<int>(n), MPI_BYTE, peer, 0, comm()));
  }
  void recv(unsigned char* data, std::size_t n, int peer) override {
    MPIARENA_CHECK(MPI_Recv(data, static_cast<int>(n), MPI_BYTE, peer, 0,
                            comm(), MPI_STATUS_IGNORE));
  }
};
}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<FanIn>(
                    mpiarena::fanin_info("ssend",
                                         "fan-in to rank 0, clients send "
                                         "with MPI_Ssend, root MPI_Recv in "
                                         "rank order")),
                mpiarena::make_entry<PingPong>(mpiarena::pingpong_info(
                    "pingpong_ssend",
                    "ping-pong, MPI_Ssend/MPI_Recv of MPI_BYTE")))
