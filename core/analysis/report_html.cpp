#include "report_html.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <mpiarena/sizes.hpp>
#include <set>
#include <sstream>
#include <tuple>
#include <vector>

#include "breakdown.hpp"
#include "report.hpp"
#include "report_text.hpp"
#include "suite_info.hpp"
#include "svg.hpp"

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
    "pre{background:#f7f7f7;padding:8px;overflow-x:auto}"
    ".note{color:#555}.bad{color:#b00}nav ul{columns:3}";
// clang-format on

std::string anchor(const std::string& text) {
  std::string out = "s-";
  for (char c : text)
    out += std::isalnum(static_cast<unsigned char>(c)) ? c : '-';
  return out;
}

std::string para(const std::string& text, const char* cls = "note") {
  return std::string("<p class=\"") + cls + "\">" + svg::escape(text) +
         "</p>\n";
}

svg::Axis size_axis() {
  svg::Axis a;
  a.label = "message size (bytes, log)";
  a.base = 2;
  a.format = binary_bytes;
  return a;
}

svg::Axis value_axis(const std::string& label, bool log,
                     std::string (*format)(double)) {
  svg::Axis a;
  a.label = label;
  a.log = log;
  if (format) a.format = format;
  return a;
}

// (suite, payload, ranks): one section of the page.
using SectionKey = std::tuple<std::string, std::string, int>;

std::string section_title(const SectionKey& k) {
  const auto& [suite, payload, ranks] = k;
  return suite + " / " + payload + " / " + std::to_string(ranks) +
         (ranks == 1 ? " rank" : " ranks");
}

// The charts of a section hold at most this many methods each: those with
// matrix axes are charted per matrix column (rma: per synchronisation),
// the others in alphabetical chunks.
constexpr std::size_t kSeriesPerChart = 10;

std::vector<std::pair<std::string, std::vector<std::string>>> chart_groups(
    const std::vector<const Record*>& recs) {
  std::map<std::string, std::set<std::string>> by_column;
  std::set<std::string> all;
  for (const Record* r : recs) {
    all.insert(r->method);
    if (!r->matrix_column.empty())
      by_column[r->param(r->matrix_column)].insert(r->method);
  }
  std::vector<std::pair<std::string, std::vector<std::string>>> out;
  if (!by_column.empty() && all.size() > kSeriesPerChart) {
    for (const auto& [col, methods] : by_column) {
      out.push_back({col, {methods.begin(), methods.end()}});
      for (const std::string& m : methods) all.erase(m);
    }
    if (all.empty()) return out;  // else the methods without a column too
  }
  std::vector<std::string> names(all.begin(), all.end());
  for (std::size_t i = 0; i < names.size(); i += kSeriesPerChart) {
    const std::size_t end = std::min(names.size(), i + kSeriesPerChart);
    const std::string part = names.size() > kSeriesPerChart
                                 ? "methods " + std::to_string(i + 1) + "-" +
                                       std::to_string(end) + " of " +
                                       std::to_string(names.size())
                                 : "";
    out.push_back({part, {names.begin() + i, names.begin() + end}});
  }
  return out;
}

std::string point_tip(const Record& r) {
  std::string tip =
      r.method + ", " + r.size_label + " (" + std::to_string(r.bytes) +
      " B): median " + format_seconds(r.time.median) + ", samples " +
      format_seconds(r.time.min) + " to " + format_seconds(r.time.max);
  if (r.moves_data) tip += ", " + format_rate(r.bandwidth);
  tip += r.verification == "failed" ? ", verification FAILED"
                                    : ", " + r.verification;
  if (r.noise.noisy) tip += ", noisy: " + r.noise.reason;
  return tip;
}

// Time (or bandwidth) against size, one series per method of `methods`.
std::string size_chart(const std::vector<const Record*>& recs,
                       const std::vector<std::string>& methods,
                       const std::string& title, bool bandwidth) {
  svg::LineChart c;
  c.title = title;
  c.x = size_axis();
  c.y = bandwidth
            ? value_axis("bandwidth (log)", true, format_rate)
            : value_axis("time per operation (log)", true, format_seconds);
  c.caption = bandwidth
                  ? "Payload bytes over the median time; the bar spans the "
                    "bandwidth of the slowest and the fastest sample."
                  : "Median per-operation time of the slowest rank; the bar "
                    "spans the fastest and the slowest sample.";
  for (std::size_t i = 0; i < methods.size(); ++i) {
    svg::Series s;
    s.name = methods[i];
    s.colour = static_cast<int>(i);
    for (const Record* r : recs) {
      if (r->method != methods[i]) continue;
      if (bandwidth && !r->moves_data) continue;
      svg::Point p(static_cast<double>(r->bytes),
                   bandwidth ? r->bandwidth : r->time.median);
      const double n = static_cast<double>(r->payload_bytes);
      p.lo =
          bandwidth ? (r->time.max > 0 ? n / r->time.max : NAN) : r->time.min;
      p.hi =
          bandwidth ? (r->time.min > 0 ? n / r->time.min : NAN) : r->time.max;
      p.tip = point_tip(*r);
      if (r->verification == "failed") p.flag = "up";
      s.points.push_back(p);
    }
    if (!s.points.empty()) c.series.push_back(std::move(s));
  }
  if (c.series.empty()) return "";
  return svg::render(c);
}

// The fitted model L + n / B of each method (summary "fits") drawn over
// its measured medians.
std::string fit_chart(const std::vector<const Record*>& recs,
                      const std::vector<json>& fits) {
  svg::LineChart c;
  c.title = "Fitted model time(n) = L + n / B against the medians";
  c.x = size_axis();
  c.y = value_axis("time per operation (log)", true, format_seconds);
  c.caption =
      "Dots: measured medians; dashed: the least-squares fit of each method "
      "(table below).";
  int colour = 0;
  for (const json& f : fits) {
    const std::string method = f["method"];
    const double L = f["latency_s"];
    const double B = f["bandwidth_Bps"].is_null()
                         ? INFINITY
                         : f["bandwidth_Bps"].get<double>();
    svg::Series dots, line;
    dots.name = method + " (measured)";
    line.name = method + " fit";
    dots.colour = line.colour = colour++;
    dots.line = false;
    line.dashed = true;
    line.markers = false;
    double lo = 0, hi = 0;
    for (const Record* r : recs) {
      if (r->method != method) continue;
      svg::Point p(static_cast<double>(r->bytes), r->time.median);
      p.tip = point_tip(*r);
      dots.points.push_back(p);
      if (r->bytes > 0) {
        lo = lo > 0 ? std::min(lo, p.x) : p.x;
        hi = std::max(hi, p.x);
      }
    }
    // The model's curve over the measured sizes (n = the size: the fit's
    // own n is the payload, within a few bytes of it).
    for (int k = 0; lo > 0 && k <= 48; ++k) {
      const double n = lo * std::pow(hi / lo, k / 48.0);
      line.points.emplace_back(n, L + (std::isinf(B) ? 0 : n / B));
    }
    if (dots.points.size() > 1) {
      c.series.push_back(std::move(dots));
      c.series.push_back(std::move(line));
    }
  }
  if (c.series.empty()) return "";
  return svg::render(c);
}

// A metric's axis label: 3 significant digits, with k, M or G from 10^4
// ("500 k msg/s"), so the labels stay short.
std::string metric_tick(double v, const std::string& unit) {
  if (unit == "%" || std::fabs(v) < 1e4) return format_metric(v, unit);
  static const char* const kPrefix[] = {"k", "M", "G", "T"};
  int p = -1;
  while (std::fabs(v) >= 1e3 && p < 3) {
    v /= 1e3;
    ++p;
  }
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.3g %s%s", v, kPrefix[p], unit.c_str());
  return buf;
}

// One chart per metric name: its value against size per method.
std::string metric_charts(const std::vector<const Record*>& recs) {
  std::map<std::string, std::string> units;
  for (const Record* r : recs)
    for (const MetricValue& m : r->metrics) units[m.name] = m.unit;
  std::string out;
  for (const auto& [name, unit] : units) {
    std::vector<std::string> methods;
    bool positive = true;
    for (const Record* r : recs)
      for (const MetricValue& m : r->metrics)
        if (m.name == name) {
          if (std::find(methods.begin(), methods.end(), r->method) ==
              methods.end())
            methods.push_back(r->method);
          positive = positive && m.value > 0;
          for (double v : m.samples) positive = positive && v > 0;
        }
    std::sort(methods.begin(), methods.end());
    const bool log = positive && unit != "%";
    for (std::size_t first = 0; first < methods.size();
         first += kSeriesPerChart) {
      svg::LineChart c;
      c.title = "metric " + name + (unit.empty() ? "" : " (" + unit + ")");
      if (methods.size() > kSeriesPerChart)
        c.title += ", methods " + std::to_string(first + 1) + "+";
      c.x = size_axis();
      c.y.label = name + (unit.empty() ? "" : " (" + unit + ")") +
                  (log ? " (log)" : "");
      c.y.log = log;
      c.y.format = [unit = unit](double v) { return metric_tick(v, unit); };
      c.caption =
          "The metric on the medians of the parts and phases; the bar spans "
          "its value over the repetitions.";
      const std::size_t end = std::min(methods.size(), first + kSeriesPerChart);
      for (std::size_t i = first; i < end; ++i) {
        svg::Series s;
        s.name = methods[i];
        s.colour = static_cast<int>(i - first);
        for (const Record* r : recs) {
          if (r->method != methods[i]) continue;
          for (const MetricValue& m : r->metrics) {
            if (m.name != name) continue;
            svg::Point p(static_cast<double>(r->bytes), m.value);
            if (!m.samples.empty()) {
              p.lo = *std::min_element(m.samples.begin(), m.samples.end());
              p.hi = *std::max_element(m.samples.begin(), m.samples.end());
            }
            p.tip = r->method + ", " + r->size_label + ": " + name + " " +
                    format_metric(m.value, unit);
            s.points.push_back(p);
          }
        }
        c.series.push_back(std::move(s));
      }
      out += svg::render(c);
    }
  }
  return out;
}

// Per method with phases: the share of each phase per size.
std::string phase_charts(const std::vector<const Record*>& recs) {
  std::map<std::string, std::vector<const Record*>> by_method;
  for (const Record* r : recs)
    if (!r->phases.empty()) by_method[r->method].push_back(r);
  std::string out;
  for (auto& [method, rs] : by_method) {
    std::sort(rs.begin(), rs.end(), [](const Record* a, const Record* b) {
      return a->bytes < b->bytes;
    });
    svg::StackedBars b;
    b.title = method + ": phases of one operation";
    b.caption =
        "Each phase's median time as a share of the sum of the phase "
        "medians, per size (hover for the times).";
    for (const Record* r : rs)
      for (const PhaseTiming& p : r->phases)
        if (std::find(b.stack_names.begin(), b.stack_names.end(), p.name) ==
            b.stack_names.end())
          b.stack_names.push_back(p.name);
    b.values.assign(b.stack_names.size(), std::vector<double>(rs.size(), 0));
    b.tips.assign(b.stack_names.size(),
                  std::vector<std::string>(rs.size(), ""));
    for (std::size_t c = 0; c < rs.size(); ++c) {
      b.categories.push_back(binary_bytes(static_cast<double>(rs[c]->bytes)));
      for (const PhaseTiming& p : rs[c]->phases) {
        const std::size_t s = static_cast<std::size_t>(
            std::find(b.stack_names.begin(), b.stack_names.end(), p.name) -
            b.stack_names.begin());
        b.values[s][c] = p.time.median;
        b.tips[s][c] = format_seconds(p.time.median) + " of " +
                       format_seconds(rs[c]->time.median) + " per operation";
      }
    }
    out += svg::render(b);
  }
  return out;
}

std::string context_section(const Document& doc, const std::string& source) {
  const json& c = doc.context;
  std::vector<std::vector<std::string>> rows;
  auto add = [&](const std::string& k, const json& v) {
    if (v.is_null()) return;
    rows.push_back({k, v.is_string() ? v.get<std::string>() : v.dump()});
  };
  std::vector<std::vector<std::string>> settings;
  add("file", source);
  add("runner", c.value("runner_version", json()));
  add("started", c.value("start_time", json()));
  add("ended", c.value("end_time", json()));
  add("complete", doc.complete ? "yes" : "no (interrupted run)");
  add("ranks", c.value("ranks", json()));
  add("nodes", c.value("nodes", json()));
  add("hosts", c.value("hosts", json()));
  add("MPI library", c.value("mpi_library", json()));
  add("MPI version", c.value("mpi_version", json()));
  add("oversubscribed", c.value("oversubscribed", json()));
  add("waiting", c.value("waiting", json()));
  if (c.contains("cache")) add("cache", c["cache"].value("mode", json()));
  if (c.contains("interleave")) add("interleave", c["interleave"]);
  for (const char* part : {"options", "noise", "stopping"})
    if (c.contains(part) && c[part].is_object())
      for (auto it = c[part].begin(); it != c[part].end(); ++it)
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
  return out;
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
  body << "<nav><ul><li><a href=\"#context\">Context</a></li>";
  for (const auto& [key, recs] : sections)
    body << "<li><a href=\"#" << anchor(section_title(key)) << "\">"
         << svg::escape(section_title(key)) << "</a> (" << recs.size()
         << " points)</li>";
  body << "<li><a href=\"#summary\">Across suites</a></li></ul></nav>\n";
  body << context_section(doc, source);

  for (auto& [key, recs] : sections) {
    const auto& [suite, payload, ranks] = key;
    body << "<section><h2 id=\"" << anchor(section_title(key)) << "\">"
         << svg::escape(section_title(key)) << "</h2>\n";
    std::sort(recs.begin(), recs.end(), [](const Record* a, const Record* b) {
      return std::tie(a->method, a->bytes) < std::tie(b->method, b->bytes);
    });
    if (!methods_are_alternatives(suite) && !recs.empty())
      body << para(suite == "overlap"
                       ? "Not ranked: each method's computation is its own; "
                         "compare the overlap."
                       : "Different operations: shown side by side, not "
                         "ranked.");
    if (std::any_of(recs.begin(), recs.end(),
                    [](const Record* r) { return r->time_scale != 1.0; }))
      body << para(
          "Times are per message: one-way (round trip / 2) for the "
          "ping-pong, per message of the window for windowed methods "
          "(time_scale in the records).");
    body << "<div class=\"charts\">\n";
    const bool moves =
        std::any_of(recs.begin(), recs.end(),
                    [](const Record* r) { return r->moves_data; });
    for (const auto& [part, methods] : chart_groups(recs)) {
      const std::string suffix = part.empty() ? "" : " (" + part + ")";
      body << size_chart(recs, methods, "Time against size" + suffix, false);
      if (moves)
        body << size_chart(recs, methods, "Bandwidth against size" + suffix,
                           true);
    }
    body << metric_charts(recs) << phase_charts(recs);
    std::vector<json> fits;
    if (summary.contains("fits"))
      for (const json& f : summary["fits"])
        if (f["suite"] == suite && f["payload"] == payload &&
            f["ranks"] == ranks)
          fits.push_back(f);
    if (!fits.empty() && fits.size() <= kSeriesPerChart / 2)
      body << fit_chart(recs, fits);
    body << "</div>\n";

    // The summary's views, of this section only.
    json mine = {{"best", json::array()},
                 {"winner_changes", json::array()},
                 {"fits", json::array()}};
    for (const char* part : {"best", "winner_changes"})
      for (const json& b : summary.value(part, json::array()))
        if (b["suite"] == suite && b["payload"] == payload &&
            b["ranks"] == ranks)
          mine[part].push_back(b);
    mine["fits"] = fits;
    body << render_best(mine, Style::html) << render_fits(mine, Style::html);
    std::vector<std::string> notes;
    for (const Record* r : recs) {
      if (r->verification == "failed")
        notes.push_back("FAILED verification: " + r->method + " " +
                        r->size_label + ": " + r->verification_message);
      if (r->noise.noisy)
        notes.push_back("noisy: " + r->method + " " + r->size_label + ": " +
                        r->noise.reason);
    }
    for (const Skip* s : skips[key])
      notes.push_back("skipped " + s->method + " " + s->size_label + ": " +
                      s->reason);
    if (!notes.empty()) {
      body << "<ul>";
      for (const std::string& n : notes)
        body << "<li" << (n.rfind("FAILED", 0) == 0 ? " class=\"bad\"" : "")
             << ">" << svg::escape(n) << "</li>";
      body << "</ul>\n";
    }
    body << "</section>\n";
  }

  body << "<h2 id=\"summary\">Across suites</h2>\n";
  const std::string matrices = render_matrices(doc, Style::html);
  if (!matrices.empty())
    body << "<h3>Operation x synchronisation matrices</h3>\n"
         << para(
                "Median time, or bandwidth per message for windowed "
                "methods; * marks the fastest of each row.")
         << matrices;
  const std::string across = render_1d_vs_2d(summary, Style::html);
  body << across;
  if (matrices.empty() && across.empty())
    body << para(
        "Nothing across suites: no operation x synchronisation "
        "matrix, and no suite measured with both 1d and 2d.");
  return html_page("mpiarena report: " + source, body.str());
}

}  // namespace mpiarena
