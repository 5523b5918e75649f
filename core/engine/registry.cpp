#include "core/engine/registry.hpp"

#include <dlfcn.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/dll/import.hpp>
#include <boost/filesystem.hpp>
#include <cstdlib>
#include <set>

#include "core/sdk/suite_info.hpp"

namespace mpiarena {

namespace fs = boost::filesystem;

Registry::~Registry() {
  // Objects that came from a library go before the library itself.
  strategies_.clear();
  libraries_.clear();
}

namespace {

// The MPI family the plugin was compiled with is the runner's; else why not.
LoadResult check_mpi(const boost::dll::shared_library& lib,
                     const std::string& path) {
  // Open MPI's handles are pointers, MPICH's ints: a plugin compiled with
  // the other mpi.h would crash at its first MPI call.
  if (lib.has("mpiarena_mpi_implementation")) {
    const std::string theirs =
        lib.get<const char*()>("mpiarena_mpi_implementation")();
    const std::string ours = kMpiImplementation;
    auto family = [](const std::string& s) {
      return s.substr(0, s.rfind(' '));
    };
    if (family(theirs) != family(ours)) {
      return {LoadStatus::wrong_abi, "plugin '" + path +
                                         "' was built against " + theirs +
                                         ", this runner against " + ours +
                                         "; rebuild it with this runner's MPI"};
    }
  } else {
    return {LoadStatus::wrong_abi,
            "plugin '" + path +
                "' does not say which MPI it was built against (no "
                "mpiarena_mpi_implementation); rebuild it against this "
                "mpiarena"};
  }
  return {};
}

// Every entry of a library declared well, once, and new to `registry`:
// the whole library is checked before any of it is kept.
LoadResult check_entries(const std::vector<StrategyEntry>& entries,
                         const std::string& path, const Registry& registry,
                         const std::string& build) {
  std::set<std::string> names;
  for (const StrategyEntry& e : entries) {
    if (std::string why = check_strategy_info(e.info); !why.empty())
      return {LoadStatus::bad_info,
              "plugin '" + path + "': " + why + "; skipped"};
    if (!e.create)
      return {LoadStatus::bad_factory, "plugin '" + path + "': method '" +
                                           e.info.name +
                                           "' has no factory; skipped"};
    if (!names.insert(e.info.name).second)
      return {LoadStatus::bad_info, "plugin '" + path + "' declares method '" +
                                        e.info.name + "' twice; skipped"};
    if (const LoadedStrategy* other = registry.find(e.info.name, build)) {
      return {LoadStatus::duplicate,
              "plugin '" + path + "' provides method '" + other->name() +
                  "', already provided by '" + other->file +
                  "'; skipped: -m " + e.info.name + " runs the one of '" +
                  other->file + "' (rename the method to measure both)"};
    }
  }
  return {};
}

}  // namespace

LoadResult Registry::load_file(const std::string& path,
                               const std::string& build) {
  auto lib = std::make_shared<boost::dll::shared_library>();
  try {
    lib->load(path, boost::dll::load_mode::rtld_now |
                        boost::dll::load_mode::rtld_local);
  } catch (const std::exception& e) {
    // Boost.DLL reports errno ("Bad file descriptor"); the dynamic loader's
    // own message says what is wrong with the file.
    std::string why = e.what();
    if (void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL)) {
      dlclose(h);
    } else if (const char* loader = dlerror()) {
      why = loader;
    }
    return {LoadStatus::cannot_load,
            "cannot load plugin '" + path + "': " + why};
  }
  if (!lib->has("mpiarena_abi_version")) {
    return {LoadStatus::not_a_plugin,
            "'" + path +
                "' is not an mpiarena plugin (no mpiarena_abi_version "
                "entry point); skipped"};
  }
  const std::uint32_t abi = lib->get<std::uint32_t()>("mpiarena_abi_version")();
  if (abi != kAbiVersion) {
    return {LoadStatus::wrong_abi,
            "plugin '" + path + "' was built for plugin ABI version " +
                std::to_string(abi) + ", this runner needs version " +
                std::to_string(kAbiVersion) +
                "; rebuild it against this mpiarena"};
  }
  if (LoadResult r = check_mpi(*lib, path); r.status != LoadStatus::loaded)
    return r;
  if (!lib->has("mpiarena_factory")) {
    return {LoadStatus::bad_factory,
            "plugin '" + path +
                "' has no mpiarena_factory (declare it with "
                "MPIARENA_PLUGIN); skipped"};
  }
  std::vector<StrategyEntry> entries;
  try {
    entries = lib->get_alias<FactoryFn>("mpiarena_factory")();
  } catch (const std::exception& e) {
    return {LoadStatus::bad_factory,
            "plugin '" + path + "': its factory threw: " + e.what()};
  }
  if (LoadResult r = check_entries(entries, path, *this, build);
      r.status != LoadStatus::loaded) {
    if (r.status == LoadStatus::duplicate)
      for (const StrategyEntry& e : entries)
        if (const LoadedStrategy* other = find(e.info.name, build))
          shadowed_.push_back({other->name(), path, other->file});
    return r;
  }
  for (StrategyEntry& e : entries)
    strategies_.push_back({std::move(e), path, abi, build});
  libraries_.push_back(std::move(lib));
  return {};
}

std::vector<LoadResult> Registry::load_dir(const std::string& dir,
                                           const std::string& build) {
  std::vector<std::string> files;
  boost::system::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end;
       it.increment(ec)) {
    if (it->path().extension() == ".so" && fs::is_regular_file(it->path()))
      files.push_back(it->path().string());
  }
  std::sort(files.begin(), files.end());
  std::vector<LoadResult> failures;
  for (const std::string& f : files) {
    LoadResult r = load_file(f, build);
    if (r.status == LoadStatus::loaded) continue;
    if (r.status == LoadStatus::not_a_plugin) spdlog::debug("{}", r.message);
    failures.push_back(std::move(r));
  }
  return failures;
}

const LoadedStrategy* Registry::find(const std::string& name,
                                     const std::string& build) const {
  for (const LoadedStrategy& s : strategies_)
    if (s.entry.info.name == name && s.build == build) return &s;
  return nullptr;
}

LoadedStrategy* Registry::find(const std::string& name,
                               const std::string& build) {
  for (LoadedStrategy& s : strategies_)
    if (s.entry.info.name == name && s.build == build) return &s;
  return nullptr;
}

std::vector<std::string> Registry::names() const {
  std::vector<std::string> out;
  for (const LoadedStrategy& s : strategies_) out.push_back(s.name());
  return out;
}

std::vector<std::string> default_plugin_dirs(
    const std::string& exe_dir, std::vector<std::string>* missing) {
  std::vector<std::string> dirs;
  auto add_if_dir = [&](const fs::path& p) {
    boost::system::error_code ec;
    if (fs::is_directory(p, ec)) {
      const std::string s = fs::canonical(p, ec).string();
      if (std::find(dirs.begin(), dirs.end(), s) == dirs.end())
        dirs.push_back(s);
      return true;
    }
    return false;
  };
  add_if_dir(fs::path(exe_dir) / "lib" / "mpiarena" / "plugins");
  add_if_dir(fs::path(exe_dir) / ".." / "lib" / "mpiarena" / "plugins");
  if (const char* env = std::getenv("MPIARENA_PLUGIN_PATH")) {
    std::string list(env);
    std::size_t start = 0;
    while (start <= list.size()) {
      std::size_t colon = list.find(':', start);
      if (colon == std::string::npos) colon = list.size();
      const std::string item = list.substr(start, colon - start);
      start = colon + 1;
      if (item.empty()) continue;
      if (!add_if_dir(item) && missing) missing->push_back(item);
    }
  }
  return dirs;
}

}  // namespace mpiarena
