// The contract-v4 view of a result document. Records with parts: one table
// per method, payload and rank count, a row per size with each part's time,
// each metric and the headline part's phases (NMPM's layout). Records
// with phases or metrics but no parts: the same per method, a row per size
// with each phase's time, the operation's and each metric (OPBench's
// layout).
#pragma once

#include <string>

#include "core/analysis/text/text_format.hpp"
#include "core/results/records.hpp"

namespace mpiarena {

// Empty when no record has parts, phases or metrics.
std::string render_breakdown(const Document& doc, Style style = Style::text);

}  // namespace mpiarena
