// --sync, --sync-window and --clock-sync of a run: how a sample's ranks
// start together (docs/methodology.md "Window timing").
#include <string>

#include "runner/options_parse.hpp"

namespace mpiarena {

namespace {
// The shortest W --sync-window accepts: below it a window's start is finer
// than the ranks' synchronized clocks agree (a residual of a microsecond
// or more, docs/methodology.md "A global clock").
constexpr double kMinGivenWindow = 1e-6;
}  // namespace

void describe_sync(po::options_description& desc, Options& o, RawOptions& raw) {
  // clang-format off
  desc.add_options()
    ("sync", po::value<std::string>(&o.sync)->default_value(o.sync),
     "barrier | window: how the ranks start a sample together. barrier: "
     "after MPI_Barrier, the loop timed on each rank (OSU's and IMB's way); "
     "window: the clocks synchronized first (--clock-sync), then every "
     "operation starts at its own agreed time on the global clock, windows "
     "--sync-window apart, its time the latest exit minus that start; a "
     "window a rank reached late or left after its end is invalid and "
     "counted (ReproMPI's way; docs/methodology.md, \"Window timing\")")
    ("sync-window", po::value<double>(&o.sync_window),
     "--sync window: seconds between two windows' starts, in [1e-06, 1], "
     "at least one operation's time (else exit 2); "
     "default: twice an operation's calibrated time, at least 10 us more "
     "than it (doubled while over 10% of a sample's windows are invalid)")
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
  const bool window =
      check_choice("--sync", o.sync, {"barrier", "window"}) == "window";
  if (window && o.command == Command::ab)
    throw UsageError(
        "--sync window is not supported by runner ab (its blocks merge "
        "records, not yet their windows); run the two builds with "
        "'runner --sync window' each and 'runner compare'");
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
