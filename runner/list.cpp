// runner --list and --help-method, and the plugin loading they share with
// the run.
#include <algorithm>
#include <boost/dll/runtime_symbol_info.hpp>
#include <boost/filesystem.hpp>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <map>

#include "core/engine/mpi_session.hpp"
#include "core/results/printable.hpp"
#include "core/results/suggest.hpp"
#include "core/sdk/suite_info.hpp"
#include "runner/commands.hpp"
#include "runner/plan.hpp"

namespace mpiarena {

std::string executable_dir() {
  return boost::dll::program_location().parent_path().string();
}

namespace {

// `dirs` without a directory named twice (the same path, or a link to it):
// every plugin in it would otherwise be a duplicate of itself. `d` is kept
// absolute and canonical, as the default directories are, so that a
// record's plugin file names the file wherever the run started.
void add_directory(std::vector<std::string>& dirs, const std::string& given) {
  boost::system::error_code ec;
  const boost::filesystem::path canonical =
      boost::filesystem::canonical(given, ec);
  const std::string d = ec ? given : canonical.string();
  const bool seen =
      std::any_of(dirs.begin(), dirs.end(), [&](const std::string& other) {
        boost::system::error_code ignored;
        return boost::filesystem::equivalent(d, other, ignored);
      });
  if (!seen) dirs.push_back(d);
}

// Loads directory `d` (of `build`, or none): its problems as warnings, the
// methods a directory loaded before already provides (a copy of the same
// plugins) one line, not one per plugin; how many shared libraries in it
// were not plugins.
int load_directory(Registry& registry, const std::string& d,
                   const std::string& build, const std::string& prefix,
                   std::vector<std::string>& warnings) {
  std::vector<std::string> duplicates;
  int not_plugins = 0;
  for (const LoadResult& r : registry.load_dir(d, build)) {
    if (r.status == LoadStatus::duplicate)
      duplicates.push_back(r.message);
    else if (r.status == LoadStatus::not_a_plugin)
      ++not_plugins;
    else if (r.status != LoadStatus::loaded)
      warnings.push_back(prefix + r.message);
  }
  if (duplicates.size() == 1)
    warnings.push_back(prefix + duplicates.front());
  else if (duplicates.size() > 1)
    warnings.push_back(prefix + std::to_string(duplicates.size()) +
                       " plugins in '" + d +
                       "' provide methods already loaded from another "
                       "directory; skipped: -m runs the ones loaded first "
                       "(runner --list names both; the first: " +
                       duplicates.front() + ")");
  return not_plugins;
}

// runner ab: each build's directories only, its methods marked with it; a
// build that loads no plugin is an error naming its directories.
void load_builds(Registry& registry, const Options& options,
                 std::vector<std::string>& errors,
                 std::vector<std::string>& warnings) {
  const std::pair<const char*, const std::vector<std::string>*> builds[] = {
      {"base", &options.base_plugin_dirs}, {"new", &options.new_plugin_dirs}};
  for (const auto& [build, dirs] : builds)
    for (const std::string& d : *dirs) {
      boost::system::error_code ec;
      if (!boost::filesystem::is_directory(d, ec))
        errors.push_back("--" + std::string(build) + "-plugin-dir '" + d +
                         "' is not a directory");
    }
  if (!errors.empty()) return;
  for (const auto& [build, given] : builds) {
    std::vector<std::string> dirs;
    for (const std::string& d : *given) add_directory(dirs, d);
    const std::size_t before = registry.strategies().size();
    int not_plugins = 0;
    for (const std::string& d : dirs)
      not_plugins += load_directory(registry, d, build,
                                    std::string(build) + " build: ", warnings);
    if (registry.strategies().size() == before)
      errors.push_back(
          "the " + std::string(build) + " build's --" + build +
          "-plugin-dir (" + join(dirs) + ") holds no mpiarena plugin" +
          (not_plugins > 0 ? " (" + std::to_string(not_plugins) +
                                 " shared libraries there are not plugins)"
                           : "") +
          "; give the directory the build installs its plugins in "
          "(<prefix>/lib/mpiarena/plugins, or <build>/lib/mpiarena/plugins)");
  }
}

}  // namespace

void load_plugins(Registry& registry, const Options& options,
                  std::vector<std::string>& errors,
                  std::vector<std::string>& warnings) {
  if (options.command == Command::ab)
    return load_builds(registry, options, errors, warnings);
  std::vector<std::string> missing;
  std::vector<std::string> dirs =
      default_plugin_dirs(executable_dir(), &missing);
  for (const std::string& m : missing)
    warnings.push_back("MPIARENA_PLUGIN_PATH names '" + m +
                       "', which is not a directory; ignored");
  // A directory named twice (--plugin-dir of the runner's own plugins, or
  // the same one given again) is loaded once: every plugin in it would
  // otherwise be a duplicate of itself.
  for (const std::string& d : options.plugin_dirs) {
    boost::system::error_code ec;
    if (!boost::filesystem::is_directory(d, ec)) {
      errors.push_back("--plugin-dir '" + d + "' is not a directory");
      continue;
    }
    add_directory(dirs, d);
  }
  if (!errors.empty()) return;
  if (dirs.empty())
    warnings.push_back(
        "no plugin directory found next to the runner (" + executable_dir() +
        "/lib/mpiarena/plugins or ../lib/"
        "mpiarena/plugins); use --plugin-dir or MPIARENA_PLUGIN_PATH");
  for (const std::string& d : dirs)
    load_directory(registry, d, "", "", warnings);
}

// --list and --help-method: the plugins loaded, their warnings and errors
// said on stderr; false on an error.
static bool load_for_listing(Registry& registry, const Options& options) {
  std::vector<std::string> errors, warnings;
  load_plugins(registry, options, errors, warnings);
  for (const std::string& w : warnings)
    std::cerr << "runner: warning: " << w << "\n";
  for (const std::string& e : errors)
    std::cerr << "runner: error: " << e << ".\n";
  return errors.empty();
}

namespace {

// An OSU program's line: its method with the settings, or the program
// that times it.
std::string osu_measured_by(const OsuProgram& p) {
  if (p.method[0] == '\0') return "mpiarena-startup";
  std::string m = p.method;
  if (p.settings[0] != '\0') m += "[" + std::string(p.settings) + "]";
  if (p.payload[0] != '\0') m += " -p " + std::string(p.payload);
  if (p.all_pairs) m += " --pairs all";
  if (p.threads[0] != '\0') m += " --thread-level " + std::string(p.threads);
  return m;
}

// --help-method osu_NAME: what runs it, then its method's help.
std::string explain_osu(const OsuProgram& p) {
  std::cout << p.name << ": OSU Micro-Benchmarks 7.4's " << p.name
            << ", measured by " << osu_measured_by(p) << "\n";
  if (p.note[0] != '\0') std::cout << "  " << p.note << "\n";
  if (p.method[0] == '\0') return "";
  std::cout << "  ladder " << osu_ladder(p)
            << " (OSU's; --sizes replaces it); --profile osu: OSU's timing, "
               "-f osu: OSU's table\n\n";
  return p.method;
}

}  // namespace

int command_help_method(const Options& options) {
  Registry registry;
  if (!load_for_listing(registry, options)) return 2;
  std::string wanted = options.help_method;
  if (const OsuProgram* p = find_osu_program(wanted)) {
    wanted = explain_osu(*p);
    if (wanted.empty()) return 0;
  }
  const LoadedStrategy* found = nullptr;
  std::vector<std::string> names;
  for (const LoadedStrategy& s : registry.strategies()) {
    if (s.entry.info.name == wanted) found = &s;
    names.push_back(s.entry.info.name);
  }
  if (!found) {
    const std::string hint = did_you_mean(options.help_method, names);
    std::cerr << "runner: error: --help-method: no method '"
              << printable(options.help_method) << "'"
              << (hint.empty() ? "" : " (" + printable(hint) + ")")
              << "; runner --list shows the methods ("
              << registry.strategies().size() << " loaded)\n";
    return 2;
  }
  const StrategyInfo& i = found->entry.info;
  std::string payloads;
  for (const std::string& p : i.payloads)
    payloads += (payloads.empty() ? "" : ", ") + p;
  std::cout << i.name << ": " << i.summary << "\n"
            << "  suite " << i.suite << ", payloads " << payloads
            << ", at least " << i.min_ranks << " ranks"
            << (i.version.empty() ? "" : ", version " + i.version) << "\n"
            << "  plugin " << found->file << "\n";
  for (const ShadowedMethod& m : registry.shadowed())
    if (m.name == found->name())
      std::cout << "  also in " << m.file
                << " (not loaded: the plugin above runs)\n";
  if (i.thread_level != MPI_THREAD_SINGLE)
    std::cout << "  needs MPI thread level "
              << thread_level_name(i.thread_level) << " (runner --thread-level "
              << thread_level_name(i.thread_level) << "; else skipped)\n";
  for (const auto& [k, v] : i.params)
    std::cout << "  " << k << ": " << v << "\n";
  if (!i.operation.name.empty()) {
    std::cout << "  operation "
              << operation_text(i.operation.name, i.operation.semantics);
    for (const std::string& o : i.operation.options)
      std::cout << ", option " << o << " enters it";
    std::cout << " (ranked with the methods that declare the same)\n";
  }
  if (i.options.empty()) {
    std::cout << "options: none\n";
    return 0;
  }
  std::cout << "options (runner --set " << i.name
            << ".OPTION=VALUE[,VALUE...]; a list of values measures each):\n";
  for (const OptionInfo& o : i.options)
    std::cout << "  " << o.name << ": " << option_accepts(o) << ", default "
              << o.default_value << (o.help.empty() ? "" : "; " + o.help)
              << "\n";
  return 0;
}

// --list's methods not loaded: a method of the same name was loaded first,
// and it is what -m NAME runs. Indented, so that no line of it starts
// with a method's name.
static void list_shadowed(const Registry& registry) {
  if (registry.shadowed().empty()) return;
  std::cout << "\nnot loaded, a method of the same name loaded first (the "
               "one -m NAME runs):\n";
  for (const ShadowedMethod& m : registry.shadowed())
    std::cout << "  " << m.name << "  " << m.file << "  (runs: " << m.kept
              << ")\n";
}

// --list's OSU programs: each name -m takes, and what measures it.
// Indented, as list_shadowed.
static void list_osu(const Registry& registry) {
  std::cout << "\nOSU Micro-Benchmarks 7.4's programs, names -m takes "
               "(--profile osu: OSU's timing; -f osu: OSU's tables; "
               "--help-method NAME):\n";
  std::size_t width = 0;
  for (const OsuProgram& p : osu_programs())
    width = std::max(width, std::string(p.name).size());
  for (const OsuProgram& p : osu_programs()) {
    const bool loaded =
        p.method[0] == '\0' ||
        std::any_of(registry.strategies().begin(), registry.strategies().end(),
                    [&](const LoadedStrategy& s) {
                      return s.entry.info.name == p.method;
                    });
    std::cout << "  " << std::left << std::setw(static_cast<int>(width + 2))
              << p.name << osu_measured_by(p)
              << (loaded ? "" : "  (its method is not loaded)") << "\n";
  }
}

int command_list(const Options& options) {
  Registry registry;
  if (!load_for_listing(registry, options)) return 2;
  // Columns as wide as their widest entry (method names go up to 32
  // characters), two spaces apart, so every line splits on blanks.
  std::vector<std::vector<std::string>> rows;
  for (const LoadedStrategy& s : registry.strategies()) {
    const StrategyInfo& i = s.entry.info;
    std::string payloads;
    for (const std::string& p : i.payloads)
      payloads += (payloads.empty() ? "" : ",") + p;
    std::string summary = i.summary;
    if (!i.options.empty()) {
      std::string names;
      for (const OptionInfo& o : i.options)
        names += (names.empty() ? "" : ", ") + o.name;
      summary += " [options: " + names + "; --help-method " + i.name + "]";
    }
    rows.push_back(
        {i.name, i.suite, payloads, std::to_string(i.min_ranks), summary});
  }
  std::vector<std::string> header = {"method", "suite", "payloads", "min ranks",
                                     "summary"};
  std::vector<std::size_t> width(header.size());
  for (std::size_t c = 0; c < header.size(); ++c) {
    width[c] = header[c].size();
    for (const auto& r : rows) width[c] = std::max(width[c], r[c].size());
  }
  auto line = [&](const std::vector<std::string>& r) {
    for (std::size_t c = 0; c + 1 < r.size(); ++c)
      std::cout << std::left << std::setw(static_cast<int>(width[c] + 2))
                << r[c];
    std::cout << r.back() << "\n";
  };
  line(header);
  for (const auto& r : rows) line(r);
  list_osu(registry);
  list_shadowed(registry);
  return 0;
}

}  // namespace mpiarena
