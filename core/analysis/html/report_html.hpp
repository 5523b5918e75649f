// The HTML views of result documents (runner report --format html, runner
// trend --format html): one self-contained page each, styles and SVG
// charts inline (svg.hpp), no script and no network access needed to open
// it. The markup is well-formed XML as well as HTML, so a test can parse it.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "core/results/records.hpp"

namespace mpiarena {

// A whole page around `body` (already HTML): the doctype, the title and
// the shared style sheet.
std::string html_page(const std::string& title, const std::string& body);

// The report of one document: its context (hosts, ranks, MPI library,
// options, the noise seen), then per suite, payload and rank count the
// time and bandwidth of every method against size (log-log, the spread of
// the samples as a bar), the fastest method per size, the fitted model,
// each metric against size and the phases as stacked bars; then the
// one-sided matrices, 1d against 2d and where the fastest method changes.
// `source` names the file in the title.
std::string render_html(const Document& doc, const nlohmann::json& summary,
                        const std::string& source);

// "512 B", "64 KiB", "1 MiB": a byte count on a chart's power-of-two axis.
std::string binary_bytes(double bytes);

}  // namespace mpiarena
