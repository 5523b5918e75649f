// bsend: MPI_Bsend, buffered mode (the send modes of the course exercise "Week
// 4 - MPI Communications"). The buffer is
// attached in prepare (setup) and sized for one message plus
// MPI_BSEND_OVERHEAD.
// Fan-in: every client sends its message to rank 0, which receives them in
// rank order. A client may run ahead of the root by several operations, so
// after each MPI_Bsend it detaches and re-attaches the buffer:
// MPI_Buffer_detach returns once the buffered message has left, so one
// message of buffer is always enough (and that wait is part of the cost).
// Ping-pong variant pingpong_bsend: both ranks send with MPI_Bsend (the
// pong proves the ping has left the buffer), through a buffer attached for
// two messages: with the base's send and receive buffers, 4 payload copies.
#include <mpiarena/fanin.hpp>
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/pingpong.hpp>

namespace {

// An attached MPI_Bsend buffer for messages of n bytes.
class BsendBuffer {
 public:
  void attach(std::size_t n, MPI_Comm comm, int messages) {
    int packed = 0;
    MPIARENA_CHECK(MPI_Pack_size(static_cast<int>(n), MPI_BYTE, comm, &packed));
    buf_.resize(static_cast<std::size_t>(messages) *
                (static_cast<std::size_t>(packed) + MPI_BSEND_OVERHEAD));
    reattach();
  }
  void reattach() {
    MPIARENA_CHECK(
        MPI_Buffer_attach(buf_.data(), static_cast<int>(buf_.size())));
  }
  void detach() {
    void* addr = nullptr;
    int size = 0;
    MPIARENA_CHECK(MPI_Buffer_detach(&addr, &size));
  }

 private:
  std::vector<char> buf_;
};

class FanIn final : public mpiarena::FanInStrategy {
  void setup() override {
    if (ctx().rank != 0) buffer_.attach(bytes(), comm(), 1);
  }
  void teardown() override {
    if (ctx().rank != 0) buffer_.detach();
  }
  void client_send(const unsigned char* data, std::size_t n) override {
    MPIARENA_CHECK(
        MPI_Bsend(data, static_cast<int>(n), MPI_BYTE, 0, kTagData, comm()));
    buffer_.detach();
    buffer_.reattach();
  }
  BsendBuffer buffer_;
};

class PingPong final : public mpiarena::PingPongStrategy {
  void setup() override {
    if (in_pair()) buffer_.attach(bytes(), comm(), 2);
  }
  void teardown() override {
    if (in_pair()) buffer_.detach();
  }
  void send(const unsigned char* data, std::size_t n, int peer) override {
    MPIARENA_CHECK(
        MPI_Bsend(data, static_cast<int>(n), MPI_BYTE, peer, 0, comm()));
  }
  void recv(unsigned char* data, std::size_t n, int peer) override {
    MPIARENA_CHECK(MPI_Recv(data, static_cast<int>(n), MPI_BYTE, peer, 0,
                            comm(), MPI_STATUS_IGNORE));
  }
  BsendBuffer buffer_;
};

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<FanIn>(mpiarena::fanin_info(
                    "bsend",
                    "fan-in to rank 0, clients MPI_Bsend through an attached "
                    "buffer (detached and re-attached after each send)")),
                mpiarena::make_entry<PingPong>(mpiarena::pingpong_info(
                    "pingpong_bsend",
                    "ping-pong, MPI_Bsend/MPI_Recv of MPI_BYTE",
                    /*payload_copies=*/4)))
