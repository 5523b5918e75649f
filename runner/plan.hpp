// The plan of a run: which methods, which points, and what the job is
// (nodes, CPUs, memory), agreed on by every rank before anything is timed.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <map>
#include <mpiarena/sizes.hpp>
#include <string>
#include <vector>

#include "core/engine/registry.hpp"
#include "runner/options.hpp"
#include "runner/osu_programs.hpp"

namespace mpiarena {

// One (method, payload, size) to measure, or to skip with its reason.
struct Point {
  const LoadedStrategy* strategy;
  std::string payload;
  SizePoint size;
  std::string skip_reason;
  int ranks = 1;  // the first `ranks` ranks of the launch run it (--ranks)
  // --pairs intra|inter, pairwise methods: the rank that pairs with rank 0
  // (it becomes rank 1 of the point's communicator); -1: ranks 0 and 1.
  int partner = -1;
  // Bytes one rank holds for the point (its payload copies, and the cold
  // cache's buffer set): what interleaving adds up over a group.
  double memory_bytes = 0;
  // The method's own options (StrategyInfo::options): this point's value
  // of each, in declared order (runner --set, else the default); and the
  // name it is recorded under: "method[name=value,...]", or the method's
  // name when it declares none.
  std::vector<std::pair<std::string, std::string>> options{};
  std::string label{};
  // Every disjoint pair at once (--pairs all, or the OSU program's).
  bool all_pairs = false;
  // The OSU program the point was asked for by (Record::alias); null: by
  // the method's own name. `osu_timing`: --profile osu's sampling applies
  // (osu_sampling), and the point is measured on its own.
  const OsuProgram* osu = nullptr;
  bool osu_timing = false;
};

// A method asked for by the name of the OSU program it reproduces.
struct OsuSelection {
  const OsuProgram* program;
  const LoadedStrategy* strategy;
};

// The OSU programs --methods names ('osu': every one that has a method),
// each once, against the loaded methods. `error` for one that another
// program runs (osu_init, osu_hello), or whose method no plugin provides.
std::vector<OsuSelection> select_osu(const Registry& registry,
                                     const Options& options,
                                     std::string& error);

// --methods without the OSU programs' names (select_osu takes those).
Options without_osu_names(const Options& options);

// The option values of an OSU program's point: the method's defaults, with
// the program's own settings; `error` when the method does not take one.
std::vector<std::pair<std::string, std::string>> osu_values(
    const OsuSelection& s, std::string& error);

// The combinations of option values --set gives each selected method (one
// combination of defaults for a method it leaves alone; none for a method
// without options), keyed by method name. Empty and `error` set when a
// --set names a method not selected, an option the method does not have,
// or a value it does not accept.
std::map<std::string,
         std::vector<std::vector<std::pair<std::string, std::string>>>>
option_variants(const std::vector<const LoadedStrategy*>& methods,
                const Options& options, std::string& error);

// What the skip rules and the waiting mode need to know of the job, the
// same on every rank.
struct Machine {
  int ranks = 1;
  int nodes = 1;
  int max_ranks_per_node = 1;
  int min_cpus = 1;  // CPUs of the machine that has the fewest
  // Some machine has more ranks than CPUs. A machine is a running kernel
  // (/proc/sys/kernel/random/boot_id): one per node on a real cluster, one
  // for all the emulated nodes of scripts/cluster, which share its CPUs.
  bool oversubscribed = false;
  int machines = 1;
  std::vector<int> node_of;       // each rank's node, numbered from 0
  // The memory the node that has the least may fill (memory_budget: the
  // smallest of MemAvailable, its cgroup's room and --max-memory), and
  // where that figure came from.
  std::size_t min_available = 0;
  std::string memory_source;
  // The largest last-level cache of the ranks' CPUs (0: unknown) and where
  // rank 0 read it; runner --cache cold rotates over cold_set_bytes of it.
  std::size_t llc_bytes = 0;
  std::string llc_source;
  // The MPI thread level every rank's library provides (MPI_Query_thread,
  // the least over ranks): a method that needs more is skipped.
  int thread_level = MPI_THREAD_SINGLE;
};

// --pairs intra|inter: the rank among the first `ranks` that pairs with rank
// 0 (intra: the lowest on rank 0's node; inter: the lowest on another node),
// or -1 with `why` set when there is none.
int pair_partner(const std::string& placement, const Machine& machine,
                 int ranks, std::string& why);

// "a, b, c".
std::string join(const std::vector<std::string>& items);

// The strategies named by --methods, in registry order, each once; on an
// unknown name, `error` says what is available.
std::vector<const LoadedStrategy*> select_methods(const Registry& registry,
                                                  const Options& options,
                                                  std::string& error);

// runner ab: the selected methods that both builds have (base's, then
// new's). A method of one build only is an error when --methods named it
// (or its suite), else a warning, and is left out; `error` too when no
// method is in both builds.
std::vector<const LoadedStrategy*> pair_builds(
    const std::vector<const LoadedStrategy*>& methods, const Options& options,
    std::string& error, std::vector<std::string>& warnings);

// Collective over `world`.
Machine survey(MPI_Comm world, std::size_t max_memory);

// Every (rank count, size, method, payload) selected, rank counts outermost
// (--ranks; default: the launch's), with the reason it is skipped if it
// is; `error` when the options select nothing or a rank count is below a
// selected method's minimum.
std::vector<Point> plan_points(
    const std::vector<const LoadedStrategy*>& methods, const Options& options,
    const Machine& machine, std::string& error,
    const std::vector<OsuSelection>& osu = {});

// Whether this rank was started with the options rank 0 has (run_settings),
// so that no rank runs another plan and blocks the others in a collective
// (an MPMD command line, a wrapper script that reads the environment).
// Collective over `world`. Empty when they are the same; else one sentence
// naming the rank and every option that differs, for rank 0 to print.
std::string options_mismatch(const Options& options, MPI_Comm world);

// The points in groups measured together (runner --interleave): the
// points of one rank count, size, suite, payload and pair partner, in plan
// order; a group of one where nothing competes.
std::vector<std::vector<const Point*>> point_groups(
    const std::vector<Point>& points);

// Whether the points of a group (the methods competing at one size) may be
// prepared at once: their memory_bytes summed over the ranks of the busiest
// node fit in the share of the available memory the guard allows. Else
// `why` says, with the figures.
bool group_fits(const std::vector<const Point*>& group, const Machine& machine,
                std::string& why);

// --wait: whether ranks sleep while they wait around a sample.
bool sleep_when_waiting(const Options& options, const Machine& machine);

}  // namespace mpiarena
