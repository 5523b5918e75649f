// Where the ranks run (OPBench compared ranks on one processor with ranks
// on two): each rank's CPUs and what the first two ranks share, for the
// result document's context.
#pragma once

#include <mpi.h>

#include "core/results/doc_context_parts.hpp"

namespace mpiarena {

// Collective over `world`; the result is meaningful on rank 0: per rank
// its host, CPUs, whether it is bound, its cores, packages and L2 and L3
// caches, and what ranks 0 and 1 share, from sched_getaffinity and
// /sys/devices/system/cpu (a field the machine does not expose is absent).
PlacementContext placement(MPI_Comm world);

}  // namespace mpiarena
