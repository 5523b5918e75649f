// The methods of a run (plan.hpp): --methods against the loaded plugins,
// and runner ab's pairs of builds.
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "runner/plan.hpp"

namespace mpiarena {

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
