// The result document's context (schemas/results.schema.json, "context"):
// the job, the MPI library, the build, the machine and every option of the
// run, as typed fields. Each part lists its fields once, in `fields`, which
// the JSON conversions and the schema's test (tests/test_doc_context.cpp)
// walk. A field that some files lack (written before it existed, or by
// mpiarena-startup) is a std::optional: absent when read, not written.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/results/doc_context_parts.hpp"

namespace mpiarena {

// The options as the run took them. The runner writes them all;
// mpiarena-startup only launch, repetitions and warmup. An option given
// "null" (clock_sync without --sync window, builds outside runner ab) is
// an optional inside an optional.
struct OptionsContext {
  std::optional<std::vector<std::string>> methods, payloads, sizes, set,
      algorithms, plugin_dirs;
  std::optional<double> min_time_s, point_timeout_s, sync_window_s;
  std::optional<int> repetitions, warmup, test_every, exchanges, window,
      stride;
  std::optional<std::uint64_t> max_memory;
  std::optional<bool> verify;
  std::optional<std::string> pairs, ranks, size_basis, receive, wait, sync,
      launch;
  // --profile: the measurement taken from another suite ("osu"); absent
  // without one.
  std::optional<std::string> profile;
  std::optional<std::optional<std::string>> clock_sync;
  std::optional<std::optional<BuildsContext>> builds;
  // Options no field names (another producer's, an older version's),
  // kept as the file gave them: the schema leaves the options open.
  nlohmann::json extra = nlohmann::json::object();
  template <class S, class F>
  static void fields(S& s, F&& f) {
    f("methods", s.methods);
    f("payloads", s.payloads);
    f("sizes", s.sizes);
    f("min_time_s", s.min_time_s);
    f("repetitions", s.repetitions);
    f("warmup", s.warmup);
    f("point_timeout_s", s.point_timeout_s);
    f("max_memory", s.max_memory);
    f("verify", s.verify);
    f("pairs", s.pairs);
    f("ranks", s.ranks);
    f("set", s.set);
    f("algorithms", s.algorithms);
    f("size_basis", s.size_basis);
    f("test_every", s.test_every);
    f("exchanges", s.exchanges);
    f("window", s.window);
    f("receive", s.receive);
    f("stride", s.stride);
    f("wait", s.wait);
    f("sync", s.sync);
    f("clock_sync", s.clock_sync);
    f("sync_window_s", s.sync_window_s);
    f("plugin_dirs", s.plugin_dirs);
    f("builds", s.builds);
    f("launch", s.launch);
    f("profile", s.profile);
  }
};

// The whole context. Keys no field names (a file from another producer)
// are kept in `extra` and written back as they were: the schema leaves the
// context open to them.
struct Context {
  std::string start_time, mpi_library, mpi_version, runner_version;
  std::vector<std::string> hosts, command_line;
  int ranks = 0, nodes = 0;
  std::uint32_t plugin_abi = 0;
  OptionsContext options;
  std::optional<std::string> end_time, label, waiting, buffers,
      sub_communicator;
  std::optional<int> machines, cpus_per_node;
  std::optional<bool> oversubscribed;
  std::optional<double> timer_resolution_s;
  std::optional<std::vector<int>> rank_counts;
  std::optional<std::vector<PluginContext>> plugins;
  std::optional<BuildContext> build;
  std::optional<SystemContext> system;
  std::optional<MemoryContext> memory;
  std::optional<NoiseContext> noise;
  std::optional<CacheContext> cache;
  std::optional<StoppingContext> stopping;
  std::optional<InterleaveContext> interleave;
  std::optional<ThreadLevelContext> mpi_thread_level;
  std::optional<ClockContext> clock;
  std::optional<PlacementContext> placement;
  std::optional<LibraryAlgorithmsContext> library_algorithms;
  // Absent in files before it; null: the launch loaded none.
  std::optional<std::optional<TuningFileContext>> tuning_file;
  // Absent in files before it.
  std::optional<MpiSettingsContext> mpi_settings;
  nlohmann::json extra = nlohmann::json::object();
  template <class S, class F>
  static void fields(S& s, F&& f) {
    f("start_time", s.start_time);
    f("end_time", s.end_time);
    f("label", s.label);
    f("hosts", s.hosts);
    f("ranks", s.ranks);
    f("nodes", s.nodes);
    f("machines", s.machines);
    f("mpi_library", s.mpi_library);
    f("mpi_version", s.mpi_version);
    f("runner_version", s.runner_version);
    f("plugin_abi", s.plugin_abi);
    f("plugins", s.plugins);
    f("command_line", s.command_line);
    f("options", s.options);
    f("clock", s.clock);
    f("library_algorithms", s.library_algorithms);
    f("tuning_file", s.tuning_file);
    f("mpi_settings", s.mpi_settings);
    f("timer_resolution_s", s.timer_resolution_s);
    f("cpus_per_node", s.cpus_per_node);
    f("oversubscribed", s.oversubscribed);
    f("waiting", s.waiting);
    f("rank_counts", s.rank_counts);
    f("placement", s.placement);
    f("sub_communicator", s.sub_communicator);
    f("interleave", s.interleave);
    f("noise", s.noise);
    f("cache", s.cache);
    f("stopping", s.stopping);
    f("mpi_thread_level", s.mpi_thread_level);
    f("buffers", s.buffers);
    f("memory", s.memory);
    f("build", s.build);
    f("system", s.system);
  }
};

// The names a part's `fields` lists, in order.
template <class T>
std::vector<std::string> field_names() {
  std::vector<std::string> out;
  T t;
  T::fields(t, [&](const char* name, auto&) { out.emplace_back(name); });
  return out;
}

// The context's parts whose JSON is their fields' (doc_context.cpp):
// one list for the declarations here and the definitions there.
#define MPIARENA_CONTEXT_PARTS(X) \
  X(BuildContext) \
  X(SystemContext) \
  X(MemoryContext) \
  X(NoiseContext) \
  X(CacheContext) \
  X(StoppingContext) \
  X(InterleaveContext) \
  X(ThreadLevelContext) \
  X(ClockContext) \
  X(RankPlacement) \
  X(PairPlacement) \
  X(PlacementContext) \
  X(AlgorithmChoice) \
  X(CollectiveContext) \
  X(SelectionTableContext) \
  X(LibraryAlgorithmsContext) \
  X(TuningFileContext) \
  X(MpiSettingsContext) \
  X(BuildsContext) \
  X(PluginContext)
#define MPIARENA_CONTEXT_JSON(T)                 \
  void to_json(nlohmann::json& j, const T& v);   \
  void from_json(const nlohmann::json& j, T& v);
MPIARENA_CONTEXT_PARTS(MPIARENA_CONTEXT_JSON)
MPIARENA_CONTEXT_JSON(OptionsContext)
MPIARENA_CONTEXT_JSON(Context)
#undef MPIARENA_CONTEXT_JSON

// Equal when their JSON is.
bool operator==(const Context& a, const Context& b);
inline bool operator!=(const Context& a, const Context& b) {
  return !(a == b);
}

// The MPI library's name up to its first comma or line.
std::string library_name(const Context& c);

}  // namespace mpiarena
