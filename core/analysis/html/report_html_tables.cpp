// The HTML page's tables of numbers (report_html_tables.hpp).
#include "core/analysis/html/report_html_tables.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <utility>

#include "core/analysis/html/report_charts.hpp"
#include "core/analysis/report/report.hpp"
#include "core/analysis/report/report_text.hpp"
#include "core/analysis/svg/svg.hpp"
#include "core/results/suites.hpp"

namespace mpiarena {

std::string verification_text(const Record& r) {
  if (r.verification == "failed") return "FAILED: " + r.verification_message;
  if (r.verification == "skipped")
    return "skipped" + (r.verification_message.empty()
                            ? std::string()
                            : " (" + r.verification_message + ")");
  return r.verification.empty() ? "-" : r.verification;
}

std::string plugins_table(const Document& doc) {
  // (file, version, ABI, build) -> the methods it measured, in order.
  using Key = std::tuple<std::string, std::string, std::uint32_t, std::string>;
  std::map<Key, std::vector<std::string>> plugins;
  bool builds = false;
  for (const Record& r : doc.records) {
    builds = builds || !r.plugin_build.empty();
    auto& methods = plugins[{r.plugin_file, r.plugin_version, r.plugin_abi,
                             r.plugin_build}];
    if (std::find(methods.begin(), methods.end(), r.method) == methods.end())
      methods.push_back(r.method);
  }
  if (plugins.empty()) return "";
  std::vector<std::string> header{"file", "version", ">ABI"};
  if (builds) header.push_back("build");
  header.push_back("methods");
  std::vector<std::vector<std::string>> rows;
  for (const auto& [key, methods] : plugins) {
    const auto& [file, version, abi, build] = key;
    std::vector<std::string> row{file.empty() ? "-" : file,
                                 version.empty() ? "-" : version,
                                 std::to_string(abi)};
    if (builds) row.push_back(build.empty() ? "-" : build);
    std::string names;
    for (const std::string& m : methods)
      names += (names.empty() ? "" : ", ") + m;
    row.push_back(names);
    rows.push_back(std::move(row));
  }
  return "<h3 id=\"plugins\">Plugins</h3>\n" +
         para(
             "The shared library of each method, the version it declares "
             "(- where it declares none) and the plugin ABI it was built "
             "against.") +
         render_grid(header, rows, Style::html);
}

std::string points_table(const std::vector<const Record*>& recs) {
  if (recs.empty()) return "";
  std::size_t passed = 0, failed = 0, other = 0;
  // The percentiles (stats.hpp) once some point has a tail one (p95: 20
  // samples); p50 alone is about the median.
  const bool pct = std::any_of(recs.begin(), recs.end(), [](const Record* r) {
    return r->time.percentiles.at(1).has_value();
  });
  std::vector<std::string> header{"method", ">size", ">median", ">min"};
  for (std::size_t i = 0; pct && i < kPercentiles.size(); ++i)
    header.push_back(">" + percentile_name(i));
  header.insert(header.end(), {">max", ">bandwidth", ">CV", ">iters x reps",
                               "verified", "noisy"});
  Table t(header);
  for (const Record* r : recs) {
    (r->verification == "passed"   ? passed
     : r->verification == "failed" ? failed
                                   : other)++;
    std::vector<std::string> row{r->method, size_text(r->size_label, r->bytes),
                                 format_seconds(r->time.median),
                                 format_seconds(r->time.min)};
    if (pct)
      for (const auto& p : r->time.percentiles)
        row.push_back(p ? format_seconds(*p) : "-");
    row.insert(row.end(),
               {format_seconds(r->time.max),
                r->moves_data ? format_rate(r->bandwidth) : "-",
                fixed(r->time.cv * 100, 1, "%"),
                std::to_string(r->inner_iterations) + " x " +
                    std::to_string(r->repetitions),
                verification_text(*r), r->noise.noisy ? "noisy" : ""});
    t.add(std::move(row));
  }
  std::string count = std::to_string(passed) + " passed verification";
  if (failed) count += ", " + std::to_string(failed) + " FAILED";
  if (other) count += ", " + std::to_string(other) + " not verified";
  return "<details class=\"points\"><summary>Every point (" +
         std::to_string(recs.size()) + "): median, " +
         (pct ? "percentiles (nearest rank; - where the samples are too few), "
              : "") +
         "spread, bandwidth and verification; " + svg::escape(count) +
         "</summary>\n" + t.render(Style::html) + "</details>\n";
}

std::string medians_table(const std::vector<const Record*>& recs) {
  std::string out;
  for (const auto& [part, methods] : chart_groups(recs)) {
    // Rows: the sizes, in order; a cell per method.
    std::map<std::size_t, std::pair<std::string, std::vector<std::string>>>
        rows;
    for (const Record* r : recs) {
      const auto at = std::find(methods.begin(), methods.end(), r->method);
      if (at == methods.end()) continue;
      auto& row = rows[r->bytes];
      row.first = size_text(r->size_label, r->bytes);
      row.second.resize(methods.size(), "-");
      row.second[static_cast<std::size_t>(at - methods.begin())] =
          format_seconds(r->time.median) +
          (r->verification == "failed" ? " (FAILED)" : "");
    }
    const Record& first = *recs.front();
    std::vector<std::string> header{
        size_is_per_rank(first.suite)
            ? (first.size_total ? ">size in total" : ">size per rank")
            : ">size"};
    for (const std::string& m : methods) header.push_back(">" + m);
    std::vector<std::vector<std::string>> grid;
    for (auto& [bytes, row] : rows) {
      grid.push_back({row.first});
      grid.back().insert(grid.back().end(), row.second.begin(),
                         row.second.end());
    }
    out += heading("Median time per size" +
                       (part.empty() ? std::string() : " (" + part + ")"),
                   Style::html) +
           render_grid(header, grid, Style::html);
  }
  return out;
}

std::string noisy_details(const std::vector<const Record*>& recs) {
  const std::string table = render_noisy_table(recs, Style::html);
  if (table.empty()) return "";
  return "<details class=\"noisy\"><summary>" +
         svg::escape(noisy_count_line(recs)) + "</summary>\n" + table +
         "</details>\n";
}

}  // namespace mpiarena
