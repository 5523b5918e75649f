// Internal to the command line: the option parser's words before they are
// checked, and the checks, one function per concern (options_check.cpp).
#pragma once

#include <boost/program_options.hpp>
#include <string>
#include <vector>

#include "options.hpp"

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
              target_rse, cache = "hot", buffers = "separate",
              receive = "reuse", seed;
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
// first argument that is not a command (`algorithms foo`: foo).
std::string unexpected_argument(const std::vector<std::string>& args);

// --clock-sync NAME[,NAME...]: known algorithms (hca, jk), each once.
std::vector<std::string> parse_clock_sync(const std::string& spec);

// Each throws UsageError naming what was wrong and what is accepted.
// compare's files (args[0] is "compare"): BASE NEW, one file of runner
// ab, or launches a side around "--" (options_gate.cpp).
void compare_files(const std::vector<std::string>& args, Options& o);
// runner ab's options, and no build directory for another command.
// Its defaults, the procedure bench/gate recommends: -r 15 --blocks 5.
void check_ab_options(const po::variables_map& vm, Options& o);
void parse_command(const po::variables_map& vm, Options& o);
void check_command_options(const po::variables_map& vm, Options& o);
void check_run_shape(const po::variables_map& vm, Options& o, RawOptions& raw);
void check_sampling(const po::variables_map& vm, Options& o, RawOptions& raw);
void check_output(const po::variables_map& vm, Options& o, RawOptions& raw);
void check_numbers(const po::variables_map& vm, Options& o, RawOptions& raw);
// The tables' optional views, --per-rank and --percentiles: table or
// markdown, a run or 'report' (options_views.cpp).
void check_views(const po::variables_map& vm, Options& o);
// --sync, --sync-window, --clock-sync (options_sync.cpp).
void describe_sync(po::options_description& desc, Options& o, RawOptions& raw);
void check_sync(const po::variables_map& vm, Options& o, RawOptions& raw);

}  // namespace mpiarena
