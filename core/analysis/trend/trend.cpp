#include "core/analysis/trend/trend.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>
#include <utility>

#include <mpiarena/stats.hpp>

#include "core/analysis/text/text_format.hpp"
#include "core/analysis/trend/boundary.hpp"

namespace mpiarena {

using nlohmann::json;

namespace {

std::string text_of(const json& v) {
  if (v.is_null()) return "(none)";
  if (v.is_string()) return v.get<std::string>();
  if (v.is_array()) {
    std::string out;
    for (const json& x : v) out += (out.empty() ? "" : ",") + text_of(x);
    return out;
  }
  return v.dump();
}

void decided_by(const PointComparison& pc, TrendCell& c) {
  if (pc.verdict != Outcome::regressed && pc.verdict != Outcome::improved)
    return;
  for (const MetricChange& m : pc.metrics)
    if (m.verdict == pc.verdict) {
      if (m.metric == "time_s") return;
      if (m.metric == "bandwidth_Bps") return;  // the time's mirror
      c.decided_by = m.metric;
      c.decided_change = m.change;
      if (m.p >= 0) c.p = m.p;
      return;
    }
  c.decided_by = "verification";  // failed in NEW: regressed whatever else
}

}  // namespace

bool flagged(const TrendCell& c) {
  return c.compared && !c.state_changed &&
         (c.verdict == Outcome::regressed || c.verdict == Outcome::improved);
}

std::vector<std::pair<std::string, std::string>> trend_context(
    const Context& c, bool by_library) {
  std::vector<std::pair<std::string, std::string>> out;
  if (by_library) {
    out.push_back({"MPI library",
                   c.mpi_library.empty() ? "(none)" : library_name(c)});
    out.push_back({"MPI version", text_of(c.mpi_version)});
  }
  out.push_back({"ranks", text_of(c.ranks)});
  out.push_back({"nodes", text_of(c.nodes)});
  std::vector<std::string> hosts = c.hosts;
  std::sort(hosts.begin(), hosts.end());
  out.push_back({"hosts", text_of(hosts)});
  out.push_back({"oversubscribed",
                 c.oversubscribed ? text_of(*c.oversubscribed) : "(none)"});
  std::string placement;
  if (c.placement)
    for (const RankPlacement& r : c.placement->ranks)
      placement += (placement.empty() ? "" : "; ") + std::to_string(r.rank) +
                   "@" + r.host + ":" + r.cpus + (r.bound ? "" : " unbound");
  out.push_back({"placement", placement.empty() ? "(none)" : placement});
  return out;
}

namespace {

// The runs (in time order) in groups of one context each: a group's `why`
// says how its context differs from the first group's.
void group_runs(Trend& t, bool by_library) {
  std::vector<std::vector<std::pair<std::string, std::string>>> keys;
  for (int i = 0; i < static_cast<int>(t.runs.size()); ++i) {
    auto key = trend_context(t.runs[i].doc.context, by_library);
    // A barrier run and a window run time different things; window runs
    // of different clocks or windows are not one series either.
    key.push_back({"synchronization", sync_setting(t.runs[i].doc).text()});
    auto it = std::find(keys.begin(), keys.end(), key);
    if (it == keys.end()) {
      keys.push_back(key);
      t.groups.emplace_back();
      TrendGroup& g = t.groups.back();
      for (const auto& [name, value] : key)
        g.context += (g.context.empty() ? "" : "; ") + name + " " + value;
      for (std::size_t f = 0; f < key.size() && keys.size() > 1; ++f)
        if (key[f].second != keys.front()[f].second)
          g.why += (g.why.empty() ? "" : "; ") + key[f].first + " is '" +
                   key[f].second + "', not '" + keys.front()[f].second +
                   "' as in group 1";
      it = keys.end() - 1;
    }
    t.groups[static_cast<std::size_t>(it - keys.begin())].runs.push_back(i);
  }
}

// A run's record of a point as a cell; `pc`: compare's judgement of it
// against run `against` (null when there is none).
TrendCell cell_of(const Record& r, const PointComparison* pc, int against) {
  TrendCell c;
  c.present = true;
  c.median = r.time.median;
  c.lo = r.time.min;
  c.hi = r.time.max;
  c.q1 = c.q3 = r.time.median;
  if (!r.samples_max.empty()) {
    c.q1 = quantile(r.samples_max, 0.25);
    c.q3 = quantile(r.samples_max, 0.75);
  }
  c.failed = r.verification == "failed";
  c.noisy = r.noise.noisy;
  if (!pc) return c;
  c.compared = true;
  c.against = against;
  c.verdict = pc->verdict;
  c.p = pc->test.p;
  c.state_changed = pc->state_changed;
  c.note = pc->note;
  for (const MetricChange& m : pc->metrics)
    if (m.metric == "time_s") c.change = m.change;
  decided_by(*pc, c);
  return c;
}

// Point name -> the record of each run of group `g` (or null).
std::map<std::string, std::pair<PointKey, std::vector<const Record*>>>
group_points(const Trend& t, const TrendGroup& g) {
  std::map<std::string, std::pair<PointKey, std::vector<const Record*>>> pts;
  for (std::size_t j = 0; j < g.runs.size(); ++j)
    for (const Record& r :
         t.runs[static_cast<std::size_t>(g.runs[j])].doc.records) {
      const PointKey k = point_key(r);
      auto& entry = pts[point_name(k)];
      if (entry.second.empty()) {
        entry.first = k;
        entry.second.assign(g.runs.size(), nullptr);
      }
      if (!entry.second[j]) entry.second[j] = &r;
    }
  return pts;
}

// Each point of group `g` across its runs, each present cell judged
// against the run before in which the point was present.
void trend_group(const Trend& t, TrendGroup& g, const CompareOptions& options) {
  std::map<std::pair<int, int>, std::map<std::string, const PointComparison*>>
      index;
  std::map<std::pair<int, int>, Comparison> comparisons;
  auto compared = [&](int a, int b) -> const auto& {
    const auto key = std::make_pair(a, b);
    if (!comparisons.count(key)) {
      comparisons[key] =
          compare_documents(t.runs[static_cast<std::size_t>(a)].doc,
                            t.runs[static_cast<std::size_t>(b)].doc, options);
      for (const PointComparison& pc : comparisons[key].points)
        index[key][point_name(pc.key)] = &pc;
    }
    return index[key];
  };
  for (auto& [name, entry] : group_points(t, g)) {
    TrendPoint p;
    p.key = entry.first;
    for (const Record* r : entry.second)
      if (r) {
        p.store_name = match_name(*r);
        break;
      }
    int last = -1;
    for (std::size_t j = 0; j < g.runs.size(); ++j) {
      TrendCell c;
      if (const Record* r = entry.second[j]) {
        const PointComparison* pc = nullptr;
        const int against =
            last >= 0 ? g.runs[static_cast<std::size_t>(last)] : -1;
        if (last >= 0) {
          const auto& found = compared(against, g.runs[j]);
          auto it = found.find(name);
          if (it != found.end()) pc = it->second;
        }
        c = cell_of(*r, pc, against);
        last = static_cast<int>(j);
      }
      g.flagged += flagged(c);
      p.cells.push_back(std::move(c));
    }
    g.points.push_back(std::move(p));
  }
}

// The runs of `g` where the MPI library or settings change from the run
// before.
void find_boundaries(const Trend& t, TrendGroup& g) {
  for (std::size_t j = 1; j < g.runs.size(); ++j) {
    const std::string text = context_step(
        t.runs[static_cast<std::size_t>(g.runs[j - 1])].doc.context,
        t.runs[static_cast<std::size_t>(g.runs[j])].doc.context);
    if (!text.empty()) g.boundaries.push_back({static_cast<int>(j), text});
  }
}

}  // namespace

Trend compute_trend(std::vector<TrendRun> runs, const CompareOptions& options,
                    bool by_library) {
  Trend t;
  t.options = options;
  std::stable_sort(runs.begin(), runs.end(),
                   [](const TrendRun& a, const TrendRun& b) {
                     return std::make_pair(a.started.empty(), a.started) <
                            std::make_pair(b.started.empty(), b.started);
                   });
  t.runs = std::move(runs);
  group_runs(t, by_library);
  for (TrendGroup& g : t.groups) {
    trend_group(t, g, options);
    find_boundaries(t, g);
  }
  return t;
}

}  // namespace mpiarena
