// The text and JSON of the store's runs and change points, and the marks
// on a trend (history.hpp).
#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>

#include "core/analysis/compare/compare.hpp"
#include "core/analysis/history/history.hpp"
#include "core/results/printable.hpp"
#include "core/results/units.hpp"

namespace mpiarena {

namespace {

std::string percent(double factor) {
  char text[32];
  std::snprintf(text, sizeof text, "%+.1f%%", (factor - 1) * 100);
  return text;
}

std::string p_text(double p) {
  char text[32];
  std::snprintf(text, sizeof text, p < 1e-4 ? "%.1e" : "%.4f", p);
  return text;
}

// The first UTF-8 sequence of `s` from `i`: its length (the strings of a
// parsed document are valid UTF-8).
std::size_t sequence_length(const std::string& s, std::size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  const std::size_t n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
  return std::min(n, s.size() - i);
}

// The changes that fall at one boundary (a run whose MPI library or
// settings differ from the run before), with the range of their factors.
struct BoundaryChanges {
  std::int64_t run = 0;
  std::string started, text;
  int series = 0;
  double low = 0, high = 0;
};

std::vector<BoundaryChanges> boundary_changes(
    const std::vector<SeriesChange>& shown) {
  std::vector<BoundaryChanges> out;
  for (const SeriesChange& c : shown) {
    if (c.boundary.empty()) continue;
    const std::string text = printable(c.boundary);
    auto it = std::find_if(out.begin(), out.end(), [&](const auto& b) {
      return b.run == c.run && b.text == text;
    });
    if (it == out.end()) {
      out.push_back({c.run, c.started, text, 0, c.factor, c.factor});
      it = out.end() - 1;
    }
    ++it->series;
    it->low = std::min(it->low, c.factor);
    it->high = std::max(it->high, c.factor);
  }
  return out;
}

}  // namespace

std::string column_text(const std::string& text, std::size_t width) {
  const std::string line = text.substr(0, text.find_first_of("\r\n"));
  std::string out;
  std::size_t used = 0;
  for (std::size_t i = 0; i < line.size();) {
    const std::size_t n = sequence_length(line, i);
    const std::string piece = printable(line.substr(i, n));
    // An escape is as wide as its text, any other character one column.
    const std::size_t w = piece.size() == n ? 1 : piece.size();
    if (used + w > width) break;
    out += piece;
    used += w;
    i += n;
  }
  return out;
}

std::string render_runs(const std::vector<StoredRun>& runs, Style style) {
  std::vector<std::vector<std::string>> rows;
  for (const StoredRun& r : runs)
    rows.push_back({"#" + std::to_string(r.id), printable(r.started),
                    column_text(r.label, 24), column_text(r.revision, 12),
                    column_text(r.library, 24), printable(r.machine),
                    std::to_string(r.ranks), std::to_string(r.points),
                    printable(r.file)});
  return render_grid({">run", "started", "label", "revision", "MPI library",
                      "machine", ">ranks", ">points", "file"},
                     rows, style);
}

nlohmann::json runs_json(const std::vector<StoredRun>& runs) {
  nlohmann::json out = nlohmann::json::array();
  for (const StoredRun& r : runs)
    out.push_back({{"run", r.id},
                   {"started", printable(r.started)},
                   {"label", printable(r.label)},
                   {"revision", printable(r.revision)},
                   {"library", printable(r.library)},
                   {"machine", printable(r.machine)},
                   {"ranks", r.ranks},
                   {"points", r.points},
                   {"file", printable(r.file)},
                   {"added_at", r.added_at},
                   {"digest", r.digest}});
  return out;
}

std::string render_history(const History& h,
                           const std::vector<SeriesChange>& shown,
                           Style style) {
  std::ostringstream out;
  const HistoryOptions& o = h.options;
  out << heading("History: " + std::to_string(h.runs.size()) + " runs, " +
                     std::to_string(h.series) + " series",
                 style)
      << "Change points per series (e-divisive, Welch at alpha " << o.alpha
      << " over the positions of each split; confirmed by the U test of the "
         "raw samples of up to "
      << o.confirm_runs << " runs a side; threshold "
      << fixed(o.threshold * 100, 1, "%") << "; at least " << o.min_segment
      << " runs a side)." << (style == Style::markdown ? "\n\n" : "\n");
  const int judged = h.series - h.short_series;
  if (h.short_series > 0)
    out << "Not judged yet: " << h.short_series << " series "
        << (h.short_series == 1 ? "has" : "have") << " fewer than "
        << 2 * o.min_segment << " runs.\n";
  if (h.unconfirmed > 0)
    out << h.unconfirmed
        << " split(s) of the medians not confirmed by the raw samples or "
           "under the threshold (not listed).\n";
  if (shown.empty()) {
    if (!h.changes.empty())
      out << "No change at the runs asked for (" << h.changes.size()
          << " earlier).\n";
    else if (judged == 0)
      out << "Nothing judged: no series has " << 2 * o.min_segment
          << " runs yet.\n";
    else
      out << "No change found in the " << judged << " series judged.\n";
    return out.str();
  }
  if (style == Style::markdown) out << "\n";
  std::vector<std::vector<std::string>> rows;
  for (const SeriesChange& c : shown)
    rows.push_back(
        {printable(c.point),
         column_text(c.library.substr(0, c.library.find_first_of(",\n")), 24),
         printable(c.machine),
         "#" + std::to_string(c.run), printable(c.started),
         column_text(c.label, 24), column_text(c.revision, 12),
         format_seconds(c.before) + " (" + std::to_string(c.runs_before) + ")",
         format_seconds(c.after) + " (" + std::to_string(c.runs_after) + ")",
         percent(c.factor), p_text(c.p), c.factor > 1 ? "slower" : "faster"});
  out << render_grid(
      {"series", "MPI library", "machine", ">at run", "started", "label",
       "revision", ">before (runs)", ">after (runs)", ">change", ">p",
       "verdict"},
      rows, style);
  const std::vector<BoundaryChanges> at = boundary_changes(shown);
  if (!at.empty()) {
    out << (style == Style::markdown ? "\n" : "")
        << "At a change of MPI library or settings:\n";
    for (const BoundaryChanges& b : at)
      out << (style == Style::markdown ? "- " : "  ") << "at run #" << b.run
          << " (" << printable(b.started) << "), " << b.text << ": "
          << b.series << " series, " << percent(b.low)
          << (percent(b.low) == percent(b.high) ? "" : " to " + percent(b.high))
          << "\n";
  }
  return out.str();
}

nlohmann::json to_json(const History& h,
                       const std::vector<SeriesChange>& shown) {
  nlohmann::json changes = nlohmann::json::array();
  for (const SeriesChange& c : shown)
    changes.push_back({{"series", printable(c.name)},
                       {"point", printable(c.point)},
                       {"library", printable(c.library)},
                       {"machine", printable(c.machine)},
                       {"run", c.run},
                       {"started", printable(c.started)},
                       {"label", printable(c.label)},
                       {"revision", printable(c.revision)},
                       {"index", c.index},
                       {"runs_before", c.runs_before},
                       {"runs_after", c.runs_after},
                       {"median_before_s", c.before},
                       {"median_after_s", c.after},
                       {"factor", c.factor},
                       {"p", c.p},
                       {"split_p", c.split_p},
                       {"level", c.level},
                       {"boundary", printable(c.boundary)}});
  nlohmann::json boundaries = nlohmann::json::array();
  for (const BoundaryChanges& b : boundary_changes(shown))
    boundaries.push_back({{"run", b.run},
                          {"started", printable(b.started)},
                          {"what", b.text},
                          {"series", b.series},
                          {"factor_low", b.low},
                          {"factor_high", b.high}});
  return {{"runs", h.runs.size()},
          {"series", h.series},
          {"short_series", h.short_series},
          {"judged_series", h.series - h.short_series},
          {"unconfirmed", h.unconfirmed},
          {"all_changes", h.changes.size()},
          {"options",
           {{"alpha", h.options.alpha},
            {"threshold", h.options.threshold},
            {"min_segment", h.options.min_segment},
            {"confirm_runs", h.options.confirm_runs}}},
          {"changes", changes},
          {"boundaries", boundaries}};
}

void mark_changes(Trend& t, const History& h) {
  std::map<std::int64_t, std::size_t> run_index;
  for (std::size_t i = 0; i < t.runs.size(); ++i)
    if (t.runs[i].store_run > 0) run_index[t.runs[i].store_run] = i;
  for (const SeriesChange& c : h.changes) {
    const auto it = run_index.find(c.run);
    if (it == run_index.end()) continue;
    const int i = static_cast<int>(it->second);
    std::string key;
    for (const Record& r : t.runs[it->second].doc.records)
      if (match_name(r) == printable(c.point))
        key = point_name(point_key(r));
    if (key.empty()) continue;
    for (TrendGroup& g : t.groups) {
      const auto j = std::find(g.runs.begin(), g.runs.end(), i);
      if (j == g.runs.end()) continue;
      for (TrendPoint& p : g.points)
        if (point_name(p.key) == key) {
          TrendCell& cell =
              p.cells[static_cast<std::size_t>(j - g.runs.begin())];
          cell.change_point = c.factor > 1 ? 1 : -1;
          cell.change_text = "change point: " + percent(c.factor) +
                             " (median of " + std::to_string(c.runs_before) +
                             " runs before, " + std::to_string(c.runs_after) +
                             " after; p " + p_text(c.p) + ")";
        }
    }
  }
}

}  // namespace mpiarena
