#include "core/analysis/report/report.hpp"

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

#include "core/analysis/report/report_text.hpp"
#include "core/analysis/report/summary.hpp"
#include "core/analysis/svg/svg.hpp"
#include "core/results/suites.hpp"
#include "core/results/units.hpp"

namespace mpiarena {

using nlohmann::json;

namespace {

// A table's header with the percentile columns after ">min" when `pct`
// (runner --percentiles).
std::vector<std::string> columns(std::vector<std::string> header, bool pct) {
  const auto at = std::find(header.begin(), header.end(), ">min");
  if (!pct || at == header.end()) return header;
  std::vector<std::string> added;
  for (std::size_t i = 0; i < kPercentiles.size(); ++i)
    added.push_back(">" + percentile_name(i));
  header.insert(at + 1, added.begin(), added.end());
  return header;
}

// One record's row: `lead` (its place, or its size), method, median, min,
// [p50, p95, p99 ('-' where the samples were too few),] bandwidth, CV,
// [x best,] iterations x repetitions, verification.
std::vector<std::string> record_row(std::string lead, const Record* r,
                                    const std::string* x_best, bool pct) {
  std::vector<std::string> row{std::move(lead), r->method,
                               format_seconds(r->time.median),
                               format_seconds(r->time.min)};
  if (pct)
    for (const auto& p : r->time.percentiles)
      row.push_back(p ? format_seconds(*p) : "-");
  row.push_back(r->moves_data ? format_rate(r->bandwidth) : "-");
  row.push_back(fixed(r->time.cv * 100, 1, "%"));
  if (x_best) row.push_back(*x_best);
  row.push_back(std::to_string(r->inner_iterations) + " x " +
                std::to_string(r->repetitions));
  // A noisy point says so on its row; the figures are in one table of the
  // noisy points after the tables (render_noisy_table).
  row.push_back((r->verification == "failed"
                     ? "FAILED: " + r->verification_message
                     : r->verification) +
                (r->noise.noisy ? ", noisy" : ""));
  return row;
}

// What the times of a group are: one-way (ping-pong), per message of a
// window (one way, or both ways at once: time_scale includes 1 / window),
// and with --pairs all the time and bandwidth of one pair among several.
std::string group_note(const std::vector<const Record*>& recs) {
  auto any = [&](auto pred) {
    return std::any_of(recs.begin(), recs.end(), pred);
  };
  const bool one_way = any(
      [](const Record* r) { return r->window == 0 && r->time_scale != 1.0; });
  const bool windowed = any([](const Record* r) { return r->window > 0; });
  auto both = [](const Record* r) {
    return r->window > 0 && r->time_scale * r->window < 0.75;
  };
  const bool some_both = any(both);
  const bool all_both = std::all_of(recs.begin(), recs.end(), both);
  int pairs = 0;
  for (const Record* r : recs) pairs = std::max(pairs, r->pairs);
  std::string note;
  if (one_way) note = "one-way time: round trip / 2";
  if (windowed)
    note +=
        (note.empty() ? "" : "; ") +
        std::string(all_both    ? "time per message, both ways at once: a "
                                  "window's time / (2 x window)"
                    : some_both ? "time per message: a window's time / window "
                                  "(both ways at once: / (2 x window))"
                                : "time per message: a window's time / window");
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

// "collective / 1d / 1 KiB per rank / 4 ranks / allreduce(datatype=int,
// op=sum)": a group's operation (GroupKey) ends its title.
std::string group_title(const GroupKey& key, const std::string& size,
                        const std::vector<const Record*>& recs) {
  const auto& [suite, payload, ranks, bytes, op] = key;
  const bool total = !recs.empty() && recs.front()->size_total;
  const std::string per_rank = !size.empty() && size_is_per_rank(suite)
                                   ? (total ? " in total" : " per rank")
                                   : "";
  return suite + " / " + payload + (size.empty() ? "" : " / " + size) +
         per_rank + " / " + std::to_string(ranks) +
         (ranks == 1 ? " rank" : " ranks") + (op.empty() ? "" : " / " + op) +
         group_note(recs) +
         (group_ranked(key) ? ""
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

// A line under a group's table when the machine changed state while the
// group was measured (its core-to-core round trips more than kStateRatio
// apart). The noisy points are one table after all the groups.
void render_state(std::ostream& out, const std::vector<const Record*>& recs,
                  Style style) {
  const char* item = style == Style::markdown ? "\n- " : "  ";
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

namespace {

// One method over 3 sizes or more: a row per size.
void series_table(std::ostream& out, const std::vector<const Record*>& series,
                  Style style, bool pct) {
  Table t(columns({">size", "method", ">median", ">min", ">bandwidth", ">CV",
                   ">iters x reps", "verified"},
                  pct));
  for (const Record* r : series)
    t.add(record_row(size_text(r->size_label, r->bytes), r, nullptr, pct));
  out << t.render(style);
  render_state(out, series, style);
  out << copy_limit_lines(series, style);
}

// Different operations (or overlap figures): side by side, unranked.
void unranked_table(std::ostream& out, const std::vector<const Record*>& recs,
                    Style style, bool pct) {
  std::vector<const Record*> by_name = recs;
  std::sort(
      by_name.begin(), by_name.end(),
      [](const Record* a, const Record* b) { return a->method < b->method; });
  Table t(columns({"method", ">median", ">min", ">bandwidth", ">CV",
                   ">iters x reps", "verified"},
                  pct));
  for (const Record* r : by_name) {
    std::vector<std::string> row = record_row("", r, nullptr, pct);
    row.erase(row.begin());
    t.add(std::move(row));
  }
  if (!t.empty()) out << t.render(style);
  render_state(out, recs, style);
  out << copy_limit_lines(recs, style);
}

// Methods that compete, ranked by median time, with the factor against
// the fastest.
void ranked_table(std::ostream& out, const std::vector<const Record*>& recs,
                  Style style, bool pct) {
  Table t(columns({">#", "method", ">median", ">min", ">bandwidth", ">CV",
                   ">x best", ">iters x reps", "verified"},
                  pct));
  const double best = recs.empty() ? 0 : recs.front()->time.median;
  int place = 1;
  for (const Record* r : recs) {
    // A failed point is no contender: no factor against the best.
    const std::string x_best =
        r->verification == "failed"
            ? "-"
            : fixed(best > 0 ? r->time.median / best : 1.0, 2);
    t.add(record_row(std::to_string(place++), r, &x_best, pct));
  }
  if (!t.empty()) out << t.render(style);
  render_state(out, recs, style);
  out << copy_limit_lines(recs, style);
}

// (suite, payload, ranks, operation).
using SeriesKey = std::tuple<std::string, std::string, int, std::string>;

SeriesKey series_of(const GroupKey& k) {
  return {std::get<0>(k), std::get<1>(k), std::get<2>(k), std::get<4>(k)};
}

// The series (suite, payload, ranks) of 3 or more sizes that measured one
// method and skipped nothing: one table with a row per size, not a one-row
// table per size (a NetPIPE ladder of one method).
std::set<SeriesKey> single_method_series(
    const std::map<GroupKey, std::vector<const Record*>>& groups,
    std::map<GroupKey, std::vector<const Skip*>>& skips) {
  std::map<SeriesKey, std::set<std::string>> methods;
  std::map<SeriesKey, int> sizes;
  std::set<SeriesKey> has_skips;
  for (const auto& [key, recs] : groups) {
    const SeriesKey sk = series_of(key);
    for (const Record* r : recs) methods[sk].insert(r->method);
    ++sizes[sk];
    if (!skips[key].empty() || recs.size() != 1) has_skips.insert(sk);
  }
  std::set<SeriesKey> out;
  for (const auto& [sk, names] : methods)
    if (names.size() == 1 && sizes[sk] >= 3 && !has_skips.count(sk))
      out.insert(sk);
  return out;
}

}  // namespace

std::string render_table(const Document& doc, Style style, bool pct) {
  auto groups = ranked_groups(doc, false);
  std::map<GroupKey, std::vector<const Skip*>> skips;
  std::map<GroupKey, std::string> labels;
  for (const auto& [key, recs] : groups) labels[key] = recs.front()->size_label;
  for (const Skip& s : doc.skipped) {
    GroupKey k{s.suite, s.payload, s.ranks, s.bytes, ""};
    skips[k].push_back(&s);
    labels[k] = s.size_label;
    groups[k];  // a group may hold only skips
  }
  const std::set<SeriesKey> single = single_method_series(groups, skips);
  std::ostringstream out;
  std::set<SeriesKey> done;
  for (const auto& [key, recs] : groups) {
    const SeriesKey sk = series_of(key);
    if (single.count(sk)) {
      if (!done.insert(sk).second) continue;
      std::vector<const Record*> series;
      for (const auto& [k, rs] : groups)
        if (series_of(k) == sk)
          series.insert(series.end(), rs.begin(), rs.end());
      out << heading(group_title(key, "", series), style);
      series_table(out, series, style, pct);
      continue;
    }
    out << heading(
        group_title(key, size_text(labels[key], std::get<3>(key)), recs),
        style);
    if (!group_ranked(key))
      unranked_table(out, recs, style, pct);
    else
      ranked_table(out, recs, style, pct);
    render_skips(out, skips[key], style);
  }
  std::vector<const Record*> all;
  for (const Record& r : doc.records) all.push_back(&r);
  const std::string noisy = render_noisy_table(all, style);
  if (!noisy.empty()) out << heading(noisy_count_line(all), style) << noisy;
  return out.str();
}

}  // namespace mpiarena
