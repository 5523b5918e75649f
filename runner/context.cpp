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
#include "core/engine/mpi_session.hpp"
#include "core/engine/noise.hpp"
#include "core/engine/selection_table.hpp"
#include "core/results/dates.hpp"
#include "core/results/records.hpp"
#include "core/results/sync_methods.hpp"
#include "runner/placement.hpp"

namespace mpiarena {

namespace {

// What a reader needs to rebuild this runner (Google Benchmark's context):
// the compiler, the build type and the git revision the build came from
// (empty when it was not built from a git checkout).
nlohmann::json build_context() {
#if defined(__clang__)
  const std::string compiler = std::string("Clang ") + __clang_version__;
#elif defined(__GNUC__)
  const std::string compiler = std::string("GCC ") + __VERSION__;
#else
  const std::string compiler = "unknown";
#endif
  return {{"compiler", compiler},
          {"build_type", MPIARENA_BUILD_TYPE},
          {"git_revision", MPIARENA_GIT_REVISION}};
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
nlohmann::json system_context() {
  struct utsname u;
  std::string kernel;
  if (::uname(&u) == 0) kernel = std::string(u.sysname) + " " + u.release;
  std::string model;
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; model.empty() && std::getline(cpuinfo, line);)
    if (line.rfind("model name", 0) == 0 && line.find(':') != std::string::npos)
      model = line.substr(line.find(':') + 2);
  return {
      {"kernel", kernel},
      {"cpu_model", model},
      {"governor",
       first_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor")}};
}

nlohmann::json make_context(const World& world, const Options& options,
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
  std::vector<std::string> command(argv, argv + argc);
  std::vector<std::string> sizes;
  for (const SizePoint& s : options.sizes) sizes.push_back(s.label);
  return {
      {"start_time", iso_now()},
      {"hosts", std::vector<std::string>(distinct.begin(), distinct.end())},
      {"ranks", world.size()},
      {"nodes", static_cast<int>(distinct.size())},
      {"machines", machine.machines},
      {"mpi_library", library},
      {"mpi_version", std::to_string(major) + "." + std::to_string(minor)},
      {"runner_version", MPIARENA_VERSION},
      {"plugin_abi", kAbiVersion},
      {"command_line", command},
      {"timer_resolution_s", MPI_Wtick()},
      {"build", build_context()},
      {"system", system_context()},
      {"cpus_per_node", machine.min_cpus},
      {"oversubscribed", machine.oversubscribed},
      {"memory",
       {{"available_bytes", machine.min_available},
        {"source", machine.memory_source}}},
      {"waiting", sleep_when_waiting(options, machine) ? "sleep" : "poll"},
      {"options",
       {{"methods", options.methods},
        {"payloads", options.payloads},
        {"sizes", sizes},
        {"min_time_s", options.min_time},
        {"repetitions", options.repetitions},
        {"warmup", options.warmup},
        {"point_timeout_s", options.point_timeout},
        {"max_memory", options.max_memory},
        {"verify", options.verify},
        {"pairs", pairs_setting(options)},
        {"ranks", options.ranks_spec.empty() ? "launch" : options.ranks_spec},
        {"set", set_specs(options.settings)},
        {"algorithms", options.algorithms},
        {"size_basis", options.size_total ? "total" : "per-rank"},
        {"test_every", options.test_every},
        {"exchanges", options.exchanges},
        {"window", options.window},
        {"receive", options.receive_fresh ? "fresh" : "reuse"},
        {"stride", options.stride},
        {"wait", options.wait},
        {"sync", options.sync},
        {"clock_sync", sync_uses_global_clock(options.sync)
                           ? nlohmann::json(options.clock_sync.front())
                           : nlohmann::json()},
        {"sync_window_s", options.sync_window},
        {"plugin_dirs", options.plugin_dirs},
        {"builds", options.command == Command::ab
                       ? nlohmann::json{{"base", options.base_plugin_dirs},
                                        {"new", options.new_plugin_dirs}}
                       : nlohmann::json()}}}};
}

// What the noise record holds and how it judges a sample (runner --noise).
nlohmann::json noise_context(const Options& options, const Machine& machine) {
  return {{"recorded", options.noise},
          {"retry_noisy", options.retry_noisy},
          {"noisy_steal_fraction", kNoisySteal},
          {"noisy_preemptions_per_s", kNoisyPreemptions},
          {"preemption_counts", !machine.oversubscribed},
          {"cpu_frequency",
           cpu_frequency_exposed() ? "scaling_cur_freq" : "not exposed"},
          {"core_to_core",
           !options.noise ? "not probed: --noise off"
           : machine.oversubscribed
               ? "not probed: oversubscribed (a spinning partner would wait "
                 "for a CPU)"
               : "probed between node ranks 0 and 1 of each node with two "
                 "ranks or more, at most every 2 ms"}};
}

}  // namespace

nlohmann::json run_context(const World& world, const Options& options,
                           const Machine& machine,
                           const std::vector<Point>& points, std::uint64_t seed,
                           int argc, char** argv) {
  nlohmann::json context = make_context(world, options, machine, argc, argv);
  context["interleave"] = {{"enabled", options.interleave},
                           {"seed", seed},
                           {"seed_given", options.seed_given}};
  context["noise"] = noise_context(options, machine);
  context["cache"] = {{"mode", options.cache_cold ? "cold" : "hot"},
                      {"llc_bytes", machine.llc_bytes},
                      {"llc_source", machine.llc_source},
                      {"cold_set_bytes", cold_set_bytes(machine.llc_bytes)}};
  context["stopping"] = {{"target_rse", options.target_rse},
                         {"max_time_s", options.max_time},
                         {"iterations", options.iterations}};
  context["buffers"] = options.separate_buffers ? "separate" : "shared";
  context["mpi_thread_level"] = {
      {"requested",
       options.thread_level.empty() ? "none (MPI_Init)" : options.thread_level},
      {"provided", thread_level_name(machine.thread_level)}};
  const nlohmann::json where = placement(world);  // collective
  if (world.rank() == 0) context["placement"] = where;
  std::vector<int> counts;
  for (const Point& p : points)
    if (counts.empty() || counts.back() != p.ranks) counts.push_back(p.ranks);
  context["rank_counts"] = counts;
  // The sizes the points run (each suite's default without --sizes).
  std::vector<std::string> labels;
  for (const Point& p : points)
    if (std::find(labels.begin(), labels.end(), p.size.label) == labels.end())
      labels.push_back(p.size.label);
  context["options"]["sizes"] = labels;
  context["sub_communicator"] = "first_ranks_of_world";
  context["tuning_file"] = loaded_tuning_file(mpi_library_name());
  return context;
}

}  // namespace mpiarena
