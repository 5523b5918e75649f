#include "report.hpp"

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

#include "compare.hpp"
#include "report_text.hpp"
#include "suite_info.hpp"
#include "summary.hpp"
#include "svg.hpp"

namespace mpiarena {

using nlohmann::json;

std::string format_seconds(double s) {
  if (std::isnan(s)) return "n/a";
  if (s < 0) return "-" + format_seconds(-s);  // a fitted L may be < 0
  if (std::isinf(s)) return "inf s";
  char buf[32];
  if (s < 1e-6)
    std::snprintf(buf, sizeof buf, "%.1f ns", s * 1e9);
  else if (s < 1e-3)
    std::snprintf(buf, sizeof buf, "%.2f us", s * 1e6);
  else if (s < 1)
    std::snprintf(buf, sizeof buf, "%.2f ms", s * 1e3);
  else if (s < 1e5)
    std::snprintf(buf, sizeof buf, "%.3f s", s);
  else  // a day and more: scientific, never hundreds of digits
    std::snprintf(buf, sizeof buf, "%.3e s", s);
  return buf;
}

std::string format_rate(double bps) {
  if (std::isnan(bps)) return "n/a";
  if (bps < 0) return "-" + format_rate(-bps);
  if (std::isinf(bps)) return "inf B/s";
  char buf[32];
  if (bps > 0 && bps < 1)
    std::snprintf(buf, sizeof buf, "%.2e B/s", bps);
  else if (bps >= 1e15)
    std::snprintf(buf, sizeof buf, "%.2e B/s", bps);
  else if (bps >= 1e12)
    std::snprintf(buf, sizeof buf, "%.2f TB/s", bps / 1e12);
  else if (bps >= 1e9)
    std::snprintf(buf, sizeof buf, "%.2f GB/s", bps / 1e9);
  else if (bps >= 1e6)
    std::snprintf(buf, sizeof buf, "%.1f MB/s", bps / 1e6);
  else
    std::snprintf(buf, sizeof buf, "%.1f kB/s", bps / 1e3);
  return buf;
}

std::string render_grid(const std::vector<std::string>& header,
                        const std::vector<std::vector<std::string>>& rows,
                        Style style) {
  std::vector<std::string> names;
  std::vector<bool> right;
  for (const std::string& h : header) {
    right.push_back(!h.empty() && h[0] == '>');
    names.push_back(right.back() ? h.substr(1) : h);
  }
  std::ostringstream out;
  if (style == Style::html) {
    auto cell = [&](const char* tag, std::size_t i, const std::string& c) {
      out << "<" << tag
          << (i < right.size() && right[i] ? " class=\"num\"" : "") << ">"
          << svg::escape(c) << "</" << tag << ">";
    };
    out << "<table><thead><tr>";
    for (std::size_t i = 0; i < names.size(); ++i) cell("th", i, names[i]);
    out << "</tr></thead><tbody>";
    for (const auto& row : rows) {
      out << "<tr>";
      for (std::size_t i = 0; i < row.size(); ++i) cell("td", i, row[i]);
      out << "</tr>";
    }
    out << "</tbody></table>\n";
    return out.str();
  }
  if (style == Style::markdown) {
    // A `|` in a cell (a method's name, a note) would end it.
    auto md = [](const std::string& c) {
      std::string e;
      for (char ch : c)
        e += ch == '|' ? std::string("\\|") : std::string(1, ch);
      return e;
    };
    out << "|";
    for (const std::string& n : names) out << " " << md(n) << " |";
    out << "\n|";
    for (bool r : right) out << (r ? "---:|" : "---|");
    out << "\n";
    for (const auto& row : rows) {
      out << "|";
      for (const std::string& c : row) out << " " << md(c) << " |";
      out << "\n";
    }
    return out.str();
  }
  std::vector<std::size_t> width(names.size());
  for (std::size_t i = 0; i < names.size(); ++i) width[i] = names[i].size();
  for (const auto& row : rows)
    for (std::size_t i = 0; i < row.size() && i < width.size(); ++i)
      width[i] = std::max(width[i], row[i].size());
  auto line = [&](const std::vector<std::string>& cells) {
    out << " ";
    for (std::size_t i = 0; i < cells.size(); ++i) {
      const std::size_t w = i < width.size() ? width[i] : 0;
      const std::string fill(w > cells[i].size() ? w - cells[i].size() : 0,
                             ' ');
      const bool last = i + 1 == cells.size();
      out << "  "
          << (i < right.size() && right[i] ? fill + cells[i]
              : last                       ? cells[i]
                                           : cells[i] + fill);
    }
    out << "\n";
  };
  line(names);
  for (const auto& row : rows) line(row);
  return out.str();
}

// `v` with `decimals` decimals, then `unit`; "n/a" for NaN, "inf" for an
// infinity, and scientific notation from 1e6 on, so that a ratio or a
// percentage of extreme times stays a short cell.
std::string fixed(double v, int decimals, const char* unit) {
  if (std::isnan(v)) return "n/a";
  if (std::isinf(v)) return std::string(v > 0 ? "inf" : "-inf") + unit;
  char buf[64];
  if (std::fabs(v) >= 1e6)
    std::snprintf(buf, sizeof buf, "%.2e%s", v, unit);
  else
    std::snprintf(buf, sizeof buf, "%.*f%s", decimals, v, unit);
  return buf;
}

// "small (11.0 kB)", "4096 B (4.10 kB)", "64 B".
std::string size_text(const std::string& label, std::size_t bytes) {
  const std::string pretty = format_bytes(static_cast<double>(bytes));
  if (label != std::to_string(bytes)) return label + " (" + pretty + ")";
  return bytes < 1000 ? pretty : label + " B (" + pretty + ")";
}

std::string heading(const std::string& title, Style style) {
  if (style == Style::html) return "<h4>" + svg::escape(title) + "</h4>\n";
  return style == Style::markdown ? "\n### " + title + "\n\n"
                                  : "\n" + title + "\n";
}

namespace {

// One record's row: `lead` (its place, or its size), method, median, min,
// bandwidth, CV, [x best,] iterations x repetitions, verification.
std::vector<std::string> record_row(std::string lead, const Record* r,
                                    const std::string* x_best) {
  std::vector<std::string> row{std::move(lead),
                               r->method,
                               format_seconds(r->time.median),
                               format_seconds(r->time.min),
                               r->moves_data ? format_rate(r->bandwidth) : "-",
                               fixed(r->time.cv * 100, 1, "%")};
  if (x_best) row.push_back(*x_best);
  row.push_back(std::to_string(r->inner_iterations) + " x " +
                std::to_string(r->repetitions));
  row.push_back(r->verification == "failed"
                    ? "FAILED: " + r->verification_message
                    : r->verification);
  return row;
}

// What the times of a group are: one-way (ping-pong), and with --pairs all
// the time and bandwidth of one pair among several at once.
std::string group_note(const std::vector<const Record*>& recs) {
  const bool one_way =
      std::any_of(recs.begin(), recs.end(),
                  [](const Record* r) { return r->time_scale != 1.0; });
  int pairs = 0;
  for (const Record* r : recs) pairs = std::max(pairs, r->pairs);
  std::string note;
  if (one_way) note = "one-way time: round trip / 2";
  if (pairs > 1)
    note += (note.empty() ? "" : "; ") + std::to_string(pairs) +
            " pairs at once: time and bandwidth per pair, aggregate x" +
            std::to_string(pairs);
  // Where the pairs ran, once the launch spans nodes (--pairs intra|inter).
  std::string placement;
  for (const Record* r : recs)
    if (!r->pair_placement.empty() && r->pair_ranks.size() == 1) {
      const auto& [a, b] = r->pair_ranks.front();
      placement =
          "ranks " + std::to_string(a) + " and " + std::to_string(b) +
          (r->pair_placement == "inter" ? ", across nodes" : ", within a node");
    } else if (r->pair_placement == "inter" || r->pair_placement == "mixed") {
      placement = r->pair_placement == "inter"
                      ? "every pair across nodes"
                      : "pairs within and across nodes";
    }
  if (!placement.empty() && placement != "ranks 0 and 1, within a node")
    note += (note.empty() ? "" : "; ") + placement;
  return note.empty() ? "" : " (" + note + ")";
}

std::string group_title(const std::string& suite, const std::string& payload,
                        const std::string& size, int ranks,
                        const std::vector<const Record*>& recs) {
  const bool total = !recs.empty() && recs.front()->size_total;
  const std::string per_rank = !size.empty() && size_is_per_rank(suite)
                                   ? (total ? " in total" : " per rank")
                                   : "";
  return suite + " / " + payload + (size.empty() ? "" : " / " + size) +
         per_rank + " / " + std::to_string(ranks) +
         (ranks == 1 ? " rank" : " ranks") + group_note(recs) +
         (methods_are_alternatives(suite) ? ""
          : suite == "overlap"
              ? " (not ranked: each method's computation is its own; "
                "compare the overlap)"
              : " (different operations, not ranked)");
}

void render_skips(std::ostream& out, const std::vector<const Skip*>& skips,
                  Style style) {
  // Methods skipped for the same reason share a line, in the order of
  // their first skip.
  std::vector<std::pair<std::string, std::vector<std::string>>> by_reason;
  for (const Skip* s : skips) {
    auto it = std::find_if(by_reason.begin(), by_reason.end(),
                           [&](const auto& r) { return r.first == s->reason; });
    if (it == by_reason.end())
      by_reason.push_back({s->reason, {s->method}});
    else
      it->second.push_back(s->method);
  }
  for (const auto& [reason, methods] : by_reason) {
    out << (style == Style::markdown ? "\n- " : "  ") << "skipped ";
    for (std::size_t i = 0; i < methods.size(); ++i)
      out << (i ? ", " : "") << methods[i];
    out << ": " << reason << "\n";
  }
}

// The points of a group measured in a noisy state (Record::noise), a line
// each with the figures, under the group's table; and a line when the
// machine changed state while the group was measured (its core-to-core
// round trips more than kStateRatio apart).
void render_noisy(std::ostream& out, const std::vector<const Record*>& recs,
                  Style style) {
  const char* item = style == Style::markdown ? "\n- " : "  ";
  for (const Record* r : recs)
    if (r->noise.noisy)
      out << item << "noisy: " << r->method
          << (r->payload.empty() ? "" : " " + r->payload) << " "
          << r->size_label << ": " << r->noise.reason << "\n";
  double lo = 0, hi = 0;
  for (const Record* r : recs)
    for (double ns : r->noise.core_to_core_ns) {
      lo = lo > 0 ? std::min(lo, ns) : ns;
      hi = std::max(hi, ns);
    }
  if (lo > 0 && hi > kStateRatio * lo)
    out << item << "machine state changed while these points were measured: "
        << "core-to-core round trip " << std::lround(lo) << " to "
        << std::lround(hi) << " ns (the records hold it per sample)\n";
}

}  // namespace

std::string render_table(const Document& doc, Style style) {
  auto groups = ranked_groups(doc, false);
  std::map<GroupKey, std::vector<const Skip*>> skips;
  std::map<GroupKey, std::string> labels;
  for (const auto& [key, recs] : groups) labels[key] = recs.front()->size_label;
  for (const Skip& s : doc.skipped) {
    GroupKey k{s.suite, s.payload, s.ranks, s.bytes};
    skips[k].push_back(&s);
    labels[k] = s.size_label;
    groups[k];  // a group may hold only skips
  }
  // A series (suite, payload, ranks) of 3 or more sizes that measured one
  // method and skipped nothing is one table with a row per size, not a
  // one-row table per size (a NetPIPE ladder of one method).
  using SeriesKey = std::tuple<std::string, std::string, int>;
  std::map<SeriesKey, std::set<std::string>> methods;
  std::map<SeriesKey, int> sizes;
  std::set<SeriesKey> has_skips;
  for (const auto& [key, recs] : groups) {
    const SeriesKey sk{std::get<0>(key), std::get<1>(key), std::get<2>(key)};
    for (const Record* r : recs) methods[sk].insert(r->method);
    ++sizes[sk];
    if (!skips[key].empty() || recs.size() != 1) has_skips.insert(sk);
  }
  auto single = [&](const SeriesKey& sk) {
    return methods[sk].size() == 1 && sizes[sk] >= 3 && !has_skips.count(sk);
  };

  std::ostringstream out;
  std::set<SeriesKey> done;
  for (const auto& [key, recs] : groups) {
    const auto& [suite, payload, ranks, bytes] = key;
    const SeriesKey sk{suite, payload, ranks};
    if (single(sk)) {
      if (!done.insert(sk).second) continue;
      std::vector<const Record*> series;
      for (const auto& [k, rs] : groups)
        if (SeriesKey{std::get<0>(k), std::get<1>(k), std::get<2>(k)} == sk)
          series.insert(series.end(), rs.begin(), rs.end());
      out << heading(group_title(suite, payload, "", ranks, series), style);
      Table t({">size", "method", ">median", ">min", ">bandwidth", ">CV",
               ">iters x reps", "verified"});
      for (const Record* r : series)
        t.add(record_row(size_text(r->size_label, r->bytes), r, nullptr));
      out << t.render(style);
      render_noisy(out, series, style);
      continue;
    }
    out << heading(
        group_title(suite, payload, size_text(labels[key], bytes), ranks, recs),
        style);
    if (!methods_are_alternatives(suite)) {
      // Different operations (or overlap figures): side by side, unranked.
      std::vector<const Record*> by_name = recs;
      std::sort(by_name.begin(), by_name.end(),
                [](const Record* a, const Record* b) {
                  return a->method < b->method;
                });
      Table t({"method", ">median", ">min", ">bandwidth", ">CV",
               ">iters x reps", "verified"});
      for (const Record* r : by_name) {
        std::vector<std::string> row = record_row("", r, nullptr);
        row.erase(row.begin());
        t.add(std::move(row));
      }
      if (!t.empty()) out << t.render(style);
      render_noisy(out, recs, style);
      render_skips(out, skips[key], style);
      continue;
    }
    Table t({">#", "method", ">median", ">min", ">bandwidth", ">CV", ">x best",
             ">iters x reps", "verified"});
    const double best = recs.empty() ? 0 : recs.front()->time.median;
    int place = 1;
    for (const Record* r : recs) {
      // A failed point is no contender: no factor against the best.
      const std::string x_best =
          r->verification == "failed"
              ? "-"
              : fixed(best > 0 ? r->time.median / best : 1.0, 2);
      t.add(record_row(std::to_string(place++), r, &x_best));
    }
    if (!t.empty()) out << t.render(style);
    render_noisy(out, recs, style);
    render_skips(out, skips[key], style);
  }
  return out.str();
}

namespace {

// A line of prose under a table: an indented line, a markdown item or an
// HTML paragraph.
std::string prose(const std::string& text, Style style) {
  if (style == Style::html) return "<p>" + svg::escape(text) + "</p>\n";
  return (style == Style::markdown ? "- " : "  ") + text + "\n";
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
        {b["suite"], b["payload"], std::to_string(b["ranks"].get<int>()),
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
        c["suite"].get<std::string>() + " " + c["payload"].get<std::string>() +
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

std::string render_fits(const json& summary, Style style) {
  if (!summary.contains("fits") || summary.at("fits").empty()) return "";
  std::ostringstream out;
  out << heading("Fitted model: time(n) = L + n / B (least squares)", style);
  Table fit({"suite", "method", "payload", ">ranks", ">sizes", ">latency L",
             ">bandwidth B", ">R^2"});
  bool negative = false;
  for (const json& f : summary.at("fits")) {
    const double latency = f["latency_s"];
    negative = negative || latency < 0;
    fit.add(
        {f["suite"], f["method"], f["payload"],
         std::to_string(f["ranks"].get<int>()),
         std::to_string(f["points"].get<std::size_t>()),
         format_seconds(latency) + (latency < 0 ? " *" : ""),
         f["bandwidth_Bps"].is_null() ? "-" : format_rate(f["bandwidth_Bps"]),
         fixed(f["r2"], 4)});
  }
  out << fit.render(style);
  if (negative) {
    const std::string note =
        "* L < 0: over these sizes the time is not a straight line in n "
        "(protocol switches, caches), so the intercept is no latency; fit a "
        "narrower range (--sizes) or read the small sizes' times.";
    out << (style == Style::html       ? prose(note, style)
            : style == Style::markdown ? "\n" + note + "\n"
                                       : note + "\n");
  }
  return out.str();
}

std::string render_brief(const Document& doc, const json& summary,
                         const std::string& file) {
  // A first answer in a screenful: per size the fastest method, and where
  // a clear winner gives way to another clear winner. Clear: the runner-up
  // 5 % or more behind and the two told apart by compare's U test of their
  // samples (p < 0.05). Anything closer is a tie: on another run, or in
  // another machine state, the order may swap, so it is no change of
  // winner.
  constexpr double kClear = 1.05, kAlpha = 0.05;
  auto samples_of = [&](const json& b, const std::string& method) {
    for (const Record& r : doc.records)
      if (r.method == method && r.suite == b["suite"] &&
          r.payload == b["payload"] && r.ranks == b["ranks"].get<int>() &&
          r.bytes == b["bytes"].get<std::size_t>())
        return r.samples_max;
    return std::vector<double>{};
  };
  std::ostringstream out;
  out << render_header(doc);
  const json& all_best = summary.at("best");
  Table best({"suite", "payload", ">ranks", ">size", "fastest", ">median",
              ">bandwidth", "runner-up", ">x"});
  std::vector<std::string> changes;
  std::map<std::string, const json*> clear_before;
  std::size_t ranked = 0, ties = 0;
  for (const json& b : all_best) {
    if (b["runner_up"].is_null()) continue;
    ++ranked;
    const double x = b["runner_up_ratio"];
    const std::vector<double> a = samples_of(b, b["method"]),
                              c = samples_of(b, b["runner_up"]);
    const bool clear = x >= kClear && !a.empty() && !c.empty() &&
                       mann_whitney(a, c).p < kAlpha;
    ties += !clear;
    best.add(
        {b["suite"], b["payload"], std::to_string(b["ranks"].get<int>()),
         size_text(b["size_label"], b["bytes"]),
         (clear ? "" : "tie: ") + b["method"].get<std::string>(),
         format_seconds(b["median_s"]),
         b["bandwidth_Bps"].is_null() ? "-" : format_rate(b["bandwidth_Bps"]),
         b["runner_up"], fixed(x, 2)});
    if (!clear) continue;
    const std::string line = b["suite"].get<std::string>() + " " +
                             b["payload"].get<std::string>() + ", " +
                             std::to_string(b["ranks"].get<int>()) + " ranks";
    const json*& prev = clear_before[line];
    if (prev && (*prev)["method"] != b["method"])
      changes.push_back(line + ": " + (*prev)["method"].get<std::string>() +
                        " at " +
                        size_text((*prev)["size_label"], (*prev)["bytes"]) +
                        ", " + b["method"].get<std::string>() + " at " +
                        size_text(b["size_label"], b["bytes"]));
    prev = &b;
  }
  if (ranked == 0) {
    out << "\nNo size had two methods to rank (one method per size, or none "
           "measured).\n";
  } else {
    out << heading("Fastest method per size", Style::text)
        << best.render(Style::text);
    if (ties)
      out << "  tie: the runner-up within " << fixed((kClear - 1) * 100, 0)
          << " % (x < " << fixed(kClear, 2)
          << "), or the two not told apart by a U test of their\n"
             "  samples (p >= 0.05): the order of a tie can swap from run to "
             "run\n";
    out << heading("Where the clear winner changes", Style::text);
    if (changes.empty())
      out << "  (nowhere: no size has a clear winner that differs from "
             "another size's)\n";
    for (const std::string& c : changes) out << "  " << c << "\n";
  }
  std::size_t failed = 0;
  for (const Record& r : doc.records) failed += r.verification == "failed";
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

std::string render_summary(const json& summary, Style style) {
  return render_best(summary, style) + render_1d_vs_2d(summary, style) +
         render_fits(summary, style);
}

}  // namespace mpiarena
