// mpi_partitioned: ping-pong whose message goes as `partitions` equal
// partitions of MPI_BYTE (MPI-4 partitioned point-to-point; OSU 7.5
// osu_partitioned_latency). MPI_Psend_init / MPI_Precv_init once per buffer
// (setup, untimed); each message is MPI_Start, MPI_Pready of every
// partition (sender) and MPI_Wait. The base verifies the ping on the
// responder and the pong on the initiator. Open MPI 4.1 (MPI-3.1) has no
// partitioned calls: every point is skipped, saying so.
#include <map>
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/pingpong.hpp>
#include <string>

namespace {

// More slots (--cache cold) would take one request pair per slot.
constexpr std::size_t kMaxSlots = 256;

class MpiPartitioned final : public mpiarena::PingPongStrategy {
  void setup() override {
#if MPI_VERSION >= 4
    const std::size_t parts =
        static_cast<std::size_t>(ctx().option_int("partitions"));
    if (bytes() % parts != 0)
      throw mpiarena::SkipPoint(
          "a message of " + std::to_string(bytes()) +
          " bytes is no whole number of " + std::to_string(parts) +
          " equal partitions (sizes: multiples of partitions)");
    if (slots() > kMaxSlots)
      throw mpiarena::SkipPoint(
          std::to_string(slots()) + " buffer slots (--cache cold) would take " +
          "as many partitioned requests; at most " + std::to_string(kMaxSlots));
    parts_ = static_cast<int>(parts);
    if (!in_pair()) return;
    const MPI_Count each = static_cast<MPI_Count>(bytes() / parts);
    for (std::size_t k = 0; k < slots(); ++k) {
      unsigned char* out = send_buffer(k);
      unsigned char* in = recv_buffer(k);
      if (!sends_.count(out))
        MPIARENA_CHECK(MPI_Psend_init(out, parts_, each, MPI_BYTE, peer(), 0,
                                      comm(), MPI_INFO_NULL, &sends_[out]));
      if (!recvs_.count(in))
        MPIARENA_CHECK(MPI_Precv_init(in, parts_, each, MPI_BYTE, peer(), 0,
                                      comm(), MPI_INFO_NULL, &recvs_[in]));
    }
#else
    throw mpiarena::SkipPoint(
        std::string(mpiarena::kMpiImplementation) +
        " has no MPI_Psend_init / MPI_Precv_init / MPI_Pready (partitioned "
        "point-to-point is MPI-4; this library implements MPI " +
        std::to_string(MPI_VERSION) + "." + std::to_string(MPI_SUBVERSION) +
        ")");
#endif
  }
  void teardown() override {
    for (auto* requests : {&sends_, &recvs_}) {
      for (auto& kv : *requests) MPI_Request_free(&kv.second);
      requests->clear();
    }
  }
#if MPI_VERSION >= 4
  void send(const unsigned char* data, std::size_t, int) override {
    MPI_Request& r = sends_.at(data);
    MPIARENA_CHECK(MPI_Start(&r));
    for (int p = 0; p < parts_; ++p) MPIARENA_CHECK(MPI_Pready(p, r));
    MPIARENA_CHECK(MPI_Wait(&r, MPI_STATUS_IGNORE));
  }
  void recv(unsigned char* data, std::size_t, int) override {
    MPI_Request& r = recvs_.at(data);
    MPIARENA_CHECK(MPI_Start(&r));
    MPIARENA_CHECK(MPI_Wait(&r, MPI_STATUS_IGNORE));
  }
#endif
  std::map<const unsigned char*, MPI_Request> sends_, recvs_;
  int parts_ = 1;
};

mpiarena::StrategyInfo info() {
  mpiarena::StrategyInfo info = mpiarena::pingpong_info(
      "mpi_partitioned",
      "ping-pong, each message MPI_Psend_init/MPI_Precv_init partitions of "
      "MPI_BYTE, MPI_Start + MPI_Pready each + MPI_Wait (MPI-4)");
  info.options.push_back(mpiarena::OptionInfo::integer(
      "partitions", "8", 1, 1024,
      "partitions per message (the size must be a multiple)"));
  return info;
}

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<MpiPartitioned>(info()))
