// What the core notices about a measured point that a reader of its
// figures should know, beside the figures (Record::notes).
#pragma once

#include <string>
#include <vector>

#include "core/results/records.hpp"

namespace mpiarena {

// The overlap suite: a computation whose measured time is not within
// 0.95-1.05 of the communication's (metric comp_over_comm), with how much
// the communication's own samples moved. Empty for other suites.
std::vector<std::string> point_notes(const Record& r);

}  // namespace mpiarena
