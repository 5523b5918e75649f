#include "core/engine/core_probe.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <limits>
#include <mpiarena/mpi_check.hpp>
#include <new>

#include "core/engine/monotonic.hpp"

namespace mpiarena {

namespace {

using Line = std::atomic<std::int64_t>;
static_assert(Line::is_always_lock_free,
              "the probe needs a lock-free 64-bit atomic in shared memory");

constexpr std::size_t kLineBytes = 64;

// The first 64-byte boundary in a segment: the same line in every process,
// since a shared mapping starts on a page boundary in each.
void* first_line(void* base) {
  const auto at = reinterpret_cast<std::uintptr_t>(base);
  return reinterpret_cast<void*>((at + kLineBytes - 1) & ~(kLineBytes - 1));
}

// Spins until `line` holds `want`; false after `deadline` (the clock is
// read once every 1024 polls, so it costs nothing on the fast path).
bool wait_for(const Line& line, std::int64_t want, double deadline) {
  for (unsigned polls = 1;; ++polls) {
    if (line.load(std::memory_order_acquire) == want) return true;
    if (polls % 1024 == 0 && monotonic_seconds() > deadline) return false;
  }
}

}  // namespace

CoreProbe::CoreProbe(MPI_Comm harness, bool enabled) {
  if (!enabled) return;
  int rank = 0, node_rank = 0, node_size = 0;
  MPIARENA_CHECK(MPI_Comm_rank(harness, &rank));
  MPIARENA_CHECK(MPI_Comm_split_type(harness, MPI_COMM_TYPE_SHARED, rank,
                                     MPI_INFO_NULL, &node_));
  MPIARENA_CHECK(MPI_Comm_rank(node_, &node_rank));
  MPIARENA_CHECK(MPI_Comm_size(node_, &node_size));
  if (node_size < 2) {
    MPIARENA_CHECK(MPI_Comm_free(&node_));
    return;
  }
  void* base = nullptr;
  const MPI_Aint bytes = node_rank == 0 ? 3 * kLineBytes : 0;
  // A library without shared-memory windows (Open MPI with --mca osc
  // lacking sm) leaves the probe off rather than the run dead. The window
  // of a rank where it did work is leaked, not freed: freeing is collective.
  int ok = MPI_Win_allocate_shared(bytes, 1, MPI_INFO_NULL, node_, &base,
                                   &win_) == MPI_SUCCESS;
  MPIARENA_CHECK(MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, node_));
  if (!ok) {
    static bool told = false;
    if (!told && node_rank == 0)
      std::fprintf(stderr,
                   "runner: warning: the core-to-core probe is off: "
                   "MPI_Win_allocate_shared failed (does the MPI library "
                   "offer shared-memory windows? Open MPI: osc sm)\n");
    told = true;
    win_ = MPI_WIN_NULL;
    MPIARENA_CHECK(MPI_Comm_free(&node_));
    return;
  }
  if (node_rank == 0) {
    line_ = first_line(base);
    new (line_) Line(0);
    role_ = Role::initiator;
  } else if (node_rank == 1) {
    MPI_Aint size = 0;
    int unit = 0;
    MPIARENA_CHECK(MPI_Win_shared_query(win_, 0, &size, &unit, &base));
    line_ = first_line(base);
    role_ = Role::responder;
  }
  // The line is constructed before the responder reads it.
  MPIARENA_CHECK(MPI_Barrier(node_));
}

CoreProbe::~CoreProbe() {
  // Collective; skipped while an exception unwinds (it is not agreed on
  // every rank, and a leaked window is better than a hang).
  if (std::uncaught_exceptions() > 0) return;
  if (win_ != MPI_WIN_NULL) MPI_Win_free(&win_);
  if (node_ != MPI_COMM_NULL) MPI_Comm_free(&node_);
}

double CoreProbe::measure() {
  if (role_ == Role::none || !due_) return 0;
  Line& line = *static_cast<Line*>(line_);
  std::int64_t v = epoch_;
  epoch_ += 2 * kBatches * kTrips + 2;
  const double deadline = monotonic_seconds() + kGiveUpSeconds;
  last_ = monotonic_seconds();
  if (role_ == Role::responder) {
    for (int k = 0; k < kBatches * kTrips; ++k, v += 2) {
      if (!wait_for(line, v + 1, deadline)) return 0;
      line.store(v + 2, std::memory_order_release);
    }
    return 0;
  }
  // The first batch also waits for the partner to arrive; the minimum
  // over the batches leaves that out, and a preemption with it.
  double best = std::numeric_limits<double>::infinity();
  for (int b = 0; b < kBatches; ++b) {
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < kTrips; ++i, v += 2) {
      line.store(v + 1, std::memory_order_release);
      if (!wait_for(line, v + 2, deadline)) return 0;
    }
    const std::chrono::duration<double> took =
        std::chrono::steady_clock::now() - t0;
    best = std::min(best, took.count() / kTrips);
  }
  last_ = monotonic_seconds();
  return std::round(best * 1e10) / 10;  // ns, to 0.1 ns
}

double CoreProbe::age() const {
  if (role_ != Role::initiator) return 0;
  return monotonic_seconds() - last_;
}

void CoreProbe::agree(double max_age, double reading_ns) {
  due_ = max_age >= kEverySeconds;
  if (reading_ns > 0) latest_ns_ = reading_ns;
}

}  // namespace mpiarena
