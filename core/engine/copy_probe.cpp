// The machine's copy limit measured (copy_probe.hpp).
#include "core/engine/copy_probe.hpp"

#include <algorithm>
#include <cstring>
#include <mpiarena/buffer.hpp>
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/stream_copy.hpp>
#include <stdexcept>
#include <vector>

#include "core/engine/engine.hpp"

namespace mpiarena {

namespace {

// A timed repetition copies at least this much, so that a small payload's
// copy (11 kB: a quarter of a microsecond) is timed over many copies, not
// at the clock's resolution.
constexpr std::size_t kLeastBytes = std::size_t{16} << 20;

void glibc_copy(unsigned char* to, const unsigned char* from, std::size_t n) {
  std::memcpy(to, from, n);
}

// A copy with non-temporal stores (<mpiarena/stream_copy.hpp>, as the shm
// method's receivers make it), fenced: glibc's memcpy writes so only above
// its own threshold (glibc.cpu.x86_non_temporal_threshold, 114 MiB on the
// 2-CPU machine: not at 110 MB).
void stream_copy(unsigned char* to, const unsigned char* from, std::size_t n) {
  static const CopyFn copy = pick_stream_copy();
  copy(to, from, n);
  stream_fence();
}

// `copies` copies of `n` bytes by `copy`, in seconds per copy. The empty
// asm tells the compiler the destination is read, so no copy is elided.
double timed_copy(CopyFn copy, unsigned char* to, const unsigned char* from,
                  std::size_t n, std::size_t copies = 1) {
  const double start = MPI_Wtime();
  for (std::size_t i = 0; i < copies; ++i) {
    copy(to, from, n);
    asm volatile("" : : "r"(to) : "memory");
  }
  return (MPI_Wtime() - start) / static_cast<double>(copies);
}

std::size_t copies_for(std::size_t n) {
  return n >= kLeastBytes ? 1 : (kLeastBytes + n - 1) / n;
}

// The node's first rank copies `reps` times by each kind of copy while the
// others sleep.
double one_core(MPI_Comm node, int node_rank, PageVector<unsigned char>& to,
                const PageVector<unsigned char>& from, int reps) {
  const std::size_t n = from.size();
  std::vector<double> times;
  for (int i = 0; i < reps; ++i)
    for (CopyFn copy : {glibc_copy, stream_copy}) {
      sleeping_barrier(node);
      if (node_rank == 0)
        times.push_back(
            timed_copy(copy, to.data(), from.data(), n, copies_for(n)));
    }
  sleeping_barrier(node);
  double rate = node_rank == 0 ? best_rate(n, times) : 0;
  MPIARENA_CHECK(MPI_Bcast(&rate, 1, MPI_DOUBLE, 0, node));
  return rate;
}

// Every rank of the node copies at once, `reps` times by each kind of copy.
double all_ranks(MPI_Comm node, int node_ranks, PageVector<unsigned char>& to,
                 const PageVector<unsigned char>& from, int reps) {
  const std::size_t n = from.size();
  double best = 0;
  for (int i = 0; i < reps; ++i)
    for (CopyFn copy : {glibc_copy, stream_copy}) {
      MPIARENA_CHECK(MPI_Barrier(node));
      double t = timed_copy(copy, to.data(), from.data(), n, copies_for(n));
      MPIARENA_CHECK(
          MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, node));
      best = std::max(best, aggregate_rate(n, node_ranks, t));
    }
  return best;
}

}  // namespace

CopyLimit measure_copy_limit(MPI_Comm comm, std::size_t bytes,
                             int repetitions) {
  if (bytes == 0 || repetitions < 1)
    throw std::invalid_argument("copy limit: no bytes or no repetitions");
  const double start = MPI_Wtime();
  int rank = 0;
  MPIARENA_CHECK(MPI_Comm_rank(comm, &rank));
  MPI_Comm node = MPI_COMM_NULL;
  MPIARENA_CHECK(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank,
                                     MPI_INFO_NULL, &node));
  int node_rank = 0, node_ranks = 1;
  MPIARENA_CHECK(MPI_Comm_rank(node, &node_rank));
  MPIARENA_CHECK(MPI_Comm_size(node, &node_ranks));
  double rates[2] = {0, 0};
  {
    PageVector<unsigned char> from(bytes, 0x5a), to(bytes, 0);
    timed_copy(glibc_copy, to.data(), from.data(), bytes);  // untimed: warm
    rates[0] = one_core(node, node_rank, to, from, repetitions);
    rates[1] = all_ranks(node, node_ranks, to, from, repetitions);
    if (to[bytes - 1] != 0x5a)
      throw std::runtime_error("copy limit: the copy did not arrive");
  }
  MPIARENA_CHECK(MPI_Comm_free(&node));
  MPIARENA_CHECK(
      MPI_Allreduce(MPI_IN_PLACE, rates, 2, MPI_DOUBLE, MPI_MIN, comm));
  int most = node_ranks;
  MPIARENA_CHECK(MPI_Allreduce(MPI_IN_PLACE, &most, 1, MPI_INT, MPI_MAX, comm));
  double spent = MPI_Wtime() - start;
  MPIARENA_CHECK(
      MPI_Allreduce(MPI_IN_PLACE, &spent, 1, MPI_DOUBLE, MPI_MAX, comm));
  CopyLimit c;
  c.bytes = bytes;
  c.one_core_Bps = rates[0];
  c.all_ranks_Bps = rates[1];
  c.node_ranks = most;
  c.repetitions = repetitions;
  c.seconds = spent;
  return c;
}

}  // namespace mpiarena
