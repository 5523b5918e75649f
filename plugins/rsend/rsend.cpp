// rsend: MPI_Rsend, ready mode (seed 003, send modes). Fan-in only.
// The receive is provably posted first: the root posts an MPI_Irecv per
// client, then sends each client an empty "ready" message; a client calls
// MPI_Rsend only after receiving it. The root then waits for every receive.
// No ping-pong variant: the same handshake would be a second message per
// hop, which is not a ping-pong any more.
#include <mpiarena/fanin.hpp>
#include <mpiarena/mpi_check.hpp>

namespace {

class Rsend final : public mpiarena::FanInStrategy {
  void root_receive(std::vector<std::vector<unsigned char>>& slots) override {
    const int size = ctx().size;
    reqs_.assign(static_cast<std::size_t>(size - 1), MPI_REQUEST_NULL);
    for (int c = 1; c < size; ++c)
      MPIARENA_CHECK(MPI_Irecv(slots[c].data(), static_cast<int>(bytes()),
                               MPI_BYTE, c, kTagData, comm(), &reqs_[c - 1]));
    for (int c = 1; c < size; ++c)
      MPIARENA_CHECK(MPI_Send(nullptr, 0, MPI_BYTE, c, kTagReady, comm()));
    MPIARENA_CHECK(MPI_Waitall(size - 1, reqs_.data(), MPI_STATUSES_IGNORE));
  }

  void client_send(const unsigned char* data, std::size_t n) override {
    MPIARENA_CHECK(MPI_Recv(nullptr, 0, MPI_BYTE, 0, kTagReady, comm(),
                            MPI_STATUS_IGNORE));
    MPIARENA_CHECK(
        MPI_Rsend(data, static_cast<int>(n), MPI_BYTE, 0, kTagData, comm()));
  }

  std::vector<MPI_Request> reqs_;
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<Rsend>(
    {"rsend",
     "fanin",
     "fan-in to rank 0: the root posts MPI_Irecv for every client and sends "
     "each an empty ready message, clients then MPI_Rsend",
     {"bytes"}}))
