// Base class of the congestion suite (OSU 7.4's osu_bw_fan_in and
// osu_bw_fan_out, c/mpi/pt2pt/congestion): windowed streams between one
// hub and many peers at once.
//
// OSU makes the ranks of the first node hubs, local rank l of it the hub of
// local rank l of every other node (2 nodes or more, as many ranks on
// each). Here rank 0 is the hub and every other rank a spoke: OSU's layout
// with one rank per node on `ranks` nodes, which runs on one node as well.
// One execute() is one window of W = RunContext::window messages (runner
// --window, default 64 as OSU's -W) on the stream of every spoke:
//   fan in (osu_bw_fan_in): every spoke starts W sends to the hub, waits
//     for them and receives a 4-byte acknowledgement; the hub receives the
//     W x (ranks - 1) messages (posted window slot by window slot, spoke by
//     spoke, as OSU posts them) and acknowledges every spoke;
//   fan out (osu_bw_fan_out): the hub starts W sends to every spoke (in the
//     same order), waits for them and receives every spoke's
//     acknowledgement; a spoke receives its W messages, then acknowledges.
// The strategies are `windowed` (plugin.hpp): a record's time is the
// slowest rank's time of one window over W, so its bandwidth column is
// that of ONE stream (bytes x W / t). The metric aggregate_bw is OSU's
// printed figure, every stream together in MB/s (10^6 bytes per second):
// bytes x W x (ranks - 1) / t / 1e6.
//
// Payload: a message from rank s to rank r carries the byte payload offset
// by (s, r) (pingpong.hpp's fill_bytes), so a message from or to the wrong
// peer is caught; the hub of a fan-out holds one send buffer per spoke, a
// spoke of a fan-in one. A receiver has S slots (stream_recv_slots over the
// messages it receives in a window): it starts S receives and, as each
// completes (MPI_Waitany), the next message's receive in the slot it freed.
// poison() arms the check: during the execute() that follows, the receiver
// checks every message as it completes, before its slot is reused, so every
// message of that window is verified by its receiver; verify() reports the
// first wrong one, and that every send buffer still holds its payload.
//
// A plugin writes start_send() and start_recv() (a message to / from
// `peer`; the request in *req; tags below kStreamAckTag are the plugin's).
#pragma once

#include <cstddef>
#include <mpiarena/pingpong.hpp>
#include <mpiarena/plugin.hpp>
#include <mpiarena/stream.hpp>
#include <string>
#include <vector>

namespace mpiarena {

enum class Fan { in, out };

// The StrategyInfo of a congestion method: suite "congestion", payload
// "bytes", windowed, one payload copy per message in flight (and, fan-out,
// one send buffer per peer on the hub: payload_copies_per_rank 1), param
// "direction" (fan_in, fan_out), metric aggregate_bw (MB/s).
StrategyInfo fan_info(std::string name, std::string summary, Fan direction);

// The payload offset of a message from rank `from` to rank `to`.
std::size_t fan_offset(int from, int to);

class FanStrategy : public Strategy {
 public:
  explicit FanStrategy(Fan direction) : direction_(direction) {}
  void prepare(const RunContext& ctx) final;
  void execute() final;
  void poison() final;
  Verdict verify() final;
  void release() final;

 protected:
  virtual void setup() {}
  virtual void teardown() {}
  virtual void start_send(const unsigned char* data, std::size_t n, int peer,
                          MPI_Request* req) = 0;
  virtual void start_recv(unsigned char* data, std::size_t n, int peer,
                          MPI_Request* req) = 0;

  const RunContext& ctx() const { return ctx_; }
  MPI_Comm comm() const { return ctx_.comm; }
  std::size_t bytes() const { return ctx_.bytes; }
  int window() const { return ctx_.window; }
  bool hub() const { return ctx_.rank == 0; }

 private:
  void receive_window();
  void check_slot(int k);
  void acknowledge();
  unsigned char* slot(int k) {
    return slots_.size() ? slots_.data() + static_cast<std::size_t>(k) * stride_
                         : nullptr;
  }

  RunContext ctx_;
  Fan direction_;
  // This rank's peers (the spokes, or the hub) and its messages of one
  // window by peer index, window slot by window slot.
  std::vector<int> peers_;
  bool sends_ = false;             // else receives
  std::vector<AlignedBytes> out_;  // one send buffer per peer
  AlignedBytes slots_;
  std::size_t stride_ = 0;
  int nslots_ = 0;
  std::vector<int> in_slot_;  // message index held by each slot, -1: none
  std::vector<MPI_Request> reqs_;
  bool checking_ = false;
  int checked_ = 0;
  Verdict verdict_;
  int ack_ = 0;
};

}  // namespace mpiarena
