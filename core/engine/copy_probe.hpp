// The machine's copy limit measured (core/results/copy_limit.hpp,
// docs/methodology.md "The copy limit"): untimed by the engine, outside
// every timed loop.
#pragma once

#include <mpi.h>

#include <cstddef>

#include "core/results/copy_limit.hpp"

namespace mpiarena {

// Collective over `comm`. On each node of `comm`'s ranks: two page-aligned
// buffers of `bytes` per rank, every page touched first (the source filled,
// the destination zeroed), one untimed copy by every rank, then
// `repetitions` timed copies of `bytes` of each kind (glibc's memcpy, and a
// copy with non-temporal stores) by the node's first rank while the others
// wait in a sleeping barrier (one_core_Bps: the best), then `repetitions`
// of each by every rank of the node at once after a barrier
// (all_ranks_Bps: node ranks x bytes / the slowest rank's time, the best
// repetition). Below 16 MiB a repetition is as many copies of the same
// buffers as make 16 MiB, timed together (the clock's resolution). With several nodes, the slowest node's figures. Every rank
// returns the same values; copies and fraction are left 0.
CopyLimit measure_copy_limit(MPI_Comm comm, std::size_t bytes,
                             int repetitions);

}  // namespace mpiarena
