// The contract-v4 view of a result document. Records with parts: one table
// per method, payload and rank count, a row per size with each part's time,
// each metric and the headline part's phases (seed 002's layout). Records
// with phases or metrics but no parts: the same per method, a row per size
// with each phase's time, the operation's and each metric (seed 004's
// layout).
#pragma once

#include <string>

#include "records.hpp"
#include "report.hpp"

namespace mpiarena {

// Empty when no record has parts, phases or metrics.
std::string render_breakdown(const Document& doc, Style style = Style::text);

// "75.0 %", "0.97 x", "1.23e+06 msg/s", "n/a" (not finite).
std::string format_metric(double value, const std::string& unit);

}  // namespace mpiarena
