// Internal: a sample made of operations each timed alone (--sync window and
// --sync single, synchronizer.hpp): the per-operation times of every rank
// reduced over the ranks into the sample's figures.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <vector>

#include "core/engine/timed_run.hpp"

namespace mpiarena {

// The sample's figures from each rank's operations, `mx` = [took..., 0...,
// invalid...] (3 x `ops` values; took: an operation's time, invalid: 1
// where this rank disqualifies the operation): reduced over the ranks
// (collective over `harness`), the medians over the valid operations of
// the max, min and mean over ranks, times `ops` (Sample holds totals);
// each rank's (per_rank) its own median, times `ops`. Sets windows and
// invalid. With no valid operation, max is 0.
void per_operation_figures(timing::Sample& out, std::vector<double>& mx,
                           std::int64_t ops, MPI_Comm harness, int nranks);

}  // namespace mpiarena
