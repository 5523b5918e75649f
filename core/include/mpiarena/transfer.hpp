// Base class of the transfer suite (the MPI & Boost Performance Benchmark's
// strategies): the root holds a payload and, after one execute(), every
// rank holds an identical copy.
//
// The base owns the payload, builds it in prepare(), poisons the receive side
// and checks it, so a transfer plugin only writes execute() (and setup() /
// teardown() for untimed state such as windows or datatypes).
//
// Receive side: a 1d receiver keeps a buffer of the right length (the MPI &
// Boost benchmark's 1d methods send no sizes). A 2d receiver starts with NO
// rows: every 2d method must deliver the shape (row count and row sizes) as
// part of the operation, as the MPI & Boost benchmark's methods do, and
// poison() empties the rows again before verification.
#pragma once

#include <climits>
#include <mpiarena/payload.hpp>
#include <mpiarena/plugin.hpp>

namespace mpiarena {

// The StrategyInfo of a transfer method: suite "transfer", the payloads it
// supports (default both), at least 2 ranks, `payload_copies` payload-sized
// buffers per rank.
StrategyInfo transfer_info(std::string name, std::string summary,
                           std::vector<std::string> payloads = {"1d", "2d"},
                           int payload_copies = 1);

// `info` with the copies of the payload one operation makes through memory
// per receiving rank (StrategyInfo::memory_copies and library_copies):
// `own` made by the method itself, plus, with `library`, those of one
// message on the MPI library's shared-memory path.
inline StrategyInfo with_copies(StrategyInfo info, int own, bool library) {
  info.memory_copies = own;
  info.library_copies = library;
  return info;
}

class TransferStrategy : public Strategy {
 public:
  void prepare(const RunContext& ctx) final;
  void poison() override;
  Verdict verify() override;
  void release() final;

 protected:
  virtual void setup() {}
  virtual void teardown() {}

  // The largest payload this method can move; prepare() refuses a larger
  // one on every rank alike (the point is recorded with the reason). The
  // default is what an int element count allows; a method that sends the
  // payload as bytes with an int count returns kIntBytes.
  static constexpr std::size_t kIntElements =
      std::size_t{INT_MAX} * sizeof(int);
  static constexpr std::size_t kIntBytes = std::size_t{INT_MAX} - 4096;
  virtual std::size_t max_payload_bytes() const { return kIntElements; }
  // A method that copies straight between the ranks' payloads returns
  // true: the base then holds every rank's 1d payload in one shared-memory
  // segment of the node instead of flat() (MPI_Win_allocate_shared over
  // comm(), each rank's part on a page of its own; a point whose ranks span
  // several nodes is skipped with the reason), fills, poisons and checks
  // it there, and peer_flat(r) is where rank r's payload lies in this
  // process (flat_count(ctx().bytes) ints; flat() stays empty).
  virtual bool shared_payload() const { return false; }
  int* peer_flat(int rank) const;
  // The zero-byte handshake of a method whose ranks copy into each other's
  // payloads (cma_split, shm_split). handshake_ready(): a receiver tells
  // the root it has started its operation (its payload is no longer being
  // checked), the root waits for every receiver's. handshake_done(): the
  // root tells every receiver that its part is in, a receiver waits for it.
  void handshake_ready();
  void handshake_done();

  const RunContext& ctx() const { return ctx_; }
  MPI_Comm comm() const { return ctx_.comm; }
  bool is_root() const { return ctx_.rank == ctx_.root; }
  int root() const { return ctx_.root; }
  bool is_2d() const { return ctx_.payload == "2d"; }

  Flat& flat() { return flat_; }
  Rows& rows() { return rows_; }
  const Flat& flat() const { return flat_; }
  const Rows& rows() const { return rows_; }

  // Row sizes of the 2d payload as the root holds them (root only).
  std::vector<int> root_row_sizes() const;
  // Give this rank's rows the sizes received (receivers; no-op when equal
  // and the rows are reused). Under runner --receive fresh
  // (RunContext::receive_fresh) the old rows are freed first and new ones
  // built, zeroed, as the MPI & Boost benchmark builds a new receiving
  // structure in every operation.
  void shape_rows(const std::vector<int>& sizes);
  // The rows a method deserialises into (Boost.MPI): rows() as they are,
  // or, under --receive fresh, emptied and freed first.
  Rows& receive_rows();
  // MPI_Bcast of the row count and sizes from the root, then shape_rows().
  // The collective way every bcast-based 2d method starts.
  void bcast_shape();

 private:
  RunContext ctx_;
  std::size_t count_ = 0;  // 1d ints
  std::size_t base_ = 0;   // 2d base
  Flat flat_;
  Rows rows_;
  // shared_payload(): the segment and every rank's payload in it.
  MPI_Win shared_win_ = MPI_WIN_NULL;
  std::vector<int*> peers_;
  int* open_shared(std::size_t bytes);
  void close_shared();
};

}  // namespace mpiarena
