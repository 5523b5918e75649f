// The rendering of a comparison (runner compare) as text or markdown.
#pragma once

#include <string>

#include "compare.hpp"
#include "report.hpp"

namespace mpiarena {

// The comparison as `runner compare` prints it: what is compared and which
// direction is better, both files' noise figures and the suggested
// threshold, warnings, one row per point matched (with a noise column when
// a file has noise records), the points in one file only, notes, and a
// closing verdict line with the exit code.
std::string render_comparison(const Comparison& c, const std::string& base,
                              const std::string& now, Style style);

// Why a comparison of `base` and `now` matched no point, as one clause
// for "nothing was compared: ...": a side with no record (every point
// skipped, with the first skip's reason), or the points each side has.
std::string nothing_compared(const Document& base, const Document& now,
                             const std::string& base_name,
                             const std::string& new_name);

}  // namespace mpiarena
