// The result document's context: the job, the MPI library, the build, the
// machine and every option of the run, as the records' reader needs them to
// rebuild or compare the run (Google Benchmark's context).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/engine/mpi_session.hpp"
#include "core/results/doc_context.hpp"
#include "runner/launcher.hpp"
#include "runner/options.hpp"
#include "runner/plan.hpp"

namespace mpiarena {

// The context of a run about to measure `points`, with the seed of its
// interleaved order. Collective over `world` (the hosts and the placement
// are gathered to rank 0, whose context is the one written).
Context run_context(const World& world, const Options& options,
                    const Machine& machine, const std::vector<Point>& points,
                    std::uint64_t seed, int argc, char** argv);

}  // namespace mpiarena
