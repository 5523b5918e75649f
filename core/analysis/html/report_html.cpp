#include "core/analysis/html/report_html.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <mpiarena/sizes.hpp>
#include <set>
#include <sstream>
#include <tuple>
#include <utility>
#include <vector>

#include "core/analysis/html/report_charts.hpp"
#include "core/analysis/html/report_html_tables.hpp"
#include "core/analysis/report/breakdown.hpp"
#include "core/analysis/report/report.hpp"
#include "core/analysis/report/report_text.hpp"
#include "core/analysis/svg/svg.hpp"
#include "core/results/suites.hpp"

namespace mpiarena {

using nlohmann::json;

namespace {

// clang-format off
const char* kStyle =
    "body{font-family:'DejaVu Sans',Verdana,sans-serif;font-size:14px;"
    "color:#222;margin:24px auto;max-width:1500px;padding:0 16px}"
    "h1{font-size:22px}h2{font-size:18px;border-bottom:1px solid #ccc;"
    "padding-bottom:4px;margin-top:32px}h3{font-size:16px}h4{font-size:14px;"
    "margin:14px 0 6px}"
    "table{border-collapse:collapse;margin:6px 0 12px}"
    "th,td{border:1px solid #ddd;padding:3px 8px;text-align:left}"
    "th{background:#f3f3f3}td.num,th.num{text-align:right}"
    ".charts{display:flex;flex-wrap:wrap;gap:8px}"
    "figure{margin:0 0 8px}figcaption{font-size:12px;color:#555;"
    "max-width:640px}details{margin:6px 0}summary{cursor:pointer}"
    "svg.chart{background:#fff;border:1px solid #e4e4e4}"
    "svg .plot{fill:none;stroke:#999}svg .grid{stroke:#eee}"
    "svg .tick,svg .legend{font-size:11px;fill:#333}"
    "svg .axis{font-size:12px;fill:#333}svg .ctitle{font-size:13px;"
    "font-weight:bold;fill:#222}svg .empty{font-size:13px;fill:#999;"
    "text-anchor:middle}"
    "svg .line{fill:none;stroke-width:1.8}svg .band{stroke-width:5;"
    "stroke-opacity:0.35}svg .flag{fill:none;stroke-width:2}"
    "svg .flag.up{stroke:#d62728}svg .flag.down{stroke:#2ca02c}"
    "svg .step{fill:none;stroke-width:2.5}"
    "svg .step.up{stroke:#d62728}svg .step.down{stroke:#2ca02c}"
    "pre{background:#f7f7f7;padding:8px;overflow-x:auto}"
    ".note{color:#555}.bad{color:#b00}nav ul{columns:3}";
// clang-format on

std::string context_section(const Document& doc, const std::string& source) {
  const Context& c = doc.context;
  std::vector<std::vector<std::string>> rows;
  auto add = [&](const std::string& k, const json& v) {
    if (v.is_null()) return;
    rows.push_back({k, v.is_string() ? v.get<std::string>() : v.dump()});
  };
  auto maybe = [](const auto& v) { return v ? json(*v) : json(); };
  std::vector<std::vector<std::string>> settings;
  add("file", source);
  add("label", maybe(c.label));
  add("runner", c.runner_version);
  add("started", c.start_time);
  add("ended", maybe(c.end_time));
  add("complete", doc.complete ? "yes" : "no (interrupted run)");
  add("ranks", c.ranks);
  add("nodes", c.nodes);
  add("hosts", c.hosts);
  add("MPI library", c.mpi_library);
  add("MPI version", c.mpi_version);
  add("oversubscribed", maybe(c.oversubscribed));
  add("waiting", maybe(c.waiting));
  if (c.cache) add("cache", c.cache->mode);
  add("interleave", maybe(c.interleave));
  // Every option and setting, by the names the file gives them.
  const std::pair<const char*, json> parts[] = {
      {"options", json(c.options)},
      {"noise", maybe(c.noise)},
      {"stopping", maybe(c.stopping)}};
  for (const auto& [part, fields] : parts)
    if (fields.is_object())
      for (auto it = fields.begin(); it != fields.end(); ++it)
        settings.push_back({std::string(part) + "." + it.key(),
                            it.value().is_string()
                                ? it.value().get<std::string>()
                                : it.value().dump()});
  // The noise the records saw.
  int noisy = 0, retries = 0, noisy_samples = 0;
  double steal = 0, c2c_lo = 0, c2c_hi = 0;
  for (const Record& r : doc.records) {
    noisy += r.noise.noisy;
    retries += r.noise.retries;
    noisy_samples += r.noise.noisy_samples;
    for (double s : r.noise.steal_s) steal += s;
    for (double ns : r.noise.core_to_core_ns) {
      c2c_lo = c2c_lo > 0 ? std::min(c2c_lo, ns) : ns;
      c2c_hi = std::max(c2c_hi, ns);
    }
  }
  add("noise seen",
      std::to_string(noisy) + " of " + std::to_string(doc.records.size()) +
          " points noisy, " + std::to_string(noisy_samples) +
          " noisy samples kept, " + std::to_string(retries) +
          " samples measured again, steal " + format_seconds(steal) +
          " in all" +
          (c2c_hi > 0
               ? ", core-to-core round trip " +
                     std::to_string(std::lround(c2c_lo)) + " to " +
                     std::to_string(std::lround(c2c_hi)) + " ns" +
                     (c2c_hi > kStateRatio * c2c_lo ? " (two machine states)"
                                                    : "")
               : ""));
  std::string out = "<h2 id=\"context\">Context</h2>\n<pre>" +
                    svg::escape(render_header(doc)) + "</pre>\n";
  out += render_grid({"what", "value"}, rows, Style::html);
  out += "<details><summary>Options and settings of the run (" +
         std::to_string(settings.size()) + ")</summary>\n" +
         render_grid({"setting", "value"}, settings, Style::html) +
         "</details>\n";
  return out + plugins_table(doc);
}

}  // namespace

std::string binary_bytes(double bytes) {
  static const char* const kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (bytes >= 1024 && u < 4) {
    bytes /= 1024;
    ++u;
  }
  char buf[32];
  if (bytes == std::floor(bytes))
    std::snprintf(buf, sizeof buf, "%.0f %s", bytes, kUnits[u]);
  else
    std::snprintf(buf, sizeof buf, "%.3g %s", bytes, kUnits[u]);
  return buf;
}

std::string html_page(const std::string& title, const std::string& body) {
  return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/>"
         "<meta name=\"generator\" content=\"mpiarena\"/><title>" +
         svg::escape(title) + "</title><style>" + kStyle +
         "</style></head>\n<body>\n" + body + "</body></html>\n";
}

namespace {

// The summary's `part` ("fits", "unfitted") of one section.
std::vector<json> section_part(const json& summary, const char* part,
                               const SectionKey& key) {
  const auto& [suite, payload, ranks] = key;
  std::vector<json> out;
  for (const json& f : summary.value(part, json::array()))
    if (f["suite"] == suite && f["payload"] == payload && f["ranks"] == ranks)
      out.push_back(f);
  return out;
}

// The summary's views, of one section only: the fastest method per size
// (empty when no size ranks two methods) and the fits.
std::pair<std::string, std::string> section_summary(const json& summary,
                                                    const SectionKey& key) {
  const auto& [suite, payload, ranks] = key;
  json mine = {{"best", json::array()},
               {"winner_changes", json::array()},
               {"fits", json::array()}};
  for (const char* part : {"best", "winner_changes"})
    for (const json& b : summary.value(part, json::array()))
      if (b["suite"] == suite && b["payload"] == payload && b["ranks"] == ranks)
        mine[part].push_back(b);
  mine["fits"] = section_part(summary, "fits", key);
  mine["unfitted"] = section_part(summary, "unfitted", key);
  return {render_best(mine, Style::html), render_fits(mine, Style::html)};
}

// Failed verifications and skips of a section, as a list; its noisy
// points, one folded table.
std::string section_notes(const std::vector<const Record*>& recs,
                          const std::vector<const Skip*>& skips) {
  std::vector<std::string> notes;
  for (const Record* r : recs)
    if (r->verification == "failed")
      notes.push_back("FAILED verification: " + r->method + " " +
                      r->size_label + ": " + r->verification_message);
  for (const Skip* s : skips)
    notes.push_back("skipped " + s->method + " " + s->size_label + ": " +
                    s->reason);
  std::string out;
  if (!notes.empty()) {
    out = "<ul>";
    for (const std::string& n : notes)
      out += std::string("<li") +
             (n.rfind("FAILED", 0) == 0 ? " class=\"bad\"" : "") + ">" +
             svg::escape(n) + "</li>";
    out += "</ul>\n";
  }
  return out + noisy_details(recs);
}

// What a section's charts show, when it is not obvious.
std::string section_remarks(const std::string& suite,
                            const std::vector<const Record*>& recs) {
  std::string out;
  std::set<std::string> ops;  // operations two methods or more declare
  for (const GroupKey& key : group_keys(recs))
    if (!std::get<4>(key).empty()) ops.insert(std::get<4>(key));
  if (!methods_are_alternatives(suite) && !recs.empty())
    out += para(suite == "overlap"
                    ? "Not ranked: each method's computation is its own; "
                      "compare the overlap."
                    : ops.empty() ? "Different operations: shown side by "
                                    "side, not ranked."
                                  : "Different operations: shown side by "
                                    "side; the methods that declare one "
                                    "operation are ranked together "
                                    "(Fastest method per size).");
  if (!ops.empty()) {
    std::string list;
    for (const std::string& op : ops) list += (list.empty() ? "" : "; ") + op;
    out += para("Ranked apart by the operation they declare: " + list + ".");
  }
  if (std::any_of(recs.begin(), recs.end(),
                  [](const Record* r) { return r->time_scale != 1.0; }))
    out += para(
        "Times are per message: one-way (round trip / 2) for the "
        "ping-pong, per message of the window for windowed methods, "
        "both directions' messages for those both ways at once "
        "(time_scale in the records).");
  return out;
}

// One section (suite, payload, ranks): its charts, its summary, its notes.
std::string section_html(const SectionKey& key,
                         std::vector<const Record*>& recs,
                         const std::vector<const Skip*>& skips,
                         const json& summary) {
  std::ostringstream body;
  body << "<section><h2 id=\"" << anchor(section_title(key)) << "\">"
       << svg::escape(section_title(key)) << "</h2>\n";
  std::sort(recs.begin(), recs.end(), [](const Record* a, const Record* b) {
    return std::tie(a->method, a->bytes) < std::tie(b->method, b->bytes);
  });
  body << section_remarks(std::get<0>(key), recs);
  body << "<div class=\"charts\">\n";
  const bool moves = std::any_of(recs.begin(), recs.end(),
                                 [](const Record* r) { return r->moves_data; });
  for (const auto& [part, methods] : chart_groups(recs)) {
    const std::string suffix = part.empty() ? "" : " (" + part + ")";
    body << size_chart(recs, methods, "Time against size" + suffix, false);
    if (moves)
      body << size_chart(recs, methods, "Bandwidth against size" + suffix,
                         true);
  }
  body << metric_charts(recs) << phase_charts(recs);
  const std::vector<json> fits = section_part(summary, "fits", key);
  std::set<std::string> fitted;
  for (const json& f : fits) fitted.insert(f["method"]);
  if (!fitted.empty() && fitted.size() <= kSeriesPerChart / 2)
    body << fit_chart(recs, fits);
  body << "</div>\n";
  const auto [best, fit_tables] = section_summary(summary, key);
  // A section with no ranking of methods per size (a collective section,
  // one method's ladder) shows its numbers as a table of its own.
  body << (best.empty() ? medians_table(recs) : best) << fit_tables
       << points_table(recs);
  body << section_notes(recs, skips);
  body << "</section>\n";
  return body.str();
}

// The views across suites: the rma matrices and 1d against 2d.
std::string across_suites(const Document& doc, const json& summary) {
  std::string body = "<h2 id=\"summary\">Across suites</h2>\n";
  const std::string matrices = render_matrices(doc, Style::html);
  if (!matrices.empty())
    body += "<h3>Operation x synchronisation matrices</h3>\n" +
            para(
                "Median time, or bandwidth per message for windowed "
                "methods; * marks the fastest of each row.") +
            matrices;
  const std::string across = render_1d_vs_2d(summary, Style::html);
  body += across;
  if (matrices.empty() && across.empty())
    body += para(
        "Nothing across suites: no operation x synchronisation "
        "matrix, and no suite measured with both 1d and 2d.");
  return body;
}

}  // namespace

std::string render_html(const Document& doc, const json& summary,
                        const std::string& source) {
  std::map<SectionKey, std::vector<const Record*>> sections;
  for (const Record& r : doc.records)
    sections[{r.suite, r.payload, r.ranks}].push_back(&r);
  std::map<SectionKey, std::vector<const Skip*>> skips;
  for (const Skip& s : doc.skipped) {
    skips[{s.suite, s.payload, s.ranks}].push_back(&s);
    sections[{s.suite, s.payload, s.ranks}];
  }
  std::ostringstream body;
  body << "<h1>mpiarena report: " << svg::escape(source) << "</h1>\n";
  // A runner ab file: the gate's judgement first.
  const std::string ab = ab_section(doc, source);
  body << "<nav><ul>"
       << (ab.empty() ? "" : "<li><a href=\"#ab\">A/B judgement</a></li>")
       << "<li><a href=\"#context\">Context</a></li>";
  for (const auto& [key, recs] : sections)
    body << "<li><a href=\"#" << anchor(section_title(key)) << "\">"
         << svg::escape(section_title(key)) << "</a> (" << recs.size()
         << " points)</li>";
  body << "<li><a href=\"#summary\">Across suites</a></li></ul></nav>\n";
  body << ab << context_section(doc, source);
  for (auto& [key, recs] : sections)
    body << section_html(key, recs, skips[key], summary);
  body << across_suites(doc, summary);
  return html_page("mpiarena report: " + source, body.str());
}

}  // namespace mpiarena
