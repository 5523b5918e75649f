// Example (stream suite): osu_bw's window of W messages in flight, each an
// MPI_Issend (synchronous mode) answered by an MPI_Irecv; the base posts
// the window, waits, acknowledges and checks every message.
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/stream.hpp>

namespace {

class IssendBw final : public mpiarena::StreamStrategy {
 public:
  IssendBw() : StreamStrategy(/*bidirectional=*/false) {}

 private:
  void start_send(const unsigned char* data, std::size_t n, int peer, int,
                  MPI_Request* req) override {
    MPIARENA_CHECK(MPI_Issend(data, static_cast<int>(n), MPI_BYTE, peer, 100,
                              comm(), req));
  }
  void start_recv(unsigned char* data, std::size_t n, int peer, int,
                  MPI_Request* req) override {
    MPIARENA_CHECK(
        MPI_Irecv(data, static_cast<int>(n), MPI_BYTE, peer, 100, comm(), req));
  }
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<IssendBw>(mpiarena::stream_info(
    "ex_issend_bw", "example: W MPI_Issend in flight, one acknowledgement",
    false)))
