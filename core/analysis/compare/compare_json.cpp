// A comparison as JSON (compare.hpp to_json).
#include "core/analysis/compare/compare.hpp"
#include "core/analysis/compare/compare_procedures.hpp"

namespace mpiarena {

using nlohmann::json;

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

namespace {

// How the two sides were measured and judged (compare_procedures.hpp).
json procedure_json(const Comparison& c) {
  const CompareOptions& o = c.options;
  return {
      {"name", procedure_name(o.procedure)},
      {"launches_base", o.launches_base},
      {"launches_new", o.launches_new},
      {"test", o.procedure == Procedure::launches ? "welch_t_log_launch_medians"
                                                  : "mann_whitney_u"},
      {"correction", o.holm ? "holm" : "none"},
      {"tests", c.tests},
      {"summary", procedure_line(c)}};
}

// One point of the comparison: its key, its U test, its metrics, its
// verdict and noise.
json point_json(const PointComparison& p) {
  json metrics = json::array();
  for (const MetricChange& m : p.metrics) {
    json e = {{"metric", m.metric},
              {"better", m.higher_is_better ? "higher" : "lower"},
              {"base", m.base},
              {"new", m.now},
              {"change", m.change},
              {"verdict", verdict_name(m.verdict)}};
    if (m.p >= 0) e["p"] = m.p;
    if (m.p_adjusted >= 0) e["p_adjusted"] = m.p_adjusted;
    if (!m.unit.empty()) e["unit"] = m.unit;
    metrics.push_back(std::move(e));
  }
  json j = key_json(p.key);
  j["samples"] = {p.test.n1, p.test.n2};
  j["u"] = p.test.u;
  j["p"] = p.test.p;
  j["p_adjusted"] = p.p_adjusted >= 0 ? json(p.p_adjusted) : json();
  j["test"] = p.test.exact ? "exact" : "normal approximation";
  j["ties"] = p.test.ties;
  j["metrics"] = metrics;
  j["verdict"] = verdict_name(p.verdict);
  j["note"] = p.note;
  j["noise"] = {{"base", noise_json(p.base_noise)},
                {"new", noise_json(p.new_noise)}};
  j["resolvable_change"] = positive_or_null(p.resolvable);
  j["state_changed"] = p.state_changed;
  return j;
}

}  // namespace

json to_json(const Comparison& c) {
  json points = json::array();
  for (const PointComparison& p : c.points) points.push_back(point_json(p));
  json differences = json::array();
  for (const NoiseDifference& d : c.noise.differences)
    differences.push_back(
        {{"figure", d.figure}, {"noisier", d.base_noisier ? "base" : "new"}});
  const ThresholdSuggestion& s = c.suggestion;
  json suggested = {{"value", positive_or_null(s.value)},
                    {"capped", s.capped},
                    {"beyond_largest_threshold", s.beyond},
                    {"widest_spread", positive_or_null(s.widest_spread)},
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
      {"procedure", procedure_json(c)},
      {"group_shifts", shifts},
      {"regressed", c.count(Outcome::regressed) > 0},
      {"exit_code", c.exit_code()},
      {"refusal", c.refusal()},
      {"powerless", c.powerless},
      {"incomplete", c.incomplete},
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
      {"mpi_settings", settings_json(c.settings)},
      {"labels", {{"base", c.base_label}, {"new", c.new_label}}},
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
