// The methods of a run (plan.hpp): --methods against the loaded plugins,
// runner ab's pairs of builds, and whether every rank has rank 0's
// options.
#include <algorithm>
#include <mpiarena/mpi_check.hpp>
#include <set>
#include <string>
#include <vector>

#include "core/engine/collective.hpp"
#include "core/results/suggest.hpp"
#include "runner/plan.hpp"

namespace mpiarena {

namespace {

// Every unknown word of --methods at once, each with the names nearest to
// it, and where the whole list is (not the list itself: ~200 names).
std::string unknown_methods(const std::vector<std::string>& unknown,
                            const std::vector<std::string>& methods,
                            const std::vector<std::string>& suites) {
  std::vector<std::string> names = methods;
  names.insert(names.end(), suites.begin(), suites.end());
  names.push_back("all");
  names.push_back("osu");
  for (const OsuProgram& p : osu_programs()) names.push_back(p.name);
  std::string each;
  for (std::size_t i = 0; i < unknown.size(); ++i) {
    if (i > 0) each += i + 1 == unknown.size() ? " and " : ", ";
    each += "'" + unknown[i] + "'";
    const std::string hint = did_you_mean(unknown[i], names);
    if (!hint.empty()) each += " (" + hint + ")";
  }
  return std::string(unknown.size() == 1 ? "unknown method or suite "
                                         : "unknown methods or suites ") +
         each + "; 'runner --list' lists the " +
         std::to_string(methods.size()) + " methods and " +
         std::to_string(suites.size()) + " suites and OSU 7.4's program "
         "names, or give 'all'";
}

}  // namespace

std::vector<const LoadedStrategy*> select_methods(const Registry& registry,
                                                  const Options& options,
                                                  std::string& error) {
  std::set<std::string> suites;
  for (const LoadedStrategy& s : registry.strategies())
    suites.insert(s.entry.info.suite);
  if (registry.strategies().empty()) {
    error =
        "no method is available: no plugin was loaded (the runner's own "
        "plugin directory, MPIARENA_PLUGIN_PATH and --plugin-dir held none "
        "that loads; the warnings above say why a file was skipped); build "
        "the plugins or give --plugin-dir DIR";
    return {};
  }
  std::set<std::string> wanted;
  std::vector<std::string> unknown;
  for (const std::string& token : options.methods) {
    bool matched = false;
    for (const LoadedStrategy& s : registry.strategies()) {
      const StrategyInfo& i = s.entry.info;
      if (token == "all" || token == i.name || token == i.suite) {
        wanted.insert(i.name);
        matched = true;
      }
    }
    if (!matched &&
        std::find(unknown.begin(), unknown.end(), token) == unknown.end())
      unknown.push_back(token);
  }
  if (!unknown.empty()) {
    error = unknown_methods(unknown, registry.names(),
                            {suites.begin(), suites.end()});
    return {};
  }
  std::vector<const LoadedStrategy*> out;
  for (const LoadedStrategy& s : registry.strategies())
    if (wanted.count(s.entry.info.name)) out.push_back(&s);
  return out;
}

std::vector<const LoadedStrategy*> pair_builds(
    const std::vector<const LoadedStrategy*>& methods, const Options& options,
    std::string& error, std::vector<std::string>& warnings) {
  auto has = [&](const std::string& name, const std::string& build) {
    return std::any_of(methods.begin(), methods.end(), [&](const auto* s) {
      return s->entry.info.name == name && s->build == build;
    });
  };
  std::vector<const LoadedStrategy*> out;
  std::vector<std::string> alone;
  for (const LoadedStrategy* s : methods) {
    const std::string other = s->build == "base" ? "new" : "base";
    if (has(s->entry.info.name, other))
      out.push_back(s);
    else
      alone.push_back(s->entry.info.name + " (" + s->build + " only)");
  }
  std::stable_sort(out.begin(), out.end(), [](const auto* a, const auto* b) {
    return a->build == "base" && b->build != "base";
  });
  if (!alone.empty()) {
    const std::string what = "method(s) in one build only: " + join(alone);
    if (options.methods_given)
      error = what + "; runner ab measures the methods both builds have";
    else
      warnings.push_back(what + "; left out");
  }
  if (error.empty() && out.empty())
    error =
        "no selected method is in both builds (--base-plugin-dir, "
        "--new-plugin-dir)";
  return out;
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

}  // namespace mpiarena
