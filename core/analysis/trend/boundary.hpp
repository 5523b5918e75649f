// What changed between two runs of one series that a trend and the
// history mark as a boundary rather than split on: the MPI library
// (an upgrade) and the MPI settings the run recorded. Nothing here knows
// any method.
#pragma once

#include <string>

#include "core/results/doc_context.hpp"

namespace mpiarena {

// An MPI library string's change in a few words, the words both share
// named once: "Open MPI v4.1.4, package: ..." to "Open MPI v4.1.6, ..."
// gives "Open MPI v4.1.4 -> v4.1.6". Empty when the names are the same.
std::string library_step(const std::string& before, const std::string& after);

// What changed from run `before` to run `after`: the library step, the MPI
// settings, joined by "; "; empty when neither changed. Made printable.
std::string context_step(const Context& before, const Context& after);

}  // namespace mpiarena
