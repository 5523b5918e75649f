// The plan of a run (plan.hpp).
#include "runner/plan.hpp"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <fstream>
#include <functional>
#include <map>
#include <mpiarena/mpi_check.hpp>
#include <mpiarena/payload.hpp>
#include <mpiarena/stencil_suite.hpp>
#include <set>
#include <thread>

#include "core/engine/collective.hpp"
#include "core/engine/memory.hpp"
#include "core/engine/mpi_session.hpp"
#include "core/results/records.hpp"
#include "core/results/suggest.hpp"
#include "core/sdk/suite_info.hpp"

namespace mpiarena {

namespace {

// Payload-sized buffers a rank of `info` holds at a point of `ranks` ranks:
// payload_copies, except for the stencil suite, whose application array
// grows with --exchanges and --stride (2 x exchanges regions, stride / 8
// elements apart), and windowed methods, which declare their copies per
// message of the --window; plus payload_copies_per_rank per rank. Under
// --size-basis total a per-rank suite's size is the whole array and a
// rank's payload its share of it: the buffers that grow with the ranks
// hold about one size together, and a fixed copy at most one size.
int copies_of(const StrategyInfo& info, const Options& o, int ranks) {
  int fixed = info.payload_copies;
  if (info.windowed)
    fixed = info.payload_copies * o.window + 1;
  else if (info.suite == "stencil")
    fixed = info.payload_copies - kStencilArrayCopies +
            2 * o.exchanges * (o.stride / 8);
  const bool whole = o.size_total && size_is_per_rank(info.suite);
  return fixed + info.payload_copies_per_rank * (whole ? 1 : ranks);
}

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(c));
  return s;
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
  if (info.thread_level > m.thread_level)
    return "needs MPI_THREAD_" + upper(thread_level_name(info.thread_level)) +
           ", the MPI library provides MPI_THREAD_" +
           upper(thread_level_name(m.thread_level)) +
           " (runner --thread-level " + thread_level_name(info.thread_level) +
           " asks for it)";
  if (!info.moves_data) return {};
  std::string why = payload_size_problem(payload, size.bytes);
  if (why.empty())
    why = memory_problem(payload_bytes(payload, size.bytes), copies,
                         m.max_ranks_per_node, m.min_available,
                         m.memory_source);
  return why;
}

}  // namespace

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& i : items) out += (out.empty() ? "" : ", ") + i;
  return out;
}

namespace {

// The --payloads no selected method offers, each with the nearest offered.
std::string payloads_not_offered(
    const std::vector<std::string>& unknown,
    const std::vector<const LoadedStrategy*>& methods,
    const std::set<std::string>& known) {
  std::vector<std::string> names;
  for (const LoadedStrategy* s : methods) names.push_back(s->entry.info.name);
  if (names.size() > 6) names.resize(6), names.push_back("...");
  const std::vector<std::string> offered(known.begin(), known.end());
  std::string each;
  for (const std::string& p : unknown) {
    each += std::string(each.empty() ? "" : ", ") + "'" + p + "'";
    const std::string hint = did_you_mean(p, offered);
    if (!hint.empty()) each += " (" + hint + ")";
  }
  return std::string(unknown.size() == 1 ? "payload " : "payloads ") + each +
         (unknown.size() == 1 ? " is" : " are") +
         " not offered by the selected methods (" + join(names) +
         "); they offer: " + join(offered) +
         " ('runner --list' shows each method's payloads)";
}

// Every --payloads offered by some selected method; else `error` (not
// "unknown": 2d exists, the methods chosen may just not offer it).
bool payloads_offered(const std::vector<const LoadedStrategy*>& methods,
                      const Options& options, std::string& error) {
  std::set<std::string> known;
  for (const LoadedStrategy* s : methods)
    known.insert(s->entry.info.payloads.begin(), s->entry.info.payloads.end());
  std::vector<std::string> unknown;
  for (const std::string& p : options.payloads)
    if (!known.count(p)) unknown.push_back(p);
  if (!unknown.empty()) {
    error = payloads_not_offered(unknown, methods, known);
    return false;
  }
  // A method named in --methods that offers none of the --payloads would
  // be dropped without a word (one of a suite, or 'all', may be).
  if (options.payloads.empty()) return true;
  for (const LoadedStrategy* s : methods) {
    const StrategyInfo& info = s->entry.info;
    const bool named = std::find(options.methods.begin(), options.methods.end(),
                                 info.name) != options.methods.end();
    const bool offers = std::any_of(
        info.payloads.begin(), info.payloads.end(), [&](const auto& p) {
          return std::find(options.payloads.begin(), options.payloads.end(),
                           p) != options.payloads.end();
        });
    if (named && !offers) {
      error = "method '" + info.name + "' offers none of --payloads " +
              join(options.payloads) + " (its payloads: " +
              join(info.payloads) +
              "); leave it out of --methods or add one of its payloads";
      return false;
    }
  }
  return true;
}

// The rank counts of the points (--ranks; default: the launch's). An
// explicit rank count a selected method cannot run at is a mistake in the
// command (`error`), not a point to skip.
std::vector<int> rank_counts(const std::vector<const LoadedStrategy*>& methods,
                             const Options& options, const Machine& machine,
                             std::string& error) {
  if (options.ranks_spec.empty()) return {machine.ranks};
  std::vector<int> counts;
  try {
    counts = parse_ranks(options.ranks_spec, machine.ranks);
  } catch (const UsageError& e) {
    error = e.what();
    return {};
  }
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
  return counts;
}

// Each method's ladder: --sizes, or its suite's default when --sizes is not
// given; a method of fixed size (StrategyInfo::fixed_bytes) runs there
// only. The points go size by size over the union of the ladders (`all`).
class Ladders {
 public:
  Ladders(const std::vector<const LoadedStrategy*>& methods,
          const Options& options) {
    for (const LoadedStrategy* s : methods) {
      const std::string& suite = s->entry.info.suite;
      const std::string spec = default_sizes_spec(suite);
      ladders_[suite] = options.sizes_given || spec.empty() ? options.sizes
                                                            : parse_sizes(spec);
    }
    for (const LoadedStrategy* s : methods)
      if (const std::size_t b = s->entry.info.fixed_bytes; b > 0)
        ladders_["fixed " + std::to_string(b)] = {{std::to_string(b), b}};
    for (const auto& [suite, ladder] : ladders_)
      for (const SizePoint& p : ladder)
        if (std::none_of(all_.begin(), all_.end(), [&](const SizePoint& q) {
              return q.bytes == p.bytes && q.label == p.label;
            }))
          all_.push_back(p);
    std::stable_sort(all_.begin(), all_.end(),
                     [](const SizePoint& a, const SizePoint& b) {
                       return a.bytes < b.bytes;
                     });
  }
  const std::vector<SizePoint>& all() const { return all_; }
  bool contains(const StrategyInfo& info, const SizePoint& p) const {
    if (info.fixed_bytes > 0)
      return p.bytes == info.fixed_bytes &&
             p.label == std::to_string(info.fixed_bytes);
    const auto l = ladders_.find(info.suite);
    return l != ladders_.end() &&
           std::any_of(l->second.begin(), l->second.end(),
                       [&](const SizePoint& q) {
                         return q.bytes == p.bytes && q.label == p.label;
                       });
  }

 private:
  std::map<std::string, std::vector<SizePoint>> ladders_;
  std::vector<SizePoint> all_;
};

// One point of method `s` (with the option values `values`), with the
// memory it holds and the reason it is skipped, if it is.
Point make_point(const LoadedStrategy* s, const std::string& payload,
                 const SizePoint& size, int ranks,
                 const std::vector<std::pair<std::string, std::string>>& values,
                 const Options& options, const Machine& machine) {
  const StrategyInfo& info = s->entry.info;
  const int copies = copies_of(info, options, ranks);
  Point point{s, payload, size,
              skip_reason(info, payload, size, machine, ranks, copies), ranks};
  point.memory_bytes =
      info.moves_data
          ? static_cast<double>(payload_bytes(payload, size.bytes)) * copies
          : 0;
  if (options.cache_cold && honours_cold_cache(info.suite)) {
    const double set = static_cast<double>(cold_set_bytes(machine.llc_bytes));
    point.memory_bytes += set;
    if (point.skip_reason.empty() && machine.min_available > 0 &&
        set * machine.max_ranks_per_node >
            kMemoryShare * static_cast<double>(machine.min_available))
      point.skip_reason =
          "--cache cold: the buffer sets (" + format_bytes(set) +
          " per rank, twice the last-level "
          "cache) of " +
          std::to_string(machine.max_ranks_per_node) + " ranks do not fit in " +
          std::to_string(static_cast<int>(kMemoryShare * 100)) +
          "% of the available memory";
  }
  if (info.pairwise && !options.pair_placement.empty()) {
    std::string why;
    point.partner = pair_partner(options.pair_placement, machine, ranks, why);
    if (point.skip_reason.empty()) point.skip_reason = why;
  }
  point.options = values;
  point.label = method_label(s->name(), values);  // "bcast@new[...]": ab
  point.all_pairs = options.all_pairs;
  return point;
}

// The points of the methods asked for by their OSU program's name, program
// by program, each on OSU's ladder (or --sizes) with the program's
// settings; --profile osu: OSU's timing.
void add_osu_points(const std::vector<OsuSelection>& osu,
                    const std::vector<int>& counts, const Options& options,
                    const Machine& machine, std::vector<Point>& points,
                    std::string& error) {
  for (int ranks : counts)
    for (const OsuSelection& sel : osu) {
      const StrategyInfo& info = sel.strategy->entry.info;
      const auto values = osu_values(sel, error);
      if (!error.empty()) return;
      std::vector<SizePoint> ladder =
          options.sizes_given ? options.sizes
                              : parse_sizes(osu_ladder(*sel.program));
      if (info.fixed_bytes > 0)
        ladder = {{std::to_string(info.fixed_bytes), info.fixed_bytes}};
      const std::string payload = sel.program->payload[0] != '\0'
                                      ? sel.program->payload
                                      : info.payloads.front();
      for (const SizePoint& size : ladder) {
        Point p = make_point(sel.strategy, payload, size, ranks, values,
                             options, machine);
        p.osu = sel.program;
        p.label += kAliasMark + sel.program->name;
        p.all_pairs = p.all_pairs || sel.program->all_pairs;
        p.osu_timing = options.profile == "osu";
        points.push_back(std::move(p));
      }
    }
}

bool payload_selected(const Options& options, const std::string& payload) {
  return options.payloads.empty() ||
         std::find(options.payloads.begin(), options.payloads.end(), payload) !=
             options.payloads.end();
}

}  // namespace

std::vector<Point> plan_points(
    const std::vector<const LoadedStrategy*>& methods, const Options& options,
    const Machine& machine, std::string& error,
    const std::vector<OsuSelection>& osu) {
  if (!payloads_offered(methods, options, error)) return {};
  std::vector<const LoadedStrategy*> all = methods;
  for (const OsuSelection& s : osu) all.push_back(s.strategy);
  const std::vector<int> counts = rank_counts(all, options, machine, error);
  if (!error.empty()) return {};
  const Ladders ladders(methods, options);
  const auto variants = option_variants(methods, options, error);
  if (!error.empty()) return {};
  std::vector<Point> points;
  for (int ranks : counts)
    for (const SizePoint& size : ladders.all())
      for (const LoadedStrategy* s : methods)
        for (const auto& values : variants.at(s->entry.info.name)) {
          const StrategyInfo& info = s->entry.info;
          if (!ladders.contains(info, size)) continue;
          for (const std::string& payload : info.payloads)
            if (payload_selected(options, payload))
              points.push_back(make_point(s, payload, size, ranks, values,
                                          options, machine));
        }
  add_osu_points(osu, counts, options, machine, points, error);
  if (!error.empty()) return {};
  if (points.empty())
    error = "nothing to run: no selected method supports the payloads " +
            join(options.payloads);
  return points;
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
             q->partner == p.partner && !q->osu_timing && !p.osu_timing;
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
        format_bytes(static_cast<double>(machine.min_available)) +
        " available (" + machine.memory_source + ")";
  return false;
}

}  // namespace mpiarena
