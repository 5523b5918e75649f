// The summary's views: the best method per size, 1d against 2d, the fits,
// and the few lines of --format summary (report.hpp).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <mpiarena/sizes.hpp>
#include <set>
#include <sstream>
#include <tuple>
#include <utility>
#include <vector>

#include "core/analysis/report/report.hpp"
#include "core/analysis/report/report_text.hpp"
#include "core/analysis/report/summary.hpp"
#include "core/analysis/stats/fit.hpp"
#include "core/analysis/stats/rank_tests.hpp"
#include "core/analysis/svg/svg.hpp"
#include "core/results/suites.hpp"
#include "core/results/units.hpp"

namespace mpiarena {

using nlohmann::json;

namespace {

// A line of prose under a table: an indented line, a markdown item or an
// HTML paragraph.
std::string prose(const std::string& text, Style style) {
  if (style == Style::html) return "<p>" + svg::escape(text) + "</p>\n";
  return (style == Style::markdown ? "- " : "  ") + text + "\n";
}

// A summary entry's suite, and its operation when it has one: "collective
// / allreduce(datatype=int, op=sum)".
std::string suite_cell(const json& b) {
  const std::string suite = b["suite"].get<std::string>();
  return b.contains("operation")
             ? suite + " / " + b["operation"].get<std::string>()
             : suite;
}

}  // namespace

std::string render_best(const json& summary, Style style) {
  // Which method is fastest only means something where two methods ran at
  // one size (not for one method's ladder, nor when everything was skipped).
  const json& all_best = summary.at("best");
  if (std::none_of(all_best.begin(), all_best.end(),
                   [](const json& b) { return !b["runner_up"].is_null(); }))
    return "";
  std::ostringstream out;
  out << heading("Fastest method per size", style);
  Table best({"suite", "payload", ">ranks", ">size", "fastest", ">median",
              ">bandwidth", "runner-up", ">x"});
  for (const json& b : all_best)
    best.add(
        {suite_cell(b), b["payload"], std::to_string(b["ranks"].get<int>()),
         size_text(b["size_label"], b["bytes"]), b["method"],
         format_seconds(b["median_s"]),
         b["bandwidth_Bps"].is_null() ? "-" : format_rate(b["bandwidth_Bps"]),
         b["runner_up"].is_null() ? "-" : b["runner_up"].get<std::string>(),
         b["runner_up_ratio"].is_null() ? "-"
                                        : fixed(b["runner_up_ratio"], 2)});
  out << best.render(style);
  out << heading("Where the fastest method changes", style);
  if (summary.at("winner_changes").empty())
    out << prose("(the same method wins at every size)", style);
  for (const json& c : summary.at("winner_changes"))
    out << prose(
        suite_cell(c) + " " + c["payload"].get<std::string>() +
            ", " + std::to_string(c["ranks"].get<int>()) +
            " ranks: " + c["from_method"].get<std::string>() + " up to " +
            size_text(c["from_size_label"], c["from_bytes"]) + ", " +
            c["to_method"].get<std::string>() + " from " +
            size_text(c["to_size_label"], c["to_bytes"]),
        style);
  return out.str();
}

std::string render_1d_vs_2d(const json& summary, Style style) {
  if (summary.at("payload_1d_vs_2d").empty()) return "";
  std::ostringstream out;
  out << heading("1d vs 2d: best method of each payload", style);
  Table cmp({"suite", ">ranks", ">size", "best 2d", ">time", "best 1d", ">time",
             ">2d / 1d"});
  for (const json& c : summary.at("payload_1d_vs_2d"))
    cmp.add({c["suite"], std::to_string(c["ranks"].get<int>()),
             size_text(c["size_label"], c["bytes"]), c["best_2d"],
             format_seconds(c["best_2d_s"]), c["best_1d"],
             format_seconds(c["best_1d_s"]),
             c["ratio_2d_over_1d"].is_null()
                 ? "-"
                 : fixed(c["ratio_2d_over_1d"], 2)});
  out << cmp.render(style);
  return out.str();
}

namespace {

// `text` in lines of at most 76 characters, each indented by two.
std::string wrapped(const std::string& text) {
  std::istringstream words(text);
  std::string out, line;
  for (std::string w; words >> w;) {
    if (!line.empty() && line.size() + 1 + w.size() > 76) {
      out += "  " + line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + w;
  }
  return out + (line.empty() ? "" : "  " + line + "\n");
}

// "9 of 14: 8 B to 2 KiB", "5 of 14: 4 KiB to 64 KiB": the sizes a fit
// or its absence covers (short_size).
std::string fit_sizes(const json& f) {
  const std::size_t n = f["points"], of = f.value("series_points", n);
  auto size = [](const json& v) {
    const double d = v.get<double>();
    return d >= 0 && d < 1e18 && d == std::floor(d)
               ? short_size(static_cast<std::size_t>(d))
               : format_bytes(d);
  };
  return (n == of ? std::to_string(n)
                  : std::to_string(n) + " of " + std::to_string(of)) +
         ": " + size(f["min_bytes"]) + " to " + size(f["max_bytes"]);
}

// The sizes over which no line holds, a row per series.
std::string render_unfitted(const json& unfitted, Style style) {
  if (unfitted.empty()) return "";
  Table t({"suite", "method", "payload", ">ranks", ">sizes not fitted"});
  for (const json& u : unfitted)
    t.add({u["suite"], u["method"], u["payload"],
           std::to_string(u["ranks"].get<int>()), fit_sizes(u)});
  return heading("No line L + n / B holds over these sizes", style) +
         t.render(style);
}

}  // namespace

std::string render_fits(const json& summary, Style style) {
  const json none = json::array();
  const json& fits = summary.contains("fits") ? summary.at("fits") : none;
  const json& unfitted =
      summary.contains("unfitted") ? summary.at("unfitted") : none;
  if (fits.empty() && unfitted.empty()) return "";
  std::ostringstream out;
  out << heading(
      "Fitted model: time(n) = L + n / B (least squares, where it holds)",
      style);
  Table fit({"suite", "method", "payload", ">ranks", ">sizes fitted",
             ">latency L", ">bandwidth B", ">R^2", ">max error"});
  for (const json& f : fits) {
    const double latency = f["latency_s"];
    fit.add({f["suite"], f["method"], f["payload"],
             std::to_string(f["ranks"].get<int>()), fit_sizes(f),
             latency < 0 ? "- (L < 0: no model)" : format_seconds(latency),
             f["bandwidth_Bps"].is_null() ? "- (flat)"
                                          : format_rate(f["bandwidth_Bps"]),
             fixed(f["r2"], 4),
             f.contains("max_error")
                 ? fixed(f["max_error"].get<double>() * 100, 1, "%")
                 : "-"});
  }
  if (!fit.empty()) out << fit.render(style);
  const std::string note =
      "A line is kept only where it is within " +
      fixed(kFitTolerance * 100, 0, "%") +
      " of every median it was fitted on (max error: the largest |L + n / B "
      "- median| / median there) with L >= 0: over all the sizes, else in "
      "two pieces split where they fit best (a protocol switch), else over "
      "the largest sizes only; else no line.";
  out << (style == Style::html       ? prose(note, style)
          : style == Style::markdown ? "\n" + note + "\n"
                                     : wrapped(note));
  out << render_unfitted(unfitted, style);
  return out.str();
}

namespace {

// A first answer in a screenful: per size the fastest method, and where a
// clear winner gives way to another clear winner. Clear: the runner-up 5 %
// or more behind and the two told apart by compare's U test of their
// samples (p < 0.05). Anything closer is a tie: on another run, or in
// another machine state, the order may swap, so it is no change of winner.
constexpr double kClear = 1.05, kAlpha = 0.05;

// The samples of `method` at the point of the summary's entry `b`.
std::vector<double> samples_of(const Document& doc, const json& b,
                               const std::string& method) {
  for (const Record& r : doc.records)
    if (r.method == method && r.suite == b["suite"] &&
        r.payload == b["payload"] && r.ranks == b["ranks"].get<int>() &&
        r.bytes == b["bytes"].get<std::size_t>())
      return r.samples_max;
  return {};
}

// The fastest method per size (ties marked) and where the clear winner
// changes; `ranked` counts the sizes with two methods or more.
struct Winners {
  Table best{{"suite", "payload", ">ranks", ">size", "fastest", ">median",
              ">bandwidth", "runner-up", ">x"}};
  std::vector<std::string> changes;
  std::size_t ranked = 0, ties = 0;
};

Winners winners_of(const Document& doc, const json& all_best) {
  Winners w;
  std::map<std::string, const json*> clear_before;
  for (const json& b : all_best) {
    if (b["runner_up"].is_null()) continue;
    ++w.ranked;
    const double x = b["runner_up_ratio"];
    const std::vector<double> a = samples_of(doc, b, b["method"]),
                              c = samples_of(doc, b, b["runner_up"]);
    const bool clear = x >= kClear && !a.empty() && !c.empty() &&
                       mann_whitney(a, c).p < kAlpha;
    w.ties += !clear;
    w.best.add(
        {suite_cell(b), b["payload"], std::to_string(b["ranks"].get<int>()),
         size_text(b["size_label"], b["bytes"]),
         (clear ? "" : "tie: ") + b["method"].get<std::string>(),
         format_seconds(b["median_s"]),
         b["bandwidth_Bps"].is_null() ? "-" : format_rate(b["bandwidth_Bps"]),
         b["runner_up"], fixed(x, 2)});
    if (!clear) continue;
    const std::string line = suite_cell(b) + " " +
                             b["payload"].get<std::string>() + ", " +
                             std::to_string(b["ranks"].get<int>()) + " ranks";
    const json*& prev = clear_before[line];
    if (prev && (*prev)["method"] != b["method"])
      w.changes.push_back(line + ": " + (*prev)["method"].get<std::string>() +
                          " at " +
                          size_text((*prev)["size_label"], (*prev)["bytes"]) +
                          ", " + b["method"].get<std::string>() + " at " +
                          size_text(b["size_label"], b["bytes"]));
    prev = &b;
  }
  return w;
}

// "60 points measured, 1 FAILED verification, 2 skipped." and where the
// whole report is.
std::string brief_footer(const Document& doc, const std::string& file) {
  std::size_t failed = 0;
  for (const Record& r : doc.records) failed += r.verification == "failed";
  std::ostringstream out;
  out << "\n"
      << doc.records.size() << " points measured"
      << (failed ? ", " + std::to_string(failed) + " FAILED verification" : "")
      << (doc.skipped.empty()
              ? std::string()
              : ", " + std::to_string(doc.skipped.size()) + " skipped")
      << ".\n";
  if (!file.empty())
    out << "Every table (times, spread, bandwidth, phases, fits): runner "
           "report "
        << file << "\n";
  return out.str();
}

}  // namespace

std::string render_brief(const Document& doc, const json& summary,
                         const std::string& file) {
  std::ostringstream out;
  out << render_header(doc);
  const Winners w = winners_of(doc, summary.at("best"));
  if (w.ranked == 0) {
    out << "\nNo size had two methods to rank (one method per size, or none "
           "measured).\n";
  } else {
    out << heading("Fastest method per size", Style::text)
        << w.best.render(Style::text);
    if (w.ties)
      out << "  tie: the runner-up within " << fixed((kClear - 1) * 100, 0)
          << " % (x < " << fixed(kClear, 2)
          << "), or the two not told apart by a U test of their\n"
             "  samples (p >= 0.05): the order of a tie can swap from run to "
             "run\n";
    out << heading("Where the clear winner changes", Style::text);
    if (w.changes.empty())
      out << "  (nowhere: no size has a clear winner that differs from "
             "another size's)\n";
    for (const std::string& c : w.changes) out << "  " << c << "\n";
  }
  out << brief_footer(doc, file);
  return out.str();
}

std::string render_summary(const json& summary, Style style) {
  return render_best(summary, style) + render_1d_vs_2d(summary, style) +
         render_fits(summary, style);
}

}  // namespace mpiarena
