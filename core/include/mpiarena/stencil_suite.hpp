// Base of the stencil suite (OPBench, of the paper "Ownership Passing"): a
// nearest-neighbour exchange written as pack, communicate, unpack, with a
// simulated computation, each timed apart (phases app, pack, comm, unpack).
//
// The ranks form a ring (a periodic 1D grid: any rank count from 2; with 2
// ranks both neighbours are the other rank). Every rank's application array
// holds E faces and E ghosts (E = --exchanges, even, default 4: "multiple
// neighbours"), each of n = size / 8 uint64 elements, spaced by the access
// stride (--stride, default 8 bytes: contiguous). One operation (execute)
// is one OPBench iteration:
//   app      a simple calculation on every element of the faces;
//   then for each exchange k: pack face k into a buffer, send it to the
//   right neighbour (k even) or the left one (k odd) and receive the
//   opposite neighbour's face k, unpack it into ghost k.
// Verification: after one operation every ghost k holds exactly the face k
// its neighbour computed (values depend on the rank, the face and the
// element, so a message from the wrong rank or face fails).
//
// A method writes setup() (buffers, datatypes, windows...) and exchange(k),
// marking its phases with the phase timer: `auto t =
// phases().scope(kPack);` (kPack, kComm, kUnpack; kApp is the base's), and
// uses the helpers below; the base owns the array, the app phase and the
// check. On a 2-rank periodic ring both neighbours are the same rank:
// messages between the two ranks then pair by their order, not by their
// direction. A neighbourhood collective (MPI_Neighbor_alltoall) matches
// block i with the i-th neighbour the topology lists (a Cartesian one: the
// negative direction, then the positive), so lay the blocks out in that
// order, as stencil_neighbor does; point-to-point exchanges give each
// direction its own tag. Verify every method at 2 ranks as well as 3.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <mpiarena/plugin.hpp>
#include <string>
#include <vector>

namespace mpiarena {

// The StrategyInfo of a stencil method: suite "stencil", payload "1d",
// phases pack, comm, unpack, app (OPBench's columns); payload_copies is
// kStencilArrayCopies (the application array at the default exchanges and
// stride; the runner scales it to --exchanges and --stride) plus the
// method's own message-sized buffers per exchange pair, `extra_copies`.
constexpr int kStencilArrayCopies = 8;
StrategyInfo stencil_info(std::string name, std::string summary,
                          int extra_copies = 2);

// Element i of face k of rank `rank` before the app phase, and after it.
std::uint64_t stencil_initial(int rank, int face, std::size_t i);
std::uint64_t stencil_after_app(std::uint64_t v);

class StencilStrategy : public Strategy {
 public:
  // In OPBench's column order.
  enum Phase { kPack, kComm, kUnpack, kApp };

  void prepare(const RunContext& ctx) final;
  void execute() final;
  void poison() final;
  Verdict verify() final;
  void release() final { teardown(); }

 protected:
  virtual void setup() {}
  virtual void teardown() {}
  // Exchange k (0 <= k < exchanges()): move face k to the neighbour
  // to(k) and ghost k from from(k), marking the phases.
  virtual void exchange(int k) = 0;

  const RunContext& ctx() const { return ctx_; }
  MPI_Comm comm() const { return ctx_.comm; }
  int rank() const { return ctx_.rank; }
  int ranks() const { return ctx_.size; }
  int exchanges() const { return exchanges_; }
  // Elements per message, and as an MPI count.
  std::size_t count() const { return n_; }
  int icount() const { return static_cast<int>(n_); }
  // Distance between two elements of a face or ghost, in elements.
  std::size_t step() const { return step_; }
  int left() const { return left_; }
  int right() const { return right_; }
  // Where face k goes and where ghost k comes from.
  int to(int k) const { return k % 2 == 0 ? right_ : left_; }
  int from(int k) const { return k % 2 == 0 ? left_ : right_; }
  // First element of face k / ghost k in the application array; element i
  // of it is at [i * step()].
  std::uint64_t* face(int k) { return app_.data() + region(k); }
  std::uint64_t* ghost(int k) { return app_.data() + region(exchanges_ + k); }
  // The strided copies of OPBench's pack and unpack loops.
  void pack_into(std::uint64_t* buffer, int k);
  void unpack_from(const std::uint64_t* buffer, int k);
  PhaseTimer& phases() { return *ctx_.phases; }

 private:
  std::size_t region(int r) const {
    return static_cast<std::size_t>(r) * n_ * step_;
  }
  RunContext ctx_;
  int exchanges_ = 4, left_ = 0, right_ = 0;
  std::size_t n_ = 0, step_ = 1;
  std::vector<std::uint64_t> app_;
};

}  // namespace mpiarena
