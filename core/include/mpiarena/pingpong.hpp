// Base class of the ping-pong suite (Boost.MPI's NetPIPE comparison and the
// course exercise "Week 4 - MPI Communications"): two ranks bounce a
// message of `bytes` bytes; one execute() is one round trip.
//
// The pair is ranks 0 (initiator) and 1 (responder); any other rank is idle
// in execute(). With RunContext::all_pairs, every disjoint pair (2k, 2k+1)
// runs concurrently (the last rank of an odd count is idle).
//
// Buffers (RunContext::separate_buffers, runner --buffers):
//   separate (the default, OSU osu_latency's scheme): each rank of a pair
//     has a send buffer, filled with the payload in prepare() and never
//     written again, and a receive buffer. The initiator sends the ping
//     from its send buffer and receives the pong into its receive buffer;
//     the responder receives the ping into its receive buffer and sends the
//     pong from its send buffer (the pong is the payload, not an echo).
//   shared (NetPIPE's default "cache" mode): each rank has one buffer. The
//     initiator sends the ping from it and receives the pong back into it;
//     the responder receives the ping into it and sends it back (the pong
//     echoes the ping).
// On a shared-memory node the scheme alone moves the one-way time by up to
// 25% at 1 MiB (docs/methodology.md), so a comparison with another tool
// must use the tool's scheme (bench/pingpong_vs_netpipe: --buffers shared).
// With --cache hot every buffer is aligned to 16 KiB, as NetPIPE aligns it.
//
// Cold cache (RunContext::cache_cold, runner --cache cold; IMB's
// -off_cache, NetPIPE's -I): each rank of a pair holds a ring of slots of
// at least RunContext::cache_set_bytes (twice the last-level cache) in all,
// and execute() number t uses slot t mod slots(): under separate, send slot
// and receive slot t mod slots() (two rings of the same length); under
// shared, the one slot. Slots are `bytes` rounded up to 64 B (below 4 KiB)
// or to 4 KiB (page-aligned slots from 4 KiB on), so by the time a slot is
// used again the rank has touched the whole ring, over twice the last-level
// cache. There are at least 2 slots in all: a message so large that two
// slots per buffer would exceed cache_set_bytes (one above the last-level
// cache, under separate) gets one send and one receive slot, which together
// already exceed twice the cache. Every send slot holds the payload from
// prepare() on. The ring is at most cache_set_bytes + 2 x bytes (plus < 24
// KiB of rounding): what the runner's memory guard counts for such a point
// (cache_set_bytes + payload_copies x bytes, payload_copies >= 2).
// PingPongBuffers (below) is that layout; a ping-pong method that does not
// derive from the base (pingpong_rsend) uses it too.
//
// Verification: poison() fills the receive slot of the next round trip with
// a value no payload byte takes; under shared it also makes the initiator
// overwrite its slot with it between its send and its receive (in that one
// verified round trip only, never in a timed one), since the slot holds the
// ping until it is sent. So verify() sees only what the round trip
// delivered: the ping on the responder, the pong on the initiator. Under
// separate, verify() also checks that every send slot still holds the
// payload (the rank never wrote it).
//
// Strategies of this suite declare time_scale = 0.5 (kOneWay) in their
// StrategyInfo: the engine halves every sample, so records hold the one-way
// time (round trip / 2), as NetPIPE and OSU report it.
//
// A plugin writes send() and recv() (and setup() / teardown() for untimed
// state such as a datatype, an attached buffer, or persistent requests on
// send_buffer(k) / recv_buffer(k)). A message above max_payload_bytes() is
// skipped (SkipPoint).
#pragma once

#include <climits>
#include <cstddef>
#include <cstdlib>
#include <memory>
#include <mpiarena/plugin.hpp>
#include <string>
#include <vector>

namespace mpiarena {

inline constexpr double kOneWay = 0.5;

// The StrategyInfo of a ping-pong method: suite "pingpong", payload
// "bytes", 2 ranks, one-way time (kOneWay), pairwise. payload_copies counts
// the message buffers (2: a send and a receive buffer under --buffers
// separate, the default; one buffer under shared) plus any the method adds
// (a bsend buffer, a serialization archive).
StrategyInfo pingpong_info(std::string name, std::string summary,
                           int payload_copies = 2);
inline constexpr unsigned char kPoisonByte = 0xF0;  // even: never a payload

// Byte `index` of the byte payload (ping-pong and fan-in suites): odd, so
// never kPoisonByte. `offset` selects another stream (one per sender).
unsigned char payload_byte(std::size_t index);
void fill_bytes(unsigned char* data, std::size_t n, std::size_t offset = 0);
inline void fill_bytes(std::vector<unsigned char>& data,
                       std::size_t offset = 0) {
  fill_bytes(data.data(), data.size(), offset);
}
// Empty when `data` is exactly the payload, else the first difference.
std::string check_bytes(const unsigned char* data, std::size_t n,
                        std::size_t offset = 0);
inline std::string check_bytes(const std::vector<unsigned char>& data,
                               std::size_t offset = 0) {
  return check_bytes(data.data(), data.size(), offset);
}

// The pairs of the suite: (0, 1), or with RunContext::all_pairs every
// disjoint (2k, 2k+1); the last rank of an odd count is idle. The even rank
// of a pair initiates.
inline bool pair_member(const RunContext& ctx) {
  return ctx.all_pairs ? ctx.rank < ctx.size - ctx.size % 2 : ctx.rank < 2;
}
inline bool pair_initiator(const RunContext& ctx) { return ctx.rank % 2 == 0; }
inline int pair_peer(const RunContext& ctx) { return ctx.rank ^ 1; }

// NetPIPE's buffer alignment (its bufalign default).
inline constexpr std::size_t kBufferAlign = 16 * 1024;

// n bytes aligned to kBufferAlign, or empty.
class AlignedBytes {
 public:
  void allocate(std::size_t n);  // contents unspecified
  void reset();
  unsigned char* data() { return p_.get(); }
  const unsigned char* data() const { return p_.get(); }
  std::size_t size() const { return n_; }

 private:
  struct Free {
    void operator()(unsigned char* p) const { std::free(p); }
  };
  std::unique_ptr<unsigned char, Free> p_;
  std::size_t n_ = 0;
};

// The message buffers of one rank of a pair, as the header comment
// describes them: slots() receive slots, for RunContext::bytes,
// separate_buffers, cache_cold and cache_set_bytes, and as many send slots
// (under separate and --cache hot, one: send(k) is the same buffer for
// every k). Under shared, send(k) == recv(k). allocate() fills every send
// slot with the payload (shared: on the initiator only; the responder's
// slots receive first) and the receive slots with kPoisonByte, so every
// page is touched before anything is timed. A 0-byte message has no
// buffer: send(k) and recv(k) are null (slots() is 1).
class PingPongBuffers {
 public:
  struct Layout {
    std::size_t slots = 1;       // receive slots (under shared: the slots)
    std::size_t send_slots = 1;  // separate: send slots, 1 or `slots`
    std::size_t stride = 0;      // bytes from one slot to the next
    std::size_t bytes = 0;  // what is allocated (before rounding to 16 KiB)
  };
  // The layout for these options, at least min_slots receive slots (a
  // method that posts the next receive while the last one's data is still
  // to be verified needs 2). Hot: min_slots slots of `bytes` rounded up to
  // 16 KiB (separate: and one send slot). Cold: slots of `bytes` rounded up
  // to 64 B (below 4 KiB) or 4 KiB, as many send as receive slots, as many
  // as make cache_set_bytes in all, at least 2 in all and min_slots of each
  // kind; at most cache_set_bytes + 2 slots, or 2 x min_slots slots.
  static Layout layout(std::size_t bytes, bool separate, bool cold,
                       std::size_t cache_set_bytes, std::size_t min_slots = 1);

  // For ctx (the rank's role: pair_initiator(ctx)). Not for idle ranks.
  void allocate(const RunContext& ctx, std::size_t min_slots = 1);
  void reset();

  bool separate() const { return separate_; }
  std::size_t slots() const { return layout_.slots; }
  std::size_t next(std::size_t k) const {
    return k + 1 == layout_.slots ? 0 : k + 1;
  }
  // Bytes allocated for the slots (0 when none).
  std::size_t allocated_bytes() const { return region_.size(); }
  // Slot k < slots().
  unsigned char* send(std::size_t k) {
    return bytes_ ? at(k < layout_.send_slots ? k : 0) : nullptr;
  }
  unsigned char* recv(std::size_t k) {
    return !bytes_ ? nullptr : separate_ ? at(layout_.send_slots + k) : at(k);
  }
  // Under separate: empty when every send slot still holds the payload,
  // else the first difference. Empty under shared.
  std::string check_send() const;

 private:
  unsigned char* at(std::size_t slot) {
    return region_.data() + slot * layout_.stride;
  }
  AlignedBytes region_;
  Layout layout_;
  std::size_t bytes_ = 0;
  bool separate_ = true;
};

class PingPongStrategy : public Strategy {
 public:
  void prepare(const RunContext& ctx) final;
  void execute() final;
  void poison() final;
  Verdict verify() final;
  void release() final;

 protected:
  virtual void setup() {}
  virtual void teardown() {}
  // One message of n bytes to / from `peer` over comm(). Blocking: when
  // send() returns the buffer may be reused; when recv() returns the data
  // is there. `data` is send_buffer(k) / recv_buffer(k) of the header
  // comment's slot k (the same address under --buffers shared); send()
  // must never write it.
  // Override both, or round_trip() instead (the defaults throw).
  virtual void send(const unsigned char* data, std::size_t n, int peer);
  virtual void recv(unsigned char* data, std::size_t n, int peer);
  // This rank's side of one round trip (contract v8): the initiator sends
  // `out` and receives the pong into `in`; the responder receives the ping
  // into `in` and answers from `out`. The default calls send() and recv()
  // in that order. Override it for a round trip that is not a separate
  // send and receive: an initiator's MPI_Sendrecv (the responder then
  // MPI_Recv and MPI_Send), a persistent pair, a one-sided exchange. Under
  // --buffers shared `out` == `in`, and the base poisons the initiator's
  // buffer between send() and recv() only when they are separate calls.
  virtual void round_trip(const unsigned char* out, unsigned char* in,
                          std::size_t n, int peer, bool initiator);
  // Methods that send the payload with an int count of bytes.
  virtual std::size_t max_payload_bytes() const { return INT_MAX; }

  const RunContext& ctx() const { return ctx_; }
  MPI_Comm comm() const { return ctx_.comm; }
  bool in_pair() const { return pair_member(ctx_); }
  bool initiator() const { return pair_initiator(ctx_); }
  int peer() const { return pair_peer(ctx_); }
  std::size_t bytes() const { return ctx_.bytes; }
  // This rank's message buffers (null when it is not in a pair or the
  // message is 0 bytes): execute() number t passes send() send_buffer(k)
  // and recv() recv_buffer(k), k = t mod slots(); slots() is 1 unless
  // --cache cold; under --buffers shared the two are the same buffer.
  // Allocated before setup() and stable until after teardown(): poison()
  // rewrites their contents, never their address, so persistent requests
  // and registered memory may be made on them in setup().
  std::size_t slots() const { return bufs_.slots(); }
  unsigned char* send_buffer(std::size_t k = 0) { return bufs_.send(k); }
  unsigned char* recv_buffer(std::size_t k = 0) { return bufs_.recv(k); }
  // Bytes the base allocated for them.
  std::size_t buffer_bytes() const { return bufs_.allocated_bytes(); }

 private:
  RunContext ctx_;
  PingPongBuffers bufs_;      // this rank's message buffers
  std::size_t slot_ = 0;      // slot of the next execute()
  std::size_t last_ = 0;      // slot of the last execute()
  bool poisoned_ = false;     // set by poison(), for one round trip
  bool poison_pong_ = false;  // shared: poison between send and receive
};

}  // namespace mpiarena
