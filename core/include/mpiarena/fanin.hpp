// Base class of the fan-in suite (the course exercise "Week 4 - MPI
// Communications", comm_test_mpi.c's "experimenting with send types"): every
// client (rank > 0) sends its message of `bytes` bytes to rank 0, which
// receives them in rank order. One execute() is one fan-in.
//
// Each client sends its own bytes (payload_byte stream offset by its rank),
// so the root's check catches a message delivered to the wrong slot. The
// engine records every rank's own time (per_rank_s): a client's time is
// what its send costs it, which for MPI_Ssend grows with its rank.
//
// A plugin writes client_send() and, when its mode needs the receives
// posted first (MPI_Rsend), overrides root_receive() and client_send()
// together.
#pragma once

#include <climits>
#include <cstddef>
#include <mpiarena/plugin.hpp>
#include <string>
#include <vector>

namespace mpiarena {

// The StrategyInfo of a fan-in method: suite "fanin", payload "bytes", 2
// ranks. The root holds one message buffer per client, a client its own
// (and a bsend buffer of one message): the defaults, 1 payload copy plus 1
// per rank, cover the root, whose need the memory guard plans for every
// rank (StrategyInfo::payload_copies_per_rank).
StrategyInfo fanin_info(std::string name, std::string summary,
                        int payload_copies = 1,
                        int payload_copies_per_rank = 1);

class FanInStrategy : public Strategy {
 public:
  void prepare(const RunContext& ctx) final;
  void execute() final;
  void poison() final;
  Verdict verify() final;
  void release() final;

 protected:
  virtual void setup() {}
  virtual void teardown() {}
  // Client: send `n` bytes to rank 0 with tag kTagData and complete.
  virtual void client_send(const unsigned char* data, std::size_t n) = 0;
  // Root: receive each client's message into slots[client] (slot 0 unused).
  // Default: MPI_Recv from client 1, 2, ... in order, as comm_test_mpi.c does.
  virtual void root_receive(std::vector<std::vector<unsigned char>>& slots);

  static constexpr int kTagData = 0;
  static constexpr int kTagReady = 1;

  const RunContext& ctx() const { return ctx_; }
  MPI_Comm comm() const { return ctx_.comm; }
  std::size_t bytes() const { return ctx_.bytes; }

 private:
  RunContext ctx_;
  std::vector<unsigned char> mine_;                // client: its message
  std::vector<std::vector<unsigned char>> slots_;  // root: one per client
};

}  // namespace mpiarena
