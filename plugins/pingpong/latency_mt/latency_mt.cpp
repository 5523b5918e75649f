// latency_mt: OSU 7.4's osu_latency_mt, a ping-pong between threads of the
// pair's two ranks under MPI_THREAD_MULTIPLE (StrategyInfo::thread_level:
// the runner skips it, with the reason, unless --thread-level multiple got
// that level from the library).
//
// As OSU: the initiator runs `sender_threads` threads (OSU's -t S:R, S;
// default 1), the responder `receiver_threads` (R; default 2). Message i
// (numbered over the whole run from 0) is sent by sender thread i mod S and
// answered by receiver thread i mod R, each thread taking its messages in
// order, one MPI_Send/MPI_Recv pair (blocking) at a time. Tags as OSU's:
// with one sender thread the ping has tag 1 and the pong tag 2 (so any
// receiver thread's posted receive may take any ping, and every receiver
// thread has one posted); with more, both carry tag i (here i mod 32768,
// the smallest MPI_TAG_UB the standard allows), which pairs each message
// with its receiver thread.
//
// One execute() is one round trip of every sender thread, concurrently: the
// calling thread is sender thread 0 (no hand-off with one sender thread,
// OSU's default), threads 1..S-1 are woken for theirs and the call returns
// when all S pongs are in. The engine halves the time (kOneWay): with S = 1
// this is OSU's number, the mean one-way time of its sender thread; with
// S > 1 it is the one-way time of a round in which S round trips run at
// once (OSU's own figure there sums per-iteration times in variables its
// sender threads share, docs/methods.md). On the responder the calling
// thread is receiver thread 0: execute() grants round t's messages for
// threads 1..R-1 to them, answers its own, and returns when all are
// answered (waiting on a condition variable, not in MPI). With R = 1
// nothing is handed off, as OSU's one receiver thread loops alone; an
// earlier design woke the runner's thread for every answer, and since
// Open MPI binds a rank to one core its wake-ups queued behind the
// spinning receiver thread: 3 ms a round trip from 512 B on 2 cores.
// poison(), verify() and release() wait for every granted message.
//
// Buffers: every thread owns a send and a receive buffer of the message
// size, 16 KiB-aligned (OSU allocates a pair per thread); --buffers shared
// and --cache cold are not supported (skipped with the reason). Sender
// thread j sends its own byte stream; with one sender thread every
// receiver thread answers with the same stream (any of them may take the
// ping), else receiver thread k with its own. verify() checks, for the
// verified round, every ping on the receiver thread that took it (the
// stream of its sender thread, S pings in all) and every pong on its sender
// thread, and that no thread wrote its send buffer.
#include <condition_variable>
#include <cstring>
#include <exception>
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/pingpong.hpp>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {

using mpiarena::AlignedBytes;

constexpr long long kTagSpan = 32768;
constexpr int kPingTag = 1, kPongTag = 2;

// Byte streams: sender thread j, receiver thread k (the same for all when
// one sender thread).
std::size_t sender_stream(long long j) {
  return static_cast<std::size_t>(2 * j + 1) << 32;
}
std::size_t receiver_stream(long long k) {
  return static_cast<std::size_t>(2 * k + 2) << 32;
}

struct Slot {
  AlignedBytes out, in;
  std::size_t out_stream = 0;
  long long got = 0;     // messages since poison()
  long long last = -1;   // index of the last one
  long long done = 0;    // messages handled (receiver threads)
  long long credit = 0;  // messages granted (receiver threads)
  std::thread thread;
};

class LatencyMt final : public mpiarena::Strategy {
 public:
  void prepare(const mpiarena::RunContext& ctx) override {
    ctx_ = ctx;
    senders_ = ctx.option_int("sender_threads");
    receivers_ = ctx.option_int("receiver_threads");
    if (ctx.cache_cold || !ctx.separate_buffers)
      throw mpiarena::SkipPoint(
          "latency_mt's threads each own a send and a receive buffer "
          "(osu_latency_mt's scheme): --cache cold and --buffers shared are "
          "not supported");
    if (ctx.bytes > static_cast<std::size_t>(INT_MAX))
      throw mpiarena::SkipPoint("a message above INT_MAX bytes");
    round_ = granted_ = finished_ = answered_ = 0;
    stop_ = false;
    error_ = nullptr;
    if (!mpiarena::pair_member(ctx)) return;
    initiator_ = mpiarena::pair_initiator(ctx);
    peer_ = mpiarena::pair_peer(ctx);
    const long long n = initiator_ ? senders_ : receivers_;
    slots_ = std::vector<Slot>(static_cast<std::size_t>(n));
    for (long long t = 0; t < n; ++t) {
      Slot& s = slot(t);
      s.out_stream =
          initiator_ ? sender_stream(t) : receiver_stream(senders_ > 1 ? t : 0);
      s.out.allocate(ctx.bytes);
      s.in.allocate(ctx.bytes);
      if (ctx.bytes) {
        mpiarena::fill_bytes(s.out.data(), ctx.bytes, s.out_stream);
        std::memset(s.in.data(), mpiarena::kPoisonByte, ctx.bytes);
      }
    }
    for (long long t = 1; t < n; ++t)
      slot(t).thread = std::thread([this, t] { work(t); });
  }

  void execute() override {
    if (slots_.empty()) return;
    if (initiator_) {
      {
        std::lock_guard<std::mutex> lock(mu_);
        ++round_;
      }
      wake_.notify_all();
      guarded([&] { round_trip(0, (round_ - 1) * senders_); });
      std::unique_lock<std::mutex> lock(mu_);
      done_.wait(lock, [&] { return finished_ == senders_ - 1; });
      finished_ = 0;
    } else {
      // Receiver thread 0 is the calling thread: it answers its messages
      // of the round itself (with one receiver thread, all of them: no
      // hand-off, as in OSU, whose receiver thread loops on its own), the
      // others are granted to their threads, and the call returns when
      // every message of the round is answered.
      std::vector<long long> mine;
      bool others = false;
      {
        std::lock_guard<std::mutex> lock(mu_);
        for (long long i = granted_; i < granted_ + senders_; ++i) {
          if (i % receivers_ == 0)
            mine.push_back(i);
          else
            ++slot(i % receivers_).credit, others = true;
        }
        granted_ += senders_;
      }
      if (others) wake_.notify_all();
      for (long long i : mine) {
        guarded([&] { answer(0, i); });
        std::lock_guard<std::mutex> lock(mu_);
        ++slot(0).done, ++answered_;
      }
      std::unique_lock<std::mutex> lock(mu_);
      done_.wait(lock, [&] { return answered_ == granted_; });
    }
    rethrow();
  }

  void poison() override {
    drain();
    for (Slot& s : slots_) {
      s.got = 0;
      if (ctx_.bytes)
        std::memset(s.in.data(), mpiarena::kPoisonByte, ctx_.bytes);
    }
  }

  mpiarena::Verdict verify() override {
    drain();
    long long got = 0;
    for (long long t = 0; t < static_cast<long long>(slots_.size()); ++t) {
      Slot& s = slot(t);
      const std::string who =
          (initiator_ ? "sender thread " : "receiver thread ") +
          std::to_string(t);
      std::string diff =
          mpiarena::check_bytes(s.out.data(), ctx_.bytes, s.out_stream);
      if (!diff.empty()) return {false, who + " send buffer " + diff};
      got += s.got;
      if (s.got == 0) continue;
      diff = mpiarena::check_bytes(s.in.data(), ctx_.bytes, expected(s.last));
      if (!diff.empty())
        return {false, who + ", message " + std::to_string(s.last) + " (" +
                           (initiator_ ? "pong" : "ping") + "): " + diff};
    }
    if (!slots_.empty() && got != senders_)
      return {false, std::to_string(got) + " messages reached the " +
                         (initiator_ ? "sender" : "receiver") +
                         " threads in the verified round, expected " +
                         std::to_string(senders_)};
    return {};
  }

  void release() override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    wake_.notify_all();
    for (Slot& s : slots_)
      if (s.thread.joinable()) s.thread.join();
    slots_.clear();
  }

  ~LatencyMt() override { release(); }

 private:
  Slot& slot(long long t) { return slots_[static_cast<std::size_t>(t)]; }
  int tag(long long i, int fixed) const {
    return senders_ > 1 ? static_cast<int>(i % kTagSpan) : fixed;
  }
  // The stream message i's receive buffer should hold.
  std::size_t expected(long long i) const {
    if (!initiator_) return sender_stream(i % senders_);
    return receiver_stream(senders_ > 1 ? i % receivers_ : 0);
  }

  // Sender thread j's round trip of message i.
  void round_trip(long long j, long long i) {
    Slot& s = slot(j);
    const int n = static_cast<int>(ctx_.bytes);
    MPIARENA_CHECK(MPI_Send(s.out.data(), n, MPI_BYTE, peer_, tag(i, kPingTag),
                            ctx_.comm));
    MPIARENA_CHECK(MPI_Recv(s.in.data(), n, MPI_BYTE, peer_, tag(i, kPongTag),
                            ctx_.comm, MPI_STATUS_IGNORE));
    s.got++, s.last = i;
  }

  // Receiver thread k's answer to message i.
  void answer(long long k, long long i) {
    Slot& s = slot(k);
    const int n = static_cast<int>(ctx_.bytes);
    MPIARENA_CHECK(MPI_Recv(s.in.data(), n, MPI_BYTE, peer_, tag(i, kPingTag),
                            ctx_.comm, MPI_STATUS_IGNORE));
    MPIARENA_CHECK(MPI_Send(s.out.data(), n, MPI_BYTE, peer_, tag(i, kPongTag),
                            ctx_.comm));
    s.got++, s.last = i;
  }

  // Thread t's loop: a sender thread's round trip per round, a receiver
  // thread's messages t, t + R, t + 2R... as they are granted.
  void work(long long t) {
    long long seen = 0;
    for (;;) {
      long long i = 0;
      {
        std::unique_lock<std::mutex> lock(mu_);
        Slot& s = slot(t);
        wake_.wait(lock, [&] {
          return stop_ || (initiator_ ? round_ > seen : s.credit > s.done);
        });
        if (initiator_ ? round_ == seen : s.credit == s.done) return;
        i = initiator_ ? seen++ * senders_ + t : t + s.done * receivers_;
      }
      guarded([&] { initiator_ ? round_trip(t, i) : answer(t, i); });
      {
        std::lock_guard<std::mutex> lock(mu_);
        if (initiator_)
          ++finished_;
        else
          ++slot(t).done, ++answered_;
      }
      done_.notify_all();
    }
  }

  template <class F>
  void guarded(F&& f) {
    try {
      f();
    } catch (...) {
      std::lock_guard<std::mutex> lock(mu_);
      if (!error_) error_ = std::current_exception();
    }
  }
  void rethrow() {
    std::exception_ptr e;
    {
      std::lock_guard<std::mutex> lock(mu_);
      std::swap(e, error_);
    }
    if (e) std::rethrow_exception(e);
  }
  // Every granted message answered (responder; the initiator has none
  // outstanding between execute()s).
  void drain() {
    {
      std::unique_lock<std::mutex> lock(mu_);
      done_.wait(lock, [&] { return answered_ == granted_ || initiator_; });
    }
    rethrow();
  }

  mpiarena::RunContext ctx_;
  long long senders_ = 1, receivers_ = 2;
  bool initiator_ = false;
  int peer_ = 0;
  std::vector<Slot> slots_;
  std::mutex mu_;
  std::condition_variable wake_, done_;
  long long round_ = 0;     // initiator: rounds started
  long long finished_ = 0;  // initiator: worker round trips of this round
  long long granted_ = 0;   // responder: messages granted
  long long answered_ = 0;  // responder: messages answered
  bool stop_ = false;
  std::exception_ptr error_;
};

mpiarena::StrategyInfo info() {
  using mpiarena::OptionInfo;
  mpiarena::StrategyInfo i = mpiarena::pingpong_info(
      "latency_mt",
      "osu_latency_mt: ping-pong between threads under MPI_THREAD_MULTIPLE "
      "(S sender, R receiver threads)",
      6);
  i.thread_level = MPI_THREAD_MULTIPLE;
  i.options = {
      OptionInfo::integer("sender_threads", "1", 1, 127,
                          "threads of the initiator (osu_latency_mt -t S:R, "
                          "S); more than 1: every message tagged with its "
                          "number, as OSU"),
      OptionInfo::integer("receiver_threads", "2", 1, 127,
                          "threads of the responder (osu_latency_mt -t S:R, "
                          "R)")};
  return i;
}

}  // namespace

MPIARENA_PLUGIN(mpiarena::make_entry<LatencyMt>(info()))
