// What the command line gave, checked: the command and its files, the
// ranges of the numbers, the choices of the words (options_parse.hpp);
// which options a command takes, its description (command_line.cpp).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>

#include "core/results/log.hpp"
#include "core/results/suggest.hpp"
#include "runner/options_parse.hpp"
#include "runner/reporters.hpp"

namespace mpiarena {

const std::string& check_choice(const char* option, const std::string& value,
                                std::initializer_list<const char*> accepted) {
  std::string list;
  std::vector<std::string> words;
  for (const char* word : accepted) {
    if (value == word) return value;
    list += std::string(list.empty() ? "" : ", ") + word;
    words.push_back(word);
  }
  const std::string hint = did_you_mean(value, words);
  throw UsageError(std::string(option) + " '" + value + "' is not supported" +
                   (hint.empty() ? "" : " (" + hint + ")") +
                   "; accepted: " + list);
}

void check_range(const char* option, long long value, long long lo,
                 long long hi, const char* why) {
  if (value >= lo && value <= hi) return;
  throw UsageError(std::string(option) + " must be between " +
                   std::to_string(lo) + " and " + std::to_string(hi) +
                   (why ? std::string(" (") + why + ")" : std::string()) +
                   ", got " + std::to_string(value));
}

void check_seconds(const char* option, double value, double lo, bool lo_open,
                   double hi, const char* why) {
  if ((lo_open ? value > lo : value >= lo) && value <= hi) return;
  throw UsageError(std::string(option) + " must be a number of seconds in " +
                   (lo_open ? "(" : "[") + format_number(lo) + ", " +
                   format_number(hi) + "]" +
                   (why ? std::string(" (") + why + ")" : std::string()) +
                   ", got " + format_number(value));
}

std::string format_number(double value) {
  char text[32];
  for (int digits = 6; digits <= 17; ++digits) {
    std::snprintf(text, sizeof text, "%.*g", digits, value);
    if (std::strtod(text, nullptr) == value) break;  // never for NaN: "nan"
  }
  return text;
}

namespace {

// --threshold "5%" or "5" (percent) and --alpha: the commands that judge
// (their descriptions take them: options_commands.cpp).
void parse_compare_options(Options& o, const std::string* threshold) {
  if (threshold) o.threshold = parse_percent("--threshold", *threshold, 1000);
  if (!(o.alpha > 0 && o.alpha < 1))
    throw UsageError("--alpha must be a probability in (0, 1), got " +
                     format_number(o.alpha));
}

}  // namespace

namespace {

// The largest --seed: 2^53-1, exact in every JSON reader (the schema's
// maximum too).
constexpr std::uint64_t kMaxSeed = (1ULL << 53) - 1;

}  // namespace

// The command (the first positional argument, or --help, --version, --list,
// --help-method) and its files.
void parse_command(const po::variables_map& vm, Options& o) {
  std::vector<std::string> args;
  if (vm.count("args")) args = vm["args"].as<std::vector<std::string>>();
  if (!args.empty()) {
    if (args[0] == "validate") {
      o.command = Command::validate;
      o.files.assign(args.begin() + 1, args.end());
      if (o.files.empty())
        throw UsageError(
            "'validate' needs at least one result file: runner validate "
            "FILE...");
    } else if (args[0] == "report") {
      o.command = Command::report;
      o.files.assign(args.begin() + 1, args.end());
      if (o.files.size() != 1)
        throw UsageError(
            "'report' takes exactly one result file: runner report FILE "
            "[--format " +
            format_choices(Command::report) + "] [-o FILE]");
    } else if (args[0] == "compare") {
      o.command = Command::compare;
      compare_files(args, o);
    } else if (args[0] == "ab" && args.size() == 1) {
      o.command = Command::ab;
    } else if (args[0] == "history") {
      o.command = Command::history;
      parse_history(args, vm, o);
    } else if (args[0] == "trend") {
      o.command = Command::trend;
      o.files.assign(args.begin() + 1, args.end());
      if (o.files.empty() && !vm.count("db"))
        throw UsageError(
            "'trend' needs at least one result file or a store: runner "
            "trend FILE... | --db STORE [--format " +
            format_choices(Command::trend) +
            "] [-o FILE] [--threshold 5%] [--alpha 0.05]");
      if (!o.files.empty() && vm.count("db"))
        throw UsageError(
            "'trend' takes result files or --db STORE, not both (add the "
            "files to the store first: runner history add FILE... --db "
            "STORE)");
    } else if (args[0] == "tune") {
      o.command = Command::tune;
      o.files.assign(args.begin() + 1, args.end());
      if (o.files.empty())
        throw UsageError(
            "'tune' needs at least one result file of runner --algorithms: "
            "runner tune FILE... [-o FILE] [--format " +
            format_choices(Command::tune) +
            "] [--threshold 5%] [--alpha 0.05]");
    } else if (args[0] == "list") {
      o.command = Command::list;
    } else if (args[0] == "algorithms" && args.size() == 1) {
      o.command = Command::algorithms;
    } else if (args[0] == "clocks" && args.size() == 1) {
      o.command = Command::clocks;
    } else if (args[0] == "sizes" && args.size() == 1) {
      o.command = Command::sizes;
    } else if (args[0] != "run" || args.size() > 1) {
      throw UsageError(unexpected_argument(args));
    }
  }
  if (vm.count("help"))
    o.command = Command::help;
  else if (vm.count("version"))
    o.command = Command::version;
  else if (vm.count("list"))
    o.command = Command::list;
  else if (vm.count("help-method"))
    o.command = Command::help_method;
}

// --set, --no-verify, and the shape of the run: pairs, waiting, the size
// basis, ranks, and the suites' own numbers.
void check_run_shape(const po::variables_map& vm, Options& o, RawOptions& raw) {
  o.settings = parse_settings(raw.set_specs);
  o.algorithms = parse_algorithms(raw.algorithms, vm.count("algorithms") > 0);
  o.verify = vm.count("no-verify") == 0;
  check_choice("--pairs", raw.pairs, {"one", "all", "intra", "inter"});
  o.all_pairs = raw.pairs == "all";
  if (raw.pairs == "intra" || raw.pairs == "inter")
    o.pair_placement = raw.pairs;
  check_choice("--wait", o.wait, {"auto", "poll", "sleep"});
  o.size_total = check_choice("--size-basis", raw.size_basis,
                              {"per-rank", "total"}) == "total";
  if (vm.count("ranks")) parse_ranks(o.ranks_spec, 0);
  if (o.exchanges < 2 || o.exchanges > 64 || o.exchanges % 2 != 0)
    throw UsageError(
        "--exchanges must be even, from 2 to 64 (pairs of opposite "
        "neighbours), got " +
        std::to_string(o.exchanges));
  if (o.stride < 8 || o.stride > 4096 || o.stride % 8 != 0)
    throw UsageError(
        "--stride must be a multiple of 8 bytes (one uint64 element), from 8 "
        "to 4096, got " +
        std::to_string(o.stride));
  check_range("--window", o.window, 1, 1024,
              "messages in flight per operation");
  check_range("--test-every", o.test_every, 1, 64,
              "slices of the computation between two MPI_Testall calls");
}

// --precision and --max-time (after --target-rse and --iterations): on by
// default, off where the count is fixed without it.
void check_precision(const po::variables_map& vm, Options& o,
                     const RawOptions& raw) {
  const bool asked = given(vm, "precision");
  if (raw.precision != "off")
    o.precision = parse_percent("--precision", raw.precision, 100);
  if (asked && raw.precision != "off" && o.precision <= 0)
    throw UsageError("--precision must be above 0%, e.g. 5%, or 'off'");
  if (asked && o.precision > 0 && o.target_rse > 0)
    throw UsageError(
        "--precision and --target-rse are two ways to stop sampling; give "
        "one of the two");
  if (asked && o.precision > 0 && vm.count("iterations"))
    throw UsageError(
        "--precision adds samples of calibrated length; --iterations fixes "
        "their operations: give one of the two");
  // runner ab refuses it (check_ab_options): the builds' samples pair.
  const bool fixed = given(vm, "repetitions") || vm.count("iterations") ||
                     o.target_rse > 0 || vm.count("profile") ||
                     o.command == Command::ab;
  if (!asked && fixed) o.precision = 0;
  if (vm.count("max-time")) {
    check_seconds("--max-time", o.max_time, 0, true, 86400);
    if (o.target_rse == 0 && o.precision == 0)
      throw UsageError(
          "--max-time bounds --precision and --target-rse; sampling here is "
          "a fixed count (e.g. --precision 5% --max-time 1)");
  } else {
    o.max_time = o.target_rse > 0 ? kTargetRseMaxTime : kPrecisionMaxTime;
  }
}

// The interleaving, the noise record, the stopping rule, the buffers and
// fixed iterations.
void check_sampling(const po::variables_map& vm, Options& o, RawOptions& raw) {
  o.interleave =
      check_choice("--interleave", raw.interleave, {"on", "off"}) == "on";
  o.copy_limit =
      check_choice("--copy-limit", raw.copy_limit, {"on", "off"}) == "on";
  o.seed_given = vm.count("seed") > 0;
  if (o.seed_given) {
    // Digits only: stoull would wrap "-1" to 2^64-1.
    const bool digits =
        !raw.seed.empty() && raw.seed.size() <= 16 &&
        raw.seed.find_first_not_of("0123456789") == std::string::npos;
    o.seed = digits ? std::stoull(raw.seed) : 0;
    if (!digits || o.seed > kMaxSeed)
      throw UsageError("--seed '" + raw.seed +
                       "': " + accepted_values("--seed"));
  }
  o.noise = check_choice("--noise", raw.noise, {"on", "off"}) == "on";
  check_range("--retry-noisy", o.retry_noisy, 0, 100);
  if (o.retry_noisy > 0 && !o.noise && given(vm, "retry-noisy"))
    throw UsageError(
        "--retry-noisy needs the noise record; it does nothing with --noise "
        "off");
  if (vm.count("target-rse")) {
    o.target_rse = parse_percent("--target-rse", raw.target_rse, 100);
    if (o.target_rse <= 0)
      throw UsageError("--target-rse must be above 0%, e.g. 1%");
  }
  check_precision(vm, o, raw);
  o.cache_cold = check_choice("--cache", raw.cache, {"hot", "cold"}) == "cold";
  o.separate_buffers = check_choice("--buffers", raw.buffers,
                                    {"separate", "shared"}) == "separate";
  o.receive_fresh =
      check_choice("--receive", raw.receive, {"reuse", "fresh"}) == "fresh";
  if (vm.count("iterations")) {
    check_range("--iterations", o.iterations, 1, 1000000000);
    if (given(vm, "min-time"))
      throw UsageError(
          "--iterations fixes the operations per sample, --min-time "
          "calibrates them; give one of the two");
  }
}

// The log, the methods and payloads, compare's judgement, and the format.
void check_output(const po::variables_map& vm, Options& o, RawOptions& raw) {
  o.quiet = vm.count("quiet") > 0;
  if (vm.count("log-level")) {
    spdlog::level::level_enum level = spdlog::level::info;
    if (!parse_log_level(o.log_level, level))
      throw UsageError(
          "--log-level '" + o.log_level + "' is not a level" +
          [&] {
            const std::string hint = did_you_mean(
                o.log_level, split_list(log_level_names()));
            return hint.empty() ? hint : " (" + hint + ")";
          }() +
          "; accepted: " + log_level_names());
    if (o.quiet)
      throw UsageError(
          "--quiet is --log-level warn; give one of --quiet and --log-level");
  } else if (o.quiet) {
    o.log_level = "warn";
  }

  o.methods = split_list(raw.methods);
  o.methods_given = given(vm, "methods");
  if (o.methods.empty())
    throw UsageError(
        "--methods is empty; give method names, suite names or 'all' "
        "(see runner --list)");
  o.payloads = split_list(raw.payloads);
  if (vm.count("payloads") && o.payloads.empty())
    throw UsageError("--payloads is empty; give payload names such as 1d,2d");
  parse_compare_options(o, vm.count("threshold") ? &raw.threshold : nullptr);
  if (vm.count("correction"))
    check_choice("--correction", o.correction, {"holm", "none"});
  // --allow-incomplete, --allow-powerless: what a gate may pass.
  o.allow_incomplete = vm.count("allow-incomplete") > 0;
  o.allow_powerless = vm.count("allow-powerless") > 0;
  o.relative = vm.count("relative") > 0;
  check_history(vm, o);
  // Each command's formats: the registry's (reporters.hpp).
  check_format(o.format, o.command);
  check_views(vm, o);
}

// The measurement's numbers, the memory bound and the sizes.
void check_numbers(const po::variables_map& vm, Options& o, RawOptions& raw) {
  check_seconds("--min-time", o.min_time, 0, true, 60);
  check_seconds("--point-timeout", o.point_timeout, 0, false, 86400,
                "0: no bound");
  check_range("--repetitions", o.repetitions, 1, 100000);
  check_range("--warmup", o.warmup, 0, 100000);
  if (vm.count("max-memory")) {
    try {
      o.max_memory = parse_bytes(raw.max_memory);
    } catch (const SizeSpecError&) {
      throw UsageError("--max-memory '" + raw.max_memory +
                       "' is not an amount of memory. Accepted: a number of "
                       "bytes with an optional unit (B, kB, KiB, MB, MiB, GB, "
                       "GiB), e.g. 8GiB or 500MB");
    }
    if (o.max_memory == 0) throw UsageError("--max-memory must be above 0");
  }
  try {
    o.sizes = parse_sizes(o.sizes_spec);
    o.sizes_given = given(vm, "sizes");
  } catch (const SizeSpecError& e) {
    throw UsageError(std::string("--sizes: ") + e.what());
  }
}

}  // namespace mpiarena
