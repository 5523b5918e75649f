// What the job is: nodes, machines, CPUs, memory, cache, and what follows
// from it (plan.hpp: Machine, survey, pair_partner, sleep_when_waiting).
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <functional>
#include <mpiarena/mpi_check.hpp>
#include <thread>

#include "core/engine/memory.hpp"
#include "core/engine/mpi_session.hpp"
#include "runner/measure.hpp"
#include "runner/plan.hpp"

namespace mpiarena {

namespace {

// The CPUs the ranks of a machine may run on: the union of their affinity
// masks (a rank bound to one core sees one; a cpuset or cgroup limits all),
// or the CPUs online when the masks cannot be read. Collective over `node`
// (the ranks of one machine).
int machine_cpus(MPI_Comm node) {
  constexpr int kBits = 8 * sizeof(unsigned long);
  constexpr int kWords = CPU_SETSIZE / kBits;
  unsigned long mine[kWords] = {}, all[kWords] = {};
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0)
    for (int c = 0; c < CPU_SETSIZE; ++c)
      if (CPU_ISSET(c, &set)) mine[c / kBits] |= 1UL << (c % kBits);
  MPIARENA_CHECK(
      MPI_Allreduce(mine, all, kWords, MPI_UNSIGNED_LONG, MPI_BOR, node));
  int count = 0;
  for (unsigned long w : all) count += __builtin_popcountl(w);
  return count > 0 ? count
                   : static_cast<int>(
                         std::max(1U, std::thread::hardware_concurrency()));
}

// The colour of this rank's machine for MPI_Comm_split: its kernel's boot
// id, which the emulated nodes of one machine share (network and UTS
// namespaces do not change it); the host name where it cannot be read.
int machine_color() {
  std::string id;
  std::ifstream in("/proc/sys/kernel/random/boot_id");
  std::getline(in, id);
  if (id.empty()) {
    char host[256] = {0};
    gethostname(host, sizeof host - 1);
    id = host;
  }
  return static_cast<int>(std::hash<std::string>{}(id)&0x7fffffff);
}

}  // namespace

int pair_partner(const std::string& placement, const Machine& machine,
                 int ranks, std::string& why) {
  const bool intra = placement == "intra";
  for (int r = 1; r < ranks && r < static_cast<int>(machine.node_of.size());
       ++r)
    if ((machine.node_of[r] == machine.node_of[0]) == intra) return r;
  why = "--pairs " + placement + ": " +
        (intra ? "rank 0 has no other rank on its node among the first " +
                     std::to_string(ranks) + " ranks"
               : "the first " + std::to_string(ranks) +
                     " ranks are all on one node (launch on several nodes, "
                     "e.g. scripts/cluster run)");
  return -1;
}

Machine survey(MPI_Comm world, std::size_t max_memory) {
  Machine m;
  int rank = 0;
  MPIARENA_CHECK(MPI_Comm_rank(world, &rank));
  MPIARENA_CHECK(MPI_Comm_size(world, &m.ranks));
  MPI_Comm node = MPI_COMM_NULL;
  MPIARENA_CHECK(MPI_Comm_split_type(world, MPI_COMM_TYPE_SHARED, rank,
                                     MPI_INFO_NULL, &node));
  int local_rank = 0, local_size = 1;
  MPIARENA_CHECK(MPI_Comm_rank(node, &local_rank));
  MPIARENA_CHECK(MPI_Comm_size(node, &local_size));
  // Each rank's node: the world rank of its node's first rank, then
  // numbered in order of those.
  int first = rank;
  MPIARENA_CHECK(MPI_Bcast(&first, 1, MPI_INT, 0, node));
  MPIARENA_CHECK(MPI_Comm_free(&node));
  std::vector<int> firsts(static_cast<std::size_t>(m.ranks));
  MPIARENA_CHECK(
      MPI_Allgather(&first, 1, MPI_INT, firsts.data(), 1, MPI_INT, world));
  std::vector<int> order = firsts;
  std::sort(order.begin(), order.end());
  order.erase(std::unique(order.begin(), order.end()), order.end());
  for (int f : firsts)
    m.node_of.push_back(static_cast<int>(
        std::lower_bound(order.begin(), order.end(), f) - order.begin()));
  m.nodes = static_cast<int>(order.size());
  MPIARENA_CHECK(MPI_Allreduce(&local_size, &m.max_ranks_per_node, 1, MPI_INT,
                               MPI_MAX, world));
  MPI_Comm machine = MPI_COMM_NULL;
  MPIARENA_CHECK(MPI_Comm_split(world, machine_color(), rank, &machine));
  int machine_rank = 0, machine_size = 1;
  MPIARENA_CHECK(MPI_Comm_rank(machine, &machine_rank));
  MPIARENA_CHECK(MPI_Comm_size(machine, &machine_size));
  const int cpus = machine_cpus(machine);
  MPIARENA_CHECK(MPI_Comm_free(&machine));
  const int leader = machine_rank == 0 ? 1 : 0;
  MPIARENA_CHECK(
      MPI_Allreduce(&leader, &m.machines, 1, MPI_INT, MPI_SUM, world));
  MPIARENA_CHECK(MPI_Allreduce(&cpus, &m.min_cpus, 1, MPI_INT, MPI_MIN, world));
  const int over = machine_size > cpus ? 1 : 0;
  int any_over = 0;
  MPIARENA_CHECK(MPI_Allreduce(&over, &any_over, 1, MPI_INT, MPI_MAX, world));
  m.oversubscribed = any_over != 0;
  const MemoryBudget budget = memory_budget(max_memory);
  unsigned long long mine = budget.bytes, least = 0;
  MPIARENA_CHECK(
      MPI_Allreduce(&mine, &least, 1, MPI_UNSIGNED_LONG_LONG, MPI_MIN, world));
  m.min_available = static_cast<std::size_t>(least);
  // The source of the lowest rank that has the least.
  int owner = mine == least ? rank : m.ranks, first_owner = 0;
  MPIARENA_CHECK(
      MPI_Allreduce(&owner, &first_owner, 1, MPI_INT, MPI_MIN, world));
  m.memory_source = budget.source;
  int length = static_cast<int>(m.memory_source.size());
  MPIARENA_CHECK(MPI_Bcast(&length, 1, MPI_INT, first_owner, world));
  m.memory_source.resize(static_cast<std::size_t>(length));
  MPIARENA_CHECK(
      MPI_Bcast(m.memory_source.data(), length, MPI_CHAR, first_owner, world));
  unsigned long long llc = last_level_cache_bytes(&m.llc_source), largest = 0;
  MPIARENA_CHECK(
      MPI_Allreduce(&llc, &largest, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, world));
  m.llc_bytes = static_cast<std::size_t>(largest);
  const int provided = provided_thread_level();
  MPIARENA_CHECK(
      MPI_Allreduce(&provided, &m.thread_level, 1, MPI_INT, MPI_MIN, world));
  return m;
}

bool sleep_when_waiting(const Options& options, const Machine& machine) {
  return options.wait == "sleep" ||
         (options.wait == "auto" && machine.oversubscribed);
}

MeasureOptions measure_options(const Options& options, const Machine& machine) {
  MeasureOptions m;
  m.min_time = options.min_time;
  m.repetitions = options.repetitions;
  m.warmup = options.warmup;
  m.verify = options.verify;
  m.point_timeout = options.point_timeout;
  m.noise = options.noise;
  m.retry_noisy = options.retry_noisy;
  m.cpus = machine.min_cpus;
  m.oversubscribed = machine.oversubscribed;
  m.target_rse = options.target_rse;
  m.max_time = options.max_time;
  m.precision = options.precision;
  m.iterations = options.iterations;
  m.sleep_when_waiting = sleep_when_waiting(options, machine);
  return m;
}

}  // namespace mpiarena
