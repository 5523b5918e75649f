// Reports computed from a result document: the ranked tables, the
// best-method summary and the 1d-vs-2d comparison, as text or markdown.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/analysis/report/summary.hpp"
#include "core/analysis/text/text_format.hpp"
#include "core/results/records.hpp"
#include "core/results/units.hpp"

namespace mpiarena {

// What the numbers below are and where they come from, from the document's
// context: runner version, ranks, nodes, MPI library (up to its first comma
// or line break), whether the node was oversubscribed and how ranks waited,
// whether the run was cut short, and the statistic shown.
std::string render_header(const Document& doc);

// Per suite, payload, size and ranks: methods ranked by median time (fastest
// first) with time, bandwidth, CV, ratio to the best and verification; then
// the points skipped with their reason. `percentiles` (runner
// --percentiles): also the columns p50, p95, p99 after min, '-' where a
// point's samples were too few for one (stats.hpp).
std::string render_table(const Document& doc, Style style = Style::text,
                         bool percentiles = false);

// The summary's views: the fastest method per size and where it changes,
// 1d against 2d, the fitted latency and bandwidth (each empty when the
// summary has nothing for it), and the three together.
std::string render_best(const nlohmann::json& summary, Style style);

// --format summary: the header, the fastest method per size and where it
// changes, the points that failed or were skipped, and how to see the rest
// (`file`: the result file, or empty).
std::string render_brief(const Document& doc, const nlohmann::json& summary,
                         const std::string& file);
std::string render_1d_vs_2d(const nlohmann::json& summary, Style style);
std::string render_fits(const nlohmann::json& summary, Style style);
std::string render_summary(const nlohmann::json& summary,
                           Style style = Style::text);

// Each rank's own per-operation time (median over the repetitions) for every
// record of at least 2 ranks, with the ratio of the slowest rank to the
// fastest: where a fan-in client's time grows with its rank, or one pair of
// `--pairs all` lags. Empty when no record has per-rank times.
std::string render_per_rank(const Document& doc, Style style = Style::text);

// Per suite, payload, ranks, size and the params off the axes: for records
// that declare matrix axes (StrategyInfo::matrix_row / matrix_column, the
// rma suite's op x sync), a matrix of the median time, or of the bandwidth
// for windowed methods, with the fastest of each row marked '*'. Empty
// when no record declares axes.
std::string render_matrices(const Document& doc, Style style = Style::text);

// The text or markdown report of a document: header, tables (with the
// percentile columns when asked), matrices, phases, scaling fits, summary,
// and the per-rank view when asked.
std::string render_report(const Document& doc, const nlohmann::json& summary,
                          Style style, bool per_rank, bool percentiles = false);

}  // namespace mpiarena
