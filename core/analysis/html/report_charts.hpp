// Internal to the HTML page (report_html.cpp): its charts, drawn with
// svg.hpp from a section's records, and the small pieces of markup the page
// and the charts share.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core/results/records.hpp"

namespace mpiarena {

// "s-transfer---1d---2-ranks": an id for a section's title.
std::string anchor(const std::string& text);
// A paragraph of escaped text, of class `cls`.
std::string para(const std::string& text, const char* cls = "note");

// A section of the page: suite, payload, ranks.
using SectionKey = std::tuple<std::string, std::string, int>;
// "transfer / 1d / 2 ranks".
std::string section_title(const SectionKey& k);

// The charts of a section hold at most this many methods each: those with
// matrix axes are charted per matrix column (rma: per synchronisation),
// the others in alphabetical chunks.
constexpr std::size_t kSeriesPerChart = 10;

// The methods of a section in charts of at most kSeriesPerChart series each:
// per matrix column for methods with matrix axes (rma: per synchronisation),
// else in alphabetical chunks; (title suffix, methods) per chart.
std::vector<std::pair<std::string, std::vector<std::string>>> chart_groups(
    const std::vector<const Record*>& recs);
// Time (or bandwidth) against size of `methods`, log-log.
std::string size_chart(const std::vector<const Record*>& recs,
                       const std::vector<std::string>& methods,
                       const std::string& title, bool bandwidth);
// The measured times of each method with a fitted model (`fits`) against
// its lines, one per piece over the sizes it holds for.
std::string fit_chart(const std::vector<const Record*>& recs,
                      const std::vector<nlohmann::json>& fits);
// One chart per metric of the records, against size.
std::string metric_charts(const std::vector<const Record*>& recs);
// Each method's phases against size.
std::string phase_charts(const std::vector<const Record*>& recs);

}  // namespace mpiarena
