// send: MPI_Send, standard mode (the send modes of the course exercise
// "Week 4 - MPI Communications"). Its ping-pong
// variant is mpi_bytes.
// Fan-in: every client sends its message to rank 0, which receives them in
// rank order.
#include <mpiarena/fanin.hpp>
#include <mpiarena/mpi_check.hpp>

namespace {

class FanIn final : public mpiarena::FanInStrategy {
  void client_send(const unsigned char* data, std::size_t n) override {
    MPIARENA_CHECK(
        MPI_Send(data, static_cast<int>(n), MPI_BYTE, 0, kTagData, comm()));
  }
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<FanIn>(
    mpiarena::fanin_info("send",
                         "fan-in to rank 0, clients send "
                         "with MPI_Send, root MPI_Recv in "
                         "rank order")))
