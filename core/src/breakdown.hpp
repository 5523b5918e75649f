// The contract-v4 view of a result document: for every record that has
// parts, phases or metrics, the time of each part, each phase's share of it,
// and the metrics with their unit and direction.
#pragma once

#include <string>

#include "records.hpp"
#include "report.hpp"

namespace mpiarena {

// Empty when no record has parts, phases or metrics.
std::string render_breakdown(const Document& doc, Style style = Style::text);

// "75.0 %", "1.23e+06 msg/s", "n/a" (not finite).
std::string format_metric(double value, const std::string& unit);

}  // namespace mpiarena
