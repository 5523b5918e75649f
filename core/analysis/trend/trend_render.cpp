// The trend as text, markdown, JSON and an HTML page (trend.hpp).
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>
#include <utility>

#include "core/analysis/html/report_html.hpp"
#include "core/analysis/report/report_text.hpp"
#include "core/analysis/svg/svg.hpp"
#include "core/analysis/trend/trend.hpp"
#include "core/analysis/trend/trend_chart.hpp"
#include "core/results/printable.hpp"

namespace mpiarena {

using nlohmann::json;

namespace {

std::string percent(double change) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%+.1f%%", change * 100);
  return buf;
}

std::string p_text(double p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2g", p);
  return buf;
}

// What a compared cell says: "regressed (p 0.0079)", "REGRESSED by
// metric:overlap -40.0% (p 0.0079)", "unchanged"... `loud`: the verdict
// word in capitals (a flagged change in the text table).
std::string verdict_text(const TrendCell& c, bool loud = false) {
  if (!c.present) return "absent";
  if (!c.compared) return "first run";
  if (c.state_changed) return "not judged: two machine states";
  std::string v = c.verdict == Outcome::noisy ? "too noisy to tell"
                                              : verdict_name(c.verdict);
  if (loud)
    for (char& ch : v) ch = static_cast<char>(std::toupper(ch));
  if (c.decided_by == "verification")
    v += " (verification failed)";
  else if (!c.decided_by.empty())
    v += " by " + c.decided_by + " " + percent(c.decided_change);
  if (c.verdict != Outcome::unchanged && c.decided_by != "verification")
    v += " (p " + p_text(c.p) + ")";
  return v;
}

// Where compare's verdict on the point is not its time's: the figure that
// decided it (the first of the most severe), into the cell.
std::string count_of(std::size_t n, const char* what) {
  return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

// The group (1-based) of run i.
int group_of(const Trend& t, int i) {
  for (std::size_t g = 0; g < t.groups.size(); ++g)
    for (int r : t.groups[g].runs)
      if (r == i) return static_cast<int>(g) + 1;
  return 0;
}

// The runs in time order: run, start, label, group, file.
const std::vector<std::string> kRunColumns = {">run", "started", "label",
                                              "group", "file"};
std::vector<std::vector<std::string>> run_rows(const Trend& t) {
  std::vector<std::vector<std::string>> rows;
  for (std::size_t i = 0; i < t.runs.size(); ++i)
    rows.push_back(
        {"#" + std::to_string(i + 1),
         t.runs[i].started.empty() ? "(no start time)" : t.runs[i].started,
         printable(t.runs[i].doc.context.label.value_or("")),
         std::to_string(group_of(t, static_cast<int>(i))), t.runs[i].file});
  return rows;
}

std::string flagged_text(int n) {
  return std::to_string(n) + (n == 1 ? " change" : " changes") + " flagged";
}

std::string run_label(int run) { return "#" + std::to_string(run + 1); }

// The point as the store names it (its `series.point`), else as compare
// does.
std::string shown_name(const TrendPoint& p) {
  return p.store_name.empty() ? point_name(p.key) : p.store_name;
}

// A file name in the page's runs table: longer ones keep their end.
constexpr std::size_t kFileChars = 64;
// The page's runs table is folded beyond this many runs.
constexpr std::size_t kOpenRuns = 12;

}  // namespace

std::string render_trend(const Trend& t, Style style) {
  std::ostringstream out;
  const char* item = style == Style::markdown ? "- " : "  ";
  out << "runner trend: " << t.runs.size() << " runs in time order, "
      << t.groups.size() << (t.groups.size() == 1 ? " group" : " groups")
      << "; each point against the previous run of its group with compare's "
         "test (threshold "
      << fixed(t.options.threshold * 100, 1, "%") << ", alpha "
      << p_text(t.options.alpha) << (t.options.relative ? ", --relative" : "")
      << ")\n";
  out << heading("Runs", style);
  out << render_grid(kRunColumns, run_rows(t), style);
  for (std::size_t g = 0; g < t.groups.size(); ++g) {
    const TrendGroup& grp = t.groups[g];
    out << heading("Group " + std::to_string(g + 1) + ": " +
                       count_of(grp.runs.size(), "run") + ", " +
                       count_of(grp.points.size(), "point") + ", " +
                       flagged_text(grp.flagged),
                   style);
    out << item << "context: " << grp.context << "\n";
    if (!grp.why.empty()) out << item << "grouped apart: " << grp.why << "\n";
    for (const TrendPoint& p : grp.points) {
      out << heading(
          "group " + std::to_string(g + 1) + ", " + point_name(p.key), style);
      Table tab({">run", "started", ">median", ">spread (min to max)",
                 ">change", "verdict"});
      for (std::size_t j = 0; j < p.cells.size(); ++j) {
        const TrendCell& c = p.cells[j];
        const TrendRun& run = t.runs[static_cast<std::size_t>(grp.runs[j])];
        const std::string started =
            run.started.empty() ? "(no start time)" : run.started;
        if (!c.present) {
          tab.add({run_label(grp.runs[j]), started, "-", "-", "-", "absent"});
          continue;
        }
        std::string verdict = verdict_text(c, flagged(c));
        if (c.failed) verdict += "; verification FAILED";
        if (c.noisy) verdict += "; noisy";
        if (c.change_point != 0) verdict += "; " + c.change_text;
        tab.add({run_label(grp.runs[j]), started, format_seconds(c.median),
                 format_seconds(c.lo) + " to " + format_seconds(c.hi),
                 c.compared ? percent(c.change) : "-", verdict});
      }
      out << tab.render(style);
    }
  }
  return out.str();
}

json to_json(const Trend& t) {
  json runs = json::array();
  for (std::size_t i = 0; i < t.runs.size(); ++i)
    runs.push_back({{"run", i + 1},
                    {"file", t.runs[i].file},
                    {"started", t.runs[i].started},
                    {"label", t.runs[i].doc.context.label.value_or("")},
                    {"group", group_of(t, static_cast<int>(i))}});
  json groups = json::array();
  for (const TrendGroup& g : t.groups) {
    json points = json::array();
    for (const TrendPoint& p : g.points) {
      json cells = json::array();
      for (std::size_t j = 0; j < p.cells.size(); ++j) {
        const TrendCell& c = p.cells[j];
        json cell = {{"run", g.runs[j] + 1}, {"present", c.present}};
        if (c.present) {
          cell["median_s"] = c.median;
          cell["min_s"] = c.lo;
          cell["max_s"] = c.hi;
          cell["q1_s"] = c.q1;
          cell["q3_s"] = c.q3;
          cell["verification_failed"] = c.failed;
          cell["noisy"] = c.noisy;
        }
        if (c.compared) {
          cell["against_run"] = c.against + 1;
          cell["verdict"] = verdict_name(c.verdict);
          cell["change"] = c.change;
          cell["p"] = c.p;
          cell["state_changed"] = c.state_changed;
          cell["flagged"] = flagged(c);
          if (!c.decided_by.empty()) {
            cell["decided_by"] = c.decided_by;
            cell["decided_change"] = c.decided_change;
          }
          if (!c.note.empty()) cell["note"] = c.note;
          if (c.change_point != 0) cell["change_point"] = c.change_text;
        }
        cells.push_back(std::move(cell));
      }
      json point = {{"point", point_name(p.key)}, {"cells", cells}};
      if (!p.store_name.empty()) point["store_name"] = p.store_name;
      points.push_back(std::move(point));
    }
    json runs_of = json::array();
    for (int r : g.runs) runs_of.push_back(r + 1);
    json boundaries = json::array();
    for (const TrendBoundary& b : g.boundaries)
      boundaries.push_back(
          {{"run", g.runs[static_cast<std::size_t>(b.at)] + 1},
           {"what", b.text}});
    groups.push_back({{"runs", runs_of},
                      {"context", g.context},
                      {"why_apart", g.why},
                      {"boundaries", boundaries},
                      {"flagged", g.flagged},
                      {"points", points}});
  }
  return {{"threshold", t.options.threshold},
          {"alpha", t.options.alpha},
          {"relative", t.options.relative},
          {"runs", runs},
          {"groups", groups}};
}

namespace {

// The chart of one point of a group: its median per run in the band of
// its quartiles, the flagged changes ringed, the boundaries of the group;
// its row of the table in `row`.
std::string point_chart(const Trend& t, const TrendGroup& grp,
                        const TrendPoint& p, std::vector<std::string>& row) {
  TrendChart c;
  c.title = shown_name(p);
  for (int r : grp.runs) c.x_labels.push_back(run_label(r));
  c.boundaries = grp.boundaries;
  for (std::size_t j = 0; j < p.cells.size(); ++j) {
    const TrendCell& cell = p.cells[j];
    if (!cell.present) {
      row.push_back("-");
      continue;
    }
    TrendChartRun r;
    r.place = static_cast<int>(j) + 1;
    r.median = cell.median;
    r.q1 = cell.q1;
    r.q3 = cell.q3;
    r.lo = cell.lo;
    r.hi = cell.hi;
    r.tip = run_label(grp.runs[j]) + " " +
            t.runs[static_cast<std::size_t>(grp.runs[j])].started +
            ": median " + format_seconds(cell.median) + ", quartiles " +
            format_seconds(cell.q1) + " to " + format_seconds(cell.q3) +
            ", samples " + format_seconds(cell.lo) + " to " +
            format_seconds(cell.hi) +
            (cell.compared
                 ? ", " + percent(cell.change) + " time, " + verdict_text(cell)
                 : "");
    if (flagged(cell))
      r.flag = cell.verdict == Outcome::regressed ? "up" : "down";
    if (cell.change_point != 0) {
      r.step = cell.change_point > 0 ? "up" : "down";
      r.tip += "; " + cell.change_text;
    }
    c.runs.push_back(std::move(r));
    row.push_back(format_seconds(cell.median) +
                  (flagged(cell) ? " " + verdict_text(cell) : "") +
                  (cell.change_point != 0 ? " " + cell.change_text : ""));
  }
  return render_trend_chart(c);
}

// The runs table of the page: a long file name cut at its front (the
// whole name in the cell's hover text).
std::string runs_table_html(const Trend& t) {
  std::ostringstream out;
  out << "<table><thead><tr>";
  for (const std::string& h : kRunColumns)
    out << (h[0] == '>' ? "<th class=\"num\">" + svg::escape(h.substr(1))
                        : "<th>" + svg::escape(h))
        << "</th>";
  out << "</tr></thead><tbody>";
  for (const std::vector<std::string>& row : run_rows(t)) {
    out << "<tr><td class=\"num\">" << svg::escape(row[0]) << "</td>";
    for (std::size_t i = 1; i + 1 < row.size(); ++i)
      out << (i == 1 ? "<td style=\"white-space:nowrap\">" : "<td>")
          << svg::escape(row[i]) << "</td>";
    out << "<td style=\"white-space:nowrap\" title=\""
        << svg::escape(row.back()) << "\">"
        << svg::escape(cut_front(row.back(), kFileChars)) << "</td></tr>";
  }
  out << "</tbody></table>\n";
  return out.str();
}

}  // namespace

std::string render_trend_html(const Trend& t) {
  std::ostringstream body;
  body << "<h1>mpiarena trend: " << t.runs.size() << " runs</h1>\n"
       << "<p class=\"note\">"
       << svg::escape(
              "Each point's median per run in time order, named as the "
              "results store names it; the band spans the middle half of "
              "each run's samples (first to third quartile). The y axis fits "
              "the medians and quartiles (logarithmic when the medians span "
              "more than a decade): a sample beyond it is a caret at the top "
              "or bottom edge, its value in the hover text. A dashed line "
              "marks where the MPI library or its settings change. A ring "
              "marks a run where compare's test (threshold " +
              fixed(t.options.threshold * 100, 1, "%") + ", alpha " +
              p_text(t.options.alpha) +
              ") found a change against the previous run of the group (in "
              "the time, or in the figure it names): red regressed, green "
              "improved. A square marks a change point of the series from "
              "runner history (the level moved there and stayed). Runs "
              "whose contexts differ are grouped apart.")
       << "</p>\n";
  // Many runs: their table folded, so that the charts come first.
  if (t.runs.size() > kOpenRuns)
    body << "<h2>Runs</h2>\n<details><summary>the " << t.runs.size()
         << " runs: start, label, group, file</summary>\n"
         << runs_table_html(t) << "</details>\n";
  else
    body << "<h2>Runs</h2>\n" << runs_table_html(t);
  for (std::size_t g = 0; g < t.groups.size(); ++g) {
    const TrendGroup& grp = t.groups[g];
    body << "<section><h2>Group " << g + 1 << ": "
         << count_of(grp.runs.size(), "run") << ", "
         << count_of(grp.points.size(), "point") << ", "
         << flagged_text(grp.flagged)
         << "</h2>\n<p class=\"note\">context: " << svg::escape(grp.context)
         << "</p>\n";
    if (!grp.why.empty())
      body << "<p class=\"bad\">grouped apart: " << svg::escape(grp.why)
           << "</p>\n";
    std::vector<std::string> header{"point"};
    for (int r : grp.runs) header.push_back(">" + run_label(r));
    std::vector<std::vector<std::string>> rows;
    body << "<div class=\"charts\">\n";
    for (const TrendPoint& p : grp.points) {
      std::vector<std::string> row{shown_name(p)};
      body << point_chart(t, grp, p, row);
      rows.push_back(std::move(row));
    }
    body << "</div>\n<h3>Medians per run</h3>\n"
         << render_grid(header, rows, Style::html) << "</section>\n";
  }
  return html_page("mpiarena trend", body.str());
}

}  // namespace mpiarena
