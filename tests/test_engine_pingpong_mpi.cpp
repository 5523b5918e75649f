// measure_point() under MPI with 2 ranks: ping-pong strategies, their round
// trip verified both ways, and the buffers the engine hands them (separate,
// shared, cold cache).
#include "engine_mpi_fixture.hpp"

namespace {

using engine_test::Engine;
using engine_test::Record;

// Ping-pong strategies written here, on the base class of the ping-pong
// suite: a correct one, one whose responder answers with other bytes than
// the ping it got, one that loses the ping (the responder receives it into
// scratch and echoes its own, still poisoned, buffer), one whose initiator
// receives the pong into scratch (its buffer would still hold the payload it
// sent, were it not poisoned between send and receive).
enum class PongFault { none, wrong_pong, dropped_ping, dropped_pong };

class TestPingPong final : public mpiarena::PingPongStrategy {
 public:
  explicit TestPingPong(PongFault fault) : fault_(fault) {}

 private:
  void send(const unsigned char* data, std::size_t n, int to) override {
    const unsigned char* what = data;
    if (fault_ == PongFault::wrong_pong && !initiator()) {
      scratch_.assign(n, 0x11);  // odd, but not the payload
      what = scratch_.data();
    }
    MPIARENA_CHECK(
        MPI_Send(what, static_cast<int>(n), MPI_BYTE, to, 0, comm()));
  }
  void recv(unsigned char* data, std::size_t n, int from) override {
    unsigned char* into = data;
    if ((fault_ == PongFault::dropped_ping && !initiator()) ||
        (fault_ == PongFault::dropped_pong && initiator())) {
      scratch_.resize(n);
      into = scratch_.data();
    }
    MPIARENA_CHECK(MPI_Recv(into, static_cast<int>(n), MPI_BYTE, from, 0,
                            comm(), MPI_STATUS_IGNORE));
  }
  PongFault fault_;
  std::vector<unsigned char> scratch_;
};

// Each fault fails the same way under every buffer scheme: --buffers
// separate and shared, --cache hot and cold (a small cache set here; the
// machine's below).
TEST_F(Engine, PingPongRoundTripIsVerifiedBothWays) {
  options_.time_scale = mpiarena::kOneWay;
  struct Scheme {
    bool separate, cold;
  };
  const Scheme schemes[] = {
      {true, false}, {false, false}, {true, true}, {false, true}};
  const PongFault faults[] = {PongFault::none, PongFault::wrong_pong,
                              PongFault::dropped_ping, PongFault::dropped_pong};
  std::vector<Record> recs;
  for (const Scheme& scheme : schemes) {
    mpiarena::RunContext ctx = context("bytes", 4096);
    ctx.separate_buffers = scheme.separate;
    ctx.cache_cold = scheme.cold;
    ctx.cache_set_bytes = std::size_t(1) << 20;
    for (PongFault fault : faults) {
      TestPingPong s(fault);
      recs.push_back(mpiarena::measure_point(s, ctx, options_, harness_));
    }
  }
  for (std::size_t i = 0; i < recs.size(); i += 4) {
    const std::string scheme = "scheme " + std::to_string(i / 4);
    const Record& ok = recs[i];
    EXPECT_EQ(ok.verification, "passed") << scheme << ok.verification_message;
    expect_consistent(ok, "bytes", 4096);

    const Record& pong = recs[i + 1];
    EXPECT_EQ(pong.verification, "failed") << scheme;
    EXPECT_EQ(pong.verification_message.rfind("rank 0: pong byte 0 is 17", 0),
              0u)
        << scheme << pong.verification_message;

    // The responder's receive buffer never gets the ping (shared: and the
    // initiator's pong is its own poison echoed back; rank 0 is reported
    // first).
    const Record& ping = recs[i + 2];
    EXPECT_EQ(ping.verification, "failed") << scheme;
    EXPECT_NE(ping.verification_message.find("never written"),
              std::string::npos)
        << scheme << ping.verification_message;

    const Record& lost_pong = recs[i + 3];
    EXPECT_EQ(lost_pong.verification, "failed") << scheme;
    EXPECT_EQ(lost_pong.verification_message.rfind("rank 0: pong byte 0 ", 0),
              0u)
        << scheme << lost_pong.verification_message;
    EXPECT_NE(lost_pong.verification_message.find("never written"),
              std::string::npos)
        << scheme << lost_pong.verification_message;
  }
}

// Records, on each rank, the base's buffers (in setup()) and the addresses
// it hands send() and recv() in every round trip. With `scribble`, the
// initiator writes byte 0 of what it has just sent.
class AddressPingPong final : public mpiarena::PingPongStrategy {
 public:
  explicit AddressPingPong(bool scribble = false) : scribble_(scribble) {}
  std::vector<const unsigned char*> send_slots, recv_slots, sent, received;
  std::size_t allocated = 0;

 private:
  void setup() override {
    allocated = buffer_bytes();
    for (std::size_t k = 0; k < slots(); ++k) {
      send_slots.push_back(send_buffer(k));
      recv_slots.push_back(recv_buffer(k));
    }
  }
  void send(const unsigned char* data, std::size_t n, int to) override {
    sent.push_back(data);
    MPIARENA_CHECK(
        MPI_Send(data, static_cast<int>(n), MPI_BYTE, to, 0, comm()));
    if (scribble_ && initiator() && n > 0)
      const_cast<unsigned char*>(data)[0] = 0x11;
  }
  void recv(unsigned char* data, std::size_t n, int from) override {
    received.push_back(data);
    MPIARENA_CHECK(MPI_Recv(data, static_cast<int>(n), MPI_BYTE, from, 0,
                            comm(), MPI_STATUS_IGNORE));
  }
  bool scribble_;
};

// How many round trips of `s` sent from another address than `send` or
// received into another than `recv`.
std::size_t trips_elsewhere(const AddressPingPong& s, const unsigned char* send,
                            const unsigned char* recv) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < s.sent.size(); ++i)
    n += s.sent[i] != send || s.received[i] != recv;
  return n;
}

TEST_F(Engine, PingPongSeparateBuffersSendFromABufferNeverWritten) {
  options_.time_scale = mpiarena::kOneWay;
  mpiarena::RunContext ctx = context("bytes", 4096);
  ctx.separate_buffers = true;
  AddressPingPong good, scribbler(true);
  const Record ok = mpiarena::measure_point(good, ctx, options_, harness_);
  const Record bad =
      mpiarena::measure_point(scribbler, ctx, options_, harness_);

  EXPECT_EQ(ok.verification, "passed") << ok.verification_message;
  ASSERT_EQ(good.send_slots.size(), 1u);
  ASSERT_EQ(good.recv_slots.size(), 1u);
  EXPECT_NE(good.send_slots[0], good.recv_slots[0]);
  EXPECT_EQ(good.allocated, 2 * mpiarena::kBufferAlign);  // send + receive
  ASSERT_EQ(good.sent.size(), good.received.size());
  EXPECT_GT(good.sent.size(), 3u);
  // Both ranks, the responder too: its pong leaves its own send buffer.
  EXPECT_EQ(trips_elsewhere(good, good.send_slots[0], good.recv_slots[0]), 0u);
  // A rank that writes its send buffer fails, though every ping and pong
  // it received was right (the responder's pong is its own payload).
  EXPECT_EQ(bad.verification, "failed");
  EXPECT_EQ(
      bad.verification_message.rfind("rank 0: send buffer byte 0 is 17", 0), 0u)
      << bad.verification_message;
}

TEST_F(Engine, PingPongSharedBuffersEchoFromTheReceiveBuffer) {
  options_.time_scale = mpiarena::kOneWay;
  mpiarena::RunContext ctx = context("bytes", 4096);
  ctx.separate_buffers = false;
  AddressPingPong good, scribbler(true);
  const Record ok = mpiarena::measure_point(good, ctx, options_, harness_);
  const Record echo =
      mpiarena::measure_point(scribbler, ctx, options_, harness_);

  EXPECT_EQ(ok.verification, "passed") << ok.verification_message;
  ASSERT_EQ(good.send_slots.size(), 1u);
  ASSERT_EQ(good.recv_slots.size(), 1u);
  EXPECT_EQ(good.send_slots[0], good.recv_slots[0]);
  EXPECT_EQ(good.allocated, mpiarena::kBufferAlign);  // one buffer
  ASSERT_EQ(good.sent.size(), good.received.size());
  EXPECT_GT(good.sent.size(), 3u);
  EXPECT_EQ(trips_elsewhere(good, good.send_slots[0], good.send_slots[0]), 0u);
  // The initiator's buffer receives the pong: what it wrote after sending
  // is overwritten, and the scheme does not care.
  EXPECT_EQ(echo.verification, "passed") << echo.verification_message;
}

TEST_F(Engine, PingPongColdCacheRotatesOverMoreThanTheLastLevelCache) {
  options_.time_scale = mpiarena::kOneWay;
  const std::size_t llc = mpiarena::last_level_cache_bytes();
  const std::size_t set = mpiarena::cold_set_bytes(llc);
  AddressPingPong runs[2];
  Record recs[2];
  for (int separate = 0; separate < 2; ++separate) {
    mpiarena::RunContext ctx = context("bytes", 4096);
    ctx.separate_buffers = separate == 1;
    ctx.cache_cold = true;
    ctx.cache_set_bytes = set;
    recs[separate] =
        mpiarena::measure_point(runs[separate], ctx, options_, harness_);
  }
  EXPECT_GT(set, llc);
  for (int separate = 0; separate < 2; ++separate) {
    const AddressPingPong& s = runs[separate];
    const std::string scheme = separate ? "separate: " : "shared: ";
    EXPECT_EQ(recs[separate].verification, "passed")
        << scheme << recs[separate].verification_message;
    EXPECT_GE(s.allocated, set) << scheme;
    const std::size_t slots = s.send_slots.size();
    ASSERT_GE(slots, 2u) << scheme;
    ASSERT_EQ(s.recv_slots.size(), slots);
    ASSERT_EQ(s.sent.size(), s.received.size());
    ASSERT_GT(s.sent.size(), 3u);
    std::map<const unsigned char*, std::size_t> send_index, recv_index;
    for (std::size_t k = 0; k < slots; ++k) {
      send_index[s.send_slots[k]] = k;
      recv_index[s.recv_slots[k]] = k;
    }
    ASSERT_EQ(send_index.size(), slots) << scheme;
    for (const unsigned char* r : s.recv_slots)
      EXPECT_EQ(send_index.count(r), separate ? 0u : 1u) << scheme;
    // Round trip t uses send and receive slot t mod slots.
    std::size_t wrong = 0, used = 0;
    std::set<const unsigned char*> seen;
    for (std::size_t t = 0; t < s.sent.size(); ++t) {
      const auto si = send_index.find(s.sent[t]);
      const auto ri = recv_index.find(s.received[t]);
      wrong += si == send_index.end() || ri == recv_index.end() ||
               si->second != t % slots || ri->second != t % slots;
      used += seen.insert(s.sent[t]).second;
    }
    EXPECT_EQ(wrong, 0u) << scheme;
    EXPECT_EQ(used, std::min(slots, s.sent.size())) << scheme;
  }
}

}  // namespace
