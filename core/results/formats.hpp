// Formats other tools read: CSV and Google Benchmark's JSON (for its
// tools/compare.py and the dashboards built on it). No MPI.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/results/records.hpp"

namespace mpiarena {

// One field quoted per RFC 4180 when it holds a comma, a double quote, a
// carriage return or a line feed (quotes doubled inside).
std::string csv_field(const std::string& text);

inline const std::vector<std::string>& csv_columns() {
  static const std::vector<std::string> columns = {
      "suite",        "method",
      "payload",      "size_label",
      "bytes",        "payload_bytes",
      "ranks",        "inner_iterations",
      "repetitions",  "median_s",
      "min_s",        "mean_s",
      "max_s",        "stddev_s",
      "cv",           "bandwidth_Bps",
      "verification", "verification_message",
      "phases_s",     "parts_s",
      "metrics",      "p50_s",
      "p95_s",        "p99_s",
      "start_time",   "git_revision",
      "hosts",        "mpi_library",
      "mpi_settings", "label"};
  return columns;
}

// A header row (csv_columns()), then one row per record, LF line ends.
// Contract v4 columns hold "name=value" pairs separated by ';': phases_s
// and parts_s their median seconds, metrics their value (unit in the JSON);
// empty when the record has none. p50_s, p95_s, p99_s: the percentiles of
// the samples (stats.hpp), empty where the samples were too few for one.
// Times are seconds over samples_s.max; bandwidth_Bps is empty for methods
// that move no payload. The run's columns, last, repeat the context on each
// row, so that the rows of several runs concatenated stay apart:
// start_time, git_revision (build.git_revision), hosts (joined by ';'),
// mpi_library (library_name: its name and version, each run of
// whitespace one space), mpi_settings (settings_digest) and label; empty
// where the context has none. Numbers are written so that they read back
// exactly; text is made printable but for its newlines (printable.hpp).
std::string to_csv(const Document& doc);

// "transfer/bcast/2d/1100000/np4": suite/method/payload/bytes/np<ranks>.
std::string benchmark_name(const Record& r);

// Google Benchmark's JSON reporter format: "context" (date, host_name,
// executable, json_schema_version 1, and mpiarena's own context under
// "mpiarena") and "benchmarks": per record one "iteration" row per
// repetition (iterations = inner iterations, real_time = that sample's
// per-operation time of the slowest rank, in ns) followed, when there are
// two repetitions or more, by the "aggregate" rows mean, median, stddev and
// cv (as Google Benchmark writes them: cv is a fraction, aggregate_unit
// "percentage"). mpiarena measures wall-clock time only: cpu_time repeats
// real_time. bytes_per_second is payload bytes / time for methods that move
// data. A failed verification sets error_occurred and error_message.
nlohmann::json to_gbench(const Document& doc);

}  // namespace mpiarena
