// Compare's noise judgement: the files' noise figures, the change each
// point can resolve, the threshold the files support (compare.hpp).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <mpiarena/stats.hpp>
#include <set>
#include <tuple>
#include <utility>

#include "core/analysis/compare/compare.hpp"
#include "core/analysis/compare/compare_internal.hpp"

namespace mpiarena {

using nlohmann::json;

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

// How much better the better of two values is, as a ratio minus one: the
// same for a time and for the bandwidth derived from it, so the metrics of
// a point never disagree, and symmetric (5% slower and 5% faster are both
// a factor of 1.05).
double factor(double base, double now) {
  const double hi = std::max(base, now), lo = std::min(base, now);
  if (hi == lo) return 0;
  return lo > 0 ? hi / lo - 1 : HUGE_VAL;
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

NoiseFigures noise_figures(const Context& context,
                           const std::vector<const Record*>& records) {
  NoiseFigures f;
  f.points = records.size();
  if (context.cpus_per_node.value_or(0) >= 1) f.cpus = *context.cpus_per_node;
  if (context.noise) f.preemptions_counted = context.noise->preemption_counts;
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
  s.points = n;
  s.value = usable[nearest_rank(n, kSuggestionQuantile) - 1]->resolvable;
  std::vector<double> values;
  for (const PointComparison* p : usable) {
    values.push_back(p->resolvable);
    if (p->resolvable <= s.value) ++s.within;
    if (p->resolvable > kLargestThreshold) ++s.beyond;
  }
  s.median = quantile(values, 0.5);  // NaN between two infinite values
  if (!(s.median <= kLargestThreshold)) s.median = kLargestThreshold;
  s.widest = point_name(usable.back()->key);
  s.widest_value = usable.back()->resolvable;
  s.widest_spread = usable.back()->spread;
  if (s.value > kLargestThreshold) {
    s.capped = true;
    s.value = kLargestThreshold;
    s.within = n - s.beyond;  // of the points, those resolving 1000%
  }
  return s;
}

}  // namespace mpiarena
