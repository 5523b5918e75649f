// The methods of a run (plan.hpp): --methods against the loaded plugins,
// and runner ab's pairs of builds.
#include <algorithm>
#include <set>
#include <string>
#include <vector>

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

}  // namespace mpiarena
