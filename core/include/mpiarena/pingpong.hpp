// Base class of the ping-pong suite (seeds 001 and 003): two ranks bounce a
// message of `bytes` bytes; one execute() is one round trip.
//
// The pair is ranks 0 (initiator) and 1 (responder); any other rank is idle
// in execute(). With RunContext::all_pairs, every disjoint pair (2k, 2k+1)
// runs concurrently (the last rank of an odd count is idle).
//
// Buffers follow NetPIPE's default ("cache") mode: each rank of a pair has
// one message buffer, aligned to 16 KiB as NetPIPE aligns it. The initiator
// sends its payload from it and receives the pong back into it; the
// responder receives the ping into it and sends it back (the pong echoes the
// ping). OSU's osu_latency uses separate send and receive buffers instead;
// on a shared-memory node that alone moves the one-way time by up to 25% at
// 1 MiB (docs/results/pingpong.md), so a fidelity comparison must use the
// same scheme as the reference.
//
// Verification: poison() fills the responder's buffer with a value no payload
// byte takes and makes the initiator overwrite its buffer with it between
// its send and its receive (in that one verified round trip only, never in
// a timed one), so verify() sees only what the round trip delivered: the
// ping on the responder, the pong on the initiator.
//
// Strategies of this suite declare time_scale = 0.5 (kOneWay) in their
// StrategyInfo: the engine halves every sample, so records hold the one-way
// time (round trip / 2), as NetPIPE and OSU report it.
//
// A plugin writes send() and recv() (and setup() / teardown() for untimed
// state such as a datatype, an attached buffer, or persistent requests on
// buffer()). A message above max_payload_bytes() is skipped (SkipPoint).
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
// the message buffer (1) plus any the method adds (a bsend buffer, a
// serialization archive).
StrategyInfo pingpong_info(std::string name, std::string summary,
                           int payload_copies = 1);
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
  // is there.
  virtual void send(const unsigned char* data, std::size_t n, int peer) = 0;
  virtual void recv(unsigned char* data, std::size_t n, int peer) = 0;
  // Methods that send the payload with an int count of bytes.
  virtual std::size_t max_payload_bytes() const { return INT_MAX; }

  const RunContext& ctx() const { return ctx_; }
  MPI_Comm comm() const { return ctx_.comm; }
  bool in_pair() const { return pair_member(ctx_); }
  bool initiator() const { return pair_initiator(ctx_); }
  int peer() const { return pair_peer(ctx_); }
  std::size_t bytes() const { return ctx_.bytes; }
  // This rank's one message buffer (null when it is not in a pair or the
  // message is 0 bytes). Allocated before setup() and stable until after
  // teardown(): poison() rewrites its contents, never its address, so
  // persistent requests and registered memory may be made on it in setup().
  unsigned char* buffer() { return buf_.data(); }

 private:
  RunContext ctx_;
  AlignedBytes buf_;          // this rank's one message buffer
  bool poison_pong_ = false;  // set by poison(), for one round trip
};

}  // namespace mpiarena
