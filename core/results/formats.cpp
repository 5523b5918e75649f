#include "core/results/formats.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <mpiarena/sizes.hpp>
#include <sstream>
#include <tuple>

#include "core/results/mpi_settings.hpp"
#include "core/results/point_key.hpp"
#include "core/results/printable.hpp"

namespace mpiarena {

using nlohmann::json;

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

namespace {

// `text` made printable line by line: a quoted field keeps its newlines,
// as CSV may.
std::string printable_lines(const std::string& text) {
  std::string out;
  std::size_t from = 0;
  for (std::size_t end; (end = text.find('\n', from)) != std::string::npos;
       from = end + 1)
    out += printable(text.substr(from, end - from)) + "\n";
  return out + printable(text.substr(from));
}

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

// The library's name and version (library_name) with each run of spaces,
// tabs and line ends as one space ("MPICH Version:\t4.0.2" as "MPICH
// Version: 4.0.2"); the same from a context made printable (report's,
// printable.hpp), whose tab and line end are "\x09" and "\x0A".
std::string library_cell(const Context& c) {
  std::string text = library_name(c);
  text = text.substr(0, text.find("\\x0A"));
  for (std::size_t p; (p = text.find("\\x09")) != std::string::npos;)
    text.replace(p, 4, " ");
  std::string out;
  for (char ch : text) {
    const bool space = ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
    if (!space)
      out += ch;
    else if (!out.empty() && out.back() != ' ')
      out += ' ';
  }
  if (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

// The run's columns of every row (csv_columns(), last).
std::vector<std::string> run_cells(const Context& c) {
  std::string hosts;
  for (const std::string& h : c.hosts) hosts += (hosts.empty() ? "" : ";") + h;
  return {c.start_time,
          c.build ? c.build->git_revision : "",
          hosts,
          library_cell(c),
          settings_digest(c),
          c.label.value_or("")};
}

}  // namespace

std::string to_csv(const Document& doc) {
  std::ostringstream out;
  const auto& columns = csv_columns();
  for (std::size_t i = 0; i < columns.size(); ++i)
    out << (i ? "," : "") << columns[i];
  out << "\n";
  std::string run;
  for (const std::string& cell : run_cells(doc.context))
    run += "," + csv_field(printable_lines(cell));
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
      out << (i ? "," : "") << csv_field(printable_lines(cells[i]));
    for (const auto& p : r.time.percentiles) out << "," << (p ? exact(*p) : "");
    out << run << "\n";
  }
  return out.str();
}

std::string benchmark_name(const Record& r) {
  return point_name({r.suite, r.method, r.payload, r.size_label, r.bytes,
                     r.ranks, r.pairs,
                     r.pair_placement == "intra" ? "" : r.pair_placement});
}

namespace {

constexpr double kNs = 1e9;

// Google Benchmark's context, with mpiarena's own under "mpiarena".
json gbench_context(const Context& ctx) {
  std::string hosts;
  for (const std::string& h : ctx.hosts)
    hosts += (hosts.empty() ? "" : ",") + h;
  const std::string executable =
      ctx.command_line.empty() ? "runner" : ctx.command_line.front();
  return {{"date", ctx.start_time},
          {"host_name", hosts},
          {"executable", executable},
          {"json_schema_version", 1},
          {"mpiarena", ctx}};
}

// Repetition `i` of a record as an "iteration" row.
json iteration_row(const Record& r, std::size_t i, const std::string& name,
                   const json& common) {
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
  return row;
}

// The aggregate rows of a record: mean, median, stddev and cv.
void add_aggregates(const Record& r, const std::string& name,
                    const json& common, json& benchmarks) {
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

}  // namespace

json to_gbench(const Document& doc) {
  json benchmarks = json::array();
  std::map<std::tuple<std::string, std::string, std::string>, int> families;
  std::map<int, std::map<std::pair<std::size_t, int>, int>> instances;
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
    for (std::size_t i = 0; i < r.samples_max.size(); ++i)
      benchmarks.push_back(iteration_row(r, i, name, common));
    if (r.samples_max.size() >= 2) add_aggregates(r, name, common, benchmarks);
  }
  return {{"context", gbench_context(doc.context)}, {"benchmarks", benchmarks}};
}

}  // namespace mpiarena
