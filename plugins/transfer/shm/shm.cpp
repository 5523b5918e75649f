// shm: pipelined two-copy transfer through a node-local shared-memory window
// (docs/transfer-methods.md, "shm": a method beyond the MPI & Boost
// benchmark's).
//
// Setup (untimed): the ranks of comm() form a shared-memory communicator
// (MPI_Comm_split_type, MPI_COMM_TYPE_SHARED), which must hold every rank;
// the root allocates one segment with MPI_Win_allocate_shared (the others
// allocate 0 bytes and find the root's segment with MPI_Win_shared_query);
// every rank opens one passive MPI_Win_lock_all epoch that lasts until
// teardown. The segment is a ring of kSlots slots of kChunk bytes and, per
// slot, two control words, each on cache lines of its own:
//   filled[s]   written by the root only: seq = g + 1 once chunk number g is
//               in slot s, and the chunk's length with a "last chunk of the
//               operation" flag. g counts chunks over the whole life of the
//               window (chunk g always uses slot g % kSlots), so nothing is
//               reset between operations;
//   drained[s]  incremented by each receiver when it is done with the chunk
//               in slot s. The root reuses slot s for chunk g only when
//               drained[s] >= receivers * (g / kSlots), i.e. when every
//               receiver has released every earlier chunk of that slot.
// A receiver copies chunk g out only once seq == g + 1 (the root filled it
// in THIS operation), and the root never overwrites a slot a receiver still
// reads. Each operation is one byte stream from the root to every receiver:
// the root copies its data into the ring chunk by chunk while the receivers
// copy the chunks already filled out to their own buffers, so the two copies
// run at the same time on different cores. The root's operation ends when it
// has published its last chunk (it can start the next operation while the
// receivers drain this one); a receiver's when it has copied out the last
// chunk. 1d: the stream is the buffer. 2d: a header {row count (uint64), row
// sizes (int32 each)}, then the rows back to back; receivers read the
// header, shape their rows and read the rows. A receiver checks that the
// stream ends exactly where its operation does (last-chunk flag).
//
// Memory ordering: lock-free (hence address-free) std::atomic<uint64_t>
// words in the segment do the synchronisation: the root's release store of
// seq after its memcpy pairs with a receiver's acquire load before its copy;
// a receiver's release fetch_add on drained after its copy pairs with the
// root's acquire load before it overwrites the slot. setup() requires the
// unified memory model (MPI_WIN_MODEL == MPI_WIN_UNIFIED: the public and the
// private copy of the window are the same memory), so, on cache-coherent
// hardware, these atomics order the plain loads and stores of the data
// between processes exactly as between threads, without MPI_Win_sync in
// the hot path. The lock_all epoch makes the direct load/store access
// legal for MPI; MPI_Win_sync + MPI_Barrier in setup publish the root's
// initialisation of the control words.
//
// Constants (kChunk 512 KiB, kSlots 8, kNonTemporalFrom 32 MiB) were chosen
// by measurement: docs/transfer-methods.md, section shm, has the figures.
//
// Waiting spins briefly (not at all when the node has more ranks than CPUs),
// then calls sched_yield(). A wait that lasts kWarnEvery logs a warning
// naming the slot and the values seen, again every kWarnEvery; after
// kGiveUpAfter it throws (the core then aborts the job) rather than hang
// forever. Only this slow path reads the clock.
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/transfer.hpp>
#include <new>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <mpiarena/stream_copy.hpp>

namespace {

// Ring geometry and copy policy: see the measurements above.
constexpr std::size_t kChunk = 512 * 1024;
constexpr std::size_t kSlots = 8;
constexpr std::size_t kNonTemporalFrom = std::size_t{32} << 20;

constexpr std::size_t kLine = 128;  // 2 cache lines: no adjacent-line sharing
constexpr std::size_t kPage = 4096;
constexpr int kSpin = 1000;  // pause iterations before sched_yield()
constexpr std::chrono::seconds kWarnEvery{60};
constexpr std::chrono::seconds kGiveUpAfter{300};
constexpr std::uint64_t kLastFlag = std::uint64_t{1} << 63;

static_assert(sizeof(int) == sizeof(std::int32_t),
              "2d row sizes travel as int32");

using Word = std::atomic<std::uint64_t>;
static_assert(Word::is_always_lock_free,
              "shm needs lock-free (address-free) 64-bit atomics");

struct alignas(kLine) Filled {  // written by the root only
  Word seq;                     // g + 1 once chunk g is in this slot
  Word info;  // its length in bytes | kLastFlag on an operation's last chunk
};
struct alignas(kLine) Drained {  // written by the receivers only
  Word releases;
};

constexpr std::size_t round_up(std::size_t n, std::size_t to) {
  return (n + to - 1) / to * to;
}

using mpiarena::CopyFn;
using mpiarena::cpu_relax;
using mpiarena::pick_stream_copy;
using mpiarena::stream_fence;

class Shm final : public mpiarena::TransferStrategy {
  void setup() override {
    MPIARENA_CHECK(MPI_Comm_split_type(comm(), MPI_COMM_TYPE_SHARED, ctx().rank,
                                       MPI_INFO_NULL, &node_));
    int node_size = 0, node_rank = -1;
    MPIARENA_CHECK(MPI_Comm_size(node_, &node_size));
    MPIARENA_CHECK(MPI_Comm_rank(node_, &node_rank));
    if (node_size != ctx().size || node_rank != ctx().rank) {
      MPIARENA_CHECK(MPI_Comm_free(&node_));
      throw std::runtime_error(
          "shm: the ranks span several nodes (this rank shares memory with " +
          std::to_string(node_size) + " of the " + std::to_string(ctx().size) +
          " ranks); shm needs every rank on one node");
    }
    receivers_ = static_cast<std::uint64_t>(node_size - 1);
    const unsigned cpus = std::thread::hardware_concurrency();
    spin_ = cpus != 0 && static_cast<unsigned>(node_size) > cpus ? 0 : kSpin;
    stream_ =
        mpiarena::payload_bytes(ctx().payload, ctx().bytes) >= kNonTemporalFrom;
    copy_out_ = stream_ ? pick_stream_copy() : nullptr;

    const std::size_t ctl =
        round_up(kSlots * (sizeof(Filled) + sizeof(Drained)), kPage);
    const std::size_t seg = kPage + ctl + kSlots * kChunk;  // + align slack
    void* mine = nullptr;
    MPIARENA_CHECK(
        MPI_Win_allocate_shared(static_cast<MPI_Aint>(is_root() ? seg : 0), 1,
                                MPI_INFO_NULL, node_, &mine, &win_));
    int* model = nullptr;
    int flag = 0;
    MPIARENA_CHECK(MPI_Win_get_attr(win_, MPI_WIN_MODEL, &model, &flag));
    if (!flag || *model != MPI_WIN_UNIFIED) {
      teardown();
      throw std::runtime_error(
          "shm: the shared window does not use the unified memory model");
    }
    MPI_Aint size = 0;
    int disp = 0;
    void* base = nullptr;
    MPIARENA_CHECK(MPI_Win_shared_query(win_, root(), &size, &disp, &base));
    if (static_cast<std::size_t>(size) != seg || base == nullptr) {
      teardown();
      throw std::runtime_error("shm: the root's segment has " +
                               std::to_string(size) + " bytes, expected " +
                               std::to_string(seg));
    }
    // Page-align inside the segment: every process maps it page-aligned, so
    // this offset is the same in all of them.
    auto* p = static_cast<unsigned char*>(base);
    p += (kPage - reinterpret_cast<std::uintptr_t>(p) % kPage) % kPage;
    MPIARENA_CHECK(MPI_Win_lock_all(MPI_MODE_NOCHECK, win_));
    locked_ = true;
    filled_ = reinterpret_cast<Filled*>(p);
    drained_ = reinterpret_cast<Drained*>(p + kSlots * sizeof(Filled));
    data_ = p + ctl;
    if (is_root()) {
      std::memset(data_, 0, kSlots * kChunk);  // fault the pages in, untimed
      for (std::size_t s = 0; s < kSlots; ++s) {
        new (&filled_[s]) Filled{};
        new (&drained_[s]) Drained{};
      }
    }
    MPIARENA_CHECK(MPI_Win_sync(win_));
    MPIARENA_CHECK(MPI_Barrier(node_));
    MPIARENA_CHECK(MPI_Win_sync(win_));
    next_ = 0;
    open_ = false;
  }

  void teardown() override {
    if (locked_) MPIARENA_CHECK(MPI_Win_unlock_all(win_));
    locked_ = false;
    if (win_ != MPI_WIN_NULL) MPIARENA_CHECK(MPI_Win_free(&win_));
    filled_ = nullptr;
    drained_ = nullptr;
    data_ = nullptr;
    if (node_ != MPI_COMM_NULL) MPIARENA_CHECK(MPI_Comm_free(&node_));
  }

  void execute() override {
    if (is_root()) {
      if (!is_2d()) {
        put(flat().data(), flat().size() * sizeof(int));
      } else {
        const std::uint64_t nrows = rows().size();
        put(&nrows, sizeof nrows);
        for (const auto& row : rows()) {
          const std::int32_t n = static_cast<std::int32_t>(row.size());
          put(&n, sizeof n);
        }
        for (const auto& row : rows())
          put(row.data(), row.size() * sizeof(int));
      }
      end_put();
      return;
    }
    if (!is_2d()) {
      get(flat().data(), flat().size() * sizeof(int));
    } else {
      std::uint64_t nrows = 0;
      get(&nrows, sizeof nrows);
      sizes_.resize(nrows);
      get(sizes_.data(), nrows * sizeof(std::int32_t));
      shape_rows(sizes_);
      for (auto& row : rows()) get(row.data(), row.size() * sizeof(int));
    }
    end_get();
  }

  // ---- root: fill the ring ---------------------------------------------
  // Chunks are published lazily (when full and more bytes follow, or at the
  // end of the operation), so the last one can carry kLastFlag.
  void put(const void* src, std::size_t n) {
    auto* from = static_cast<const unsigned char*>(src);
    while (n > 0) {
      if (open_ && pos_ == kChunk) publish(false);
      if (!open_) claim();
      const std::size_t k = std::min(n, kChunk - pos_);
      std::memcpy(slot() + pos_, from, k);
      pos_ += k;
      from += k;
      n -= k;
    }
  }

  void end_put() {
    if (!open_) claim();  // an empty operation still sends its last chunk
    publish(true);
  }

  void claim() {  // wait until every receiver released slot next_ % kSlots
    Word& released = drained_[next_ % kSlots].releases;
    const std::uint64_t need = receivers_ * (next_ / kSlots);
    wait([&] { return released.load(std::memory_order_acquire) >= need; },
         "the receivers to release", need,
         [&] { return released.load(std::memory_order_relaxed); });
    open_ = true;
    pos_ = 0;
  }

  void publish(bool last) {
    Filled& f = filled_[next_ % kSlots];
    f.info.store(pos_ | (last ? kLastFlag : 0), std::memory_order_relaxed);
    f.seq.store(next_ + 1, std::memory_order_release);
    ++next_;
    open_ = false;
  }

  // ---- receivers: drain the ring ---------------------------------------
  void get(void* dst, std::size_t n) {
    auto* to = static_cast<unsigned char*>(dst);
    while (n > 0) {
      if (!open_) acquire();
      if (pos_ == avail_) {
        if (last_)
          throw std::runtime_error(
              "shm: the root's stream ended " + std::to_string(n) +
              " bytes before this operation's end (chunk " +
              std::to_string(next_) + ")");
        release_chunk();
        continue;
      }
      const std::size_t k = std::min(n, avail_ - pos_);
      if (stream_)
        copy_out_(to, slot() + pos_, k);
      else
        std::memcpy(to, slot() + pos_, k);
      pos_ += k;
      to += k;
      n -= k;
    }
  }

  void end_get() {
    if (!open_) acquire();
    if (pos_ != avail_ || !last_)
      throw std::runtime_error(
          "shm: the root's stream holds more bytes than this operation read "
          "(chunk " +
          std::to_string(next_) + ")");
    release_chunk();
    if (stream_) stream_fence();
  }

  void acquire() {  // wait until the root filled chunk next_
    Filled& f = filled_[next_ % kSlots];
    const std::uint64_t want = next_ + 1;
    wait([&] { return f.seq.load(std::memory_order_acquire) >= want; },
         "the root to fill", want,
         [&] { return f.seq.load(std::memory_order_relaxed); });
    const std::uint64_t seq = f.seq.load(std::memory_order_acquire);
    if (seq != want)
      throw std::runtime_error("shm: slot " + std::to_string(next_ % kSlots) +
                               " holds chunk " + std::to_string(seq - 1) +
                               ", expected " + std::to_string(next_));
    const std::uint64_t info = f.info.load(std::memory_order_relaxed);
    avail_ = static_cast<std::size_t>(info & ~kLastFlag);
    last_ = (info & kLastFlag) != 0;
    if (avail_ > kChunk)
      throw std::runtime_error("shm: chunk " + std::to_string(next_) +
                               " claims " + std::to_string(avail_) + " bytes");
    open_ = true;
    pos_ = 0;
  }

  void release_chunk() {
    drained_[next_ % kSlots].releases.fetch_add(1, std::memory_order_release);
    ++next_;
    open_ = false;
  }

  unsigned char* slot() { return data_ + (next_ % kSlots) * kChunk; }

  template <class Ready, class Seen>
  void wait(Ready ready, const char* what, std::uint64_t want, Seen seen) {
    if (ready()) return;
    for (int i = 0; i < spin_; ++i) {
      cpu_relax();
      if (ready()) return;
    }
    using Clock = std::chrono::steady_clock;
    const Clock::time_point start = Clock::now();
    Clock::time_point warn_at = start + kWarnEvery;
    for (unsigned n = 1;; ++n) {
      sched_yield();
      if (ready()) return;
      if (n % 1024 != 0) continue;
      const Clock::time_point now = Clock::now();
      if (now < warn_at) continue;
      const auto waited =
          std::chrono::duration_cast<std::chrono::seconds>(now - start);
      const std::string msg =
          "shm: rank " + std::to_string(ctx().rank) + " has waited " +
          std::to_string(waited.count()) + " s for " + what + " slot " +
          std::to_string(next_ % kSlots) + " (chunk " + std::to_string(next_) +
          ": waiting for " + std::to_string(want) + ", seen " +
          std::to_string(seen()) + ")";
      if (waited >= kGiveUpAfter) throw std::runtime_error(msg);
      if (ctx().log != nullptr)
        ctx().log->warn(msg);
      else
        std::fprintf(stderr, "%s\n", msg.c_str());
      warn_at += kWarnEvery;
    }
  }

  MPI_Comm node_ = MPI_COMM_NULL;
  MPI_Win win_ = MPI_WIN_NULL;
  bool locked_ = false;
  Filled* filled_ = nullptr;
  Drained* drained_ = nullptr;
  unsigned char* data_ = nullptr;
  std::uint64_t receivers_ = 0;
  int spin_ = kSpin;
  bool stream_ = false;  // receivers copy out with non-temporal stores
  CopyFn copy_out_ = nullptr;

  std::uint64_t next_ = 0;  // number of the chunk being filled / drained
  bool open_ = false;       // this rank holds chunk next_
  std::size_t pos_ = 0;     // bytes of it written / read
  std::size_t avail_ = 0;   // receivers: bytes the root put in it
  bool last_ = false;       // receivers: it ends the operation
  std::vector<int> sizes_;  // receivers: row sizes of the 2d header
};

}  // namespace

mpiarena::StrategyInfo single_node(mpiarena::StrategyInfo info) {
  info.single_node = true;  // one node's shared memory
  return info;
}

// Two copies per receiver, the root's into the ring and the receiver's out,
// but the ring (4 MiB) stays in cache: one read and one write of the
// payload reach memory, as one copy's, on two cores at once.
MPIARENA_PLUGIN(mpiarena::make_entry<Shm>(single_node(mpiarena::with_copies(
    mpiarena::transfer_info(
        "shm",
        "Root copies the data into a shared-memory ring "
        "(MPI_Win_allocate_shared, 8 slots of 512 KiB) while the receivers "
        "copy filled slots out, pipelined chunk by chunk; 2d: row count and "
        "sizes, then the rows",
        {"1d", "2d"}),
    1, false))))
