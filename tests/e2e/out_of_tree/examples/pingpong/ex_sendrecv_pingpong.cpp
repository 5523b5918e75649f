// Example (ping-pong suite): a round trip that is not a separate send and
// receive. The initiator's ping and pong are one MPI_Sendrecv; the
// responder receives, then answers. The base owns the pair, the buffers
// (--buffers, --cache), the poison and the check; round_trip() is all a
// method writes. A metric of its own: one-way messages per second.
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/pingpong.hpp>

namespace {

class SendrecvPingPong final : public mpiarena::PingPongStrategy {
  void round_trip(const unsigned char* out, unsigned char* in, std::size_t n,
                  int peer, bool initiator) override {
    const int count = static_cast<int>(n);
    if (initiator) {
      MPIARENA_CHECK(MPI_Sendrecv(out, count, MPI_BYTE, peer, 0, in, count,
                                  MPI_BYTE, peer, 0, comm(),
                                  MPI_STATUS_IGNORE));
    } else {
      MPIARENA_CHECK(
          MPI_Recv(in, count, MPI_BYTE, peer, 0, comm(), MPI_STATUS_IGNORE));
      MPIARENA_CHECK(MPI_Send(out, count, MPI_BYTE, peer, 0, comm()));
    }
  }
};

mpiarena::StrategyInfo info() {
  mpiarena::StrategyInfo i = mpiarena::pingpong_info(
      "ex_sendrecv_pingpong",
      "example: ping-pong whose initiator does one MPI_Sendrecv");
  // A method without parts has one part, named "": its time per operation,
  // one way (time_scale already applied), the slowest rank's.
  i.metrics.push_back(
      {"msg_rate", "msg/s", true,
       [](const mpiarena::MetricInput& in) { return 1.0 / in.part(""); }});
  return i;
}

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<SendrecvPingPong>(info()))
