// --sync, --sync-window and --clock-sync of a run: how a sample's ranks
// start together (docs/methodology.md "Window timing").
#include <string>

#include "core/results/suggest.hpp"
#include "core/results/sync_methods.hpp"
#include "runner/options_parse.hpp"

namespace mpiarena {

namespace {
// The shortest W --sync-window accepts: below it a window's start is finer
// than the ranks' synchronized clocks agree (a residual of a microsecond
// or more, docs/methodology.md "A global clock").
constexpr double kMinGivenWindow = 1e-6;

// --sync's help: the registry's methods (sync_methods.hpp), each with its
// description.
std::string sync_help() {
  std::string names, each;
  for (const SyncMethodInfo& m : sync_methods()) {
    names += (names.empty() ? "" : " | ") + m.name;
    each += (each.empty() ? "" : "; ") + m.name + ": " + m.description;
  }
  return names + ": how the ranks start a sample together. " + each;
}

// The registry's method named `name`, else UsageError naming the accepted
// ones (as check_choice).
const SyncMethodInfo& sync_method(const std::string& name) {
  if (const SyncMethodInfo* m = find_sync_method(name)) return *m;
  std::string accepted;
  std::vector<std::string> names;
  for (const SyncMethodInfo& m : sync_methods()) {
    accepted += (accepted.empty() ? "" : ", ") + m.name;
    names.push_back(m.name);
  }
  const std::string hint = did_you_mean(name, names);
  throw UsageError("--sync '" + name + "' is not supported" +
                   (hint.empty() ? "" : " (" + hint + ")") +
                   "; accepted: " + accepted);
}

}  // namespace

void describe_sync(po::options_description& desc, Options& o, RawOptions&) {
  // clang-format off
  desc.add_options()
    ("sync", po::value<std::string>(&o.sync)->default_value(o.sync),
     sync_help().c_str())
    ("sync-window", po::value<double>(&o.sync_window),
     "--sync window: seconds between two windows' starts, in [1e-06, 1], "
     "at least one operation's time (else exit 2); "
     "default: twice an operation's calibrated time, at least 10 us more "
     "than it (doubled while over 10% of a sample's windows are invalid)");
  // clang-format on
}

void describe_clock_sync(po::options_description& desc, Options&,
                         RawOptions& raw) {
  // clang-format off
  desc.add_options()
    ("clock-sync", po::value<std::string>(&raw.clock_sync),
     "the clock synchronization algorithms: hca (hierarchical, O(log p) "
     "rounds) or jk (every rank against rank 0, O(p)), comma-separated for "
     "runner clocks (default hca,jk), one for a run with --sync window "
     "(default hca) (docs/methodology.md, \"A global clock\")");
  // clang-format on
}

void check_sync(const po::variables_map& vm, Options& o, RawOptions& raw) {
  if (vm.count("clock-sync")) o.clock_sync = parse_clock_sync(raw.clock_sync);
  if (o.command == Command::clocks) return;
  // On the global clock (window): --clock-sync and --sync-window.
  const bool window = sync_method(o.sync).global_clock;
  if (window && o.command == Command::ab)
    throw UsageError(
        "--sync " + o.sync +
        " is not supported by runner ab (its blocks merge records, not yet "
        "their windows); run the two builds with 'runner --sync " +
        o.sync + "' each and 'runner compare'");
  if (vm.count("clock-sync") && !window)
    throw UsageError(
        "--clock-sync applies to 'runner clocks' and to a run with --sync "
        "window");
  if (vm.count("clock-sync") && o.clock_sync.size() != 1)
    throw UsageError("--sync window takes one --clock-sync algorithm, got '" +
                     raw.clock_sync + "'; accepted: hca, jk");
  if (vm.count("sync-window") && !window)
    throw UsageError("--sync-window applies to --sync window only");
  if (vm.count("sync-window"))
    check_seconds("--sync-window", o.sync_window, kMinGivenWindow, false, 1,
                  "below 1 us a window's start is finer than the ranks' "
                  "synchronized clocks agree");
}

}  // namespace mpiarena
