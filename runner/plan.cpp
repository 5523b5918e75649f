// The plan of a run (plan.hpp).
#include "plan.hpp"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <functional>
#include <map>
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/payload.hpp>
#include <mpiarena/stencil_suite.hpp>
#include <set>
#include <thread>

#include "collective.hpp"
#include "memory.hpp"
#include "records.hpp"
#include "suite_info.hpp"

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

// Payload-sized buffers a rank of `info` holds: its declaration, except for
// the stencil suite, whose application array grows with --exchanges and
// --stride (2 x exchanges regions, stride / 8 elements apart), and windowed
// methods, which declare their copies per message of the --window.
int copies_of(const StrategyInfo& info, const Options& o) {
  if (info.windowed) return info.payload_copies * o.window + 1;
  if (info.suite != "stencil") return info.payload_copies;
  return info.payload_copies - kStencilArrayCopies +
         2 * o.exchanges * (o.stride / 8);
}

std::string skip_reason(const StrategyInfo& info, const std::string& payload,
                        const SizePoint& size, const Machine& m, int ranks,
                        int copies) {
  if (ranks < info.min_ranks)
    return "needs at least " + std::to_string(info.min_ranks) +
           " ranks, the run has " + std::to_string(ranks);
  if (info.single_node && m.nodes > 1)
    return "works within one node only (shared memory), the ranks span " +
           std::to_string(m.nodes) + " nodes";
  if (!info.moves_data) return {};
  std::string why = payload_size_problem(payload, size.bytes);
  if (why.empty())
    why = memory_problem(payload_bytes(payload, size.bytes), copies,
                         m.max_ranks_per_node, m.min_available);
  return why;
}

}  // namespace

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& i : items) out += (out.empty() ? "" : ", ") + i;
  return out;
}

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

std::vector<const LoadedStrategy*> select_methods(const Registry& registry,
                                                  const Options& options,
                                                  std::string& error) {
  std::set<std::string> suites;
  for (const LoadedStrategy& s : registry.strategies())
    suites.insert(s.entry.info.suite);
  std::set<std::string> wanted;
  for (const std::string& token : options.methods) {
    bool matched = false;
    for (const LoadedStrategy& s : registry.strategies()) {
      const StrategyInfo& i = s.entry.info;
      if (token == "all" || token == i.name || token == i.suite) {
        wanted.insert(i.name);
        matched = true;
      }
    }
    if (!matched) {
      error = "unknown method or suite '" + token +
              "'; available methods: " + join(registry.names()) +
              "; suites: " + join({suites.begin(), suites.end()}) +
              "; or 'all'";
      return {};
    }
  }
  std::vector<const LoadedStrategy*> out;
  for (const LoadedStrategy& s : registry.strategies())
    if (wanted.count(s.entry.info.name)) out.push_back(&s);
  return out;
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
  std::size_t available = available_memory_bytes();
  if (max_memory > 0 && (available == 0 || max_memory < available))
    available = max_memory;
  unsigned long long mine = available, least = 0;
  MPIARENA_CHECK(
      MPI_Allreduce(&mine, &least, 1, MPI_UNSIGNED_LONG_LONG, MPI_MIN, world));
  m.min_available = static_cast<std::size_t>(least);
  unsigned long long llc = last_level_cache_bytes(&m.llc_source), largest = 0;
  MPIARENA_CHECK(
      MPI_Allreduce(&llc, &largest, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, world));
  m.llc_bytes = static_cast<std::size_t>(largest);
  return m;
}

std::map<std::string,
         std::vector<std::vector<std::pair<std::string, std::string>>>>
option_variants(const std::vector<const LoadedStrategy*>& methods,
                const Options& options, std::string& error) {
  using Values = std::vector<std::pair<std::string, std::string>>;
  std::map<std::string, std::vector<Values>> out;
  for (const OptionSetting& s : options.settings) {
    const auto m = std::find_if(methods.begin(), methods.end(), [&](auto* l) {
      return l->entry.info.name == s.method;
    });
    const std::string spec = "--set " + s.method + "." + s.option;
    if (m == methods.end()) {
      error = spec + ": method '" + s.method +
              "' is not among the selected methods (--methods; runner "
              "--list shows every method)";
      return {};
    }
    const StrategyInfo& info = (*m)->entry.info;
    const auto o =
        std::find_if(info.options.begin(), info.options.end(),
                     [&](const OptionInfo& x) { return x.name == s.option; });
    if (o == info.options.end()) {
      std::vector<std::string> names;
      for (const OptionInfo& x : info.options) names.push_back(x.name);
      error = spec + ": method '" + s.method + "' has " +
              (names.empty() ? std::string("no options")
                             : "no option '" + s.option +
                                   "'; its options: " + join(names)) +
              " (runner --help-method " + s.method + ")";
      return {};
    }
    for (const std::string& v : s.values)
      if (option_value(*o, v).empty()) {
        error = spec + "=" + v + ": '" + v + "' is not accepted; " + s.option +
                " takes " + option_accepts(*o);
        return {};
      }
  }
  for (const LoadedStrategy* l : methods) {
    const StrategyInfo& info = l->entry.info;
    std::vector<Values> combos{{}};
    for (const OptionInfo& o : info.options) {
      std::vector<std::string> values{option_value(o, o.default_value)};
      for (const OptionSetting& s : options.settings)
        if (s.method == info.name && s.option == o.name) {
          values.clear();
          for (const std::string& v : s.values) {
            const std::string canonical = option_value(o, v);
            if (std::find(values.begin(), values.end(), canonical) ==
                values.end())
              values.push_back(canonical);
          }
        }
      std::vector<Values> next;
      for (const Values& c : combos)
        for (const std::string& v : values) {
          Values more = c;
          more.emplace_back(o.name, v);
          next.push_back(std::move(more));
        }
      combos = std::move(next);
      if (combos.size() > 256) {
        error = "--set: method '" + info.name + "' would run " +
                std::to_string(combos.size()) +
                " combinations of option values or more; at most 256";
        return {};
      }
    }
    out[info.name] = std::move(combos);
  }
  return out;
}

std::vector<Point> plan_points(
    const std::vector<const LoadedStrategy*>& methods, const Options& options,
    const Machine& machine, std::string& error) {
  std::set<std::string> known;
  for (const LoadedStrategy* s : methods)
    known.insert(s->entry.info.payloads.begin(), s->entry.info.payloads.end());
  for (const std::string& p : options.payloads) {
    if (!known.count(p)) {
      // Not "unknown": 2d exists, the methods chosen may just not offer it.
      std::vector<std::string> names;
      for (const LoadedStrategy* s : methods)
        names.push_back(s->entry.info.name);
      if (names.size() > 6) names.resize(6), names.push_back("...");
      error = "payload '" + p + "' is not offered by the selected methods (" +
              join(names) +
              "); they offer: " + join({known.begin(), known.end()}) +
              " ('runner --list' shows each method's payloads)";
      return {};
    }
  }
  std::vector<int> counts{machine.ranks};
  if (!options.ranks_spec.empty()) {
    try {
      counts = parse_ranks(options.ranks_spec, machine.ranks);
    } catch (const UsageError& e) {
      error = e.what();
      return {};
    }
    // An explicit rank count a selected method cannot run at is a mistake
    // in the command, not a point to skip.
    const LoadedStrategy* needy = nullptr;
    for (const LoadedStrategy* s : methods)
      if (!needy || s->entry.info.min_ranks > needy->entry.info.min_ranks)
        needy = s;
    const int need = needy ? needy->entry.info.min_ranks : 1;
    if (needy && counts.front() < need) {
      error =
          "--ranks " + std::to_string(counts.front()) + ": " +
          needy->entry.info.name + " needs at least " + std::to_string(need) +
          " ranks; " +
          (need <= machine.ranks
               ? "accepted for the selected methods: " + std::to_string(need) +
                     " to " + std::to_string(machine.ranks) + ", or all"
               : "the launch has " + std::to_string(machine.ranks) +
                     ": launch more ranks or select other methods");
      return {};
    }
  }
  // Each method's ladder: --sizes, or its suite's default when --sizes is
  // not given; the points go size by size over the union of the ladders.
  std::map<std::string, std::vector<SizePoint>> ladders;
  for (const LoadedStrategy* s : methods) {
    const std::string& suite = s->entry.info.suite;
    const std::string spec = default_sizes_spec(suite);
    ladders[suite] =
        options.sizes_given || spec.empty() ? options.sizes : parse_sizes(spec);
  }
  // A method of fixed size (StrategyInfo::fixed_bytes) runs there only.
  for (const LoadedStrategy* s : methods)
    if (const std::size_t b = s->entry.info.fixed_bytes; b > 0)
      ladders["fixed " + std::to_string(b)] = {{std::to_string(b), b}};
  std::vector<SizePoint> all;
  for (const auto& [suite, ladder] : ladders)
    for (const SizePoint& p : ladder)
      if (std::none_of(all.begin(), all.end(), [&](const SizePoint& q) {
            return q.bytes == p.bytes && q.label == p.label;
          }))
        all.push_back(p);
  std::stable_sort(
      all.begin(), all.end(),
      [](const SizePoint& a, const SizePoint& b) { return a.bytes < b.bytes; });
  auto in_ladder = [&](const StrategyInfo& info, const SizePoint& p) {
    if (info.fixed_bytes > 0)
      return p.bytes == info.fixed_bytes &&
             p.label == std::to_string(info.fixed_bytes);
    const auto& l = ladders[info.suite];
    return std::any_of(l.begin(), l.end(), [&](const SizePoint& q) {
      return q.bytes == p.bytes && q.label == p.label;
    });
  };
  const auto variants = option_variants(methods, options, error);
  if (!error.empty()) return {};
  std::vector<Point> points;
  for (int ranks : counts)
    for (const SizePoint& size : all)
      for (const LoadedStrategy* s : methods)
        for (const auto& values : variants.at(s->entry.info.name)) {
          const StrategyInfo& info = s->entry.info;
          if (!in_ladder(info, size)) continue;
          for (const std::string& payload : info.payloads) {
            if (!options.payloads.empty() &&
                std::find(options.payloads.begin(), options.payloads.end(),
                          payload) == options.payloads.end())
              continue;
            const int copies = copies_of(info, options);
            Point point{
                s, payload, size,
                skip_reason(info, payload, size, machine, ranks, copies),
                ranks};
            point.memory_bytes =
                info.moves_data
                    ? static_cast<double>(payload_bytes(payload, size.bytes)) *
                          copies
                    : 0;
            if (options.cache_cold && honours_cold_cache(info.suite)) {
              const double set =
                  static_cast<double>(cold_set_bytes(machine.llc_bytes));
              point.memory_bytes += set;
              if (point.skip_reason.empty() && machine.min_available > 0 &&
                  set * machine.max_ranks_per_node >
                      kMemoryShare * static_cast<double>(machine.min_available))
                point.skip_reason =
                    "--cache cold: the buffer sets (" + format_bytes(set) +
                    " per rank, twice the last-level "
                    "cache) of " +
                    std::to_string(machine.max_ranks_per_node) +
                    " ranks do not fit in " +
                    std::to_string(static_cast<int>(kMemoryShare * 100)) +
                    "% of the available memory";
            }
            if (info.pairwise && !options.pair_placement.empty()) {
              std::string why;
              point.partner =
                  pair_partner(options.pair_placement, machine, ranks, why);
              if (point.skip_reason.empty()) point.skip_reason = why;
            }
            point.options = values;
            point.label = method_label(info.name, values);
            points.push_back(point);
          }
        }
  if (points.empty())
    error = "nothing to run: no selected method supports the payloads " +
            join(options.payloads);
  return points;
}

std::string options_mismatch(const Options& options, MPI_Comm world) {
  std::vector<std::string> names, values;
  for (const auto& [name, value] : run_settings(options)) {
    names.push_back(name);
    values.push_back(value);
  }
  const std::vector<std::string> root_values = bcast_strings(values, 0, world);
  if (root_values == values) return {};
  // A value may be a long ladder: enough of it to see the difference.
  auto brief = [](const std::string& v) {
    const std::string s = v.size() > 60 ? v.substr(0, 57) + "..." : v;
    return "'" + s + "'";
  };
  int world_rank = 0;
  MPIARENA_CHECK(MPI_Comm_rank(world, &world_rank));
  const std::string rank = std::to_string(world_rank);
  std::string diff;
  if (root_values.size() != values.size()) {
    diff = "another set of options (another runner version?)";
  } else {
    for (std::size_t i = 0; i < values.size(); ++i)
      if (values[i] != root_values[i])
        diff += (diff.empty() ? "" : "; ") + names[i] + " " + brief(values[i]) +
                " on rank " + rank + ", " + brief(root_values[i]) +
                " on rank 0";
  }
  return "rank " + rank +
         " was started with other options than rank 0, so the ranks would "
         "not run the same points: " +
         diff + ". Give every rank the same command line";
}

std::vector<std::vector<const Point*>> point_groups(
    const std::vector<Point>& points) {
  std::vector<std::vector<const Point*>> groups;
  std::size_t block = 0;  // first group of the current (ranks, size)
  for (const Point& p : points) {
    auto same = [&](const Point* q) {
      return q->ranks == p.ranks && q->size.bytes == p.size.bytes &&
             q->size.label == p.size.label && q->payload == p.payload &&
             q->strategy->entry.info.suite == p.strategy->entry.info.suite &&
             q->partner == p.partner;
    };
    if (!groups.empty()) {
      const Point* last = groups.back().front();
      if (last->ranks != p.ranks || last->size.bytes != p.size.bytes ||
          last->size.label != p.size.label)
        block = groups.size();
    }
    auto it = std::find_if(groups.begin() + static_cast<std::ptrdiff_t>(block),
                           groups.end(),
                           [&](const auto& g) { return same(g.front()); });
    if (it == groups.end())
      groups.push_back({&p});
    else
      it->push_back(&p);
  }
  return groups;
}

bool group_fits(const std::vector<const Point*>& group, const Machine& machine,
                std::string& why) {
  if (machine.min_available == 0) return true;
  double per_rank = 0;
  for (const Point* p : group) per_rank += p->memory_bytes;
  const double need = per_rank * machine.max_ranks_per_node;
  const double budget =
      kMemoryShare * static_cast<double>(machine.min_available);
  if (need <= budget) return true;
  why = "the " + std::to_string(group.size()) +
        " points prepared together would hold about " + format_bytes(need) +
        " on one node, more than " +
        std::to_string(static_cast<int>(kMemoryShare * 100)) + "% of the " +
        format_bytes(static_cast<double>(machine.min_available)) + " available";
  return false;
}

bool sleep_when_waiting(const Options& options, const Machine& machine) {
  return options.wait == "sleep" ||
         (options.wait == "auto" && machine.oversubscribed);
}

}  // namespace mpiarena
