// rsend: MPI_Rsend, ready mode (seed 003, send modes).
//
// Fan-in: the receive is provably posted first: the root posts an MPI_Irecv
// per client, then sends each client an empty "ready" message; a client calls
// MPI_Rsend only after receiving it. The root then waits for every receive.
//
// Ping-pong variant pingpong_rsend, with pre-posted receives (NetPIPE's -a
// mode) instead of a handshake per hop, so it stays one message each way:
//   initiator: MPI_Irecv(pong), MPI_Rsend(ping), MPI_Wait(pong);
//   responder: MPI_Wait(ping), MPI_Irecv(next ping), MPI_Rsend(pong).
// Each Rsend is legal: the initiator posted the pong's receive before sending
// the ping the responder answers; the responder posted the next ping's
// receive before sending the pong the initiator waits for. The first ping's
// receive is posted in prepare, announced by an empty message. Because a
// receive is pending while the other buffer is sent, each rank holds two
// buffers (the initiator sends from one and receives into the other; the
// responder alternates two), unlike the one-buffer scheme of the other
// ping-pong methods.
#include <cstring>
#include <mpiarena/fanin.hpp>
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/pingpong.hpp>
#include <stdexcept>
#include <string>

namespace {

using mpiarena::AlignedBytes;

class FanIn final : public mpiarena::FanInStrategy {
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

constexpr int kTagMessage = 0;
constexpr int kTagPosted = 1;

class PingPong final : public mpiarena::Strategy {
 public:
  void prepare(const mpiarena::RunContext& ctx) override {
    ctx_ = ctx;
    next_ = last_ = 0;
    if (ctx.bytes > static_cast<std::size_t>(INT_MAX))
      throw std::length_error("a message of " + std::to_string(ctx.bytes) +
                              " bytes exceeds the int count of MPI_BYTE");
    if (!mpiarena::pair_member(ctx)) return;
    for (AlignedBytes& b : buf_) b.allocate(ctx.bytes);
    if (mpiarena::pair_initiator(ctx)) {
      mpiarena::fill_bytes(buf_[0].data(), ctx.bytes);  // the ping
      fill_poison(buf_[1]);
      MPIARENA_CHECK(MPI_Recv(nullptr, 0, MPI_BYTE, peer(), kTagPosted,
                              ctx.comm, MPI_STATUS_IGNORE));
    } else {
      for (AlignedBytes& b : buf_) fill_poison(b);
      post_ping();
      MPIARENA_CHECK(
          MPI_Send(nullptr, 0, MPI_BYTE, peer(), kTagPosted, ctx.comm));
    }
  }

  void execute() override {
    if (!mpiarena::pair_member(ctx_)) return;
    if (mpiarena::pair_initiator(ctx_)) {
      MPI_Request pong = MPI_REQUEST_NULL;
      MPIARENA_CHECK(MPI_Irecv(buf_[1].data(), count(), MPI_BYTE, peer(),
                               kTagMessage, ctx_.comm, &pong));
      MPIARENA_CHECK(MPI_Rsend(buf_[0].data(), count(), MPI_BYTE, peer(),
                               kTagMessage, ctx_.comm));
      MPIARENA_CHECK(MPI_Wait(&pong, MPI_STATUS_IGNORE));
    } else {
      MPIARENA_CHECK(MPI_Wait(&pending_, MPI_STATUS_IGNORE));
      const int got = next_;
      next_ ^= 1;
      post_ping();
      MPIARENA_CHECK(MPI_Rsend(buf_[got].data(), count(), MPI_BYTE, peer(),
                               kTagMessage, ctx_.comm));
      last_ = got;
    }
  }

  // The responder's pending receive owns its buffer: cancel it, poison both
  // buffers, post it again (before the engine's barrier, so the verified
  // ping finds it posted).
  void poison() override {
    if (!mpiarena::pair_member(ctx_)) return;
    if (mpiarena::pair_initiator(ctx_)) {
      fill_poison(buf_[1]);
      return;
    }
    cancel_pending();
    for (AlignedBytes& b : buf_) fill_poison(b);
    post_ping();
  }

  mpiarena::Verdict verify() override {
    if (!mpiarena::pair_member(ctx_)) return {};
    const bool init = mpiarena::pair_initiator(ctx_);
    const AlignedBytes& got = init ? buf_[1] : buf_[last_];
    const std::string diff = mpiarena::check_bytes(got.data(), got.size());
    if (diff.empty()) return {};
    return {false, (init ? "pong " : "ping ") + diff};
  }

  void release() override {
    if (mpiarena::pair_member(ctx_) && !mpiarena::pair_initiator(ctx_))
      cancel_pending();
    for (AlignedBytes& b : buf_) b.reset();
  }

 private:
  int peer() const { return mpiarena::pair_peer(ctx_); }
  int count() const { return static_cast<int>(ctx_.bytes); }
  static void fill_poison(AlignedBytes& b) {
    if (b.size() > 0) std::memset(b.data(), mpiarena::kPoisonByte, b.size());
  }
  void post_ping() {
    MPIARENA_CHECK(MPI_Irecv(buf_[next_].data(), count(), MPI_BYTE, peer(),
                             kTagMessage, ctx_.comm, &pending_));
  }
  void cancel_pending() {
    if (pending_ == MPI_REQUEST_NULL) return;
    MPIARENA_CHECK(MPI_Cancel(&pending_));
    MPIARENA_CHECK(MPI_Wait(&pending_, MPI_STATUS_IGNORE));
  }

  mpiarena::RunContext ctx_;
  AlignedBytes buf_[2];
  MPI_Request pending_ = MPI_REQUEST_NULL;  // responder: the next ping
  int next_ = 0;                            // responder: buffer it goes to
  int last_ = 0;                            // responder: last ping received
};

}  // namespace

MPIARENA_PLUGIN(
    mpiarena::make_entry<FanIn>(mpiarena::fanin_info(
        "rsend",
        "fan-in to rank 0: the root posts MPI_Irecv for every client and "
        "sends each an empty ready message, clients then MPI_Rsend")),
    mpiarena::make_entry<PingPong>(mpiarena::pingpong_info(
        "pingpong_rsend",
        "ping-pong with pre-posted receives, MPI_Rsend of MPI_BYTE both ways "
        "(two buffers per rank)",
        /*payload_copies=*/2)))
