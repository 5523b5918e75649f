// The result document's context (context.hpp).
#include "runner/context.hpp"

#include <sys/utsname.h>

#include <algorithm>
#include <ctime>
#include <fstream>
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/plugin.hpp>
#include <set>

#include "core/engine/collective.hpp"
#include "core/engine/library_algorithms.hpp"
#include "core/engine/memory.hpp"
#include "core/engine/mpi_tool.hpp"
#include "core/engine/mpi_session.hpp"
#include "core/engine/noise.hpp"
#include "core/engine/selection_table.hpp"
#include "core/results/dates.hpp"
#include "core/results/mpi_settings.hpp"
#include "core/results/records.hpp"
#include "core/results/sync_methods.hpp"
#include "runner/placement.hpp"

namespace mpiarena {

namespace {

// What a reader needs to rebuild this runner (Google Benchmark's context):
// the compiler, the build type and the git revision the build came from
// (empty when it was not built from a git checkout).
BuildContext build_context() {
#if defined(__clang__)
  const std::string compiler = std::string("Clang ") + __clang_version__;
#elif defined(__GNUC__)
  const std::string compiler = std::string("GCC ") + __VERSION__;
#else
  const std::string compiler = "unknown";
#endif
  return {compiler, MPIARENA_BUILD_TYPE, MPIARENA_GIT_REVISION};
}

std::string first_line(const std::string& path) {
  std::ifstream in(path);
  std::string s;
  std::getline(in, s);
  return s;
}

// --set as given: "method.option=v1,v2" each.
std::vector<std::string> set_specs(const std::vector<OptionSetting>& settings) {
  std::vector<std::string> out;
  for (const OptionSetting& s : settings) {
    std::string text = s.method + "." + s.option + "=";
    for (std::size_t i = 0; i < s.values.size(); ++i)
      text += (i ? "," : "") + s.values[i];
    out.push_back(text);
  }
  return out;
}

// The machine of rank 0: kernel, CPU model and frequency governor ("" when
// the system does not expose one, as in many VMs).
SystemContext system_context() {
  struct utsname u;
  std::string kernel;
  if (::uname(&u) == 0) kernel = std::string(u.sysname) + " " + u.release;
  std::string model;
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; model.empty() && std::getline(cpuinfo, line);)
    if (line.rfind("model name", 0) == 0 && line.find(':') != std::string::npos)
      model = line.substr(line.find(':') + 2);
  return {kernel, model,
          first_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor")};
}

// Every option of the run as it took them.
OptionsContext options_context(const Options& options) {
  OptionsContext o;
  o.methods = options.methods;
  o.payloads = options.payloads;
  o.sizes.emplace();
  for (const SizePoint& s : options.sizes) o.sizes->push_back(s.label);
  o.min_time_s = options.min_time;
  o.repetitions = options.repetitions;
  o.warmup = options.warmup;
  o.point_timeout_s = options.point_timeout;
  o.max_memory = options.max_memory;
  o.verify = options.verify;
  o.pairs = pairs_setting(options);
  o.ranks = options.ranks_spec.empty() ? "launch" : options.ranks_spec;
  o.set = set_specs(options.settings);
  o.algorithms = options.algorithms;
  o.size_basis = options.size_total ? "total" : "per-rank";
  o.test_every = options.test_every;
  o.exchanges = options.exchanges;
  o.window = options.window;
  o.receive = options.receive_fresh ? "fresh" : "reuse";
  o.stride = options.stride;
  o.wait = options.wait;
  o.sync = options.sync;
  o.clock_sync.emplace();
  if (sync_uses_global_clock(options.sync))
    *o.clock_sync = options.clock_sync.front();
  o.sync_window_s = options.sync_window;
  o.plugin_dirs = options.plugin_dirs;
  if (!options.profile.empty()) o.profile = options.profile;
  o.builds.emplace();
  if (options.command == Command::ab)
    *o.builds = BuildsContext{options.base_plugin_dirs,
                              options.new_plugin_dirs};
  return o;
}

// The MPI library's settings (mpi_settings.hpp): rank 0's environment
// before MPI_Init (launch_environment) and what its library reports; the
// ranks whose environment settings differ from rank 0's. Collective.
MpiSettingsContext mpi_settings_context(const World& world) {
  MpiSettingsContext s = environment_settings(launch_environment());
  const nlohmann::json mine = {{"environment", s.environment},
                               {"withheld", s.withheld}};
  const std::vector<std::string> all =
      gather_strings(mine.dump(), 0, world);
  for (std::size_t r = 1; r < all.size(); ++r)
    if (all[r] != all[0]) {
      if (!s.differing_ranks) s.differing_ranks.emplace();
      s.differing_ranks->push_back(static_cast<int>(r));
    }
  s.library = library_settings(mpi_library_name(), s.environment);
  return s;
}

Context make_context(const World& world, const Options& options,
                     const Machine& machine, int argc, char** argv) {
  char name[MPI_MAX_PROCESSOR_NAME] = {0};
  int len = 0;
  MPIARENA_CHECK(MPI_Get_processor_name(name, &len));
  const std::vector<std::string> hosts = gather_strings(
      std::string(name, static_cast<std::size_t>(len)), 0, world);
  std::set<std::string> distinct(hosts.begin(), hosts.end());
  char lib[MPI_MAX_LIBRARY_VERSION_STRING] = {0};
  MPIARENA_CHECK(MPI_Get_library_version(lib, &len));
  std::string library(lib, static_cast<std::size_t>(len));
  while (!library.empty() && (library.back() == '\n' || library.back() == '\0'))
    library.pop_back();
  int major = 0, minor = 0;
  MPIARENA_CHECK(MPI_Get_version(&major, &minor));
  Context c;
  c.start_time = iso_now();
  c.hosts.assign(distinct.begin(), distinct.end());
  c.ranks = world.size();
  c.nodes = static_cast<int>(distinct.size());
  c.machines = machine.machines;
  c.mpi_library = library;
  c.mpi_version = std::to_string(major) + "." + std::to_string(minor);
  c.runner_version = MPIARENA_VERSION;
  c.plugin_abi = kAbiVersion;
  if (!options.label.empty()) c.label = options.label;
  c.command_line.assign(argv, argv + argc);
  c.timer_resolution_s = MPI_Wtick();
  c.build = build_context();
  c.system = system_context();
  c.cpus_per_node = machine.min_cpus;
  c.oversubscribed = machine.oversubscribed;
  c.memory = MemoryContext{};
  c.memory->available_bytes = machine.min_available;
  c.memory->source = machine.memory_source;
  c.waiting = sleep_when_waiting(options, machine) ? "sleep" : "poll";
  c.options = options_context(options);
  c.mpi_settings = mpi_settings_context(world);
  return c;
}

// What the noise record holds and how it judges a sample (runner --noise).
NoiseContext noise_context(const Options& options, const Machine& machine) {
  NoiseContext n;
  n.recorded = options.noise;
  n.retry_noisy = options.retry_noisy;
  n.noisy_steal_fraction = kNoisySteal;
  n.noisy_preemptions_per_s = kNoisyPreemptions;
  n.preemption_counts = !machine.oversubscribed;
  n.cpu_frequency =
      cpu_frequency_exposed() ? "scaling_cur_freq" : "not exposed";
  n.core_to_core =
      !options.noise ? "not probed: --noise off"
      : machine.oversubscribed
          ? "not probed: oversubscribed (a spinning partner would wait "
            "for a CPU)"
          : "probed between node ranks 0 and 1 of each node with two "
            "ranks or more, at most every 2 ms";
  return n;
}

// Each plugin file the points load once, in the points' order, with the
// version its methods declare (StrategyInfo::version).
std::vector<PluginContext> plugins_context(const std::vector<Point>& points) {
  std::vector<PluginContext> out;
  for (const Point& p : points) {
    const LoadedStrategy& s = *p.strategy;
    const bool seen = std::any_of(out.begin(), out.end(), [&](const auto& x) {
      return x.file == s.file;
    });
    if (!seen) out.push_back({s.file, s.entry.info.version, s.abi});
  }
  return out;
}

}  // namespace

Context run_context(const World& world, const Options& options,
                    const Machine& machine, const std::vector<Point>& points,
                    std::uint64_t seed, int argc, char** argv) {
  Context c = make_context(world, options, machine, argc, argv);
  c.interleave = InterleaveContext{};
  c.interleave->enabled = options.interleave;
  c.interleave->seed = seed;
  c.interleave->seed_given = options.seed_given;
  c.noise = noise_context(options, machine);
  c.cache = CacheContext{options.cache_cold ? "cold" : "hot",
                         machine.llc_source, machine.llc_bytes,
                         cold_set_bytes(machine.llc_bytes)};
  c.stopping = StoppingContext{options.target_rse, options.max_time,
                               options.iterations, options.precision};
  c.buffers = options.separate_buffers ? "separate" : "shared";
  c.mpi_thread_level = ThreadLevelContext{
      options.thread_level.empty() ? "none (MPI_Init)" : options.thread_level,
      thread_level_name(machine.thread_level)};
  PlacementContext where = placement(world);  // collective
  if (world.rank() == 0) c.placement = std::move(where);
  c.rank_counts.emplace();
  for (const Point& p : points)
    if (c.rank_counts->empty() || c.rank_counts->back() != p.ranks)
      c.rank_counts->push_back(p.ranks);
  // The sizes the points run (each suite's default without --sizes).
  std::vector<std::string>& labels = *c.options.sizes;
  labels.clear();
  for (const Point& p : points)
    if (std::find(labels.begin(), labels.end(), p.size.label) == labels.end())
      labels.push_back(p.size.label);
  c.sub_communicator = "first_ranks_of_world";
  c.tuning_file = loaded_tuning_file(mpi_library_name());
  c.plugins = plugins_context(points);
  return c;
}

}  // namespace mpiarena
