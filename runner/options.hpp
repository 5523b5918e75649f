// Command line of the runner (Boost.Program_options). Parsing needs no MPI:
// every rank parses the same argv and reaches the same verdict.
#pragma once

#include <cstdint>
#include <mpiarena/sizes.hpp>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace mpiarena {

enum class Command {
  run,
  list,
  help_method,
  sizes,
  validate,
  report,
  compare,
  trend,
  tune,        // runner tune: the winners of --algorithms as the library's file
  ab,          // runner ab: two builds of the methods in the same rounds
  algorithms,  // runner algorithms: the MPI library's, per collective
  clocks,      // runner clocks: the global clock's accuracy, per algorithm
  history,     // runner history add|changes|list: the results store
  help,
  version
};

// --set METHOD.OPTION=VALUE[,VALUE...]: values for one option of one
// method (OptionInfo), as written; option_variants.cpp checks them against the
// method's declaration.
struct OptionSetting {
  std::string method, option;
  std::vector<std::string> values;
};

// The clock synchronization algorithms (core/engine/clock_sync.hpp), as
// --clock-sync names them.
inline const std::string kClockSyncAlgorithms[] = {"hca", "jk"};

// --max-time when not given: per point, with --precision (the default) and
// with --target-rse.
inline constexpr double kPrecisionMaxTime = 1;
inline constexpr double kTargetRseMaxTime = 10;

struct Options {
  Command command = Command::run;
  // --clock-sync: the clock synchronization algorithms (clock_sync.hpp);
  // runner clocks measures each, in this order.
  std::vector<std::string> clock_sync{"hca", "jk"};
  // --sync: a method of core/results/sync_methods.hpp (auto, barrier,
  // single, window);
  // --sync-window (seconds; 0: calibrated).
  std::string sync = "auto";
  double sync_window = 0;
  std::vector<std::string> methods{"all"};
  std::vector<std::string> payloads;  // empty: every payload of each method
  std::string sizes_spec = "small..xxlarge";
  std::vector<SizePoint> sizes;
  bool sizes_given = false;  // --sizes on the command line; else each
                             // suite's default (default_sizes_spec)
  std::string output;
  std::string format = "table";
  double min_time = 0.001;
  int repetitions = 7;
  int warmup = 1;
  double point_timeout = 60;   // seconds; 0: no bound (watchdog.hpp)
  std::size_t max_memory = 0;  // bytes per node the run may count on; 0: all
  std::vector<std::string> plugin_dirs;
  // runner ab: the plugin directories of each build (no default ones).
  std::vector<std::string> base_plugin_dirs, new_plugin_dirs;
  bool methods_given = false;  // --methods on the command line
  int blocks = 0;              // runner ab --blocks (options_gate.cpp)
  bool verify = true;
  bool all_pairs = false;      // --pairs all (pairwise methods)
  std::string pair_placement;  // --pairs intra|inter; empty: one or all
  std::string wait = "auto";   // --wait auto|poll|sleep (around samples)
  std::string ranks_spec;      // --ranks; empty: the launch's ranks only
  bool size_total = false;     // --size-basis total (per-rank suites)
  int test_every = 8;          // --test-every (overlap "_test" methods)
  int exchanges = 4;           // --exchanges (stencil suite, even)
  int window = 64;             // --window (windowed methods: stream, rma _bw)
  int stride = 8;              // --stride bytes (stencil suite)
  // Numbers that hold on a noisy machine (docs/methodology.md).
  bool interleave = true;   // --interleave on|off (competing methods)
  std::uint64_t seed = 0;   // --seed of the interleaved order
  bool copy_limit = true;   // --copy-limit on|off (transfer records)
  std::string label;  // --label: the run's name in its context
  // --profile: "osu" (options_profile.cpp), or empty.
  std::string profile;
  // --osu-columns: what OSU's -f, -c and -z add to -f osu's tables:
  // "full", "validation", "p50"...; as given in `osu_columns_spec`.
  std::vector<std::string> osu_columns;
  std::string osu_columns_spec;
  // -r and --warmup on the command line: they replace --profile osu's
  // counts for the collectives too.
  bool repetitions_given = false, warmup_given = false;
  bool seed_given = false;  // else rank 0 draws one (recorded)
  bool noise = true;        // --noise on|off: record steal, preemption
  int retry_noisy = 2;      // --retry-noisy N: re-measure noisy samples
  double target_rse = 0;    // --target-rse (fraction); 0: fixed count
  // --precision (fraction); 0: the fixed count (off, or -r, --iterations,
  // --target-rse or --profile given without it).
  double precision = 0;
  // --max-time seconds per point (--precision, --target-rse); 0: not
  // given, kPrecisionMaxTime or kTargetRseMaxTime.
  double max_time = 0;
  bool cache_cold = false;  // --cache hot|cold
  bool separate_buffers = true;
  bool receive_fresh = false;   // --receive reuse|fresh (transfer, 2d)    //
                                // --buffers separate|shared (ping-pong)
  std::int64_t iterations = 0;  // --iterations N; 0: calibrate
  // --thread-level single|funneled|serialized|multiple: MPI_Init_thread
  // with it; empty (the default): MPI_Init.
  std::string thread_level;
  bool quiet = false;              // --quiet: the same as --log-level warn
  std::string log_level;           // --log-level; empty: the default levels
  bool per_rank = false;           // --per-rank: also print each rank's time
  bool percentiles = false;        // --percentiles: p50, p95, p99 columns
  std::vector<std::string> files;  // validate, report, compare (BASE NEW)
  // compare BASE1 BASE2... -- NEW1 NEW2...: NEW's launches (`files` then
  // holds BASE's); empty otherwise.
  std::vector<std::string> new_files;
  double threshold = 0.05;  // compare: relative change that matters
  double alpha = 0.05;      // compare: significance level
  bool relative = false;    // compare --relative (GroupShift)
  std::string correction;   // compare, ab: holm|none; empty: the default
  // compare, ab: pass a judgement of an interrupted run, or one that no
  // point could have failed (too few samples), instead of exit 2.
  bool allow_incomplete = false, allow_powerless = false;
  std::string help_text;
  std::vector<OptionSetting> settings;  // --set, in command-line order
  // --algorithms: "all", or library algorithm names (and "library"), as
  // written; empty: the library's own choice only, no option added
  // (algorithms.hpp).
  std::vector<std::string> algorithms;
  std::string help_method;  // --help-method NAME
  // runner history: "add", "changes" or "list"; the store (--db, also
  // trend's) and --since (changes).
  std::string history_action;
  std::string db;
  std::string since;
  // --by-library: history changes and trend split a series per MPI
  // library instead of marking where the library changes.
  bool by_library = false;
};

class UsageError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// Throws UsageError with a sentence naming what was wrong and what is
// accepted.
Options parse_options(int argc, const char* const* argv);

// The options that decide what every rank of a run does, each as (option,
// canonical value): methods, payloads, sizes (the expanded ladder), pairs,
// wait, ranks, size-basis, min-time, repetitions, warmup, max-memory,
// plugin-dir, no-verify, and the measurement options for a noisy
// machine (interleave, seed, noise, retry-noisy, target-rse, max-time, cache,
// buffers, iterations).
// Every rank must have the same, or a collective deadlocks. Not in it: what
// only rank 0 does (--output, --format, --per-rank, --percentiles) and how
// much each rank logs (--log-level, --quiet), which may differ between ranks.
// --pairs as given: one, all, intra or inter.
std::string pairs_setting(const Options& o);

std::vector<std::pair<std::string, std::string>> run_settings(
    const Options& options);

// The rank counts of --ranks SPEC, ascending and each once: a comma list
// of counts (4), ranges (2..4: every count from 2 to 4) and 'all' (the
// launch). With launched > 0, 'all' is that and a count above it is an
// error; with launched == 0 only the syntax is checked ('all' is left out).
// Throws UsageError naming the item and what is accepted.
std::vector<int> parse_ranks(const std::string& spec, int launched);

// A percentage as the user wrote it: "5%", or "5" (percent), from 0 to
// `max_percent`, both included. Returns the fraction (0.05); throws
// UsageError naming `option`, with fractions below 1 without a % sign
// refused as ambiguous (0.05 -> did you mean 5%?).
double parse_percent(const std::string& option, const std::string& text,
                     double max_percent);

// Splits "a,b, c" into {"a","b","c"}; empty items are dropped.
std::vector<std::string> split_list(const std::string& text);

}  // namespace mpiarena
