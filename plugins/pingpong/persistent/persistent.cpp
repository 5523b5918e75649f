// pingpong_persistent: ping-pong with persistent requests, as
// osu_latency_persistent: MPI_Send_init / MPI_Recv_init once per buffer
// slot (setup, untimed), then each round trip MPI_Start + MPI_Wait of the
// send and of the receive, in the order of a plain ping-pong.
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/pingpong.hpp>
#include <vector>

namespace {

class PingPongPersistent final : public mpiarena::PingPongStrategy {
  // Persistent requests are bound to one buffer: --cache cold, which
  // rotates over up to millions of slots of a small message, would need a
  // pair of requests per slot. Beyond kMaxSlots the point is skipped (on
  // every rank alike: the layout depends on the options only).
  static constexpr std::size_t kMaxSlots = 4096;
  void setup() override {
    const auto& c = ctx();
    const std::size_t needed =
        mpiarena::PingPongBuffers::layout(bytes(), c.separate_buffers,
                                          c.cache_cold, c.cache_set_bytes)
            .slots;
    if (needed > kMaxSlots)
      throw mpiarena::SkipPoint(
          "--cache cold rotates over " + std::to_string(needed) +
          " buffer slots at this size, each needing its own persistent "
          "requests; at most " +
          std::to_string(kMaxSlots) +
          " are made (osu_latency_persistent runs hot)");
    if (!in_pair()) return;
    const int n = static_cast<int>(bytes());
    for (std::size_t k = 0; k < slots(); ++k) {
      sends_.push_back(MPI_REQUEST_NULL);
      recvs_.push_back(MPI_REQUEST_NULL);
      MPIARENA_CHECK(MPI_Send_init(send_buffer(k), n, MPI_BYTE, peer(), 0,
                                   comm(), &sends_.back()));
      MPIARENA_CHECK(MPI_Recv_init(recv_buffer(k), n, MPI_BYTE, peer(), 0,
                                   comm(), &recvs_.back()));
    }
  }
  void teardown() override {
    for (auto* v : {&sends_, &recvs_})
      for (MPI_Request& r : *v)
        if (r != MPI_REQUEST_NULL) MPI_Request_free(&r);
    sends_.clear();
    recvs_.clear();
  }
  static void start_wait(MPI_Request& r) {
    MPIARENA_CHECK(MPI_Start(&r));
    MPIARENA_CHECK(MPI_Wait(&r, MPI_STATUS_IGNORE));
  }
  void round_trip(const unsigned char*, unsigned char* in, std::size_t, int,
                  bool first) override {
    // The slot the base passes: the one whose receive buffer is `in`.
    std::size_t k = 0;
    while (k + 1 < slots() && recv_buffer(k) != in) ++k;
    if (first) {
      start_wait(sends_[k]);
      start_wait(recvs_[k]);
    } else {
      start_wait(recvs_[k]);
      start_wait(sends_[k]);
    }
  }
  std::vector<MPI_Request> sends_, recvs_;
};

}  // namespace

MPIARENA_PLUGIN(
    mpiarena::make_entry<PingPongPersistent>(mpiarena::pingpong_info(
        "pingpong_persistent",
        "ping-pong with persistent requests: MPI_Send_init/MPI_Recv_init once, "
        "MPI_Start + MPI_Wait per message (osu_latency_persistent)")))
