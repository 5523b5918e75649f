#include "core/results/records.hpp"

#include <algorithm>

#include "core/results/record_parts.hpp"
#include "core/results/suites.hpp"

namespace mpiarena {

using nlohmann::json;

namespace {
// {"name": "allreduce", "semantics": {"datatype": "int", "op": "sum"}}.
json operation_json(const Record& r) {
  json semantics = json::object();
  for (const auto& [k, v] : r.semantics) semantics[k] = v;
  return {{"name", r.operation}, {"semantics", std::move(semantics)}};
}
void operation_from(const json& j, Record& r) {
  r.operation = j.at("name").get<std::string>();
  const json semantics = j.value("semantics", json::object());
  for (const auto& [k, v] : semantics.items())
    r.semantics.emplace_back(k, v.get<std::string>());
}

json summary_json(const Summary& s) {
  json j = {{"min", s.min}, {"median", s.median}, {"mean", s.mean},
            {"max", s.max}, {"stddev", s.stddev}, {"cv", s.cv}};
  for (std::size_t i = 0; i < kPercentiles.size(); ++i)
    if (s.percentiles[i]) j[percentile_name(i)] = *s.percentiles[i];
  return j;
}
Summary summary_from(const json& j) {
  Summary s;
  s.min = j.at("min").get<double>();
  s.median = j.at("median").get<double>();
  s.mean = j.at("mean").get<double>();
  s.max = j.at("max").get<double>();
  s.stddev = j.at("stddev").get<double>();
  s.cv = j.at("cv").get<double>();
  for (std::size_t i = 0; i < kPercentiles.size(); ++i)
    if (j.contains(percentile_name(i)))
      s.percentiles[i] = j.at(percentile_name(i)).get<double>();
  return s;
}
json timing_json(const Timing& t) {
  return {{"time_s", summary_json(t.time)},
          {"samples_s",
           {{"max", t.samples_max},
            {"min", t.samples_min},
            {"avg", t.samples_avg}}}};
}
void timing_from(const json& j, Timing& t) {
  t.time = summary_from(j.at("time_s"));
  const json& samples = j.at("samples_s");
  t.samples_max = samples.at("max").get<std::vector<double>>();
  t.samples_min = samples.at("min").get<std::vector<double>>();
  t.samples_avg = samples.at("avg").get<std::vector<double>>();
  t.time.n = t.samples_max.size();
}
json phases_json(const std::vector<PhaseTiming>& phases) {
  json out = json::array();
  for (const PhaseTiming& p : phases) {
    json j = timing_json(p);
    j["name"] = p.name;
    out.push_back(std::move(j));
  }
  return out;
}
std::vector<PhaseTiming> phases_from(const json& j) {
  std::vector<PhaseTiming> out;
  for (const json& e : j) {
    PhaseTiming p;
    p.name = e.at("name").get<std::string>();
    timing_from(e, p);
    out.push_back(std::move(p));
  }
  return out;
}
// The method's name and, for a method with options, "options": {...}
// (a record's `method` holds the label "name[a=1,b=2]", method_label).
void put_method(json& j, const std::string& label) {
  std::vector<std::pair<std::string, std::string>> values;
  j["method"] = split_label(label.substr(0, label.find(kAliasMark)), values);
  if (values.empty()) return;
  json o = json::object();
  for (const auto& [k, v] : values) o[k] = v;
  j["options"] = std::move(o);
}

std::string get_method(const json& j) {
  const std::string method = j.at("method").get<std::string>();
  const std::string alias = j.value("alias", "");
  const std::string as = alias.empty() ? "" : kAliasMark + alias;
  if (!j.contains("options")) return method + as;
  std::vector<std::pair<std::string, std::string>> values;
  for (const auto& [k, v] : j.at("options").items())
    values.emplace_back(k, v.get<std::string>());
  return method_label(method, values) + as;
}

}  // namespace

std::string operation_text(const Record& r) {
  return r.operation.empty() ? "" : operation_text(r.operation, r.semantics);
}

std::string method_label(
    const std::string& method,
    std::vector<std::pair<std::string, std::string>> values) {
  if (values.empty()) return method;
  std::sort(values.begin(), values.end());
  std::string out = method + "[";
  for (std::size_t i = 0; i < values.size(); ++i)
    out += (i ? "," : "") + values[i].first + "=" + values[i].second;
  return out + "]";
}

std::string split_label(
    const std::string& label,
    std::vector<std::pair<std::string, std::string>>& values) {
  values.clear();
  const std::size_t open = label.find('[');
  if (open == std::string::npos || label.back() != ']') return label;
  const std::string inner = label.substr(open + 1, label.size() - open - 2);
  std::size_t from = 0;
  while (from <= inner.size()) {
    std::size_t comma = inner.find(',', from);
    if (comma == std::string::npos) comma = inner.size();
    const std::string item = inner.substr(from, comma - from);
    const std::size_t eq = item.find('=');
    if (eq != std::string::npos)
      values.emplace_back(item.substr(0, eq), item.substr(eq + 1));
    from = comma + 1;
  }
  return label.substr(0, open);
}

namespace {

json parts_json(const std::vector<PartTiming>& parts) {
  json out = json::array();
  for (const PartTiming& p : parts) {
    json e = timing_json(p);
    e["name"] = p.name;
    e["inner_iterations"] = p.inner_iterations;
    if (!p.phases.empty()) e["phases_s"] = phases_json(p.phases);
    out.push_back(std::move(e));
  }
  return out;
}

json metrics_json(const std::vector<MetricValue>& metrics) {
  json out = json::array();
  for (const MetricValue& m : metrics)
    out.push_back({{"name", m.name},
                   {"unit", m.unit},
                   {"better", m.higher_is_better ? "higher" : "lower"},
                   {"value", m.value},
                   {"samples", m.samples}});
  return out;
}

}  // namespace

json to_json(const Record& r) {
  json j = {{"suite", r.suite},
            {"payload", r.payload},
            {"size_label", r.size_label},
            {"bytes", r.bytes},
            {"payload_bytes", r.payload_bytes},
            {"ranks", r.ranks},
            {"inner_iterations", r.inner_iterations},
            {"repetitions", r.repetitions},
            {"warmup", r.warmup},
            {"statistic", "max_over_ranks_per_repetition"},
            {"time_s", summary_json(r.time)},
            {"samples_s",
             {{"max", r.samples_max},
              {"min", r.samples_min},
              {"avg", r.samples_avg}}},
            {"bandwidth_Bps", r.moves_data ? json(r.bandwidth) : json(nullptr)},
            {"verification",
             {{"status", r.verification}, {"message", r.verification_message}}},
            {"plugin", {{"file", r.plugin_file}, {"abi", r.plugin_abi}}}};
  put_method(j, r.method);
  if (r.time_scale != 1.0) j["time_scale"] = r.time_scale;
  if (!r.per_rank.empty()) j["per_rank_s"] = r.per_rank;
  if (r.pairs > 0) {
    j["pairs"] = r.pairs;
    j["aggregate_bandwidth_Bps"] = r.pairs * r.bandwidth;
  }
  if (!r.pair_placement.empty()) {
    j["pair_placement"] = r.pair_placement;
    j["pair_ranks"] = r.pair_ranks;
  }
  if (!r.plugin_version.empty()) j["plugin"]["version"] = r.plugin_version;
  if (!r.plugin_build.empty()) j["plugin"]["build"] = r.plugin_build;
  if (!r.alias.empty()) j["alias"] = r.alias;
  if (!r.algorithm.variable.empty())
    j["algorithm"] = {{"library", r.algorithm.library},
                      {"variable", r.algorithm.variable},
                      {"value", r.algorithm.value},
                      {"name", r.algorithm.name}};
  if (size_is_per_rank(r.suite)) {
    j["size_basis"] = r.size_total ? "total" : "per-rank";
    j["total_bytes"] =
        r.size_total ? r.payload_bytes
                     : r.payload_bytes * static_cast<std::size_t>(r.ranks);
  }
  if (!r.phases.empty()) j["phases_s"] = phases_json(r.phases);
  if (!r.parts.empty()) {
    j["parts"] = parts_json(r.parts);
    j["headline_part"] = r.headline_part;
  }
  if (!r.notes.empty()) j["notes"] = r.notes;
  if (r.noise.recorded) j["noise"] = noise_json(r.noise);
  j["stopping"] = {{"by", r.stopped_by}, {"rse", r.rse}};
  if (r.precision >= 0) j["stopping"]["precision"] = r.precision;
  if (!r.cache.empty()) j["cache"] = r.cache;
  if (!r.buffers.empty()) j["buffers"] = r.buffers;
  if (!r.definition.empty()) j["definition"] = r.definition;
  if (r.interleave_group >= 0)
    j["interleave"] = {{"group", r.interleave_group},
                       {"points", r.interleave_points},
                       {"slots", r.slots}};
  if (r.window > 0) j["window"] = r.window;
  if (r.sync.windowed) j["sync"] = sync_json(r.sync);
  if (r.copy_limit.measured()) j["copy_limit"] = copy_limit_json(r.copy_limit);
  if (!r.params.empty()) {
    json params = json::object();
    for (const auto& [k, v] : r.params) params[k] = v;
    j["params"] = std::move(params);
  }
  if (!r.matrix_row.empty())
    j["matrix"] = {{"row", r.matrix_row}, {"column", r.matrix_column}};
  if (!r.operation.empty()) j["operation"] = operation_json(r);
  if (!r.metrics.empty()) j["metrics"] = metrics_json(r.metrics);
  return j;
}

json to_json(const Skip& s) {
  json j = {{"suite", s.suite},           {"payload", s.payload},
            {"size_label", s.size_label}, {"bytes", s.bytes},
            {"ranks", s.ranks},           {"reason", s.reason}};
  put_method(j, s.method);
  if (!s.alias.empty()) j["alias"] = s.alias;
  return j;
}

json to_json(const Document& d) {
  json records = json::array(), skipped = json::array();
  for (const Record& r : d.records) records.push_back(to_json(r));
  for (const Skip& s : d.skipped) skipped.push_back(to_json(s));
  json doc = {{"schema_version", kSchemaVersion},
              {"complete", d.complete},
              {"context", d.context},
              {"records", records},
              {"skipped", skipped}};
  if (!d.summary.is_null()) doc["summary"] = d.summary;
  return doc;
}

namespace {

// Contract v4's phases, parts and metrics, when the record has them.
void contract_v4_from(const json& j, Record& r) {
  if (j.contains("phases_s")) r.phases = phases_from(j.at("phases_s"));
  if (j.contains("parts")) {
    for (const json& e : j.at("parts")) {
      PartTiming p;
      p.name = e.at("name").get<std::string>();
      p.inner_iterations = e.at("inner_iterations").get<std::int64_t>();
      timing_from(e, p);
      if (e.contains("phases_s")) p.phases = phases_from(e.at("phases_s"));
      r.parts.push_back(std::move(p));
    }
    r.headline_part = j.at("headline_part").get<std::string>();
  }
  if (j.contains("metrics")) {
    for (const json& e : j.at("metrics")) {
      MetricValue m;
      m.name = e.at("name").get<std::string>();
      m.unit = e.at("unit").get<std::string>();
      m.higher_is_better = e.at("better").get<std::string>() == "higher";
      m.value = e.at("value").get<double>();
      m.samples = e.at("samples").get<std::vector<double>>();
      r.metrics.push_back(std::move(m));
    }
  }
}

}  // namespace

Record record_from_json(const json& j) {
  Record r;
  r.suite = j.at("suite").get<std::string>();
  r.method = get_method(j);
  r.payload = j.at("payload").get<std::string>();
  r.size_label = j.at("size_label").get<std::string>();
  r.bytes = j.at("bytes").get<std::size_t>();
  r.payload_bytes = j.at("payload_bytes").get<std::size_t>();
  r.ranks = j.at("ranks").get<int>();
  r.inner_iterations = j.at("inner_iterations").get<std::int64_t>();
  r.repetitions = j.at("repetitions").get<int>();
  r.warmup = j.at("warmup").get<int>();
  r.time = summary_from(j.at("time_s"));
  const json& samples = j.at("samples_s");
  r.samples_max = samples.at("max").get<std::vector<double>>();
  r.samples_min = samples.at("min").get<std::vector<double>>();
  r.samples_avg = samples.at("avg").get<std::vector<double>>();
  r.time.n = r.samples_max.size();
  r.time_scale = j.value("time_scale", 1.0);
  r.pairs = j.value("pairs", 0);
  r.pair_placement = j.value("pair_placement", "");
  if (j.contains("algorithm")) {
    const json& a = j.at("algorithm");
    r.algorithm = {a.at("library").get<std::string>(),
                   a.at("variable").get<std::string>(),
                   a.at("name").get<std::string>(), a.at("value").get<int>()};
  }
  if (j.contains("pair_ranks"))
    r.pair_ranks = j.at("pair_ranks").get<std::vector<std::array<int, 2>>>();
  r.size_total = j.value("size_basis", "per-rank") == "total";
  if (j.contains("notes"))
    r.notes = j.at("notes").get<std::vector<std::string>>();
  if (j.contains("noise")) r.noise = noise_from(j.at("noise"));
  if (j.contains("stopping")) {
    r.stopped_by = j.at("stopping").at("by").get<std::string>();
    r.rse = j.at("stopping").at("rse").get<double>();
    r.precision = j.at("stopping").value("precision", -1.0);
  }
  r.cache = j.value("cache", "");
  r.buffers = j.value("buffers", "");
  if (j.contains("definition"))
    r.definition = j.at("definition").get<std::map<std::string, std::string>>();
  if (j.contains("interleave")) {
    const json& i = j.at("interleave");
    r.interleave_group = i.at("group").get<int>();
    r.interleave_points = i.at("points").get<int>();
    r.slots = i.at("slots").get<std::vector<int>>();
  }
  if (j.contains("per_rank_s"))
    r.per_rank = j.at("per_rank_s").get<std::vector<double>>();
  r.window = j.value("window", 0);
  if (j.contains("sync")) r.sync = sync_from(j.at("sync"));
  if (j.contains("copy_limit"))
    r.copy_limit = copy_limit_from(j.at("copy_limit"));
  if (j.contains("params"))
    for (const auto& [k, v] : j.at("params").items())
      r.params.emplace_back(k, v.get<std::string>());
  if (j.contains("operation")) operation_from(j.at("operation"), r);
  if (j.contains("matrix")) {
    r.matrix_row = j.at("matrix").at("row").get<std::string>();
    r.matrix_column = j.at("matrix").at("column").get<std::string>();
  }
  const json& bw = j.at("bandwidth_Bps");
  r.moves_data = !bw.is_null();
  r.bandwidth = bw.is_null() ? 0 : bw.get<double>();
  r.verification = j.at("verification").at("status").get<std::string>();
  r.verification_message =
      j.at("verification").at("message").get<std::string>();
  r.plugin_file = j.at("plugin").at("file").get<std::string>();
  r.plugin_abi = j.at("plugin").at("abi").get<std::uint32_t>();
  r.plugin_version = j.at("plugin").value("version", "");
  r.plugin_build = j.at("plugin").value("build", "");
  r.alias = j.value("alias", "");
  contract_v4_from(j, r);
  return r;
}

Document document_from_json(const json& j) {
  Document d;
  d.complete = j.at("complete").get<bool>();
  d.context = j.at("context").get<Context>();
  if (j.contains("summary")) d.summary = j.at("summary");
  for (const json& r : j.at("records"))
    d.records.push_back(record_from_json(r));
  for (const json& s : j.at("skipped")) {
    Skip k;
    k.suite = s.at("suite").get<std::string>();
    k.method = get_method(s);
    k.payload = s.at("payload").get<std::string>();
    k.size_label = s.at("size_label").get<std::string>();
    k.bytes = s.at("bytes").get<std::size_t>();
    k.ranks = s.at("ranks").get<int>();
    k.reason = s.at("reason").get<std::string>();
    k.alias = s.value("alias", "");
    d.skipped.push_back(std::move(k));
  }
  return d;
}

double median_core_to_core(const Noise& n) {
  if (n.core_to_core_ns.empty()) return -1;
  return median(n.core_to_core_ns, EvenMedian::upper);
}

}  // namespace mpiarena
