// runner --algorithms (algorithms.hpp).
#include "runner/algorithms.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <set>
#include <sstream>

#include "core/engine/library_algorithms.hpp"
#include "core/engine/selection_table.hpp"
#include "runner/reporters.hpp"

namespace mpiarena {

namespace {

// What discovery found, for the hooks and the records.
struct Found {
  std::string library;
  std::vector<CollectiveAlgorithms> collectives;
};

Found& found() {
  static Found f;
  return f;
}

const CollectiveAlgorithms* collective(const std::string& name) {
  for (const CollectiveAlgorithms& c : found().collectives)
    if (c.collective == name) return &c;
  return nullptr;
}

std::string algorithm_of(const Point& p) {
  for (const auto& [name, value] : p.options)
    if (name == "algorithm") return value;
  return "";
}

// The variable's value of an option value: "library" is 0, the library's
// own choice.
int value_of(const CollectiveAlgorithms& c, const std::string& choice) {
  for (const LibraryAlgorithm& a : c.algorithms)
    if (a.name == choice) return a.value;
  return 0;
}

std::string names(const CollectiveAlgorithms& c) {
  std::string s;
  for (const LibraryAlgorithm& a : c.algorithms)
    s += (s.empty() ? "" : ", ") + a.name;
  return s;
}

std::string accepted(const std::vector<const CollectiveAlgorithms*>& used) {
  std::string s = "all, library";
  for (const CollectiveAlgorithms* c : used)
    if (!c->algorithms.empty()) s += "; " + c->collective + ": " + names(*c);
  return s;
}

// How another algorithm is reached when the variable is fixed.
std::string fixed(const CollectiveAlgorithms& c, const std::string& library) {
  return library + " cannot change " + c.variable + " in this launch (" +
         c.why_fixed + ")" +
         (c.at_creation ? "; the runner turns coll_tuned_use_dynamic_rules "
                          "on unless the launch gives it another value "
                          "(docs/tuning.md)"
                        : "");
}

// The values of the option "algorithm" for collective `c`, or an error.
std::vector<std::string> values_for(const CollectiveAlgorithms& c,
                                    const std::vector<std::string>& asked,
                                    const std::string& library,
                                    std::string& error,
                                    std::vector<std::string>& warnings) {
  const bool all = asked.size() == 1 && asked[0] == "all";
  std::vector<std::string> values;
  if (c.algorithms.empty()) {
    warnings.push_back(c.collective + ": " + c.why_none +
                       "; measured with the library's choice only");
    return {"library"};
  }
  const std::string launch = c.launch_value == 0 ? "library" : c.launch_name;
  if (!c.writable) {
    for (const std::string& a : asked)
      if (!all && a != launch && (a == "library" || value_of(c, a) != 0)) {
        error = "--algorithms " + a + ": " + fixed(c, library) +
                ", and it runs " + launch;
        return {};
      }
    warnings.push_back(fixed(c, library) + ": this launch measures " + launch +
                       " only");
    return {launch};
  }
  values.push_back("library");
  for (const LibraryAlgorithm& a : c.algorithms)
    if (all || std::find(asked.begin(), asked.end(), a.name) != asked.end())
      values.push_back(a.name);
  return values;
}

OptionInfo algorithm_option(const CollectiveAlgorithms& c) {
  OptionInfo o;
  o.name = "algorithm";
  o.type = OptionInfo::Type::choice;
  o.default_value = "library";
  o.choices = {"library"};
  for (const LibraryAlgorithm& a : c.algorithms) o.choices.push_back(a.name);
  o.help = "the MPI library's algorithm of " + c.collective + " (" +
           c.variable + "; library: its own choice)";
  return o;
}

}  // namespace

std::string apply_algorithms(Registry& registry,
                             const std::vector<const LoadedStrategy*>& methods,
                             Options& options,
                             std::vector<std::string>& warnings) {
  if (options.algorithms.empty()) return "";
  for (const OptionSetting& s : options.settings)
    if (s.option == "algorithm")
      return "--set " + s.method +
             ".algorithm: give the library's "
             "algorithms with --algorithms only";
  found() = {mpi_library_name(), discover_algorithms()};
  // Open MPI applies a rules file before a forced algorithm (coll_tuned's
  // dynamic decision), so a point would not run the algorithm it names.
  const char* rules = std::getenv("OMPI_MCA_coll_tuned_dynamic_rules_filename");
  if (found().library == "Open MPI" && rules && *rules)
    return "--algorithms: this launch loads Open MPI's dynamic rules file '" +
           std::string(rules) +
           "' (coll_tuned_dynamic_rules_filename), whose rules Open MPI "
           "applies before a forced algorithm; measure the algorithms "
           "without it";
  std::vector<const CollectiveAlgorithms*> used;
  for (const LoadedStrategy* l : methods)
    if (const auto* c = collective(l->entry.info.library_collective))
      if (std::find(used.begin(), used.end(), c) == used.end())
        used.push_back(c);
  if (used.empty())
    return "--algorithms: none of the selected methods is an MPI collective "
           "whose algorithm the library chooses (allreduce, coll_bcast, "
           "reduce, allgather, alltoall, gather, scatter, barrier, "
           "reduce_scatter_block)";
  for (const std::string& a : options.algorithms)
    if (a != "all" && a != "library" &&
        std::none_of(used.begin(), used.end(),
                     [&](auto* c) { return value_of(*c, a) != 0; }))
      return "--algorithms: '" + a + "' is not an algorithm of " +
             found().library +
             " for the selected collectives; accepted: " + accepted(used);
  std::set<std::string> done;
  for (const LoadedStrategy* l : methods) {
    const StrategyInfo& info = l->entry.info;
    const CollectiveAlgorithms* c = collective(info.library_collective);
    if (!c) continue;
    LoadedStrategy* amend = registry.find(info.name, l->build);
    amend->entry.info.options.push_back(algorithm_option(*c));
    if (!done.insert(info.name).second) continue;
    std::string error;
    std::vector<std::string> values =
        values_for(*c, options.algorithms, found().library, error, warnings);
    if (!error.empty()) return error;
    options.settings.push_back({info.name, "algorithm", values});
  }
  AlgorithmSelector::instance().init(found().collectives);
  return "";
}

// The point's algorithm, or null when it has none to select.
const CollectiveAlgorithms* selected(const Point& p, int& value) {
  const std::string choice = algorithm_of(p);
  const CollectiveAlgorithms* c =
      collective(p.strategy->entry.info.library_collective);
  if (!AlgorithmSelector::instance().active() || !c || choice.empty())
    return nullptr;
  value = choice == "library" ? 0 : value_of(*c, choice);
  return c;
}

void set_algorithm_hooks(const Point& p, GroupMember& m) {
  int value = 0;
  const CollectiveAlgorithms* c = selected(p, value);
  if (!c || c->at_creation) return;
  const std::string name = c->collective;
  m.enter = [name, value] {
    AlgorithmSelector::instance().select(name, value);
  };
  m.leave = [] { AlgorithmSelector::instance().select("", 0); };
}

CreationScope::CreationScope(const Point& p) {
  int value = 0;
  const CollectiveAlgorithms* c = selected(p, value);
  if (!c || !c->at_creation) return;
  AlgorithmSelector::instance().select(c->collective, value);
  active_ = true;
}

void CreationScope::close() {
  if (!active_) return;
  active_ = false;
  try {
    AlgorithmSelector::instance().select("", 0);
  } catch (const std::exception& e) {
    throw std::runtime_error(
        std::string("the library's own algorithms could not be put back "
                    "after a forced point's communicator was created (every "
                    "later point would run under the forced one): ") +
        e.what());
  }
}

CreationScope::~CreationScope() {
  if (active_) AlgorithmSelector::instance().restore();
}

void refused_by_library(const Point& p, GroupResult& r) {
  const std::string choice = algorithm_of(p);
  const CollectiveAlgorithms* c =
      collective(p.strategy->entry.info.library_collective);
  // An MPI call that returned an error (throw_mpi_error: "MPI_X(...)
  // failed: <the library's error string>").
  const std::size_t mpi = r.reason.find(" failed: ");
  if (r.kind != GroupResult::failed || !c || choice.empty() ||
      choice == "library" || mpi == std::string::npos ||
      r.reason.find("MPI_") == std::string::npos)
    return;
  r.kind = GroupResult::skipped;
  r.reason = found().library + " refused " + c->variable + " = " + choice +
             " for this call: " + r.reason.substr(mpi + 9);
}

void describe_algorithm(Record& rec, const Point& p) {
  const std::string choice = algorithm_of(p);
  const CollectiveAlgorithms* c =
      collective(p.strategy->entry.info.library_collective);
  if (!c || choice.empty() || c->variable.empty()) return;
  const int value = choice == "library" ? 0 : value_of(*c, choice);
  rec.algorithm = {found().library, c->variable,
                   value == 0 ? c->own_choice : choice, value};
}

std::optional<LibraryAlgorithmsContext> algorithms_context() {
  if (found().collectives.empty()) return std::nullopt;
  LibraryAlgorithmsContext out;
  out.library = found().library;
  for (const CollectiveAlgorithms& c : found().collectives) {
    CollectiveContext& x = out.collectives.emplace_back();
    x.collective = c.collective;
    x.variable = c.variable;
    for (const LibraryAlgorithm& a : c.algorithms)
      x.algorithms.push_back({a.value, a.name});
    x.own_choice = c.own_choice;
    x.launch = {c.launch_value, c.launch_name};
    x.switchable = c.writable;
    x.bound = c.at_creation ? "at communicator creation" : "at each call";
    if (!c.why_none.empty()) x.why_none = c.why_none;
    if (!c.why_fixed.empty()) x.why_fixed = c.why_fixed;
  }
  if (found().library == "MPICH") {
    // runner tune writes MPICH's winners into a copy of this table.
    static const SelectionTable table = mpich_selection_table();
    if (table.text.empty())
      out.selection_table_missing = table.why_none;
    else
      out.selection_table = SelectionTableContext{table.source, table.text};
  }
  return out;
}

namespace {

// The library's algorithms of each collective, as a table reads them.
std::string algorithms_text() {
  std::ostringstream os;
  os << found().library << ": each collective's algorithms (runner "
     << "--algorithms NAME,...; 'library': its own choice)\n";
  for (const CollectiveAlgorithms& c : found().collectives) {
    os << "\n"
       << c.collective << " (" << c.variable << ", read "
       << (c.at_creation ? "when a communicator is created" : "at each call")
       << "; this launch: " << c.launch_name << ")\n";
    if (!c.why_none.empty()) os << "  none: " << c.why_none << "\n";
    for (const LibraryAlgorithm& a : c.algorithms)
      os << "  " << a.value << "  " << a.name << "\n";
    if (!c.why_fixed.empty())
      os << "  fixed in this launch: " << c.why_fixed << "\n";
  }
  return os.str();
}

}  // namespace

int command_algorithms(const Options& options) {
  found() = {mpi_library_name(), discover_algorithms()};
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank != 0) return 0;
  Printout out;
  out.json = [] {
    const auto listed = algorithms_context();
    return listed ? nlohmann::json(*listed) : nlohmann::json();
  };
  out.tables = [](Style) { return algorithms_text(); };
  std::cout << reporter(options.format).render(out);
  return 0;
}

}  // namespace mpiarena
