// rsend: MPI_Rsend, ready mode (the send modes of the course exercise
// "Week 4 - MPI Communications").
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
// receive is posted in prepare, announced by an empty message.
// Buffers: mpiarena::PingPongBuffers with at least 2 receive slots, since
// a receive is pending while another buffer is sent or verified. Round trip
// t uses slot k = t mod slots(). --buffers separate: the initiator sends
// send slot k (the one send buffer unless --cache cold) and receives into
// receive slot k; the responder receives into receive slot k (the next
// ping's receive is posted on slot k + 1) and sends its send slot k.
// --buffers shared: the responder echoes the ping from slot k, the next
// ping's receive on slot k + 1; the initiator sends slot k and receives the
// pong into slot k + 1, which it sends in the next round trip.
#include <cstring>
#include <mpiarena/fanin.hpp>
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/pingpong.hpp>
#include <stdexcept>
#include <string>

namespace {

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
    slot_ = last_ = 0;
    if (ctx.bytes > static_cast<std::size_t>(INT_MAX))
      throw std::length_error("a message of " + std::to_string(ctx.bytes) +
                              " bytes exceeds the int count of MPI_BYTE");
    if (!mpiarena::pair_member(ctx)) return;
    bufs_.allocate(ctx, 2);
    if (initiator()) {
      MPIARENA_CHECK(MPI_Recv(nullptr, 0, MPI_BYTE, peer(), kTagPosted,
                              ctx.comm, MPI_STATUS_IGNORE));
    } else {
      post_ping(0);
      MPIARENA_CHECK(
          MPI_Send(nullptr, 0, MPI_BYTE, peer(), kTagPosted, ctx.comm));
    }
  }

  void execute() override {
    if (!mpiarena::pair_member(ctx_)) return;
    const std::size_t k = slot_;
    if (initiator()) {
      MPI_Request pong = MPI_REQUEST_NULL;
      MPIARENA_CHECK(MPI_Irecv(pong_buffer(k), count(), MPI_BYTE, peer(),
                               kTagMessage, ctx_.comm, &pong));
      MPIARENA_CHECK(MPI_Rsend(bufs_.send(k), count(), MPI_BYTE, peer(),
                               kTagMessage, ctx_.comm));
      MPIARENA_CHECK(MPI_Wait(&pong, MPI_STATUS_IGNORE));
    } else {
      MPIARENA_CHECK(MPI_Wait(&pending_, MPI_STATUS_IGNORE));
      post_ping(bufs_.next(k));
      MPIARENA_CHECK(MPI_Rsend(bufs_.send(k), count(), MPI_BYTE, peer(),
                               kTagMessage, ctx_.comm));
    }
    last_ = k;
    slot_ = bufs_.next(k);
  }

  // Poisons the receive buffer of the next round trip (shared: the
  // initiator's send slot gets the ping again). The responder's pending
  // receive owns that buffer: cancel it, poison, post it again (before the
  // engine's barrier, so the verified ping finds it posted).
  void poison() override {
    if (!mpiarena::pair_member(ctx_)) return;
    if (initiator()) {
      if (!bufs_.separate())
        mpiarena::fill_bytes(bufs_.send(slot_), ctx_.bytes);
      fill_poison(pong_buffer(slot_));
      return;
    }
    cancel_pending();
    fill_poison(bufs_.recv(slot_));
    post_ping(slot_);
  }

  mpiarena::Verdict verify() override {
    if (!mpiarena::pair_member(ctx_)) return {};
    const bool init = initiator();
    const unsigned char* got = init ? pong_buffer(last_) : bufs_.recv(last_);
    std::string diff = mpiarena::check_bytes(got, ctx_.bytes);
    if (!diff.empty()) return {false, (init ? "pong " : "ping ") + diff};
    diff = bufs_.check_send();
    if (!diff.empty()) return {false, diff};
    return {};
  }

  void release() override {
    if (mpiarena::pair_member(ctx_) && !initiator()) cancel_pending();
    bufs_.reset();
  }

 private:
  bool initiator() const { return mpiarena::pair_initiator(ctx_); }
  int peer() const { return mpiarena::pair_peer(ctx_); }
  int count() const { return static_cast<int>(ctx_.bytes); }
  // The initiator's pong of round trip k (shared: not the ping's slot).
  unsigned char* pong_buffer(std::size_t k) {
    return bufs_.separate() ? bufs_.recv(k) : bufs_.recv(bufs_.next(k));
  }
  void fill_poison(unsigned char* p) {
    if (ctx_.bytes > 0) std::memset(p, mpiarena::kPoisonByte, ctx_.bytes);
  }
  void post_ping(std::size_t k) {
    MPIARENA_CHECK(MPI_Irecv(bufs_.recv(k), count(), MPI_BYTE, peer(),
                             kTagMessage, ctx_.comm, &pending_));
  }
  void cancel_pending() {
    if (pending_ == MPI_REQUEST_NULL) return;
    MPIARENA_CHECK(MPI_Cancel(&pending_));
    MPIARENA_CHECK(MPI_Wait(&pending_, MPI_STATUS_IGNORE));
  }

  mpiarena::RunContext ctx_;
  mpiarena::PingPongBuffers bufs_;
  MPI_Request pending_ = MPI_REQUEST_NULL;  // responder: the next ping
  std::size_t slot_ = 0;                    // slot of the next round trip
  std::size_t last_ = 0;                    // slot of the last round trip
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
        "(two receive slots)",
        /*payload_copies=*/4)))
