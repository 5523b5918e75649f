// Internal: the machine's state as the time a cache line takes to go from
// one core to another and back (runner --noise on, docs/methodology.md,
// "Machine states"). On a virtual machine the host moves the vCPUs between
// its cores: here the round trip between the two vCPUs was 53 ns for a
// while and 320 ns for minutes after, and every transfer between the ranks
// (shm, the ping-pong, the stream) changed speed with it. Steal and
// preemption do not show that state; this probe does, in microseconds.
#pragma once

#include <mpi.h>

#include <cstdint>

namespace mpiarena {

// A cache-line ping-pong between node ranks 0 and 1 (in the order of the
// harness) of every node with at least two ranks, through an MPI shared
// memory window: the minimum over kBatches batches of kTrips round trips,
// in ns. Collective over the harness to construct and destroy; measure()
// is called by every rank of the harness in the same sample (ranks other
// than a node's first two return at once).
//
// When to measure is agreed on, so both ranks of a pair spin together: the
// first sample measures, and a later one measures when the age of the last
// reading (max over the harness, handed back by agree() after the
// sample's reduction) has reached kEverySeconds. Nothing is measured on an
// oversubscribed machine (spinning against a rank that waits for a CPU
// takes a scheduler slice per trip) or with the probe disabled.
class CoreProbe {
 public:
  CoreProbe(MPI_Comm harness, bool enabled);
  ~CoreProbe();
  CoreProbe(const CoreProbe&) = delete;
  CoreProbe& operator=(const CoreProbe&) = delete;

  bool active() const { return role_ != Role::none; }
  // Measures when due: the round trip in ns on a node's rank 0, 0 on the
  // other ranks, when not due, or when the partner did not answer within
  // kGiveUpSeconds (a hang is impossible: both sides give up).
  double measure();
  // Seconds since this rank's last reading (0 when it takes none), for the
  // sample's reduction; agree() gets the maximum over the harness and the
  // sample's reading (max over the harness; 0: none).
  double age() const;
  void agree(double max_age, double reading_ns);
  // The last reading agreed on (ns; 0: none yet), the same on every rank.
  double latest_ns() const { return latest_ns_; }

  static constexpr int kBatches = 4, kTrips = 16;
  static constexpr double kEverySeconds = 2e-3;
  static constexpr double kGiveUpSeconds = 0.05;

 private:
  enum class Role { none, initiator, responder };
  Role role_ = Role::none;
  MPI_Comm node_ = MPI_COMM_NULL;
  MPI_Win win_ = MPI_WIN_NULL;
  void* line_ = nullptr;    // the shared cache line (a std::atomic<int64_t>)
  std::int64_t epoch_ = 0;  // advances by 2 * kBatches * kTrips + 2 a probe
  bool due_ = true;
  double latest_ns_ = 0;
  double last_ = -1;  // when this rank last measured (steady clock, s)
};

}  // namespace mpiarena
