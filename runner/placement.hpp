// Where the ranks run (OPBench compared ranks on one processor with ranks
// on two): each rank's CPUs and what the first two ranks share, for the
// result document's context.
#pragma once

#include <mpi.h>

#include <nlohmann/json.hpp>

namespace mpiarena {

// Collective over `world`; the result is meaningful on rank 0:
// {"ranks": [{"rank", "host", "cpus", "bound", "cores", "packages",
//             "l2", "l3"}...],
//  "ranks_0_1": {"same_host", "share_cpu", "share_core", "share_l2",
//                "share_l3", "share_package"}}
// from sched_getaffinity and /sys/devices/system/cpu (a field the machine
// does not expose is absent).
nlohmann::json placement(MPI_Comm world);

}  // namespace mpiarena
