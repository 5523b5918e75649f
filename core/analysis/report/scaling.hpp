// The rank ladder's views (runner --ranks): how each method's time grows
// with the ranks, and which method wins at each size and rank count.
#pragma once

#include <string>

#include "core/analysis/text/text_format.hpp"
#include "core/results/records.hpp"

namespace mpiarena {

// Per suite and payload, when the records span 2 or more rank counts:
//   "Scaling over ranks": median time per (method, size) for each rank
//   count, and the factor from the fewest ranks to the most;
//   "Winner per size and rank count": the fastest verified method of each
//   cell and how much slower the runner-up is (suites whose methods are
//   alternatives: not the everyday collectives).
// Empty when every record has the same ranks.
std::string render_scaling(const Document& doc, Style style = Style::text);

}  // namespace mpiarena
