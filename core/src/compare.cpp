#include "compare.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <tuple>
#include <utility>

namespace mpiarena {

using nlohmann::json;

const char* verdict_name(Outcome v) {
  switch (v) {
    case Outcome::improved:
      return "improved";
    case Outcome::regressed:
      return "regressed";
    case Outcome::noisy:
      return "noisy";
    case Outcome::unchanged:
      break;
  }
  return "unchanged";
}

std::string point_name(const PointKey& k) {
  return k.suite + "/" + k.method + "/" + k.payload + "/" +
         std::to_string(k.bytes) + "/np" + std::to_string(k.ranks) +
         (k.pairs > 1 ? "/" + std::to_string(k.pairs) + "pairs" : "") +
         (k.placement.empty() ? "" : "/" + k.placement);
}

int Comparison::count(Outcome v) const {
  return static_cast<int>(
      std::count_if(points.begin(), points.end(),
                    [v](const PointComparison& p) { return p.verdict == v; }));
}

int Comparison::exit_code() const {
  if (points.empty()) return 2;  // nothing compared: a gate must not pass
  return count(Outcome::regressed) > 0 ? 1 : 0;
}

namespace {

// Suite, method, payload, ranks, bytes and, for pairwise methods, the pairs
// that ran at once (--pairs one and all measure different things) and
// whether they crossed nodes (--pairs intra and inter do too).
using Key =
    std::tuple<std::string, std::string, std::string, int, std::size_t, int>;

// One pair (and records written before `pairs` existed) count as 0.
int several_pairs(int pairs) { return pairs > 1 ? pairs : 0; }

// Pairs within a node (and records written before pair_placement existed,
// all from one node) have none.
std::string across_nodes(const Record& r) {
  return r.pair_placement == "intra" ? "" : r.pair_placement;
}

// A size in total (--size-basis total) is not the same point as that size
// per rank; a cold cache (--cache cold) not the same as a hot one; a
// ping-pong on separate buffers (--buffers separate) not the same as one on
// a shared buffer (files written before --buffers existed used one).
Key key_of(const Record& r) {
  const std::string across = across_nodes(r);
  return {r.suite,
          r.method,
          r.payload + (r.size_total ? "/total" : "") +
              (across.empty() ? "" : "/" + across) +
              (r.cache == "cold" ? "/cold" : "") +
              (r.buffers == "separate" ? "/separate" : ""),
          r.ranks,
          r.bytes,
          several_pairs(r.pairs)};
}

Key key_of(const Skip& s) {  // a skip does not know its pairs: one
  return {s.suite, s.method, s.payload, s.ranks, s.bytes, 0};
}

PointKey point_key(const Record& r) {
  return {r.suite, r.method, r.payload, r.size_label,
          r.bytes, r.ranks,  r.pairs,   across_nodes(r)};
}

double relative_change(double base, double now) {
  if (base == now) return 0;
  // As gbench does for a zero base; magnitudes, so the sign follows the
  // difference for a negative metric too.
  if (base <= 0) return (now - base) / ((std::fabs(now) + std::fabs(base)) / 2);
  return (now - base) / base;
}

// How much better the better of two values is, as a ratio minus one: the
// same for a time and for the bandwidth derived from it, so the metrics of
// a point never disagree, and symmetric (5% slower and 5% faster are both
// a factor of 1.05).
double factor(double base, double now) {
  const double hi = std::max(base, now), lo = std::min(base, now);
  if (hi == lo) return 0;
  return lo > 0 ? hi / lo - 1 : HUGE_VAL;
}

MetricChange classify(std::string metric, bool higher_is_better, double base,
                      double now, double p, const CompareOptions& o) {
  MetricChange m;
  m.metric = std::move(metric);
  m.higher_is_better = higher_is_better;
  m.base = base;
  m.now = now;
  m.change = relative_change(base, now);
  if (!(factor(base, now) > o.threshold))
    m.verdict = Outcome::unchanged;
  else if (!(p < o.alpha))
    m.verdict = Outcome::noisy;
  else
    // By the sign of the difference, not of the relative change: a metric
    // may be 0 or negative in BASE (an overlap of -1 % that became 0 %).
    m.verdict = (now > base) == higher_is_better ? Outcome::improved
                                                 : Outcome::regressed;
  return m;
}

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

PointComparison compare_pair(const Record& b, const Record& n,
                             const CompareOptions& o) {
  PointComparison pc;
  pc.key = point_key(n);
  pc.test = mann_whitney(b.samples_max, n.samples_max);
  pc.metrics.push_back(
      classify("time_s", false, b.time.median, n.time.median, pc.test.p, o));
  if (b.moves_data && n.moves_data && b.time.median > 0 && n.time.median > 0)
    pc.metrics.push_back(classify(
        "bandwidth_Bps", true,
        static_cast<double>(b.payload_bytes) / b.time.median,
        static_cast<double>(n.payload_bytes) / n.time.median, pc.test.p, o));
  // Contract v4: phases, other parts and the plugin's metrics, each judged
  // on its own samples in its own direction.
  auto own = [&](std::string name, bool higher, double bv, double nv,
                 const std::vector<double>& bs, const std::vector<double>& ns,
                 std::string unit) {
    const double p = mann_whitney(bs, ns).p;
    MetricChange m = classify(std::move(name), higher, bv, nv, p, o);
    m.p = p;
    m.unit = std::move(unit);
    pc.metrics.push_back(std::move(m));
  };
  for (const PhaseTiming& bp : b.phases)
    for (const PhaseTiming& np : n.phases)
      if (bp.name == np.name)
        own("phase:" + bp.name, false, bp.time.median, np.time.median,
            bp.samples_max, np.samples_max, "s");
  for (const PartTiming& bp : b.parts)
    for (const PartTiming& np : n.parts)
      if (bp.name == np.name && bp.name != n.headline_part)
        own("part:" + bp.name, false, bp.time.median, np.time.median,
            bp.samples_max, np.samples_max, "s");
  for (const MetricValue& bm : b.metrics)
    for (const MetricValue& nm : n.metrics)
      if (bm.name == nm.name)
        own("metric:" + bm.name, nm.higher_is_better, bm.value, nm.value,
            bm.samples, nm.samples, nm.unit);
  for (const MetricChange& m : pc.metrics)
    pc.verdict = std::max(pc.verdict, m.verdict);
  if (n.verification == "failed") {
    pc.verdict = Outcome::regressed;
    pc.note = "verification failed in NEW: " + n.verification_message;
  } else if (b.verification == "failed") {
    pc.note = "verification failed in BASE; NEW: " + n.verification;
  } else if (pc.verdict == Outcome::noisy &&
             !(min_p_value(pc.test.n1, pc.test.n2) < o.alpha)) {
    pc.note = std::to_string(pc.test.n1) + " vs " + std::to_string(pc.test.n2) +
              " samples: the smallest possible p is " +
              number(min_p_value(pc.test.n1, pc.test.n2)) +
              ", never below alpha " + number(o.alpha) + "; use at least " +
              std::to_string(min_samples_for(o.alpha)) +
              " repetitions on both sides";
  } else if (pc.verdict == Outcome::noisy) {
    const MetricChange* noisy = &pc.metrics.front();
    for (const MetricChange& m : pc.metrics)
      if (m.verdict == Outcome::noisy) {
        noisy = &m;
        break;
      }
    const double p = noisy->p >= 0 ? noisy->p : pc.test.p;
    pc.note = (noisy->p >= 0 ? noisy->metric + ": " : std::string()) +
              "the change is beyond the threshold but p = " + number(p) +
              " is not below alpha " + number(o.alpha);
  }
  return pc;
}

std::string brief(const json& v) {
  std::string s = v.is_string() ? v.get<std::string>() : v.dump();
  if (s.size() > 60) s = s.substr(0, 57) + "...";
  return "'" + s + "'";
}

void context_warnings(const json& b, const json& n,
                      std::vector<std::string>& out) {
  auto differs = [&](const std::string& what, const json& x, const json& y) {
    if (x != y)
      out.push_back("context differs: " + what + " is " + brief(x) +
                    " in BASE, " + brief(y) + " in NEW");
  };
  for (const char* field :
       {"mpi_library", "mpi_version", "ranks", "nodes", "hosts"})
    differs(field, b.value(field, json()), n.value(field, json()));
  // Fields newer than some files: compared when both files have them.
  for (const char* field : {"oversubscribed", "waiting", "machines"})
    if (b.contains(field) && n.contains(field))
      differs(field, b[field], n[field]);
  // Options that only select points (the points missing are listed) do not
  // change how a point is measured; every other option does.
  // --wait is not compared: `waiting`, what it chose, is. Nor is
  // --point-timeout: it bounds a fault, it does not change a measurement.
  static const std::set<std::string> selection = {
      "methods",    "payloads", "sizes",          "plugin_dirs",
      "max_memory", "wait",     "point_timeout_s"};
  const json none = json::object();
  const json& bo = b.contains("options") ? b["options"] : none;
  const json& no = n.contains("options") ? n["options"] : none;
  std::set<std::string> keys;
  for (const json* o : {&bo, &no})
    if (o->is_object())
      for (auto it = o->begin(); it != o->end(); ++it) keys.insert(it.key());
  for (const std::string& k : keys)
    if (!selection.count(k))
      differs("options." + k, bo.value(k, json()), no.value(k, json()));
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

}  // namespace

Comparison compare_documents(const Document& base, const Document& now,
                             const CompareOptions& options) {
  Comparison c;
  c.options = options;
  context_warnings(base.context, now.context, c.warnings);
  if (!base.complete)
    c.warnings.push_back("BASE is an incomplete (interrupted) run");
  if (!now.complete)
    c.warnings.push_back("NEW is an incomplete (interrupted) run");
  const auto b = index_records(base, "BASE", c.warnings);
  const auto n = index_records(now, "NEW", c.warnings);
  std::size_t too_few = 0;
  for (const auto& [key, rec] : b) {
    auto other = n.find(key);
    if (other == n.end()) continue;
    c.points.push_back(compare_pair(*rec, *other->second, options));
    const UTest& t = c.points.back().test;
    if (!(min_p_value(t.n1, t.n2) < options.alpha)) ++too_few;
  }
  if (too_few > 0)
    c.warnings.push_back(
        std::to_string(too_few) +
        " point(s) have too few samples for the U test ever to reach p < " +
        number(options.alpha) + " (at least " +
        std::to_string(min_samples_for(options.alpha)) +
        " repetitions on both sides are needed): a change beyond the "
        "threshold there is 'noisy', never 'regressed'");
  if (c.points.empty() && !b.empty() && !n.empty())
    c.warnings.push_back(
        "no point is in both files (points are matched by suite, method, "
        "payload, size, ranks and, for ping-pong, the pairs at once)");
  c.only_base = only_in(b, n, now);
  c.only_new = only_in(n, b, base);
  return c;
}

namespace {

json key_json(const PointKey& k) {
  return {{"name", point_name(k)},
          {"suite", k.suite},
          {"method", k.method},
          {"payload", k.payload},
          {"size_label", k.size_label},
          {"bytes", k.bytes},
          {"ranks", k.ranks},
          {"pairs", k.pairs},
          {"placement", k.placement.empty() ? "intra" : k.placement}};
}

json only_json(const std::vector<OnlyIn>& items, const char* field) {
  json out = json::array();
  for (const OnlyIn& o : items) {
    json j = key_json(o.key);
    j[field] = o.other.empty() ? json(nullptr) : json(o.other);
    out.push_back(j);
  }
  return out;
}

}  // namespace

json to_json(const Comparison& c) {
  json points = json::array();
  for (const PointComparison& p : c.points) {
    json metrics = json::array();
    for (const MetricChange& m : p.metrics) {
      json e = {{"metric", m.metric},
                {"better", m.higher_is_better ? "higher" : "lower"},
                {"base", m.base},
                {"new", m.now},
                {"change", m.change},
                {"verdict", verdict_name(m.verdict)}};
      if (m.p >= 0) e["p"] = m.p;
      if (!m.unit.empty()) e["unit"] = m.unit;
      metrics.push_back(std::move(e));
    }
    json j = key_json(p.key);
    j["samples"] = {p.test.n1, p.test.n2};
    j["u"] = p.test.u;
    j["p"] = p.test.p;
    j["test"] = p.test.exact ? "exact" : "normal approximation";
    j["ties"] = p.test.ties;
    j["metrics"] = metrics;
    j["verdict"] = verdict_name(p.verdict);
    j["note"] = p.note;
    points.push_back(j);
  }
  return {{"threshold", c.options.threshold},
          {"alpha", c.options.alpha},
          {"regressed", c.count(Outcome::regressed) > 0},
          {"exit_code", c.exit_code()},
          {"counts",
           {{"regressed", c.count(Outcome::regressed)},
            {"improved", c.count(Outcome::improved)},
            {"unchanged", c.count(Outcome::unchanged)},
            {"noisy", c.count(Outcome::noisy)},
            {"only_in_base", c.only_base.size()},
            {"only_in_new", c.only_new.size()}}},
          {"warnings", c.warnings},
          {"points", points},
          {"only_in_base", only_json(c.only_base, "in_new")},
          {"only_in_new", only_json(c.only_new, "in_base")}};
}

}  // namespace mpiarena
