// Compare's matching of points across files (compare_internal.hpp).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <tuple>
#include <utility>

#include "core/analysis/compare/compare_internal.hpp"

namespace mpiarena {

namespace {

// One pair (and records written before `pairs` existed) count as 0.
int several_pairs(int pairs) { return pairs > 1 ? pairs : 0; }

// The definition options (Record::definition) whose value is not the
// default, as "/name=value..." (empty for the defaults and for files written
// before the options existed, which ran the defaults).
std::string definition_suffix(const Record& r) {
  static const std::map<std::string, std::string> kDefaults = {
      {"receive", "reuse"}};
  std::string out;
  for (const auto& [name, value] : r.definition) {
    auto d = kDefaults.find(name);
    if (d == kDefaults.end() || d->second != value)
      out += "/" + name + "=" + value;
  }
  return out;
}

// A size in total (--size-basis total) is not the same point as that size
// per rank; a cold cache (--cache cold) not the same as a hot one; a
// ping-pong on separate buffers (--buffers separate) not the same as one on
// a shared buffer (files written before --buffers existed used one).
}  // namespace

Key key_of(const Record& r) {
  const std::string across = across_nodes(r);
  return {r.suite,
          r.method,
          r.payload + (r.size_total ? "/total" : "") +
              (across.empty() ? "" : "/" + across) +
              (r.cache == "cold" ? "/cold" : "") +
              (r.buffers == "separate" ? "/separate" : "") +
              definition_suffix(r),
          r.ranks,
          r.bytes,
          several_pairs(r.pairs)};
}

std::string match_name(const Record& r) {
  const Key k = key_of(r);
  const int pairs = std::get<5>(k);
  return std::get<0>(k) + "/" + std::get<1>(k) + "/" + std::get<2>(k) + "/" +
         std::to_string(std::get<4>(k)) + "/np" +
         std::to_string(std::get<3>(k)) +
         (pairs > 1 ? "/" + std::to_string(pairs) + "pairs" : "");
}

Key key_of(const Skip& s) {  // a skip does not know its pairs: one
  return {s.suite, s.method, s.payload, s.ranks, s.bytes, 0};
}

std::string SyncSetting::text() const {
  if (!window) return "barrier";
  const std::string unknown = "not recorded";
  return "window (clock " + (clock.empty() ? unknown : clock) +
         ", --sync-window " + (sync_window.empty() ? unknown : sync_window) +
         ")";
}

namespace {

// --sync-window's value on a command line ("--sync-window 0.001",
// "--sync-window=0.001", or a prefix of the name, as the parser accepts):
// "calibrated" when not given; empty without a command line.
std::string sync_window_given(const Context& context) {
  const std::vector<std::string>& line = context.command_line;
  if (line.empty()) return "";
  const std::string name = "--sync-window";
  for (std::size_t i = 0; i < line.size(); ++i) {
    const std::string& arg = line[i];
    const std::size_t eq = arg.find('=');
    const std::string option = arg.substr(0, eq);
    if (option.size() <= 6 || name.compare(0, option.size(), option) != 0)
      continue;
    std::string value;
    if (eq != std::string::npos)
      value = arg.substr(eq + 1);
    else if (i + 1 < line.size())
      value = line[i + 1];
    // As number() writes the recorded value, so that 1e-3 is 0.001.
    char* end = nullptr;
    const double w = std::strtod(value.c_str(), &end);
    if (!value.empty() && end && *end == '\0') return number(w) + " s";
    return value + " s";
  }
  return "calibrated";
}

}  // namespace

SyncSetting sync_setting(const Document& d) {
  SyncSetting s;
  const Context& c = d.context;
  const OptionsContext& o = c.options;
  s.window = o.sync.value_or("") == "window" || c.clock.has_value();
  for (const Record& r : d.records)
    if (r.sync.windowed) {
      s.window = true;
      if (s.clock.empty()) s.clock = r.sync.clock;
    }
  if (!s.window) return s;
  if (o.clock_sync && *o.clock_sync)
    s.clock = **o.clock_sync;
  else if (c.clock && !c.clock->algorithm.empty())
    s.clock = c.clock->algorithm;
  if (o.sync_window_s) {
    const double w = *o.sync_window_s;
    s.sync_window = w > 0 ? number(w) + " s" : "calibrated";
  } else {
    s.sync_window = sync_window_given(c);
  }
  return s;
}

namespace {

using json = nlohmann::json;

std::string brief(const json& v) {
  std::string s = v.is_string() ? v.get<std::string>() : v.dump();
  if (s.size() > 60) s = s.substr(0, 57) + "...";
  return "'" + s + "'";
}

}  // namespace

void context_warnings(const Context& b, const Context& n,
                      std::vector<std::string>& out) {
  auto differs = [&](const std::string& what, const json& x, const json& y) {
    if (x != y)
      out.push_back("context differs: " + what + " is " + brief(x) +
                    " in BASE, " + brief(y) + " in NEW");
  };
  differs("mpi_library", b.mpi_library, n.mpi_library);
  differs("mpi_version", b.mpi_version, n.mpi_version);
  differs("ranks", b.ranks, n.ranks);
  differs("nodes", b.nodes, n.nodes);
  differs("hosts", b.hosts, n.hosts);
  // Fields newer than some files: compared when both files have them.
  const auto both = [&](const char* what, const auto& x, const auto& y) {
    if (x && y) differs(what, *x, *y);
  };
  both("oversubscribed", b.oversubscribed, n.oversubscribed);
  both("waiting", b.waiting, n.waiting);
  both("machines", b.machines, n.machines);
  // Options that only select points (the points missing are listed) do not
  // change how a point is measured; every other option does.
  // --wait is not compared: `waiting`, what it chose, is. Nor is
  // --point-timeout: it bounds a fault, it does not change a measurement.
  // The synchronization (sync, clock_sync, sync_window_s) is compared by
  // sync_warnings(), older files included.
  static const std::set<std::string> selection = {
      "methods", "payloads",        "sizes", "plugin_dirs",  "max_memory",
      "wait",    "point_timeout_s", "sync",  "clock_sync",   "sync_window_s"};
  // The options by the names the files give them.
  const json bo = b.options, no = n.options;
  std::set<std::string> keys;
  for (const json* o : {&bo, &no})
    if (o->is_object())
      for (auto it = o->begin(); it != o->end(); ++it) keys.insert(it.key());
  for (const std::string& k : keys)
    if (!selection.count(k))
      differs("options." + k, bo.value(k, json()), no.value(k, json()));
}

// Two runs timed differently. A window point never matches one timed after
// a barrier (its definition says sync=window): the points are listed as in
// one file only, and this says why. Two window runs on different clocks or
// windows do match, and this says the times may differ for that.
void sync_warnings(const Document& base, const Document& now,
                   std::vector<std::string>& out) {
  const SyncSetting b = sync_setting(base), n = sync_setting(now);
  if (b.window != n.window) {
    out.push_back("synchronization differs: BASE " + b.text() + ", NEW " +
                  n.text() +
                  ": a point timed in windows never matches one timed after "
                  "a barrier (they time different things): their points "
                  "are not compared with each other");
    return;
  }
  if (!b.window) return;
  std::string what;
  if (!b.clock.empty() && !n.clock.empty() && b.clock != n.clock)
    what = "--clock-sync";
  if (!b.sync_window.empty() && !n.sync_window.empty() &&
      b.sync_window != n.sync_window)
    what += (what.empty() ? "" : " and ") + std::string("--sync-window");
  if (!what.empty())
    out.push_back("synchronization differs: BASE " + b.text() + ", NEW " +
                  n.text() + ": the window times of each point are compared, "
                  "but " + what + " changes when each operation starts and "
                  "how well the ranks agree on it; a change may be the "
                  "setting's, not the code's: measure both with one setting");
}

std::map<Key, const Record*> index_records(const Document& d,
                                           const std::string& side,
                                           std::vector<std::string>& warnings) {
  std::map<Key, const Record*> out;
  for (const Record& r : d.records)
    if (!out.emplace(key_of(r), &r).second)
      warnings.push_back(side + " has " + point_name(point_key(r)) +
                         " more than once; the first record is compared");
  return out;
}

std::vector<OnlyIn> only_in(const std::map<Key, const Record*>& mine,
                            const std::map<Key, const Record*>& theirs,
                            const Document& other) {
  std::map<Key, std::string> skipped;
  for (const Skip& s : other.skipped) skipped.emplace(key_of(s), s.reason);
  std::vector<OnlyIn> out;
  for (const auto& [key, rec] : mine) {
    if (theirs.count(key)) continue;
    auto s = skipped.find(key);
    out.push_back(
        {point_key(*rec), s == skipped.end() ? "" : "skipped: " + s->second});
  }
  return out;
}

// --relative: the group a record's point belongs to (its key without the
// method).
std::string group_of(const Record& r) {
  PointKey k = point_key(r);
  k.method.clear();
  std::string name = point_name(k);
  const std::string doubled = "//";
  const auto at = name.find(doubled);
  if (at != std::string::npos) name.erase(at, 1);
  return name;
}

// A copy of `r` whose times are multiplied by `factor` (samples, summary,
// bandwidth); phases, parts and metrics are left as they are.
Record scale_times(const Record& r, double factor) {
  Record out = r;
  for (auto* v : {&out.samples_max, &out.samples_min, &out.samples_avg})
    for (double& x : *v) x *= factor;
  out.time = summarize(out.samples_max);
  out.bandwidth = r.bandwidth / factor;
  return out;
}

// --relative: each group's common shift (the median of NEW's medians over
// BASE's, over 3 points or more), warned about where beyond the threshold.
std::map<std::string, double> group_shifts(
    const std::map<Key, const Record*>& b,
    const std::map<Key, const Record*>& n, Comparison& c) {
  std::map<std::string, std::vector<double>> ratios;
  for (const auto& [key, rec] : b) {
    auto other = n.find(key);
    if (other != n.end() && samples_median(*rec) > 0 &&
        samples_median(*other->second) > 0)
      ratios[group_of(*rec)].push_back(samples_median(*other->second) /
                                       samples_median(*rec));
  }
  std::map<std::string, double> shift_of;
  for (auto& [group, r] : ratios) {
    if (static_cast<int>(r.size()) < GroupShift::kMinGroup) continue;
    const double shift = quantile(r, 0.5);
    shift_of[group] = shift;
    c.shifts.push_back({group, static_cast<int>(r.size()), shift});
    if (std::max(shift, 1 / shift) > 1 + c.options.threshold)
      c.warnings.push_back(
          "--relative: the " + std::to_string(r.size()) + " points of " +
          group + " moved together by " + fixed("%+.1f", 100 * (shift - 1)) +
          "% (the machine, or something every method shares); each is judged "
          "against that shift");
  }
  return shift_of;
}

}  // namespace mpiarena
