// Base class of the stream suite (OSU osu_bw, osu_bibw and osu_mbw_mr; IMB
// Uniband and Biband): a window of non-blocking messages in flight.
//
// Pairs as in the ping-pong suite (pingpong.hpp): ranks 0 and 1, or with
// RunContext::all_pairs every disjoint (2k, 2k+1) at once (osu_mbw_mr); the
// last rank of an odd count is idle. One execute() is one window of W =
// RunContext::window messages of `bytes` bytes (runner --window, default
// 64 as OSU):
//   unidirectional (osu_bw): the even rank of a pair starts W sends, waits
//     for them, and receives a 4-byte acknowledgement; the odd rank starts
//     W receives, waits for them, and sends the acknowledgement;
//   bidirectional (osu_bibw): both ranks start W receives, then W sends,
//     and wait for all of them (no acknowledgement).
// The strategies are `windowed` (plugin.hpp): the engine divides every
// sample by W (and by 2 when bidirectional, time_scale 0.5), so records
// hold the time per message and the bandwidth is bytes / that time, which
// is OSU's size x window / t (osu_bibw: both directions counted). The
// metric msg_rate is the messages per second of all the pairs together:
// pairs / time per message (osu_mbw_mr's figure under --pairs all).
//
// Buffers: one send buffer, filled with the payload in prepare() and never
// written again (several sends in flight may read one buffer, MPI-3), and
// S receive slots (a buffer may not be the target of two pending receives;
// OSU and IMB receive the whole window into one buffer). S = W while the
// W slots fit in kStreamRecvBytes, else as many as fit, at least 2: the
// receiver starts S receives, and as each completes (MPI_Waitany) starts
// the next message of the window into the slot it freed, so at most S
// receives are pending and the receiving rank's footprint stays bounded
// (hot in cache, as OSU's one buffer is) instead of W x size. Slots are
// 64-byte aligned. poison() fills the slots with kPoisonByte; verify()
// checks that every slot holds the payload and that the send buffer still
// does.
//
// A plugin writes start_send() and start_recv(): start_send starts message
// k of the window (0 <= k < window()), start_recv starts a receive into
// slot k (0 <= k < recv_slots(); a slot is reused once its receive has
// completed); each leaves its request in *req, and the base completes them
// with MPI_Waitany / MPI_Waitall. Tags below kStreamAckTag are the plugin's.
#pragma once

#include <cstddef>
#include <mpiarena/pingpong.hpp>
#include <mpiarena/plugin.hpp>
#include <string>
#include <vector>

namespace mpiarena {

inline constexpr int kStreamAckTag = 32767;  // MPI guarantees tags to 32767
// The receive slots of a window, in all, beyond which fewer slots than
// messages are used (stream.hpp, "Buffers").
inline constexpr std::size_t kStreamRecvBytes = std::size_t{8} << 20;

// The receive slots of a window of `window` messages of `bytes` bytes:
// window while window x (bytes rounded up to 64) fits in kStreamRecvBytes,
// else as many as fit, at least 2 (and never more than window).
int stream_recv_slots(std::size_t bytes, int window);

// The StrategyInfo of a stream method: suite "stream", payload "bytes",
// pairwise, windowed, one payload copy per message in flight, metric
// msg_rate; bidirectional: time_scale 0.5 (two messages per window slot).
StrategyInfo stream_info(std::string name, std::string summary,
                         bool bidirectional);

class StreamStrategy : public Strategy {
 public:
  explicit StreamStrategy(bool bidirectional) : bidirectional_(bidirectional) {}
  void prepare(const RunContext& ctx) final;
  void execute() final;
  void poison() final;
  Verdict verify() final;
  void release() final;

 protected:
  virtual void setup() {}
  virtual void teardown() {}
  virtual void start_send(const unsigned char* data, std::size_t n, int peer,
                          int k, MPI_Request* req) = 0;
  virtual void start_recv(unsigned char* data, std::size_t n, int peer, int k,
                          MPI_Request* req) = 0;

  const RunContext& ctx() const { return ctx_; }
  MPI_Comm comm() const { return ctx_.comm; }
  bool in_pair() const { return pair_member(ctx_); }
  bool sender() const { return bidirectional_ || pair_initiator(ctx_); }
  bool receiver() const { return bidirectional_ || !pair_initiator(ctx_); }
  int peer() const { return pair_peer(ctx_); }
  std::size_t bytes() const { return ctx_.bytes; }
  int window() const { return ctx_.window; }
  // The receive slots of this point (stream_recv_slots), 0 on a rank that
  // does not receive.
  int recv_slots() const { return nslots_; }
  // The send buffer and receive slot k (null for a 0-byte message or a
  // rank that does not send / receive). Stable from before setup() to
  // after teardown(): persistent requests may be made on them.
  const unsigned char* send_buffer() const { return send_.data(); }
  unsigned char* recv_slot(int k) {
    return slots_.size() ? slots_.data() + static_cast<std::size_t>(k) * stride_
                         : nullptr;
  }

 private:
  RunContext ctx_;
  bool bidirectional_ = false;
  AlignedBytes send_, slots_;
  std::size_t stride_ = 0;
  int nslots_ = 0;
  std::vector<MPI_Request> recv_reqs_, send_reqs_;
  int ack_ = 0;
};

}  // namespace mpiarena
