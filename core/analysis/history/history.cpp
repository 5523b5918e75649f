// Change points over the store's history (history.hpp).
#include "core/analysis/history/history.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <map>
#include <mpiarena/stats.hpp>
#include <set>
#include <stdexcept>

#include "core/analysis/compare/compare.hpp"
#include "core/analysis/stats/change_points.hpp"
#include "core/analysis/stats/inference.hpp"
#include "core/analysis/stats/rank_tests.hpp"
#include "core/analysis/trend/boundary.hpp"
#include "core/results/dates.hpp"
#include "core/results/printable.hpp"

namespace mpiarena {

namespace {

// A time of 0 (a clock too coarse for the operation) as this many seconds
// where logarithms are taken: below any clock's resolution, so that a step
// to 0 is a step, as the medians' ratio says (-100%).
constexpr double kZeroTime = 1e-12;

double log_safe(double seconds) { return std::max(seconds, kZeroTime); }

double median_of(const std::vector<SeriesValue>& v, int b, int e) {
  std::vector<double> m;
  for (int i = b; i < e; ++i)
    m.push_back(v[static_cast<std::size_t>(i)].median);
  return median(m);
}

// The raw samples of the runs values[b, e), pooled.
std::vector<double> pooled(Store& store, const std::vector<SeriesValue>& values,
                           int b, int e) {
  std::vector<double> out;
  for (int i = b; i < e; ++i) {
    const SeriesValue& v = values[static_cast<std::size_t>(i)];
    const std::vector<double> s = store.samples(v.run, v.series);
    out.insert(out.end(), s.begin(), s.end());
  }
  return out;
}

bool all_of_class(const std::string& s, int (*is)(int)) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [is](char c) {
    return is(static_cast<unsigned char>(c)) != 0;
  });
}

// Change cps[i] of series `s`: the segments either side up to its
// neighbours, their medians, and the U test of the raw samples of up to
// confirm_runs runs a side.
SeriesChange judge(Store& store, const StoredSeries& s,
                   const std::vector<ChangePoint>& cps, std::size_t i,
                   const std::map<std::int64_t, const StoredRun*>& run_of,
                   const HistoryOptions& options) {
  const int n = static_cast<int>(s.values.size());
  const int b = i == 0 ? 0 : cps[i - 1].index;
  const int t = cps[i].index;
  const int e = i + 1 == cps.size() ? n : cps[i + 1].index;
  SeriesChange c;
  c.series = s.id;
  c.name = s.name;
  c.point = s.point;
  c.machine = s.machine;
  c.index = t;
  c.run = s.values[static_cast<std::size_t>(t)].run;
  c.library = s.values[static_cast<std::size_t>(t)].library;
  if (const auto it = run_of.find(c.run); it != run_of.end()) {
    c.started = it->second->started;
    c.revision = it->second->revision;
    c.label = it->second->label;
  }
  c.runs_before = t - b;
  c.runs_after = e - t;
  c.before = median_of(s.values, b, t);
  c.after = median_of(s.values, t, e);
  // From 0 s, as the logarithms saw it.
  c.factor = c.before > 0    ? c.after / c.before
             : c.after == 0 ? 1
                            : c.after / kZeroTime;
  std::vector<double> left_medians, right_medians;
  for (int k = b; k < t; ++k)
    left_medians.push_back(
        log_safe(s.values[static_cast<std::size_t>(k)].median));
  for (int k = t; k < e; ++k)
    right_medians.push_back(
        log_safe(s.values[static_cast<std::size_t>(k)].median));
  c.split_p = welch_log_p(left_medians, right_medians);
  // Alpha over the positions a split of [b, e) could have taken, as
  // change_points() holds it (the neighbours may have moved since).
  c.level = bonferroni_level(
      options.alpha,
      std::max(1, e - b - 2 * std::max(2, options.min_segment) + 1));
  const int k = std::max(1, options.confirm_runs);
  const UTest u =
      mann_whitney(pooled(store, s.values, std::max(b, t - k), t),
                   pooled(store, s.values, t, std::min(e, t + k)));
  c.p = u.p;
  // U counts the pairs where the earlier sample is the larger: below half
  // of them, the later runs are slower.
  c.u_slower = u.u < 0.5 * static_cast<double>(u.n1 * u.n2);
  return c;
}

bool slower_after(const SeriesChange& c) { return c.u_slower; }

bool holds(const SeriesChange& c, const HistoryOptions& options) {
  return std::fabs(c.factor - 1) >= options.threshold && c.p <= c.level &&
         c.split_p <= c.level && (c.factor > 1) == slower_after(c);
}

// Each split judged between its confirmed neighbours; the one the raw
// samples or the threshold do not confirm goes (the one with the largest
// p first), and the rest are judged again without it. `cps` keeps the
// confirmed ones; each one dropped is counted in `unconfirmed`.
std::vector<SeriesChange> confirm(
    Store& store, const StoredSeries& s, std::vector<ChangePoint>& cps,
    const std::map<std::int64_t, const StoredRun*>& run_of,
    const HistoryOptions& options, int& unconfirmed) {
  std::vector<SeriesChange> confirmed;
  for (;;) {
    confirmed.clear();
    int drop = -1;
    double worst = -1;
    for (std::size_t i = 0; i < cps.size(); ++i) {
      SeriesChange c = judge(store, s, cps, i, run_of, options);
      if (!holds(c, options) && c.p > worst) {
        worst = c.p;
        drop = static_cast<int>(i);
      }
      confirmed.push_back(std::move(c));
    }
    if (drop < 0) return confirmed;
    cps.erase(cps.begin() + drop);
    ++unconfirmed;
  }
}

// The runs of `s` whose MPI library or settings differ from the run
// before: the boundaries a change may fall at.
std::vector<int> boundary_runs(const StoredSeries& s) {
  std::vector<int> out;
  for (std::size_t i = 1; i < s.values.size(); ++i)
    // A run that recorded no settings (an older runner) is no boundary
    // of its settings.
    if (s.values[i].library != s.values[i - 1].library ||
        (s.values[i].settings != s.values[i - 1].settings &&
         !s.values[i].settings.empty() && !s.values[i - 1].settings.empty()))
      out.push_back(static_cast<int>(i));
  return out;
}

// A confirmed change within kBoundaryReach runs of a boundary (a new
// library or new settings), and not on one, moves to it when the split
// there is confirmed as well between the same neighbours: the medians of
// a few noisy runs cannot place a step to the run, and the boundary is
// where an upgrade's step is expected.
constexpr int kBoundaryReach = 2;

void to_boundaries(Store& store, const StoredSeries& s,
                   std::vector<ChangePoint>& cps,
                   std::vector<SeriesChange>& confirmed,
                   const std::map<std::int64_t, const StoredRun*>& run_of,
                   const HistoryOptions& options) {
  const std::vector<int> at = boundary_runs(s);
  const int n = static_cast<int>(s.values.size());
  const int seg = std::max(2, options.min_segment);
  bool moved_any = false;
  for (std::size_t i = 0; i < cps.size(); ++i) {
    const int t = cps[i].index;
    if (std::find(at.begin(), at.end(), t) != at.end()) continue;
    const int lo = (i == 0 ? 0 : cps[i - 1].index) + seg;
    const int hi = (i + 1 == cps.size() ? n : cps[i + 1].index) - seg;
    int best = -1;
    for (int b : at)
      if (std::abs(b - t) <= kBoundaryReach && b >= lo && b <= hi &&
          (best < 0 || std::abs(b - t) < std::abs(best - t)))
        best = b;
    if (best < 0) continue;
    std::vector<ChangePoint> moved = cps;
    moved[i].index = best;
    SeriesChange c = judge(store, s, moved, i, run_of, options);
    if (!holds(c, options)) continue;
    cps = std::move(moved);
    moved_any = true;
  }
  // The neighbours of a moved split judged again over their new segments.
  if (moved_any)
    for (std::size_t i = 0; i < cps.size(); ++i)
      confirmed[i] = judge(store, s, cps, i, run_of, options);
}

// What changed at a run of a series from the run before (a boundary),
// else empty (boundary.hpp context_step(), of the runs' stored contexts).
class Boundaries {
 public:
  explicit Boundaries(Store& store) : store_(store) {}
  std::string at(const SeriesValue& before, const SeriesValue& after) {
    if (before.library == after.library && before.settings == after.settings)
      return "";
    const auto key = std::make_pair(before.run, after.run);
    auto it = known_.find(key);
    if (it == known_.end())
      it = known_
               .emplace(key, context_step(store_.context(before.run),
                                          store_.context(after.run)))
               .first;
    return it->second;
  }

 private:
  Store& store_;
  std::map<std::pair<std::int64_t, std::int64_t>, std::string> known_;
};

}  // namespace

History find_changes(Store& store, const HistoryOptions& options) {
  History h;
  h.options = options;
  h.runs = store.runs();
  std::map<std::int64_t, const StoredRun*> run_of;
  for (const StoredRun& r : h.runs) run_of[r.id] = &r;
  ChangePointOptions cpo;
  cpo.alpha = options.alpha;
  cpo.min_segment = options.min_segment;
  Boundaries boundaries(store);
  const std::vector<StoredSeries> all = options.by_library
                                            ? split_by_library(store.series())
                                            : store.series();
  for (const StoredSeries& s : all) {
    ++h.series;
    const int n = static_cast<int>(s.values.size());
    if (n < 2 * std::max(2, options.min_segment)) {
      ++h.short_series;
      continue;
    }
    std::vector<double> medians;
    for (const SeriesValue& v : s.values)
      medians.push_back(log_safe(v.median));
    std::vector<ChangePoint> cps = change_points(medians, cpo);
    std::vector<SeriesChange> confirmed =
        confirm(store, s, cps, run_of, options, h.unconfirmed);
    to_boundaries(store, s, cps, confirmed, run_of, options);
    for (SeriesChange& c : confirmed) {
      c.boundary =
          boundaries.at(s.values[static_cast<std::size_t>(c.index - 1)],
                        s.values[static_cast<std::size_t>(c.index)]);
      h.changes.push_back(std::move(c));
    }
  }
  return h;
}

std::vector<SeriesChange> changes_since(const History& h,
                                        const std::string& since) {
  if (since.empty()) return h.changes;
  std::map<std::int64_t, std::size_t> place;  // run id -> time order
  for (std::size_t i = 0; i < h.runs.size(); ++i) place[h.runs[i].id] = i;
  const std::string id_text = since[0] == '#' ? since.substr(1) : since;
  std::size_t after = 0;  // changes at runs placed after this one
  bool by_place = false;
  std::string from_date;
  if (all_of_class(id_text, isdigit) && id_text.size() <= 6) {
    const std::int64_t id = std::stoll(id_text);
    const auto it = place.find(id);
    if (it == place.end())
      throw std::invalid_argument("--since '" + since +
                                  "': the store has no run " + id_text +
                                  " ('runner history list' shows them)");
    after = it->second;
    by_place = true;
  } else if (date_shaped(since)) {
    if (!is_calendar_date(since))
      throw std::invalid_argument(
          "--since '" + since +
          "' is not a date of the calendar (month 01-12, a day the month "
          "has, hh 00-23, mm and ss 00-59)");
    from_date = since;
    if (from_date.back() == 'Z') from_date.pop_back();
  } else if (all_of_class(since, isxdigit) && since.size() >= 7 &&
             since.size() <= 40) {
    std::string prefix = since;
    for (char& c : prefix)
      c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    std::set<std::string> revisions;  // the runs' that start so
    for (std::size_t i = 0; i < h.runs.size(); ++i) {
      std::string rev = h.runs[i].revision;
      for (char& c : rev)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (rev.compare(0, prefix.size(), prefix) == 0) {
        after = i;
        revisions.insert(h.runs[i].revision);
      }
    }
    if (revisions.empty())
      throw std::invalid_argument("--since '" + since +
                                  "': no run of the store was built from a "
                                  "revision starting so");
    if (revisions.size() > 1) {
      std::string names;
      for (const std::string& r : revisions)
        names += (names.empty() ? "" : ", ") + printable(r);
      throw std::invalid_argument(
          "--since '" + since + "' is ambiguous: the store has runs of " +
          std::to_string(revisions.size()) + " revisions starting so (" +
          names + "); give more of the revision");
    }
    by_place = true;
  } else {
    throw std::invalid_argument(
        "--since '" + since +
        "' is not a run, a revision or a date; accepted: a run id (#12), a "
        "git revision (7 to 40 hex digits) or a date (YYYY-MM-DD, "
        "YYYY-MM-DDThh:mm[:ss]Z)");
  }
  std::vector<SeriesChange> out;
  for (const SeriesChange& c : h.changes) {
    const auto it = place.find(c.run);
    // A change at the run asked for itself is shown when that run is a
    // boundary (a new library or new settings): asked "since the
    // upgrade", the upgrade's own step is the answer.
    if (by_place ? (it != place.end() &&
                    (it->second > after ||
                     (it->second == after && !c.boundary.empty())))
                 : c.started >= from_date)
      out.push_back(c);
  }
  return out;
}

}  // namespace mpiarena
