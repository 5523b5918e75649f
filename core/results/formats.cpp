#include "formats.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <mpiarena/sizes.hpp>
#include <sstream>
#include <tuple>

#include "breakdown.hpp"

namespace mpiarena {

using nlohmann::json;

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

namespace {

// Shortest text that reads back as the same double ("1.5e-06").
std::string exact(double v) { return json(v).dump(); }

// "app=3.3e-06;comm=2.07e-05": name=median of each phase or part.
template <class T>
std::string pairs_of(const std::vector<T>& items) {
  std::string out;
  for (const T& t : items)
    out += (out.empty() ? "" : ";") + t.name + "=" + exact(t.time.median);
  return out;
}
std::string metrics_of(const Record& r) {
  std::string out;
  for (const MetricValue& m : r.metrics)
    out += (out.empty() ? "" : ";") + m.name + "=" + exact(m.value);
  return out;
}

}  // namespace

std::string to_csv(const Document& doc) {
  std::ostringstream out;
  const auto& columns = csv_columns();
  for (std::size_t i = 0; i < columns.size(); ++i)
    out << (i ? "," : "") << columns[i];
  out << "\n";
  for (const Record& r : doc.records) {
    const std::vector<std::string> cells = {
        r.suite,
        r.method,
        r.payload,
        r.size_label,
        std::to_string(r.bytes),
        std::to_string(r.payload_bytes),
        std::to_string(r.ranks),
        std::to_string(r.inner_iterations),
        std::to_string(r.repetitions),
        exact(r.time.median),
        exact(r.time.min),
        exact(r.time.mean),
        exact(r.time.max),
        exact(r.time.stddev),
        exact(r.time.cv),
        r.moves_data ? exact(r.bandwidth) : "",
        r.verification,
        r.verification_message,
        pairs_of(r.phases),
        pairs_of(r.parts),
        metrics_of(r)};
    for (std::size_t i = 0; i < cells.size(); ++i)
      out << (i ? "," : "") << csv_field(cells[i]);
    out << "\n";
  }
  return out.str();
}

std::string benchmark_name(const Record& r) {
  return point_name({r.suite, r.method, r.payload, r.size_label, r.bytes,
                     r.ranks, r.pairs,
                     r.pair_placement == "intra" ? "" : r.pair_placement});
}

json to_gbench(const Document& doc) {
  const json& ctx = doc.context;
  std::string hosts;
  if (ctx.contains("hosts") && ctx["hosts"].is_array())
    for (const json& h : ctx["hosts"])
      hosts += (hosts.empty() ? "" : ",") + h.get<std::string>();
  std::string executable = "runner";
  if (ctx.contains("command_line") && !ctx["command_line"].empty())
    executable = ctx["command_line"][0].get<std::string>();
  json context = {{"date", ctx.value("start_time", "")},
                  {"host_name", hosts},
                  {"executable", executable},
                  {"json_schema_version", 1},
                  {"mpiarena", ctx}};
  json benchmarks = json::array();
  std::map<std::tuple<std::string, std::string, std::string>, int> families;
  std::map<int, std::map<std::pair<std::size_t, int>, int>> instances;
  constexpr double kNs = 1e9;
  for (const Record& r : doc.records) {
    const int family =
        families
            .emplace(std::make_tuple(r.suite, r.method, r.payload),
                     static_cast<int>(families.size()))
            .first->second;
    auto& seen = instances[family];
    const int instance = seen.emplace(std::make_pair(r.bytes, r.ranks),
                                      static_cast<int>(seen.size()))
                             .first->second;
    const std::string name = benchmark_name(r);
    const json common = {{"family_index", family},
                         {"per_family_instance_index", instance},
                         {"run_name", name},
                         {"repetitions", r.samples_max.size()},
                         {"threads", 1}};
    for (std::size_t i = 0; i < r.samples_max.size(); ++i) {
      const double ns = r.samples_max[i] * kNs;
      json row = {{"name", name}};
      row.update(common);
      row.update({{"run_type", "iteration"},
                  {"repetition_index", i},
                  {"iterations", r.inner_iterations},
                  {"real_time", ns},
                  {"cpu_time", ns},
                  {"time_unit", "ns"}});
      if (r.moves_data && r.samples_max[i] > 0)
        row["bytes_per_second"] =
            static_cast<double>(r.payload_bytes) / r.samples_max[i];
      // Contract v4 as user counters of the repetition: each phase's
      // per-operation time (ns) and each metric's value.
      for (const PhaseTiming& ph : r.phases)
        if (i < ph.samples_max.size())
          row["phase_" + ph.name + "_ns"] = ph.samples_max[i] * kNs;
      for (const MetricValue& m : r.metrics)
        if (i < m.samples.size()) row[m.name] = m.samples[i];
      if (r.verification == "failed") {
        row["error_occurred"] = true;
        row["error_message"] = "verification failed: " + r.verification_message;
      }
      benchmarks.push_back(row);
    }
    if (r.samples_max.size() < 2) continue;
    const std::vector<std::tuple<const char*, double, const char*>> aggs = {
        {"mean", r.time.mean * kNs, "time"},
        {"median", r.time.median * kNs, "time"},
        {"stddev", r.time.stddev * kNs, "time"},
        {"cv", r.time.cv, "percentage"}};
    for (const auto& [agg, value, unit] : aggs) {
      json row = {{"name", name + "_" + agg}};
      row.update(common);
      row.update({{"run_type", "aggregate"},
                  {"aggregate_name", agg},
                  {"aggregate_unit", unit},
                  {"iterations", r.samples_max.size()},
                  {"real_time", value},
                  {"cpu_time", value},
                  {"time_unit", "ns"}});
      benchmarks.push_back(row);
    }
  }
  return {{"context", context}, {"benchmarks", benchmarks}};
}

namespace {

std::string percent(double change) {
  if (std::isnan(change)) return "n/a";
  if (std::isinf(change)) return change > 0 ? "+inf%" : "-inf%";
  char buf[32];
  std::snprintf(buf, sizeof buf,
                std::fabs(change) < 1     ? "%+.1f%%"
                : std::fabs(change) < 1e4 ? "%+.0f%%"
                                          : "%+.2e%%",  // no 300 digits
                change * 100);
  return buf;
}

std::string pvalue(double p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, p < 1e-4 ? "%.1e" : "%.4f", p);
  return buf;
}

std::string verdict_text(Outcome v) {
  return v == Outcome::noisy ? "too noisy" : verdict_name(v);
}

// "small", or "4.10 kB" for a size given in bytes.
std::string size_cell(const PointKey& k) {
  return k.size_label == std::to_string(k.bytes)
             ? format_bytes(static_cast<double>(k.bytes))
             : k.size_label;
}

// Which file measured the point while the machine was noisy.
std::string noise_cell(const PointComparison& p) {
  const PointNoise &b = p.base_noise, &n = p.new_noise;
  if (p.state_changed) return "state";
  if (b.noisy && n.noisy) return "both";
  if (b.noisy) return "BASE";
  if (n.noisy) return "NEW";
  return b.recorded && n.recorded ? "quiet" : "-";
}

std::string suggestion_line(const Comparison& c) {
  const ThresholdSuggestion& s = c.suggestion;
  if (s.value < 0)
    return "smallest threshold these files support: n/a (no point has "
           "enough samples on both sides)";
  char buf[256];
  std::snprintf(buf, sizeof buf,
                " (%zu of %zu points, %g%% or more, resolve a change that "
                "size at alpha %g; median point ",
                s.within, s.points, kSuggestionQuantile * 100, c.options.alpha);
  std::string line =
      "smallest threshold these files support: " + suggested_percent(s.value) +
      buf + suggested_percent(s.median) + ", widest " +
      suggested_percent(s.widest_value) + " at " + s.widest + ")";
  if (s.excluded > 0)
    line += "; " + std::to_string(s.excluded) +
            " point(s) with too few samples left out";
  return line;
}

std::string only_line(const OnlyIn& o) {
  std::string s = o.key.suite + "/" + o.key.method + "/" + o.key.payload + " " +
                  o.key.size_label + " (" + std::to_string(o.key.bytes) +
                  " B), " + std::to_string(o.key.ranks) + " ranks";
  return o.other.empty() ? s : s + " (" + o.other + ")";
}

}  // namespace

std::string render_comparison(const Comparison& c, const std::string& base,
                              const std::string& now, Style style) {
  const bool md = style == Style::markdown;
  const std::string item = md ? "- " : "  ";
  auto heading = [&](const std::string& t) {
    return md ? "\n### " + t + "\n\n" : "\n" + t + ":\n";
  };
  std::ostringstream out;
  char thresholds[200];
  std::snprintf(thresholds, sizeof thresholds,
                "threshold %g%%: a median more than %.4gx slower or faster "
                "counts\n%salpha %g: two-sided Mann-Whitney U test on the raw "
                "samples",
                c.options.threshold * 100, 1 + c.options.threshold,
                item.c_str(), c.options.alpha);
  out << (md ? "## " : "") << "runner compare: BASE " << base << " vs NEW "
      << now << "\n"
      << (md ? "\n" : "") << item << thresholds << "\n"
      << item
      << "time: median per-operation time of the slowest rank, lower is "
         "better\n"
      << item << "bandwidth: payload bytes / median time, higher is better\n";
  const bool noise = c.noise.base.recorded > 0 || c.noise.now.recorded > 0;
  if (noise)
    out << item << "noise: BASE " << describe(c.noise.base) << "; NEW "
        << describe(c.noise.now) << "\n"
        << item
        << "noise column: the file whose samples of the point were noisy "
           "(BASE, NEW, both), quiet, state (measured in two machine "
           "states: not judged), or - (not recorded)\n";
  else if (!c.points.empty())
    out << item << "noise: not recorded in either file\n";
  if (!c.points.empty()) out << item << suggestion_line(c) << "\n";
  if (!c.warnings.empty()) {
    out << heading("Warnings");
    for (const std::string& w : c.warnings) out << item << w << "\n";
  }
  if (!c.points.empty()) {
    out << heading("Points in both files");
    std::vector<std::vector<std::string>> rows;
    for (const PointComparison& p : c.points) {
      const MetricChange& t = p.metrics.front();
      const MetricChange* bw = nullptr;
      for (const MetricChange& m : p.metrics)
        if (m.metric == "bandwidth_Bps") bw = &m;
      rows.push_back(
          {p.key.suite + "/" + p.key.method + "/" + p.key.payload,
           size_cell(p.key), std::to_string(p.key.ranks),
           format_seconds(t.base), format_seconds(t.now), percent(t.change),
           bw ? percent(bw->change) : "-", pvalue(p.test.p),
           std::to_string(p.test.n1) + "/" + std::to_string(p.test.n2),
           verdict_text(p.verdict)});
      if (noise) rows.back().push_back(noise_cell(p));
    }
    std::vector<std::string> header = {
        "point", ">size",      ">ranks", ">base time", ">new time",
        ">time", ">bandwidth", ">p",     ">n",         "verdict"};
    if (noise) header.push_back("noise");
    out << render_grid(header, rows, style);
  }
  // Contract v4: phases, parts and the plugins' metrics, each with its own
  // U test and direction.
  std::vector<std::vector<std::string>> extra;
  for (const PointComparison& p : c.points)
    for (const MetricChange& m : p.metrics) {
      if (m.metric == "time_s" || m.metric == "bandwidth_Bps") continue;
      const bool seconds = m.unit == "s";
      extra.push_back(
          {point_name(p.key), m.metric,
           seconds ? format_seconds(m.base) : format_metric(m.base, m.unit),
           seconds ? format_seconds(m.now) : format_metric(m.now, m.unit),
           percent(m.change), m.higher_is_better ? "higher" : "lower",
           pvalue(m.p), verdict_text(m.verdict)});
    }
  if (!extra.empty()) {
    out << heading("Phases, parts and metrics of points in both files");
    out << render_grid({"point", "what", ">base", ">new", ">change", "better",
                        ">p", "verdict"},
                       extra, style);
  }
  if (!c.only_base.empty()) {
    out << heading("Only in BASE (not measured in NEW)");
    for (const OnlyIn& o : c.only_base) out << item << only_line(o) << "\n";
  }
  if (!c.only_new.empty()) {
    out << heading("Only in NEW (not measured in BASE)");
    for (const OnlyIn& o : c.only_new) out << item << only_line(o) << "\n";
  }
  bool notes = false;
  for (const PointComparison& p : c.points) {
    if (p.note.empty()) continue;
    if (!notes) out << heading("Notes");
    notes = true;
    out << item << point_name(p.key) << ": " << p.note << "\n";
  }
  out << "\n"
      << (md ? "**" : "") << "result: " << c.count(Outcome::regressed)
      << " regressed"
      << (c.regressed_while_noisy() > 0
              ? " (" + std::to_string(c.regressed_while_noisy()) +
                    " measured while noisy)"
              : "")
      << ", " << c.count(Outcome::improved) << " improved, "
      << c.count(Outcome::unchanged) << " unchanged, "
      << c.count(Outcome::noisy) << " too noisy to tell"
      << (c.state_changed() > 0 ? " (" + std::to_string(c.state_changed()) +
                                      " measured in two machine states)"
                                : "")
      << "; " << c.only_base.size() << " only in BASE, " << c.only_new.size()
      << " only in NEW; exit " << c.exit_code() << (md ? "**" : "") << "\n";
  return out.str();
}

}  // namespace mpiarena
