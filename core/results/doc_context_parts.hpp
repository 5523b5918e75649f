// The parts of the result document's context (doc_context.hpp): one
// struct per object of the schema's context, each listing its fields once
// in `fields` (name, member).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace mpiarena {

// What built the runner (Google Benchmark's context).
struct BuildContext {
  std::string compiler, build_type, git_revision;
  template <class S, class F>
  static void fields(S& s, F&& f) {
    f("compiler", s.compiler);
    f("build_type", s.build_type);
    f("git_revision", s.git_revision);
  }
};

// Rank 0's machine.
struct SystemContext {
  std::string kernel, cpu_model, governor;
  template <class S, class F>
  static void fields(S& s, F&& f) {
    f("kernel", s.kernel);
    f("cpu_model", s.cpu_model);
    f("governor", s.governor);
  }
};

// The memory guard's budget, and what the ranks held (at the end).
struct MemoryContext {
  std::uint64_t available_bytes = 0;
  std::string source;
  std::optional<std::uint64_t> peak_rss_bytes, planned_per_rank_bytes;
  template <class S, class F>
  static void fields(S& s, F&& f) {
    f("available_bytes", s.available_bytes);
    f("source", s.source);
    f("peak_rss_bytes", s.peak_rss_bytes);
    f("planned_per_rank_bytes", s.planned_per_rank_bytes);
  }
};

// runner --noise and --retry-noisy.
struct NoiseContext {
  bool recorded = false;
  int retry_noisy = 0;
  double noisy_steal_fraction = 0, noisy_preemptions_per_s = 0;
  bool preemption_counts = false;
  std::string cpu_frequency, core_to_core;
  template <class S, class F>
  static void fields(S& s, F&& f) {
    f("recorded", s.recorded);
    f("retry_noisy", s.retry_noisy);
    f("noisy_steal_fraction", s.noisy_steal_fraction);
    f("noisy_preemptions_per_s", s.noisy_preemptions_per_s);
    f("preemption_counts", s.preemption_counts);
    f("cpu_frequency", s.cpu_frequency);
    f("core_to_core", s.core_to_core);
  }
};

// runner --cache.
struct CacheContext {
  std::string mode = "hot", llc_source;
  std::uint64_t llc_bytes = 0, cold_set_bytes = 0;
  template <class S, class F>
  static void fields(S& s, F&& f) {
    f("mode", s.mode);
    f("llc_bytes", s.llc_bytes);
    f("llc_source", s.llc_source);
    f("cold_set_bytes", s.cold_set_bytes);
  }
};

// runner --target-rse, --max-time, --iterations and --precision.
struct StoppingContext {
  double target_rse = 0, max_time_s = 0;
  std::int64_t iterations = 0;
  double precision = 0;
  template <class S, class F>
  static void fields(S& s, F&& f) {
    f("target_rse", s.target_rse);
    f("max_time_s", s.max_time_s);
    f("iterations", s.iterations);
    f("precision", s.precision);
  }
};

// runner --interleave and --seed; the groups measured one method at a time.
struct InterleaveContext {
  bool enabled = false, seed_given = false;
  std::uint64_t seed = 0;
  std::optional<std::vector<std::string>> fallbacks;
  template <class S, class F>
  static void fields(S& s, F&& f) {
    f("enabled", s.enabled);
    f("seed", s.seed);
    f("seed_given", s.seed_given);
    f("fallbacks", s.fallbacks);
  }
};

// runner --thread-level and what the library provides.
struct ThreadLevelContext {
  std::string requested = "none (MPI_Init)", provided = "unknown";
  template <class S, class F>
  static void fields(S& s, F&& f) {
    f("requested", s.requested);
    f("provided", s.provided);
  }
};

// runner --sync window: the global clock (core/engine/global_clock.hpp).
struct ClockContext {
  std::string algorithm;
  int synchronizations = 0, checks = 0;
  double sync_s = 0, residual_bound_s = 0;
  std::vector<double> residual_s, last_residual_s, drift;
  std::optional<std::vector<double>> residual_rtt_s, oracle_error_s;
  std::optional<double> drift_over_s;
  template <class S, class F>
  static void fields(S& s, F&& f) {
    f("algorithm", s.algorithm);
    f("synchronizations", s.synchronizations);
    f("sync_s", s.sync_s);
    f("checks", s.checks);
    f("residual_bound_s", s.residual_bound_s);
    f("residual_s", s.residual_s);
    f("residual_rtt_s", s.residual_rtt_s);
    f("last_residual_s", s.last_residual_s);
    f("drift", s.drift);
    f("drift_over_s", s.drift_over_s);
    f("oracle_error_s", s.oracle_error_s);
  }
};

// Where one rank ran; cores, packages and caches where /sys names them.
struct RankPlacement {
  int rank = 0;
  std::string host, cpus;
  bool bound = false;
  std::optional<std::vector<std::string>> cores, packages, l2, l3;
  template <class S, class F>
  static void fields(S& s, F&& f) {
    f("rank", s.rank);
    f("host", s.host);
    f("cpus", s.cpus);
    f("bound", s.bound);
    f("cores", s.cores);
    f("packages", s.packages);
    f("l2", s.l2);
    f("l3", s.l3);
  }
};

// What ranks 0 and 1 share.
struct PairPlacement {
  bool same_host = false, share_cpu = false, share_core = false,
       share_l2 = false, share_l3 = false, share_package = false;
  template <class S, class F>
  static void fields(S& s, F&& f) {
    f("same_host", s.same_host);
    f("share_cpu", s.share_cpu);
    f("share_core", s.share_core);
    f("share_l2", s.share_l2);
    f("share_l3", s.share_l3);
    f("share_package", s.share_package);
  }
};

struct PlacementContext {
  std::vector<RankPlacement> ranks;
  std::optional<PairPlacement> ranks_0_1;  // two ranks or more
  template <class S, class F>
  static void fields(S& s, F&& f) {
    f("ranks", s.ranks);
    f("ranks_0_1", s.ranks_0_1);
  }
};

// runner --algorithms: what the MPI library offers (MPI_T).
struct AlgorithmChoice {
  int value = 0;
  std::string name;
  template <class S, class F>
  static void fields(S& s, F&& f) {
    f("value", s.value);
    f("name", s.name);
  }
};

struct CollectiveContext {
  std::string collective, variable;
  std::vector<AlgorithmChoice> algorithms;
  std::optional<std::string> own_choice, bound, why_none, why_fixed;
  AlgorithmChoice launch;
  bool switchable = false;
  template <class S, class F>
  static void fields(S& s, F&& f) {
    f("collective", s.collective);
    f("variable", s.variable);
    f("algorithms", s.algorithms);
    f("own_choice", s.own_choice);
    f("launch", s.launch);
    f("switchable", s.switchable);
    f("bound", s.bound);
    f("why_none", s.why_none);
    f("why_fixed", s.why_fixed);
  }
};

// MPICH's selection table the library held.
struct SelectionTableContext {
  std::string source, text;
  template <class S, class F>
  static void fields(S& s, F&& f) {
    f("source", s.source);
    f("text", s.text);
  }
};

struct LibraryAlgorithmsContext {
  std::string library;
  std::vector<CollectiveContext> collectives;
  std::optional<SelectionTableContext> selection_table;
  std::optional<std::string> selection_table_missing;
  template <class S, class F>
  static void fields(S& s, F&& f) {
    f("library", s.library);
    f("collectives", s.collectives);
    f("selection_table", s.selection_table);
    f("selection_table_missing", s.selection_table_missing);
  }
};

// The tuning file the launch made the MPI library load.
struct TuningFileContext {
  std::string variable, path, digest;
  template <class S, class F>
  static void fields(S& s, F&& f) {
    f("variable", s.variable);
    f("path", s.path);
    f("digest", s.digest);
  }
};

// The MPI library's settings of the launch (mpi_settings.hpp): the
// environment variables the libraries read, by name, and what the library
// reports of its own through MPI_T; a secret's name only (`withheld`).
// differing_ranks: the ranks whose environment settings are not rank 0's
// (absent when all agree).
struct MpiSettingsContext {
  std::map<std::string, std::string> environment, library;
  std::vector<std::string> withheld;
  std::optional<std::vector<int>> differing_ranks;
  template <class S, class F>
  static void fields(S& s, F&& f) {
    f("environment", s.environment);
    f("library", s.library);
    f("withheld", s.withheld);
    f("differing_ranks", s.differing_ranks);
  }
};

// runner ab: the plugin directories of each build.
struct BuildsContext {
  std::vector<std::string> base, now;
  template <class S, class F>
  static void fields(S& s, F&& f) {
    f("base", s.base);
    f("new", s.now);
  }
};

// A plugin the run loaded, and the version its methods declare
// (StrategyInfo::version; empty when they declare none).
struct PluginContext {
  std::string file, version;
  std::uint32_t abi = 0;
  template <class S, class F>
  static void fields(S& s, F&& f) {
    f("file", s.file);
    f("version", s.version);
    f("abi", s.abi);
  }
};

}  // namespace mpiarena
