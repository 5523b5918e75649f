// Result documents for the record, schema and report tests.
#pragma once

#include <mpiarena/plugin.hpp>
#include <mpiarena/stats.hpp>
#include <string>
#include <vector>

#include "core/results/records.hpp"

namespace mpiarena_test {

inline mpiarena::Context sample_context() {
  mpiarena::Context c;
  c.start_time = "2024-01-02T03:04:05Z";
  c.end_time = "2024-01-02T03:05:00Z";
  c.hosts = {"node1"};
  c.ranks = 2;
  c.nodes = 1;
  c.mpi_library = "Open MPI v4.1.4";
  c.mpi_version = "3.1";
  c.runner_version = "0.1.0";
  c.plugin_abi = mpiarena::kAbiVersion;
  c.command_line = {"mpiarena", "--sizes", "small"};
  c.options.min_time_s = 0.005;
  c.options.repetitions = 3;
  c.timer_resolution_s = 1e-9;
  return c;
}

// A measured record whose per-operation samples (max over ranks) are given;
// min/avg samples are derived from them.
inline mpiarena::Record make_record(const std::string& method,
                                    std::vector<double> samples_max,
                                    std::size_t bytes = 11000,
                                    const std::string& payload = "1d") {
  mpiarena::Record r;
  r.suite = "transfer";
  r.method = method;
  r.payload = payload;
  r.size_label = bytes == 11000 ? "small" : std::to_string(bytes);
  r.bytes = bytes;
  r.payload_bytes = bytes / 4 * 4;
  r.ranks = 2;
  r.inner_iterations = 1234;
  r.repetitions = static_cast<int>(samples_max.size());
  r.warmup = 1;
  r.samples_max = samples_max;
  for (double s : samples_max) {
    r.samples_min.push_back(s * 0.5);
    r.samples_avg.push_back(s * 0.75);
  }
  r.time = mpiarena::summarize(samples_max);
  r.bandwidth = r.time.median > 0
                    ? static_cast<double>(r.payload_bytes) / r.time.median
                    : 0;
  r.verification = "passed";
  r.plugin_file =
      "/opt/mpiarena/lib/mpiarena/plugins/mpiarena_" + method + ".so";
  r.plugin_abi = mpiarena::kAbiVersion;
  return r;
}

inline mpiarena::Skip make_skip(const std::string& method,
                                const std::string& reason,
                                std::size_t bytes = 11000) {
  mpiarena::Skip s;
  s.suite = "transfer";
  s.method = method;
  s.payload = "1d";
  s.size_label = bytes == 11000 ? "small" : std::to_string(bytes);
  s.bytes = bytes;
  s.ranks = 2;
  s.reason = reason;
  return s;
}

// Two methods that pass, one with no payload (bandwidth null), one failed
// verification and two skips.
inline mpiarena::Document sample_document() {
  mpiarena::Document d;
  d.context = sample_context();
  d.complete = true;
  d.records.push_back(make_record("bcast", {1.5e-6, 1.25e-6, 1.75e-6}));
  d.records.push_back(make_record("raw", {3.1e-6, 2.9e-6, 3.3e-6}));
  mpiarena::Record null_probe = make_record("null", {2e-7, 2.5e-7, 2.25e-7});
  null_probe.moves_data = false;
  null_probe.bandwidth = 0;
  d.records.push_back(null_probe);
  mpiarena::Record bad =
      make_record("corrupt", {1.6e-6, 1.7e-6, 1.65e-6}, 11000, "2d");
  bad.verification = "failed";
  bad.verification_message =
      "rank 1: 2d payload row element 3 of row 4 is 5, expected 7";
  d.records.push_back(bad);
  d.skipped.push_back(
      make_skip("rdma", "needs MPI_Win_allocate_shared: not supported"));
  d.skipped.push_back(
      make_skip("pack", "payload exceeds INT_MAX ints", 440000000));
  return d;
}

}  // namespace mpiarena_test
