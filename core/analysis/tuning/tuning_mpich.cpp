// MPICH's collective selection JSON from runner tune's decisions
// (tuning.hpp). The format is MPICH 4.0's csel tree (src/mpi/coll/src/
// csel.c): keys are tried in file order, the first true one is entered and
// never left, chains of thresholds end with "=any", and a leaf is
// {"algorithm=MPIR_<Coll>_intra_<name>": {}}. The table is ordered JSON:
// re-sorting its keys would change which branch is taken.
#include <algorithm>
#include <cctype>
#include <map>
#include <stdexcept>

#include "core/analysis/tuning/tuning.hpp"
#include "core/results/bounded_json.hpp"

namespace mpiarena {

namespace {

using Tree = nlohmann::ordered_json;

std::string container(std::string collective, const std::string& name) {
  collective[0] = static_cast<char>(
      std::toupper(static_cast<unsigned char>(collective[0])));
  return name == "nb" ? "algorithm=MPIR_" + collective + "_allcomm_nb"
                      : "algorithm=MPIR_" + collective + "_intra_" + name;
}

bool reduction(const std::string& c) {
  return c == "allreduce" || c == "reduce" || c == "reduce_scatter_block";
}

// The winner, under guards for what the measurement had and the library
// does not check on this path (a built-in commutative operation, not in
// place, a parent communicator for smp, enough elements for the reduce-
// scatter algorithms); anything else takes the library's own branch.
Tree guarded(const std::string& coll, const std::string& name,
             const Tree& library) {
  Tree node = Tree::object();
  node[container(coll, name)] = Tree::object();
  auto guard = [&](const std::string& yes, const std::string& no) {
    Tree g = Tree::object();
    g[yes] = node;
    g[no] = library;
    node = g;
  };
  if (name == "smp") guard("comm_hierarchy=parent", "comm_hierarchy=any");
  if (coll == "alltoall")
    guard("is_sendbuf_inplace=no", "is_sendbuf_inplace=yes");
  if (reduction(coll)) guard("is_commutative=yes", "is_commutative=no");
  if (coll == "allreduce" || coll == "reduce")
    guard("is_op_built_in=yes", "is_op_built_in=no");
  if (name == "reduce_scatter_allgather" || name == "reduce_scatter_gather") {
    Tree g = Tree::object();
    g["count<pow2"] = library;
    g["count=any"] = node;
    node = g;
  }
  return node;
}

// The message-size key MPICH 4.0 defines for the collective (csel.c,
// get_avg_msgsize/get_total_msgsize); empty: none (barrier).
std::string size_key(const std::string& c) {
  if (c == "allreduce" || c == "bcast" || c == "reduce" || c == "alltoall")
    return "avg_msg_size";
  if (c == "allgather" || c == "reduce_scatter_block") return "total_msg_size";
  return "";
}

// The decisions at one communicator size, by message size: each measured
// size's decision holds up to the next measured size, the library's own
// branch below the first and above the last.
Tree size_chain(const std::string& library_name,
                std::vector<const TuningPoint*> points, const Tree& library) {
  const std::string coll = points.front()->collective;
  const std::string key = size_key(coll);
  if (key.empty())
    return points.front()->winner.empty()
               ? library
               : guarded(coll, points.front()->winner, library);
  auto size = [&](const TuningPoint* p) {
    return library_message_size(library_name, *p);
  };
  std::sort(points.begin(), points.end(),
            [&](auto* a, auto* b) { return size(a) < size(b); });
  std::vector<std::pair<std::size_t, std::string>> upto;  // (last byte, winner)
  if (size(points.front()) > 0) upto.push_back({size(points.front()) - 1, ""});
  for (std::size_t i = 0; i < points.size(); ++i) {
    const std::size_t last =
        i + 1 < points.size() ? size(points[i + 1]) - 1 : size(points[i]);
    if (!upto.empty() && upto.back().second == points[i]->winner)
      upto.back().first = last;
    else
      upto.push_back({last, points[i]->winner});
  }
  Tree chain = Tree::object();
  for (const auto& [last, winner] : upto)
    chain[key + "<=" + std::to_string(last)] =
        winner.empty() ? library : guarded(coll, winner, library);
  chain[key + "=any"] = library;
  return chain;
}

}  // namespace

std::string mpich_selection(const Tuning& t) {
  if (t.library_table.empty())
    throw std::invalid_argument(
        "the files do not hold MPICH's selection table (context "
        "library_algorithms.selection_table), which a file for MPICH must "
        "start from: measure again with this version of runner "
        "--algorithms");
  Tree table;
  try {
    table = parse_bounded<Tree>(t.library_table, kSelectionTableDepth);
  } catch (const std::exception& e) {
    throw std::invalid_argument(
        "MPICH's selection table in the files (context "
        "library_algorithms.selection_table, from " +
        (t.library_table_source.empty() ? std::string("?")
                                        : t.library_table_source) +
        ") cannot be read: " + e.what());
  }
  // collective -> ranks -> points
  std::map<std::string, std::map<int, std::vector<const TuningPoint*>>> won;
  // The collectives with a winner only: the others keep the table's own.
  for (const TuningPoint& p : t.points)
    if (!p.winner.empty()) won[p.collective];
  for (const TuningPoint& p : t.points)
    if (won.count(p.collective)) won[p.collective][p.ranks].push_back(&p);
  for (auto& [coll, by_ranks] : won) {
    const std::string key = "collective=" + coll;
    if (!table.contains(key) || !table[key].contains("comm_type=intra"))
      throw std::invalid_argument("MPICH's selection table has no " + key +
                                  " for intra-communicators");
    const Tree library = table[key]["comm_type=intra"];
    Tree chain = Tree::object();
    int prev = 0;
    for (const auto& [ranks, points] : by_ranks) {
      const bool any = std::any_of(points.begin(), points.end(),
                                   [](auto* p) { return !p->winner.empty(); });
      if (!any || ranks < 2) continue;
      if (ranks - 1 > prev)
        chain["comm_size<=" + std::to_string(ranks - 1)] = library;
      chain["comm_size<=" + std::to_string(ranks)] =
          size_chain(t.library, points, library);
      prev = ranks;
    }
    if (prev == 0) continue;
    chain["comm_size=any"] = library;
    table[key]["comm_type=intra"] = chain;
  }
  std::string text = table.dump(1) + "\n";
  // MPICH 4.0 maps the file and reads it as a string: a size that is a
  // whole number of pages leaves no terminating zero after it.
  if (text.size() % 4096 == 0) text += "\n";
  return text;
}

}  // namespace mpiarena
