// Streaming bandwidth with persistent requests: MPI_Send_init made once per
// message of the window and MPI_Recv_init once per receive slot (untimed),
// then MPI_Start for each message of every window (stream.hpp).
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/stream.hpp>
#include <vector>

namespace {

class Persistent : public mpiarena::StreamStrategy {
 public:
  explicit Persistent(bool bidirectional) : StreamStrategy(bidirectional) {}

 private:
  void setup() override {
    if (!in_pair()) return;
    const int n = static_cast<int>(bytes());
    for (int k = 0; sender() && k < window(); ++k) {
      MPI_Request r = MPI_REQUEST_NULL;
      MPIARENA_CHECK(
          MPI_Send_init(send_buffer(), n, MPI_BYTE, peer(), 100, comm(), &r));
      sends_.push_back(r);
    }
    for (int k = 0; k < recv_slots(); ++k) {
      MPI_Request r = MPI_REQUEST_NULL;
      MPIARENA_CHECK(
          MPI_Recv_init(recv_slot(k), n, MPI_BYTE, peer(), 100, comm(), &r));
      recvs_.push_back(r);
    }
  }
  void teardown() override {
    for (auto* v : {&sends_, &recvs_}) {
      for (MPI_Request& r : *v) MPIARENA_CHECK(MPI_Request_free(&r));
      v->clear();
    }
  }
  void start_send(const unsigned char*, std::size_t, int, int k,
                  MPI_Request* req) override {
    MPIARENA_CHECK(MPI_Start(&sends_[k]));
    *req = sends_[k];  // MPI_Waitall leaves a persistent request inactive
  }
  void start_recv(unsigned char*, std::size_t, int, int k,
                  MPI_Request* req) override {
    MPIARENA_CHECK(MPI_Start(&recvs_[k]));
    *req = recvs_[k];
  }
  std::vector<MPI_Request> sends_, recvs_;
};

struct OneWay final : Persistent {
  OneWay() : Persistent(false) {}
};
struct BothWays final : Persistent {
  BothWays() : Persistent(true) {}
};

}  // namespace

MPIARENA_PLUGIN(
    mpiarena::make_entry<OneWay>(mpiarena::stream_info(
        "persistent_bw",
        "one way: W persistent sends (MPI_Send_init once, MPI_Start each), "
        "MPI_Waitall, 4-byte acknowledgement",
        false)),
    mpiarena::make_entry<BothWays>(mpiarena::stream_info(
        "persistent_bibw",
        "both ways: W persistent receives then W persistent sends started "
        "(MPI_Start), MPI_Waitall",
        true)))
