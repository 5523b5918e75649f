// Internal to the command line: the option parser's words before they are
// checked, and the checks, one function per concern (options_check.cpp).
#pragma once

#include <boost/program_options.hpp>
#include <initializer_list>
#include <string>
#include <vector>

#include "core/results/doc_dir.hpp"
#include "runner/options.hpp"

namespace mpiarena {

namespace po = boost::program_options;

// The options given as text, checked and converted into Options after
// parsing.
// What "--" on the command line becomes before Boost parses it (compare
// BASE... -- NEW...).
inline constexpr const char* kSideSeparator = "\x1f--";

// runner ab's defaults (docs/ci.md, "Which procedure").
inline constexpr int kAbRepetitions = 15;
inline constexpr int kAbBlocks = 5;

struct RawOptions {
  std::string methods = "all", payloads, max_memory, threshold, pairs = "one",
              size_basis = "per-rank", interleave = "on", noise = "on",
              target_rse, precision = "5%", cache = "hot",
              buffers = "separate", receive = "reuse", seed,
              copy_limit = "on";
  std::vector<std::string> set_specs;
  std::string algorithms, clock_sync;
};

// What a numeric option accepts, for the message about a value that is not
// a number at all.
std::string accepted_values(const std::string& option);

// --set METHOD.OPTION=VALUE[,VALUE...], each checked for its shape (its
// meaning needs the plugins: option_variants.cpp); one method.option once.
std::vector<OptionSetting> parse_settings(
    const std::vector<std::string>& specs);

// --algorithms all | NAME[,NAME...], checked for its shape (the names the
// library has: algorithms.cpp, after MPI_Init); empty when not `given`.
std::vector<std::string> parse_algorithms(const std::string& spec, bool given);

// The message for a command line whose positional arguments name no
// command, or a command that takes no argument with one: it names the
// first argument that is not a command (`algorithms foo`: foo), and the
// commands nearest to a word where a command was expected (`compair`).
std::string unexpected_argument(const std::vector<std::string>& args);

// --clock-sync NAME[,NAME...]: known algorithms (hca, jk), each once.
std::vector<std::string> parse_clock_sync(const std::string& spec);

// The checks every option of one kind shares; each throws UsageError
// naming the option, what was given and what is accepted.
// A word among a few: "--NAME 'VALUE' is not supported; accepted: a, b, c".
// Returns `value`.
const std::string& check_choice(const char* option, const std::string& value,
                                std::initializer_list<const char*> accepted);
// A whole number: "--NAME must be between LO and HI (WHY), got V", without
// " (WHY)" when `why` is null.
void check_range(const char* option, long long value, long long lo,
                 long long hi, const char* why = nullptr);
// A number of seconds in (LO, HI] (`lo_open`) or [LO, HI]: "--NAME must be
// a number of seconds in (LO, HI] (WHY), got V"; NaN is refused too.
void check_seconds(const char* option, double value, double lo, bool lo_open,
                   double hi, const char* why = nullptr);
// A number as %g writes it (0.005, 1e-07, 86400), with more digits only
// when six would not give the value back (86400.01).
std::string format_number(double value);

// Each throws UsageError naming what was wrong and what is accepted.
// compare's files (args[0] is "compare"): BASE NEW, one file of runner
// ab, or launches a side around "--" (options_gate.cpp).
void compare_files(const std::vector<std::string>& args, Options& o);
// runner ab's options, and no build directory for another command.
// Its defaults, the procedure bench/gate recommends: -r 15 --blocks 5.
void check_ab_options(const po::variables_map& vm, Options& o);
void parse_command(const po::variables_map& vm, Options& o);
void check_run_shape(const po::variables_map& vm, Options& o, RawOptions& raw);
void check_sampling(const po::variables_map& vm, Options& o, RawOptions& raw);
void check_output(const po::variables_map& vm, Options& o, RawOptions& raw);
void check_numbers(const po::variables_map& vm, Options& o, RawOptions& raw);
// The tables' optional views, --per-rank and --percentiles: table or
// markdown, a run or 'report' (options_views.cpp).
void check_views(const po::variables_map& vm, Options& o);
// Whether `name` was on the command line (not only its default): false
// for an option the command does not take.
inline bool given(const po::variables_map& vm, const char* name) {
  return vm.count(name) > 0 && !vm[name].defaulted();
}
// runner history and trend's store (options_history.cpp): history's
// actions, --db, --since.
void parse_history(const std::vector<std::string>& args,
                   const po::variables_map& vm, Options& o);
void check_history(const po::variables_map& vm, const Options& o);
// --label (options_label.cpp): at most kMaxLabel printable characters.
inline constexpr std::size_t kMaxLabel = 64;
void check_label(const po::variables_map& vm, const Options& o);
// --sync, --sync-window, --clock-sync (options_sync.cpp).
// --profile osu and --osu-columns (options_profile.cpp): OSU's
// definition, in one launch; and the thread level the OSU programs among
// --methods need.
void check_profile(const po::variables_map& vm, Options& o);
void check_sync(const po::variables_map& vm, Options& o, RawOptions& raw);

// The option groups, each adding its options to `desc`, bound to `o` and
// `raw`: options.cpp; describe_sync and describe_clock_sync in
// options_sync.cpp, describe_store, describe_since and describe_series in
// options_history.cpp, describe_label in options_label.cpp,
// describe_profile and describe_osu_columns in options_profile.cpp.
using DescribeGroup = void(po::options_description& desc, Options& o,
                           RawOptions& raw);
DescribeGroup describe_general, describe_listing, describe_method_options,
    describe_sizes, describe_selection, describe_suites, describe_measurement,
    describe_timeout, describe_plugins, describe_builds, describe_views,
    describe_log, describe_format, describe_output_file, describe_judgement,
    describe_gate, describe_incomplete, describe_relative, describe_sync,
    describe_clock_sync, describe_store, describe_since, describe_series,
    describe_label, describe_profile, describe_osu_columns;

// A group of options, under its caption in a command's help.
struct OptionGroup {
  const char* name;     // as the commands' table names it
  const char* caption;  // its heading in a command's help
  DescribeGroup* describe;
};

// A command, or an action of one ("history add"), and the option groups it
// takes besides "general" (--help, --version, --quiet), which every
// command takes. An action has no summary or usage of its own: its
// command's row gives them, and takes every option of its actions.
struct CommandSpec {
  const char* name;     // as typed: "compare", "history add", "--list"
  Command command;
  const char* summary;  // its line in 'runner --help'
  const char* usage;    // its usage lines in 'runner NAME --help'
  std::vector<const char*> groups;
};

// The tables (options_commands.cpp): every group, the commands in the
// order 'runner --help' lists them.
const std::vector<OptionGroup>& option_groups();
const std::vector<CommandSpec>& command_specs();

}  // namespace mpiarena
