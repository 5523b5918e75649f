// -f osu: a result document as OSU Micro-Benchmarks 7.4 print their
// tables (docs/formats.md, "osu"): per benchmark an empty line, a title
// of mpiarena's own, OSU's column header and a row per point, in OSU's
// widths, so that a parser written for OSU's output reads it. No MPI.
#pragma once

#include <string>
#include <vector>

#include "core/results/records.hpp"

namespace mpiarena {

// The tables of `doc`, one per OSU program (Record::alias) or, for a
// record asked for by its own name, per method label, payload and rank
// count, in the order of the records. `columns`: --osu-columns ("full",
// "validation", "p50"...). Every line is a '#' line, empty or a data row.
std::string render_osu(const Document& doc,
                       const std::vector<std::string>& columns);

}  // namespace mpiarena
