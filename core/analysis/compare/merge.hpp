// runner ab measures each point once per block; the blocks' records of a
// point become one (runner/ab.cpp). No MPI.
#pragma once

#include "core/results/records.hpp"

namespace mpiarena {

// The samples of `more` (the same point, another block) added to `into`:
// samples, slots, noise, phases, parts and metrics appended and their
// summaries recomputed; each rank's time (per_rank) the blocks' weighed by
// their repetitions; a failed verification in either fails it.
void merge_record(Record& into, const Record& more);

}  // namespace mpiarena
