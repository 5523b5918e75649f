// Internal to the HTML page (report_html.cpp): its tables of numbers, the
// plugins that measured them, and the folded table of noisy points.
#pragma once

#include <string>
#include <vector>

#include "core/results/records.hpp"

namespace mpiarena {

// The plugins of the document: file, version (where the records carry
// plugin.version), ABI, build (runner ab) and the methods each measured.
std::string plugins_table(const Document& doc);

// Every point of a section, a row each (method, size, median, spread,
// bandwidth, CV, iterations, verification, noisy), folded under a line
// that counts the verification outcomes.
std::string points_table(const std::vector<const Record*>& recs);

// The median time per size (rows) and method (columns, at most
// kSeriesPerChart a table, grouped as the charts are): the table of numbers
// of a section whose methods are not ranked against each other. Failed
// verifications are marked in their cell.
std::string medians_table(const std::vector<const Record*>& recs);

// The noisy points of a section as one table, folded under a one-line
// count; empty when none is noisy.
std::string noisy_details(const std::vector<const Record*>& recs);

// For a `runner ab` document (builds base and new): the judgement of
// `runner compare FILE` with its defaults, per point (both medians, the
// change, p, verdict) and overall (the counts and the exit code). Empty
// for any other document. In report_html_ab.cpp.
std::string ab_section(const Document& doc, const std::string& source);

// "passed", "skipped (--no-verify)" or "FAILED: <message>".
std::string verification_text(const Record& r);

}  // namespace mpiarena
