// runner tune's decisions and Open MPI's dynamic rules file (tuning.hpp).
#include "core/analysis/tuning/tuning.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <mpiarena/stats.hpp>
#include <set>
#include <sstream>
#include <stdexcept>
#include <tuple>

#include "core/analysis/stats/inference.hpp"
#include "core/analysis/stats/rank_tests.hpp"
#include "core/analysis/text/text_format.hpp"
#include "core/results/suites.hpp"
#include "core/results/units.hpp"

namespace mpiarena {

namespace {

// The collective of a record of runner --algorithms, from the library's
// variable (coll_tuned_<c>_algorithm, MPIR_CVAR_<C>_INTRA_ALGORITHM), else
// the method's param "collective".
std::string collective_of(const Record& r) {
  std::string v = r.algorithm.variable;
  const auto strip = [&v](const std::string& head, const std::string& tail) {
    if (v.size() <= head.size() + tail.size() || v.rfind(head, 0) != 0 ||
        v.compare(v.size() - tail.size(), tail.size(), tail) != 0)
      return false;
    v = v.substr(head.size(), v.size() - head.size() - tail.size());
    return true;
  };
  if (strip("coll_tuned_", "_algorithm")) return v;
  if (strip("MPIR_CVAR_", "_INTRA_ALGORITHM")) {
    for (char& c : v) c = static_cast<char>(std::tolower(c));
    return v;
  }
  return r.param("collective");
}

// One algorithm at one point, its samples pooled over the files.
struct Pooled {
  std::string name, own_choice, size_label;
  int value = 0;
  std::vector<double> samples;
};

using PointId = std::tuple<std::string, std::string, int, std::size_t>;

struct Pool {
  std::string library;
  std::map<PointId, std::map<std::string, Pooled>> points;
};

void pool_document(const Document& doc, Pool& pool) {
  for (const Record& r : doc.records) {
    const std::string collective = collective_of(r);
    if (collective.empty() || r.algorithm.variable.empty() ||
        !r.param("guideline").empty() || r.verification == "failed" ||
        r.samples_max.empty())
      continue;
    check_listed_algorithm(r, doc.context);
    if (pool.library.empty()) pool.library = r.algorithm.library;
    if (r.algorithm.library != pool.library)
      throw std::invalid_argument(
          "the files hold points of two MPI libraries (" + pool.library +
          " and " + r.algorithm.library +
          "); a tuning file is for one library: tune each library's files "
          "apart");
    // A barrier moves nothing: its sizes are one point.
    const std::size_t block = collective == "barrier" ? 0 : tuning_block(r);
    const PointId id{collective, r.method.substr(0, r.method.find('[')),
                     r.ranks, block};
    const std::string name =
        r.algorithm.value == 0 ? std::string() : r.algorithm.name;
    Pooled& p = pool.points[id][name];
    p.name = r.algorithm.name;
    p.value = r.algorithm.value;
    if (p.samples.empty())
      p.size_label = collective == "barrier" ? "any" : r.size_label;
    p.samples.insert(p.samples.end(), r.samples_max.begin(),
                     r.samples_max.end());
  }
}

TuningPoint decide(const PointId& id, const std::map<std::string, Pooled>& algs,
                   const TuneOptions& o) {
  const Pooled& lib = algs.at("");
  TuningPoint t;
  std::tie(t.collective, t.method, t.ranks, t.block) = id;
  t.size_label = lib.size_label;
  t.own_choice = lib.name;
  t.library_s = summarize(lib.samples).median;
  std::vector<const Pooled*> rivals;
  std::vector<double> p;
  for (const auto& [name, a] : algs) {
    if (name.empty()) continue;
    rivals.push_back(&a);
    p.push_back(mann_whitney(a.samples, lib.samples).p);
  }
  t.compared = static_cast<int>(rivals.size());
  p = holm(p);
  const Pooled* fastest = nullptr;
  double fastest_s = 0, fastest_p = 1;
  const Pooled* best = nullptr;
  for (std::size_t i = 0; i < rivals.size(); ++i) {
    const double m = summarize(rivals[i]->samples).median;
    if (!fastest || m < fastest_s) {
      fastest = rivals[i];
      fastest_s = m;
      fastest_p = p[i];
    }
    if (p[i] < o.alpha && t.library_s >= m * (1 + o.threshold) &&
        (!best || m < t.winner_s)) {
      best = rivals[i];
      t.winner_s = m;
      t.p = p[i];
    }
  }
  if (best) {
    t.winner = best->name;
    t.value = best->value;
    t.factor = t.library_s / t.winner_s;
  } else if (!fastest || fastest_s >= t.library_s) {
    t.why = "no algorithm faster";
  } else {
    t.why = fastest->name + " " + fixed(t.library_s / fastest_s, 2, "x") +
            (fastest_p >= o.alpha
                 ? ", p " + fixed(fastest_p, 3) + " after Holm"
                 : ", below the " + fixed(100 * o.threshold, 0, "%") +
                       " threshold");
  }
  return t;
}

// Two methods of one collective that land on the same library message
// size and communicator size but disagree: the library's choice stays.
void settle_disagreements(Tuning& t) {
  using Slot = std::tuple<std::string, int, std::size_t>;
  std::map<Slot, std::vector<TuningPoint*>> slots;
  for (TuningPoint& p : t.points)
    slots[{p.collective, p.ranks, library_message_size(t.library, p)}]
        .push_back(&p);
  for (auto& [slot, points] : slots) {
    std::set<std::string> winners;
    for (const TuningPoint* p : points) winners.insert(p->winner);
    if (winners.size() < 2) continue;
    for (TuningPoint* p : points) {
      if (!p->winner.empty())
        p->why = "set aside: " + p->winner + " won here, but " +
                 std::to_string(points.size()) +
                 " points of this collective, size and rank count disagree";
      p->winner.clear();
      p->value = 0;
    }
  }
}

// Winners tune cannot write into the library's file: MPICH 4.0's gather
// and scatter (its file sizes them in elements), and every collective
// beyond the nine whose rules mpiarena has checked against the library's
// own decision (scan, allgatherv...: runner --algorithms measures them,
// the table shows their winners, the file keeps the library's choice).
void set_aside_unwritable(Tuning& t) {
  const auto& checked = library_collectives();
  for (TuningPoint& p : t.points) {
    if (p.winner.empty()) continue;
    if (std::find(checked.begin(), checked.end(), p.collective) ==
        checked.end())
      p.why = "set aside: " + p.winner + " won here, but tune writes no " +
              p.collective + " rules yet (docs/tuning.md)";
    else if (t.library == "MPICH" &&
             (p.collective == "gather" || p.collective == "scatter"))
      p.why = "set aside: " + p.winner +
              " won here, but MPICH 4.0's selection file sizes gather and "
              "scatter in elements, not bytes";
    else
      continue;
    p.winner.clear();
    p.value = 0;
  }
}

bool times_comm_size(const std::string& collective) {
  return collective == "allgather" || collective == "alltoall" ||
         collective == "gather" || collective == "scatter" ||
         collective == "reduce_scatter_block";
}

}  // namespace

std::size_t tuning_block(const Record& r) {
  if (!r.moves_data) return 0;
  return r.size_total && r.ranks > 0
             ? r.bytes / static_cast<std::size_t>(r.ranks)
             : r.bytes;
}

Tuning tune(const std::vector<Document>& docs, const TuneOptions& options) {
  Pool pool;
  Tuning t;
  for (const Document& d : docs) {
    pool_document(d, pool);
    const auto& algs = d.context.library_algorithms;
    if (algs && algs->selection_table && t.library_table.empty()) {
      t.library_table = algs->selection_table->text;
      t.library_table_source = algs->selection_table->source;
    }
  }
  t.library = pool.library;
  for (const auto& [id, algs] : pool.points)
    if (algs.count("") && algs.size() > 1)
      t.points.push_back(decide(id, algs, options));
  if (t.points.empty())
    throw std::invalid_argument(
        "no point holds both the library's own choice and a forced "
        "algorithm of the same collective, size and rank count; measure "
        "with runner --algorithms (docs/tuning.md)");
  settle_disagreements(t);
  set_aside_unwritable(t);
  // The claims, once the winners are known: k of them hold together.
  const double level = claim_level(options.alpha, winner_count(t));
  for (TuningPoint& p : t.points) {
    if (p.winner.empty()) continue;
    const auto& algs =
        pool.points.at({p.collective, p.method, p.ranks, p.block});
    p.claimed = ratio_lower_bound(algs.at("").samples,
                                  algs.at(p.winner).samples, level);
  }
  return t;
}

double claim_level(double alpha, int k) { return bonferroni_level(alpha, k); }

int winner_count(const Tuning& t) {
  return static_cast<int>(
      std::count_if(t.points.begin(), t.points.end(),
                    [](const TuningPoint& p) { return !p.winner.empty(); }));
}

std::size_t library_message_size(const std::string& library,
                                 const TuningPoint& p) {
  if (p.collective == "barrier") return 0;
  // MPICH sizes an alltoall by the bytes to each rank (avg_msg_size).
  if (library == "MPICH" && p.collective == "alltoall") return p.block;
  return times_comm_size(p.collective)
             ? p.block * static_cast<std::size_t>(p.ranks)
             : p.block;
}

namespace {

// Open MPI 4.1's COLLTYPE_T (ompi/mca/coll/base/coll_base_functions.h):
// the collective ids of its dynamic rules file.
int openmpi_collective_id(const std::string& collective) {
  static const std::map<std::string, int> kIds = {
      {"allgather", 0}, {"allreduce", 2},
      {"alltoall", 3},  {"barrier", 6},
      {"bcast", 7},     {"gather", 9},
      {"reduce", 11},   {"reduce_scatter_block", 13},
      {"scatter", 15}};
  const auto it = kIds.find(collective);
  if (it == kIds.end())
    throw std::invalid_argument("collective '" + collective +
                                "' has no id in Open MPI's rules file");
  return it->second;
}

struct MsgRule {
  std::size_t from = 0;
  int value = 0;
  std::string name;
};

// From message size 0 upwards: the library's choice (0) below the first
// measured size and above the last, each measured size's decision up to
// the next one; neighbours with the same algorithm merged.
std::vector<MsgRule> message_rules(
    std::vector<std::pair<std::size_t, const TuningPoint*>> sizes) {
  std::sort(sizes.begin(), sizes.end());
  std::vector<MsgRule> raw{{0, 0, ""}};
  for (const auto& [m, p] : sizes) {
    if (raw.back().from == m) raw.pop_back();
    raw.push_back({m, p->value, p->winner});
  }
  if (!sizes.empty()) raw.push_back({sizes.back().first + 1, 0, ""});
  std::vector<MsgRule> out;
  for (const MsgRule& r : raw)
    if (out.empty() || out.back().value != r.value) out.push_back(r);
  return out;
}

}  // namespace

std::string openmpi_rules(const Tuning& t) {
  // collective -> ranks -> (message size, point)
  std::map<int, std::pair<std::string,
                          std::map<int, std::vector<std::pair<
                                            std::size_t, const TuningPoint*>>>>>
      rules;
  std::set<int> won;
  const auto& written = library_collectives();  // set_aside_unwritable
  for (const TuningPoint& p : t.points) {
    if (std::find(written.begin(), written.end(), p.collective) ==
        written.end())
      continue;
    const int id = openmpi_collective_id(p.collective);
    rules[id].first = p.collective;
    rules[id].second[p.ranks].push_back(
        {library_message_size(t.library, p), &p});
    if (!p.winner.empty()) won.insert(id);
  }
  std::ostringstream out;
  out << "# Open MPI coll/tuned dynamic rules, written by mpiarena runner "
         "tune.\n# Load: mpirun --mca coll_tuned_use_dynamic_rules 1 --mca "
         "coll_tuned_dynamic_rules_filename THIS_FILE ...\n# Algorithm 0: "
         "the library's own (fixed) decision.\n"
      << won.size() << "  # collectives\n";
  for (const auto& [id, entry] : rules) {
    if (!won.count(id)) continue;
    std::map<int, std::vector<MsgRule>> comms;
    for (const auto& [ranks, sizes] : entry.second) {
      comms[ranks] = message_rules(sizes);
      if (!entry.second.count(ranks + 1)) comms[ranks + 1] = {{0, 0, ""}};
    }
    if (comms.begin()->first > 1) comms[1] = {{0, 0, ""}};
    out << id << "  # " << entry.first << "\n"
        << comms.size() << "  # communicator sizes\n";
    for (const auto& [ranks, msgs] : comms) {
      out << ranks << "  # communicator size\n"
          << msgs.size() << "  # message sizes\n";
      for (const MsgRule& m : msgs)
        out << m.from << " " << m.value << " 0 0  # "
            << (m.value ? m.name : "library's choice") << " from " << m.from
            << " B\n";
    }
  }
  return out.str();
}

}  // namespace mpiarena
