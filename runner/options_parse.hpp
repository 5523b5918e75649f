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
struct RawOptions {
  std::string methods = "all", payloads, max_memory, threshold, pairs = "one",
              size_basis = "per-rank", interleave = "on", noise = "on",
              target_rse, cache = "hot", buffers = "separate",
              receive = "reuse", seed;
  std::vector<std::string> set_specs;
};

// What a numeric option accepts, for the message about a value that is not
// a number at all.
std::string accepted_values(const std::string& option);

// --set METHOD.OPTION=VALUE[,VALUE...], each checked for its shape (its
// meaning needs the plugins: option_variants.cpp); one method.option once.
std::vector<OptionSetting> parse_settings(
    const std::vector<std::string>& specs);

// Each throws UsageError naming what was wrong and what is accepted.
void parse_command(const po::variables_map& vm, Options& o);
void check_command_options(const po::variables_map& vm, Options& o);
void check_run_shape(const po::variables_map& vm, Options& o, RawOptions& raw);
void check_sampling(const po::variables_map& vm, Options& o, RawOptions& raw);
void check_output(const po::variables_map& vm, Options& o, RawOptions& raw);
void check_numbers(const po::variables_map& vm, Options& o, RawOptions& raw);

}  // namespace mpiarena
