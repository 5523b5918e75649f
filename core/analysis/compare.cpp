#include "compare.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
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

int Comparison::regressed_while_noisy() const {
  return static_cast<int>(
      std::count_if(points.begin(), points.end(), [](const PointComparison& p) {
        return p.verdict == Outcome::regressed &&
               (p.base_noise.noisy || p.new_noise.noisy);
      }));
}

int Comparison::state_changed() const {
  return static_cast<int>(
      std::count_if(points.begin(), points.end(),
                    [](const PointComparison& p) { return p.state_changed; }));
}

int Comparison::exit_code() const {
  if (points.empty()) return 2;  // nothing compared: a gate must not pass
  return count(Outcome::regressed) > 0 ? 1 : 0;
}

double quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const double h = static_cast<double>(v.size() - 1) * std::clamp(q, 0.0, 1.0);
  const std::size_t lo = static_cast<std::size_t>(std::floor(h));
  const std::size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (h - static_cast<double>(lo)) * (v[hi] - v[lo]);
}

double two_sided_z(double p) {
  // erfc(z / sqrt 2) is the two-sided tail of the standard normal; it
  // falls with z: bisection.
  double lo = 0, hi = 40;
  for (int i = 0; i < 200; ++i) {
    const double mid = (lo + hi) / 2;
    (std::erfc(mid / std::sqrt(2.0)) > p ? lo : hi) = mid;
  }
  return (lo + hi) / 2;
}

double median_relative_se(const std::vector<double>& samples) {
  if (samples.size() < 2) return -1;
  const double median = quantile(samples, 0.5);
  if (!(median > 0)) return -1;
  // sqrt(pi / 2) sigma / sqrt(n) is the standard error of the median of n
  // normal samples; IQR / 1.349 (twice the normal's 75% quantile) estimates
  // sigma without the outliers a timing distribution has.
  const double iqr = quantile(samples, 0.75) - quantile(samples, 0.25);
  const double sigma = iqr / (2 * 0.6744897501960817);
  return std::sqrt(std::acos(-1.0) / 2) * sigma /
         (median * std::sqrt(static_cast<double>(samples.size())));
}

double resolvable_change(const std::vector<double>& a,
                         const std::vector<double>& b, double alpha) {
  const double sa = median_relative_se(a), sb = median_relative_se(b);
  if (sa < 0 || sb < 0) return -1;
  return std::expm1(two_sided_z(alpha) * std::hypot(sa, sb));
}

std::string suggested_percent(double v) {
  char buf[32];
  if (v * 100 < 1e4)
    std::snprintf(buf, sizeof buf, "%.1f%%", std::ceil(v * 1000 - 1e-9) / 10);
  else
    std::snprintf(buf, sizeof buf, "%.3g%%", v * 100);
  return buf;
}

std::string describe(const NoiseFigures& f) {
  if (f.recorded == 0) return "not recorded";
  char buf[256];
  std::snprintf(buf, sizeof buf, "%zu of %zu points noisy", f.noisy_points,
                f.recorded);
  std::string s = buf;
  if (f.steal_fraction >= 0) {
    std::snprintf(buf, sizeof buf,
                  ", steal %.1f%% of sample time, %.1f preemptions/s",
                  100 * f.steal_fraction, f.preemptions_per_s);
    s += buf;
  }
  if (f.cpu_mhz > 0) {
    std::snprintf(buf, sizeof buf, ", CPU %.0f MHz", f.cpu_mhz);
    s += buf;
  } else {
    s += ", CPU clock not exposed";
  }
  if (f.core_to_core_ns > 0) {
    std::snprintf(buf, sizeof buf, ", core-to-core %.0f ns", f.core_to_core_ns);
    s += buf;
  }
  if (f.recorded < f.points) {
    std::snprintf(buf, sizeof buf, " (noise recorded for %zu of %zu points)",
                  f.recorded, f.points);
    s += buf;
  }
  return s;
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

Key key_of(const Skip& s) {  // a skip does not know its pairs: one
  return {s.suite, s.method, s.payload, s.ranks, s.bytes, 0};
}

}  // namespace

PointKey point_key(const Record& r) {
  return {r.suite, r.method, r.payload, r.size_label,
          r.bytes, r.ranks,  r.pairs,   across_nodes(r)};
}

namespace {

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

std::string fixed(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

PointNoise point_noise(const Record& r) {
  PointNoise p;
  if (!r.noise.recorded) return p;
  p.recorded = true;
  p.noisy = r.noise.noisy;
  p.noisy_samples = r.noise.noisy_samples;
  p.samples = static_cast<int>(r.noise.steal_s.size());
  p.retries = r.noise.retries;
  p.reason = r.noise.reason;
  p.core_to_core_ns = median_core_to_core(r.noise);
  return p;
}

// The wall time of a record's samples: per sample, every part's loop (its
// per-operation time times its inner iterations, unscaled), as the engine
// sums steal over the parts of a sample.
double sampled_seconds(const Record& r) {
  const double scale = r.time_scale > 0 ? r.time_scale : 1;
  auto wall = [scale](const std::vector<double>& samples,
                      std::int64_t iterations) {
    double sum = 0;
    for (double s : samples) sum += s;
    return sum * static_cast<double>(iterations) / scale;
  };
  if (r.parts.empty()) return wall(r.samples_max, r.inner_iterations);
  double total = 0;
  for (const PartTiming& p : r.parts)
    total += wall(p.samples_max, p.inner_iterations);
  return total;
}

NoiseFigures noise_figures(const nlohmann::json& context,
                           const std::vector<const Record*>& records) {
  NoiseFigures f;
  f.points = records.size();
  const json& cpus =
      context.contains("cpus_per_node") ? context["cpus_per_node"] : json();
  if (cpus.is_number() && cpus.get<double>() >= 1) f.cpus = cpus.get<int>();
  if (context.contains("noise") && context["noise"].is_object()) {
    const json& counted = context["noise"].value("preemption_counts", json());
    if (counted.is_boolean()) f.preemptions_counted = counted.get<bool>();
  }
  double steal = 0, preemptions = 0;
  std::vector<double> mhz, core_to_core;
  for (const Record* r : records) {
    if (!r->noise.recorded) continue;
    ++f.recorded;
    if (r->noise.noisy) ++f.noisy_points;
    f.samples += r->noise.steal_s.size();
    f.noisy_samples += static_cast<std::size_t>(r->noise.noisy_samples);
    f.retries += static_cast<std::size_t>(r->noise.retries);
    f.sampled_s += sampled_seconds(*r);
    for (double s : r->noise.steal_s) steal += s;
    for (int p : r->noise.preemptions) preemptions += p;
    mhz.insert(mhz.end(), r->noise.cpu_mhz.begin(), r->noise.cpu_mhz.end());
    core_to_core.insert(core_to_core.end(), r->noise.core_to_core_ns.begin(),
                        r->noise.core_to_core_ns.end());
  }
  if (f.recorded > 0 && f.sampled_s > 0) {
    f.steal_fraction = steal / (f.sampled_s * f.cpus);
    f.preemptions_per_s = preemptions / f.sampled_s;
  }
  if (!mhz.empty()) f.cpu_mhz = quantile(mhz, 0.5);
  if (!core_to_core.empty()) f.core_to_core_ns = quantile(core_to_core, 0.5);
  return f;
}

// Over kNoiseRatio times the other and more than `floor` above it.
bool markedly_above(double x, double y, double floor) {
  return x - y > floor && x > kNoiseRatio * y;
}

void compare_noise(NoiseComparison& nc) {
  const NoiseFigures &b = nc.base, &n = nc.now;
  if (b.recorded == 0 || n.recorded == 0) return;  // nothing to compare
  auto add = [&](const char* figure, bool base_noisier) {
    nc.differences.push_back({figure, base_noisier});
  };
  const double sb = static_cast<double>(b.noisy_points) /
                    static_cast<double>(b.recorded),
               sn = static_cast<double>(n.noisy_points) /
                    static_cast<double>(n.recorded);
  if (std::fabs(sb - sn) > kNoisyShareDifference) add("noisy_points", sb > sn);
  if (b.steal_fraction >= 0 && n.steal_fraction >= 0) {
    if (markedly_above(b.steal_fraction, n.steal_fraction, kStealDifference))
      add("steal", true);
    if (markedly_above(n.steal_fraction, b.steal_fraction, kStealDifference))
      add("steal", false);
  }
  if (b.preemptions_counted && n.preemptions_counted &&
      b.preemptions_per_s >= 0 && n.preemptions_per_s >= 0) {
    if (markedly_above(b.preemptions_per_s, n.preemptions_per_s,
                       kPreemptionDifference))
      add("preemptions", true);
    if (markedly_above(n.preemptions_per_s, b.preemptions_per_s,
                       kPreemptionDifference))
      add("preemptions", false);
  }
  if (b.cpu_mhz > 0 && n.cpu_mhz > 0 &&
      factor(b.cpu_mhz, n.cpu_mhz) > kClockDifference)
    add("cpu_mhz", b.cpu_mhz < n.cpu_mhz);  // the slower clock
  if (b.core_to_core_ns > 0 && n.core_to_core_ns > 0 &&
      std::max(b.core_to_core_ns, n.core_to_core_ns) >
          kStateRatio * std::min(b.core_to_core_ns, n.core_to_core_ns))
    add("core_to_core", b.core_to_core_ns > n.core_to_core_ns);  // slower
  if (nc.differences.empty()) return;
  bool all_base = true, all_new = true;
  std::string what;
  for (const NoiseDifference& d : nc.differences) {
    (d.base_noisier ? all_new : all_base) = false;
    const char* side = d.base_noisier ? "BASE" : "NEW";
    if (!what.empty()) what += ", ";
    if (d.figure == "noisy_points")
      what += std::string("more noisy points in ") + side;
    else if (d.figure == "steal")
      what += std::string("more steal in ") + side;
    else if (d.figure == "preemptions")
      what += std::string("more preemptions in ") + side;
    else if (d.figure == "core_to_core")
      what += std::string("a slower machine state (core-to-core round trip ") +
              fixed("%.0f", std::max(b.core_to_core_ns, n.core_to_core_ns)) +
              " against " +
              fixed("%.0f", std::min(b.core_to_core_ns, n.core_to_core_ns)) +
              " ns) in " + side;
    else
      what += "a CPU clock " +
              fixed("%.1f", 100 * factor(b.cpu_mhz, n.cpu_mhz) /
                                (1 + factor(b.cpu_mhz, n.cpu_mhz))) +
              "% lower in " + side;
  }
  nc.warning = std::string(all_base  ? "BASE was measured in a noisier state "
                                       "than NEW"
                           : all_new ? "NEW was measured in a noisier state "
                                       "than BASE"
                                     : "BASE and NEW were measured in "
                                       "differently noisy states") +
               " (" + what + "): BASE: " + describe(b) +
               "; NEW: " + describe(n);
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

PointComparison compare_pair(const Record& b, const Record& n,
                             const CompareOptions& o) {
  PointComparison pc;
  pc.key = point_key(n);
  pc.test = mann_whitney(b.samples_max, n.samples_max);
  pc.base_noise = point_noise(b);
  pc.new_noise = point_noise(n);
  if (min_p_value(pc.test.n1, pc.test.n2) < o.alpha)
    pc.resolvable = resolvable_change(b.samples_max, n.samples_max, o.alpha);
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
  // Measured in two machine states (the host moved the vCPUs between the
  // runs): every transfer between the ranks changed speed with it, so a
  // change is the machine's, not the code's. Not judged, as long as the
  // states can explain it: the time moved the way the state did, and by no
  // more than the states' own ratio (a transfer is not slowed more than a
  // cache line's round trip is). A failed verification stays a regression.
  const double cb = pc.base_noise.core_to_core_ns,
               cn = pc.new_noise.core_to_core_ns;
  const double factor = b.time.median > 0 ? n.time.median / b.time.median : 1;
  const bool explained = cb > 0 && cn > 0 &&
                         ((cn > cb && factor >= 1 && factor <= cn / cb) ||
                          (cn < cb && factor <= 1 && factor >= cn / cb));
  const bool two_states =
      cb > 0 && cn > 0 && std::max(cb, cn) > kStateRatio * std::min(cb, cn) &&
      n.verification != "failed" &&
      (pc.verdict == Outcome::regressed || pc.verdict == Outcome::improved);
  if (two_states && !explained)
    pc.note = std::string(
                  "measured in two machine states (core-to-core round "
                  "trip ") +
              fixed("%.0f", cb) + " ns in BASE, " + fixed("%.0f", cn) +
              " ns in NEW), but a time " + fixed("%.2f", factor) +
              "x BASE's is more than, or against, what the states explain: "
              "judged";
  if (two_states && explained) {
    pc.state_changed = true;
    pc.note = std::string(
                  "measured in two machine states (core-to-core "
                  "round trip ") +
              fixed("%.0f", cb) + " ns in BASE, " + fixed("%.0f", cn) +
              " ns in NEW, more than " + fixed("%.0f", kStateRatio) +
              "x apart): the " + verdict_name(pc.verdict) +
              " change is not judged; measure both again in one state "
              "(docs/ci.md, \"Machine states\")";
    pc.verdict = Outcome::noisy;
  }
  // A change measured while the machine was noisy keeps its verdict (CI
  // must not pass a regression because the run was disturbed), but says so.
  const bool bn = pc.base_noise.noisy, nn = pc.new_noise.noisy;
  if ((bn || nn) &&
      (pc.verdict == Outcome::regressed || pc.verdict == Outcome::improved)) {
    std::string why;
    if (bn) why += "BASE: " + pc.base_noise.reason;
    if (nn) why += (bn ? "; NEW: " : "NEW: ") + pc.new_noise.reason;
    const bool regressed = pc.verdict == Outcome::regressed;
    pc.note += (pc.note.empty() ? "" : "; ") +
               std::string("measured while the machine was noisy in ") +
               (bn && nn ? "both files"
                : bn     ? "BASE"
                         : "NEW") +
               " (" + why + "): the " + verdict_name(pc.verdict) +
               " verdict stands" + (regressed ? " and fails the gate" : "") +
               "; measure again to confirm it";
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

ThresholdSuggestion suggest_threshold(
    const std::vector<PointComparison>& points) {
  ThresholdSuggestion s;
  std::vector<const PointComparison*> usable;
  for (const PointComparison& p : points)
    if (p.resolvable >= 0)
      usable.push_back(&p);
    else
      ++s.excluded;
  if (usable.empty()) return s;
  std::sort(usable.begin(), usable.end(),
            [](const PointComparison* x, const PointComparison* y) {
              return x->resolvable < y->resolvable;
            });
  // Nearest rank: the smallest value that at least kSuggestionQuantile of
  // the points resolve.
  const std::size_t n = usable.size();
  const auto rank = static_cast<std::size_t>(
      std::ceil(kSuggestionQuantile * static_cast<double>(n) - 1e-9));
  s.points = n;
  s.value = usable[std::clamp<std::size_t>(rank, 1, n) - 1]->resolvable;
  std::vector<double> values;
  for (const PointComparison* p : usable) {
    values.push_back(p->resolvable);
    if (p->resolvable <= s.value) ++s.within;
  }
  s.median = quantile(values, 0.5);
  s.widest = point_name(usable.back()->key);
  s.widest_value = usable.back()->resolvable;
  return s;
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
  std::vector<const Record*> matched_base, matched_new;
  // --relative: each group's common shift, NEW's samples divided by it.
  std::map<std::string, std::vector<double>> ratios;
  if (options.relative)
    for (const auto& [key, rec] : b) {
      auto other = n.find(key);
      if (other != n.end() && rec->time.median > 0 &&
          other->second->time.median > 0)
        ratios[group_of(*rec)].push_back(other->second->time.median /
                                         rec->time.median);
    }
  std::map<std::string, double> shift_of;
  for (auto& [group, r] : ratios) {
    if (static_cast<int>(r.size()) < GroupShift::kMinGroup) continue;
    const double shift = quantile(r, 0.5);
    shift_of[group] = shift;
    c.shifts.push_back({group, static_cast<int>(r.size()), shift});
    if (std::max(shift, 1 / shift) > 1 + options.threshold)
      c.warnings.push_back(
          "--relative: the " + std::to_string(r.size()) + " points of " +
          group + " moved together by " + fixed("%+.1f", 100 * (shift - 1)) +
          "% (the machine, or something every method shares); each is judged "
          "against that shift");
  }
  for (const auto& [key, rec] : b) {
    auto other = n.find(key);
    if (other == n.end()) continue;
    const auto shifted = shift_of.find(group_of(*rec));
    if (shifted != shift_of.end()) {
      const Record scaled = scale_times(*other->second, 1 / shifted->second);
      c.points.push_back(compare_pair(*rec, scaled, options));
      c.points.back().note +=
          (c.points.back().note.empty() ? "" : "; ") +
          std::string("judged against its group's shift of ") +
          fixed("%+.1f", 100 * (shifted->second - 1)) + "%";
    } else {
      c.points.push_back(compare_pair(*rec, *other->second, options));
    }
    matched_base.push_back(rec);
    matched_new.push_back(other->second);
    const UTest& t = c.points.back().test;
    if (!(min_p_value(t.n1, t.n2) < options.alpha)) ++too_few;
  }
  c.noise.base = noise_figures(base.context, matched_base);
  c.noise.now = noise_figures(now.context, matched_new);
  compare_noise(c.noise);
  if (!c.noise.warning.empty()) c.warnings.push_back(c.noise.warning);
  c.suggestion = suggest_threshold(c.points);
  if (c.suggestion.value > options.threshold)
    c.warnings.push_back(
        "the threshold " + fixed("%g", 100 * options.threshold) +
        "% is below " + suggested_percent(c.suggestion.value) +
        ", the smallest these files support: a change that small is within "
        "the uncertainty of the medians of some points (docs/ci.md)");
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
        "no point is in both files (points are matched by suite, method "
        "with its option values, METHOD[OPTION=VALUE,...], payload, size, "
        "ranks and, for ping-pong, the pairs at once)");
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

json positive_or_null(double v) { return v >= 0 ? json(v) : json(nullptr); }

json noise_json(const PointNoise& n) {
  if (!n.recorded) return nullptr;
  return {{"noisy", n.noisy},
          {"noisy_samples", n.noisy_samples},
          {"samples", n.samples},
          {"retries", n.retries},
          {"reason", n.reason},
          {"core_to_core_ns", positive_or_null(n.core_to_core_ns)}};
}

json figures_json(const NoiseFigures& f) {
  json j = {{"recorded", f.recorded > 0},
            {"points", f.points},
            {"points_recorded", f.recorded}};
  if (f.recorded == 0) return j;
  j.update({{"noisy_points", f.noisy_points},
            {"samples", f.samples},
            {"noisy_samples", f.noisy_samples},
            {"retries", f.retries},
            {"sampled_s", f.sampled_s},
            {"cpus", f.cpus},
            {"steal_fraction", positive_or_null(f.steal_fraction)},
            {"preemptions_per_s", positive_or_null(f.preemptions_per_s)},
            {"preemptions_counted", f.preemptions_counted},
            {"cpu_mhz_median", f.cpu_mhz > 0 ? json(f.cpu_mhz) : json()},
            {"core_to_core_ns_median", positive_or_null(f.core_to_core_ns)}});
  return j;
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
    j["noise"] = {{"base", noise_json(p.base_noise)},
                  {"new", noise_json(p.new_noise)}};
    j["resolvable_change"] = positive_or_null(p.resolvable);
    j["state_changed"] = p.state_changed;
    points.push_back(j);
  }
  json differences = json::array();
  for (const NoiseDifference& d : c.noise.differences)
    differences.push_back(
        {{"figure", d.figure}, {"noisier", d.base_noisier ? "base" : "new"}});
  const ThresholdSuggestion& s = c.suggestion;
  json suggested = {{"value", positive_or_null(s.value)},
                    {"quantile", kSuggestionQuantile},
                    {"points", s.points},
                    {"within", s.within},
                    {"excluded", s.excluded},
                    {"median", positive_or_null(s.median)},
                    {"widest", s.widest.empty() ? json() : json(s.widest)},
                    {"widest_value", positive_or_null(s.widest_value)},
                    {"threshold_below", s.value > c.options.threshold}};
  json shifts = json::array();
  for (const GroupShift& g : c.shifts)
    shifts.push_back(
        {{"group", g.group}, {"points", g.points}, {"shift", g.shift}});
  return {
      {"threshold", c.options.threshold},
      {"alpha", c.options.alpha},
      {"relative", c.options.relative},
      {"group_shifts", shifts},
      {"regressed", c.count(Outcome::regressed) > 0},
      {"exit_code", c.exit_code()},
      {"counts",
       {{"regressed", c.count(Outcome::regressed)},
        {"regressed_while_noisy", c.regressed_while_noisy()},
        {"improved", c.count(Outcome::improved)},
        {"unchanged", c.count(Outcome::unchanged)},
        {"noisy", c.count(Outcome::noisy)},
        {"state_changed", c.state_changed()},
        {"only_in_base", c.only_base.size()},
        {"only_in_new", c.only_new.size()}}},
      {"warnings", c.warnings},
      {"noise",
       {{"base", figures_json(c.noise.base)},
        {"new", figures_json(c.noise.now)},
        {"differences", differences},
        {"warning", c.noise.warning.empty() ? json() : json(c.noise.warning)}}},
      {"suggested_threshold", suggested},
      {"points", points},
      {"only_in_base", only_json(c.only_base, "in_new")},
      {"only_in_new", only_json(c.only_new, "in_base")}};
}

}  // namespace mpiarena
