// Base class of the ping-pong suite (seeds 001 and 003): two ranks bounce a
// message of `bytes` bytes; one execute() is one round trip.
//
// The pair is ranks 0 (initiator) and 1 (responder); any other rank is idle
// in execute(). With RunContext::all_pairs, every disjoint pair (2k, 2k+1)
// runs concurrently (the last rank of an odd count is idle). The initiator
// sends its payload, the responder receives it into its own buffer and sends
// that buffer back (the pong echoes the ping), the initiator receives it into a
// second buffer. poison() fills both receive buffers with a value no payload
// byte takes, so verify() sees only what one round trip delivered.
//
// Strategies of this suite declare time_scale = 0.5 (kOneWay) in their
// StrategyInfo: the engine halves every sample, so records hold the one-way
// time (round trip / 2), as NetPIPE and OSU report it.
//
// A plugin writes send() and recv() (and setup() / teardown() for untimed
// state such as a datatype or an attached buffer).
#pragma once

#include <climits>
#include <cstddef>
#include <mpiarena/plugin.hpp>
#include <string>
#include <vector>

namespace mpiarena {

inline constexpr double kOneWay = 0.5;

// The StrategyInfo of a ping-pong method: suite "pingpong", payload
// "bytes", 2 ranks, one-way time (kOneWay), pairwise.
StrategyInfo pingpong_info(std::string name, std::string summary,
                           int payload_copies = 2);
inline constexpr unsigned char kPoisonByte = 0xF0;  // even: never a payload

// Byte `index` of the byte payload (ping-pong and fan-in suites): odd, so
// never kPoisonByte. `offset` selects another stream (one per sender).
unsigned char payload_byte(std::size_t index);
void fill_bytes(std::vector<unsigned char>& data, std::size_t offset = 0);
// Empty when `data` is exactly the payload, else the first difference.
std::string check_bytes(const std::vector<unsigned char>& data,
                        std::size_t offset = 0);

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
  bool in_pair() const {
    return ctx_.all_pairs ? ctx_.rank < ctx_.size - ctx_.size % 2
                          : ctx_.rank < 2;
  }
  bool initiator() const { return ctx_.rank % 2 == 0; }
  int peer() const { return ctx_.rank ^ 1; }
  std::size_t bytes() const { return ctx_.bytes; }

 private:
  RunContext ctx_;
  std::vector<unsigned char> ping_;  // initiator: the payload
  std::vector<unsigned char> got_;   // what this rank received
};

}  // namespace mpiarena
