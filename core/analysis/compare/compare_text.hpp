// The rendering of a comparison (runner compare) as text or markdown.
#pragma once

#include <string>

#include "core/analysis/compare/compare.hpp"
#include "core/analysis/text/text_format.hpp"

namespace mpiarena {

// The comparison as `runner compare` prints it: what is compared and which
// direction is better, both files' noise figures and the suggested
// threshold, warnings, one row per point matched (with a noise column when
// a file has noise records), the points in one file only, notes, and a
// closing verdict line with the exit code.
std::string render_comparison(const Comparison& c, const std::string& base,
                              const std::string& now, Style style);

// Its table of the points in both files (point, size, ranks, both medians,
// the change of time and bandwidth, p, samples, verdict, and the noise
// column when a file has noise records), as render_comparison prints it.
std::string render_compared_points(const Comparison& c, Style style);
// Its closing line: "result: 0 regressed, ...; exit 1".
std::string comparison_result(const Comparison& c);

// Why a comparison of `base` and `now` matched no point, as one clause
// for "nothing was compared: ...": a side with no record (every point
// skipped, with the first skip's reason), or the points each side has.
std::string nothing_compared(const Document& base, const Document& now,
                             const std::string& base_name,
                             const std::string& new_name);

}  // namespace mpiarena
