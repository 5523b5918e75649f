// Base of the overlap suite (NMPM's Non-blocking Overlap Benchmark, NOB):
// how much of a non-blocking operation an MPI stack hides behind
// computation. Every point is measured in three parts, each its own
// calibrated loop under the engine's usual rules:
//   "comm"     t_pure: post the non-blocking operations, wait for them;
//   "compute"  t_comp: the computation alone;
//   "both"     t_ovrl: post, compute, wait (the record's time).
// The computation is sized so that t_comp matches t_pure: prepare() measures
// the cost of one step of it, and the first "compute" operation takes
// t_pure from the engine's calibration of the "comm" part (RunContext::
// part_seconds); metric comp_over_comm records the ratio the parts'
// samples achieved (a point outside 0.95-1.05 says why in its notes). It
// is a
// dependent chain of 64-bit multiply-adds on a few registers: deterministic,
// checked (it cannot be optimised away), and it touches no memory, so it
// takes no memory bandwidth from the transfer it overlaps.
//
// A method writes build() (buffers, communicators), post() (start the
// non-blocking operations, append their requests), reset() (poison what it
// receives) and check() (verify it). A "test" variant (overlap_info's
// `test_inside`) calls MPI_Testall on the requests after every k-th of the
// computation's 64 slices (RunContext::test_every): whether the library
// progresses only inside MPI calls, and what a few calls buy.
//
// check() of an overlapped collective uses the collective suite's checks
// (check_sums, check_gathered, check_alltoall... on Ints), so this header
// includes collective_suite.hpp: a method needs no other mpiarena header
// but mpi_check.hpp (MPIARENA_CHECK).
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <mpiarena/collective_suite.hpp>
#include <mpiarena/plugin.hpp>
#include <string>
#include <vector>

namespace mpiarena {

// NOB's overlap: 100 max(0, min(pure + comp - ovrl, tmin)) / tmin with
// tmin = min(pure, comp); 0 when tmin is not positive.
double nob_overlap_percent(double pure, double comp, double ovrl);
// OSU's (osu_iallreduce...): 100 max(0, 1 - (ovrl - comp) / pure), at most
// 100; 0 when pure is not positive.
double osu_overlap_percent(double pure, double comp, double ovrl);

// The StrategyInfo of an overlap method: suite "overlap", payload "1d"
// (ints), parts comm/compute/both (headline both), phases post/compute/wait
// of each part, metrics overlap (NOB's), overlap_osu and comp_over_comm.
StrategyInfo overlap_info(std::string name, std::string summary,
                          int payload_copies = 2,
                          int payload_copies_per_rank = 0, int min_ranks = 2);

class OverlapStrategy : public Strategy {
 public:
  // test_inside: MPI_Testall every RunContext::test_every slices.
  explicit OverlapStrategy(bool test_inside = false)
      : test_inside_(test_inside) {}
  void prepare(const RunContext& ctx) final;
  void execute() final;
  void poison() final {
    computed_ = false;
    reset();
  }
  Verdict verify() final;
  void release() final { teardown(); }

  // `units` steps of the computation's chain from `seed` (one step: one
  // 64-bit multiply and add); returns the chain's final value. Public for
  // the tests.
  static std::uint64_t kernel(std::uint64_t seed, std::int64_t units);
  // Multiply-adds of the computation, as calibrated (the same on every
  // rank).
  std::int64_t work() const { return work_; }

 protected:
  virtual void build() = 0;
  virtual void teardown() {}
  virtual void post(std::vector<MPI_Request>& requests) = 0;
  virtual void reset() = 0;
  virtual Verdict check() = 0;

  const RunContext& ctx() const { return ctx_; }
  MPI_Comm comm() const { return ctx_.comm; }
  int rank() const { return ctx_.rank; }
  int ranks() const { return ctx_.size; }
  // Ints per message (the size of the point / sizeof(int)), and as an MPI
  // count.
  std::size_t count() const { return ctx_.bytes / sizeof(int); }
  int icount() const { return static_cast<int>(count()); }

 private:
  void compute();
  double time_comm();
  double time_compute(std::int64_t units);
  void size_work(double pure);

  RunContext ctx_;
  bool test_inside_;
  std::int64_t work_ = 0, expected_work_ = -1;
  double step_seconds_ = 0;  // one step of the computation, slowest rank
  bool sized_ = false;       // work_ sized on the engine's t_pure
  std::vector<MPI_Request> requests_;
  std::uint64_t result_ = 0, expected_ = 0;
  bool computed_ = false;
};

}  // namespace mpiarena
