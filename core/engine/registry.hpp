// Plugin discovery and loading. The registry owns every loaded library for
// its whole life: libraries are declared before (so destroyed after) the
// entries and the std::functions that came from them.
#pragma once

#include <boost/dll/shared_library.hpp>
#include <memory>
#include <mpiarena/plugin.hpp>
#include <string>
#include <vector>

namespace mpiarena {

struct LoadedStrategy {
  StrategyEntry entry;
  std::string file;       // the .so it came from
  std::uint32_t abi = 0;  // the ABI version the plugin reported
  // runner ab: the build it came from ("base", "new"); empty otherwise. A
  // method name appears once per build.
  std::string build{};
  // "bcast", or "bcast@new" for a method of a build.
  std::string name() const {
    return build.empty() ? entry.info.name : entry.info.name + "@" + build;
  }
};

enum class LoadStatus {
  loaded,
  cannot_load,
  not_a_plugin,
  wrong_abi,
  duplicate,
  bad_factory,
  bad_info  // a StrategyInfo field the registry refuses
};

// A method of a file that was not loaded because a method of the same name
// (within the same build) was loaded first: that one is what `-m NAME`
// runs, and `runner --list` names both.
struct ShadowedMethod {
  std::string name;  // as name() says it: "bcast", "bcast@new"
  std::string file;  // the file not loaded
  std::string kept;  // the file of the method loaded, which runs
};

struct LoadResult {
  LoadStatus status = LoadStatus::loaded;
  std::string message;  // one sentence naming the file; empty when loaded
};

class Registry {
 public:
  Registry() = default;
  Registry(const Registry&) = delete;
  Registry& operator=(const Registry&) = delete;
  ~Registry();

  // Loads one file, its methods marked as of `build` (runner ab; empty:
  // none). Everything but `loaded` leaves the registry unchanged (a
  // duplicate method name within a build keeps the first one found).
  LoadResult load_file(const std::string& path, const std::string& build = "");

  // Loads every *.so in `dir`, sorted by name. Files that are not mpiarena
  // plugins are reported at debug level; any other failure is a warning.
  // Returns the failures; none stops the scan.
  std::vector<LoadResult> load_dir(const std::string& dir,
                                   const std::string& build = "");

  const std::vector<LoadedStrategy>& strategies() const { return strategies_; }
  // Every method refused as a duplicate, in load order.
  const std::vector<ShadowedMethod>& shadowed() const { return shadowed_; }
  const LoadedStrategy* find(const std::string& name,
                             const std::string& build = "") const;
  // The same, to amend its declaration after load (runner --algorithms
  // adds an option).
  LoadedStrategy* find(const std::string& name, const std::string& build = "");
  // Each method's name() ("bcast", "bcast@base"), in load order.
  std::vector<std::string> names() const;

 private:
  std::vector<std::shared_ptr<boost::dll::shared_library>> libraries_;
  std::vector<LoadedStrategy> strategies_;
  std::vector<ShadowedMethod> shadowed_;
};

// The default plugin directories for a runner at `exe_dir`, in discovery
// order, those that exist only: <exe_dir>/lib/mpiarena/plugins (build tree),
// <exe_dir>/../lib/mpiarena/plugins (install tree), then each directory of
// MPIARENA_PLUGIN_PATH (colon separated; a missing one is reported by the
// caller through `missing`).
std::vector<std::string> default_plugin_dirs(const std::string& exe_dir,
                                             std::vector<std::string>* missing);

}  // namespace mpiarena
