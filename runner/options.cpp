#include "options.hpp"

#include <algorithm>
#include <boost/program_options.hpp>
#include <initializer_list>
#include <sstream>

#include "log.hpp"

namespace mpiarena {

namespace po = boost::program_options;

namespace {

// clang-format off
const char* kUsage =
    "mpiarena runner: which way of moving this data is fastest, at which size.\n"
    "\n"
    "Usage:\n"
    "  mpirun -np N runner [options]     measure the selected methods\n"
    "  runner --list                     list the methods the plugins provide\n"
    "  runner sizes [--sizes SPEC]       print the ladder SPEC expands to, one\n"
    "                                    point per line (bytes, label)\n"
    "  runner validate FILE...           check result files against the schema\n"
    "  runner report FILE [--format F]   ranked tables and best-method summary of\n"
    "                                    a saved result file (table|markdown|json),\n"
    "                                    its records as csv or gbench, or a self-\n"
    "                                    contained page of charts (--format html\n"
    "                                    -o report.html)\n"
    "  runner compare BASE NEW           CI regression gate: match the points of two\n"
    "                                    result files, Mann-Whitney U test per point;\n"
    "                                    exit 0 nothing regressed, 1 a regression,\n"
    "                                    2 bad input (--threshold, --alpha, --format)\n"
    "  runner trend FILE...              each point's median across runs in time\n"
    "                                    order, the spread of each run, and where\n"
    "                                    compare's test flags a change against the\n"
    "                                    run before; runs whose contexts differ are\n"
    "                                    grouped apart (--format table|markdown|\n"
    "                                    json|html, -o FILE)\n"
    "\n"
    "Every point is synchronised with a barrier, calibrated so that one sample\n"
    "lasts at least --min-time, repeated --repetitions times; a sample is the\n"
    "per-operation time of the slowest rank. Every point is verified on a\n"
    "poisoned receive side: a wrong transfer fails the run (exit 1).\n"
    "Exit codes: 0 success, 1 a verification or a point failed, 2 bad input,\n"
    "3 a fault stopped the run (a rank hung, crashed, or threw while the\n"
    "others were stuck; the result file keeps every completed point).\n"
    "\n"
    "Options";
// clang-format on

// --threshold "5%" or "5" (percent) and --alpha: compare only.
void parse_compare_options(Options& o, const std::string* threshold,
                           bool alpha_given) {
  if (o.command != Command::compare && o.command != Command::trend) {
    if (threshold || alpha_given)
      throw UsageError(
          "--threshold and --alpha apply to 'compare' and 'trend' only");
    return;
  }
  if (threshold) o.threshold = parse_percent("--threshold", *threshold, 1000);
  if (!(o.alpha > 0 && o.alpha < 1)) {
    std::ostringstream got;
    got << o.alpha;
    throw UsageError("--alpha must be a probability in (0, 1), got " +
                     got.str());
  }
}

// A command other than a run takes only its own options; one given to it
// that would do nothing there (report -m bcast) is an error, not ignored.
void reject_foreign_options(const po::variables_map& vm, const char* command,
                            std::initializer_list<const char*> allowed) {
  for (const auto& [name, value] : vm) {
    if (value.defaulted() || name == "args" || name == "quiet" ||
        name == "list" || name == "help" || name == "version")
      continue;
    if (std::find_if(allowed.begin(), allowed.end(),
                     [&](const char* a) { return name == a; }) != allowed.end())
      continue;
    std::string accepted;
    for (const char* a : allowed)
      accepted += std::string(accepted.empty() ? "" : ", ") + "--" + a;
    throw UsageError("--" + name + " does not apply to '" + command +
                     "'; it takes " +
                     (accepted.empty() ? std::string("no options") : accepted));
  }
}

}  // namespace

double parse_percent(const std::string& option, const std::string& given,
                     double max_percent) {
  std::string text = given;
  const bool sign = !text.empty() && text.back() == '%';
  if (sign) text.pop_back();
  std::size_t used = 0;
  double percent = -1;
  try {
    percent = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  std::ostringstream top;
  top << max_percent;
  if (used == 0 || used != text.size() ||
      !(percent >= 0 && percent < max_percent))
    throw UsageError(option + " '" + given +
                     "' is not a percentage; give e.g. 5% or 2.5 (percent, "
                     "0 to " +
                     top.str() + ")");
  // A bare fraction is most likely meant as one (0.05 for 5%): ask.
  if (!sign && percent > 0 && percent < 1) {
    std::ostringstream as_percent;
    as_percent << percent * 100;
    throw UsageError(option + " '" + given +
                     "' is ambiguous: it is in percent; write " +
                     as_percent.str() + "% for a fraction of " + given +
                     ", or " + given + "% for " + given + " percent");
  }
  return percent / 100;
}

namespace {

// The largest --seed: 2^53-1, exact in every JSON reader (the schema's
// maximum too).
constexpr std::uint64_t kMaxSeed = (1ULL << 53) - 1;

// What a numeric option accepts, for the message about a value that is not
// a number at all (the range checks below name the same ranges).
std::string accepted_values(const std::string& option) {
  static const std::pair<const char*, const char*> kAccepted[] = {
      {"--test-every", "an integer from 1 to 64"},
      {"--exchanges", "an even integer from 2 to 64"},
      {"--window", "an integer from 1 to 1024"},
      {"--stride", "a multiple of 8 from 8 to 4096 (bytes)"},
      {"--seed", "an integer from 0 to 9007199254740991 (2^53-1)"},
      {"--retry-noisy", "an integer from 0 to 100"},
      {"--max-time", "a number of seconds in (0, 86400]"},
      {"--alpha", "a probability in (0, 1)"},
      {"--min-time", "a number of seconds in (0, 60]"},
      {"--repetitions", "an integer from 1 to 100000"},
      {"--warmup", "an integer from 0 to 100000"},
      {"--point-timeout", "a number of seconds in [0, 86400] (0: no bound)"},
  };
  std::string name = option;
  if (name.rfind("--", 0) != 0) name = "--" + name;
  if (name == "--r" || name == "-r") name = "--repetitions";
  for (const auto& [n, text] : kAccepted)
    if (name == n) return text;
  return "see 'runner --help'";
}

// --set METHOD.OPTION=VALUE[,VALUE...], each checked for its shape here
// (its meaning needs the plugins: plan.cpp); one method.option once.
std::vector<OptionSetting> parse_settings(
    const std::vector<std::string>& specs) {
  std::vector<OptionSetting> out;
  auto name_ok = [](const std::string& s) {
    return !s.empty() && s.size() <= 32 &&
           s.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") ==
               std::string::npos;
  };
  for (const std::string& spec : specs) {
    const std::size_t dot = spec.find('.'), eq = spec.find('=');
    const std::string shape =
        "--set '" + spec +
        "': give METHOD.OPTION=VALUE[,VALUE...] (runner --help-method METHOD "
        "lists a method's options)";
    if (dot == std::string::npos || eq == std::string::npos || eq < dot)
      throw UsageError(shape);
    OptionSetting s{
        spec.substr(0, dot), spec.substr(dot + 1, eq - dot - 1), {}};
    if (!name_ok(s.method) || !name_ok(s.option)) throw UsageError(shape);
    const std::string values = spec.substr(eq + 1);
    std::size_t from = 0;
    for (;;) {
      const std::size_t comma = values.find(',', from);
      const std::string v = values.substr(
          from, comma == std::string::npos ? std::string::npos : comma - from);
      if (v.empty())
        throw UsageError("--set '" + spec +
                         "': an empty value; give METHOD.OPTION=VALUE[,"
                         "VALUE...]");
      s.values.push_back(v);
      if (comma == std::string::npos) break;
      from = comma + 1;
    }
    if (s.values.size() > 64)
      throw UsageError("--set '" + spec + "': at most 64 values per option");
    for (const OptionSetting& before : out)
      if (before.method == s.method && before.option == s.option)
        throw UsageError("--set gives " + s.method + "." + s.option +
                         " twice; give its values in one --set, comma-"
                         "separated");
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace

Options parse_options(int argc, const char* const* argv) {
  Options o;
  std::string methods = "all", payloads, max_memory, threshold, pairs = "one",
              size_basis = "per-rank", interleave = "on", noise = "on",
              target_rse, cache = "hot", buffers = "separate",
              receive = "reuse", seed;
  std::vector<std::string> set_specs;
  po::options_description desc(kUsage);
  // clang-format off
  desc.add_options()
    ("help,h", "show this help and exit")
    ("version", "show the runner version and plugin ABI and exit")
    ("list", "list methods with suite, payloads, minimum ranks and summary")
    ("help-method", po::value<std::string>(&o.help_method),
     "what method NAME is and the options it takes (--set)")
    ("set", po::value<std::vector<std::string>>(&set_specs)->composing(),
     "METHOD.OPTION=VALUE[,VALUE...]: a value of one of a method's own "
     "options (runner --help-method METHOD lists them); a list of values "
     "measures one point per value (per combination, with several --set of "
     "one method); repeatable")
    ("methods,m", po::value<std::string>(&methods)->default_value("all"),
     "comma-separated method names, suite names, or 'all'")
    ("payloads,p", po::value<std::string>(&payloads),
     "comma-separated payloads to run (e.g. 1d,2d); default: every payload "
     "each method supports")
    ("sizes,s", po::value<std::string>(&o.sizes_spec)->default_value(o.sizes_spec),
     "sizes (default: small..xxlarge; the overlap suite: 64KiB..16MiB, as "
     "seed 002): presets small (11 kB), medium (110 kB), large (1.1 MB), xlarge "
     "(11 MB), xxlarge (110 MB), xxxlarge (440 MB), 'all', preset ranges "
     "(small..xxlarge: every preset from the first to the last), bytes with "
     "units (4KiB, 1MB), ranges a..b doubling (8B..4MiB, 0..4MiB), NetPIPE's "
     "perturbed ladder netpipe:a..b")
    ("pairs", po::value<std::string>(&pairs)->default_value("one"),
     "pairwise methods (ping-pong): 'one' = ranks 0 and 1, the others idle; "
     "'all' = every disjoint pair (0,1), (2,3)... at once, with the "
     "aggregate bandwidth; 'intra' = rank 0 and the next rank on its node; "
     "'inter' = rank 0 and the first rank on another node (points skipped, "
     "with the reason, where the ranks offer no such pair)")
    ("wait", po::value<std::string>(&o.wait)->default_value(o.wait),
     "how a rank waits for the others around a sample: 'poll' (as MPI "
     "does), 'sleep' (an untimed sleeping barrier, so a rank that is done or "
     "idle leaves its core to the ranks still working) or 'auto' = sleep on a "
     "node with more ranks than CPUs, else poll")
    ("ranks", po::value<std::string>(&o.ranks_spec),
     "rank ladder in one launch (IMB's -npmin): run every point on the first "
     "k ranks of the launch for each k of a list such as 2,4,all or 2..4; the "
     "other ranks sleep meanwhile. Default: all the ranks of the launch")
    ("size-basis", po::value<std::string>(&size_basis)->default_value(size_basis),
     "distribution, combination and collective suites: 'per-rank' = a size "
     "is each rank's message (as OSU and IMB); 'total' = a size is the whole "
     "array over the ranks (seed 003's N: a distribution splits it into "
     "slices that differ by at most one int, MPI_Scatterv when the ranks do "
     "not divide it)")
    ("test-every", po::value<int>(&o.test_every)->default_value(o.test_every),
     "overlap suite, methods ending in _test: call MPI_Testall after every "
     "k-th of the computation's 64 slices (1 to 64)")
    ("exchanges", po::value<int>(&o.exchanges)->default_value(o.exchanges),
     "stencil suite: neighbour exchanges per iteration, alternately to the "
     "right and to the left neighbour of a ring (seed 004's COMM_ITERS); "
     "even, 2 to 64")
    ("window", po::value<int>(&o.window)->default_value(o.window),
     "stream suite and the rma suite's _bw methods: messages in flight per "
     "operation (OSU's -W window, answered by one acknowledgement or one "
     "synchronisation); times and bandwidths are per message, 1 to 1024")
    ("stride", po::value<int>(&o.stride)->default_value(o.stride),
     "stencil suite: bytes between two elements of the application array "
     "that pack and unpack touch (seed 004's BUF_STRIDE); a multiple of 8, "
     "8 to 4096")
    ("interleave", po::value<std::string>(&interleave)->default_value(interleave),
     "'on': the methods that compete at a size (same suite, ranks and "
     "size) are prepared together and their samples run in rounds, one "
     "sample of each per round in a seeded random order, so a slow spell of "
     "the machine hits them alike (Google Benchmark's random interleaving); "
     "falls back to one method at a time, and says so, where their buffers "
     "would not fit in memory together. 'off': each point measured whole, "
     "one after the other")
    ("seed", po::value<std::string>(&seed),
     "seed of the interleaved order, an integer from 0 to 2^53-1 "
     "(9007199254740991, exact in every JSON reader; default: drawn by rank "
     "0; the context records it, so the order can be replayed)")
    ("noise", po::value<std::string>(&noise)->default_value(noise),
     "'on': record per sample the steal time of the node (/proc/stat), the "
     "involuntary context switches of the ranks (getrusage) and the CPU "
     "frequency where the system exposes it, outside the timed loop; a "
     "point whose samples were stolen from or preempted is marked noisy. "
     "'off': record nothing (the cost of the record, bench/noise)")
    ("retry-noisy", po::value<int>(&o.retry_noisy)->default_value(o.retry_noisy),
     "re-measure a noisy sample up to N times (0 to 100) before keeping it; "
     "the record counts the retries")
    ("target-rse", po::value<std::string>(&target_rse),
     "precision-targeted stopping (SKaMPI): after --repetitions samples, add "
     "samples until the relative standard error of the mean of the samples "
     "is at most this (e.g. 1%) or --max-time is spent on the point; the "
     "record says which stopped it")
    ("max-time", po::value<double>(&o.max_time)->default_value(o.max_time, "10"),
     "with --target-rse: seconds of samples one point may take at most")
    ("cache", po::value<std::string>(&cache)->default_value(cache),
     "'hot': every operation reuses the same buffers (as OSU); 'cold': "
     "ping-pong suite, each operation uses the next of a set of buffers "
     "larger than twice the last-level cache, so no message starts in "
     "cache (IMB's -off_cache, NetPIPE's -I); the context records the "
     "sizes; other suites run hot and the records say so")
    ("buffers", po::value<std::string>(&buffers)->default_value(buffers),
     "ping-pong suite: 'separate' = each rank sends from a buffer it never "
     "writes and receives into another (osu_latency's scheme); 'shared' = "
     "one buffer per rank receives the ping and sends the pong (NetPIPE's)")
    ("receive", po::value<std::string>(&receive)->default_value(receive),
     "transfer suite, 2d payload: 'reuse' = the receiver keeps its rows "
     "from one operation to the next (an application's ghost storage); "
     "'fresh' = every operation receives into a newly built "
     "vector<vector<int>> and pack buffer, allocation included in the time "
     "(seed 000's own runner); records say which")
    ("iterations,i", po::value<std::int64_t>(&o.iterations),
     "operations per sample, fixed (OSU's -i): skips calibration and "
     "--min-time (1 to 10^9)")
    ("output,o", po::value<std::string>(&o.output),
     "write the JSON result document here (rewritten after every point, so "
     "an interrupted run keeps what it measured); with 'report' and "
     "'trend': write what they print to this file instead of stdout")
    ("format,f", po::value<std::string>(&o.format)->default_value("table"),
     "what rank 0 prints on stdout at the end: table, summary (the fastest "
     "method per size and where it changes, in a few lines), markdown, json "
     "(the "
     "whole document; with 'report': the summary), csv (one row per record) "
     "or gbench (Google Benchmark JSON, for its tools/compare.py); with "
     "'compare': table, markdown or json; with 'report' and 'trend' also "
     "html (one self-contained page of SVG charts and tables)")
    ("threshold", po::value<std::string>(&threshold),
     "compare and trend: how far apart two medians must be to count, in percent, as "
     "a factor between the better and the worse (5%: slower or faster by "
     "more than 1.05x; default 5%)")
    ("alpha", po::value<double>(&o.alpha),
     "compare and trend: significance level of the two-sided U test "
     "(default 0.05)")
    ("relative",
     "compare and trend: judge each point against the common shift of its group (the "
     "methods of one suite, payload, size and ranks, 3 or more, which an "
     "interleaved run measured together): a change of the whole machine "
     "between the runs is reported once per group, not as a regression of "
     "every point; a change every method shares (an MPI upgrade) is then a "
     "warning, not a failure")
    ("min-time", po::value<double>(&o.min_time)->default_value(o.min_time, "0.005"),
     "seconds one sample must last at least (inner iterations adapt)")
    ("repetitions,r", po::value<int>(&o.repetitions)->default_value(o.repetitions),
     "samples per point (statistics are over these)")
    ("warmup", po::value<int>(&o.warmup)->default_value(o.warmup),
     "untimed operations before calibration")
    ("point-timeout", po::value<double>(&o.point_timeout)->default_value(o.point_timeout, "60"),
     "seconds a step of a point (prepare, a sample, verification...) may take "
     "beyond 10x its calibrated time; a rank that hangs, crashes or throws "
     "while the others wait stops the run with one message and exit 3 "
     "(0: no bound)")
    ("max-memory", po::value<std::string>(&max_memory),
     "memory per node the run may count on, e.g. 8GiB (default: what the node "
     "has available); a point whose buffers would not fit in 80% of it is "
     "skipped, with the figures")
    ("plugin-dir", po::value<std::vector<std::string>>(&o.plugin_dirs),
     "also load plugins from this directory (repeatable); searched after the "
     "runner's own plugin directory and MPIARENA_PLUGIN_PATH")
    ("no-verify", "do not verify the data moved (the records say so)")
    ("per-rank",
     "table and markdown (run and 'report'): also print each rank's own "
     "per-operation time per point, and the slowest over the fastest rank "
     "(a fan-in client's time by rank, each pair of --pairs all)")
    ("log-level", po::value<std::string>(&o.log_level),
     "what the ranks log on stderr: trace, debug, info, warn, error or off. "
     "Default: rank 0 info (a progress line per point), the other ranks "
     "warn; with a level, rank 0 logs at it, the other ranks at warn unless "
     "it is debug, trace (every rank) or quieter than warn. --list: the "
     "plugin loader's messages")
    ("quiet,q", "no progress lines; warnings and errors only (the same as "
     "--log-level warn; not together with --log-level)");
  // clang-format on
  po::options_description hidden;
  hidden.add_options()("args", po::value<std::vector<std::string>>(), "");
  po::options_description all;
  all.add(desc).add(hidden);
  po::positional_options_description pos;
  pos.add("args", -1);

  po::variables_map vm;
  try {
    po::store(
        po::command_line_parser(argc, argv).options(all).positional(pos).run(),
        vm);
    po::notify(vm);
  } catch (const po::validation_error& e) {
    // "the argument ('abc') for option '--window' is invalid": say what is.
    throw UsageError(std::string(e.what()) +
                     "; accepted: " + accepted_values(e.get_option_name()) +
                     ". Run 'runner --help' for the accepted options");
  } catch (const po::error& e) {
    throw UsageError(std::string(e.what()) +
                     ". Run 'runner --help' for the accepted options");
  }
  std::ostringstream help;
  help << desc;
  o.help_text = help.str();
  // --help wins over everything else: `runner report --help` shows the help
  // rather than complaining that the file is missing.
  if (vm.count("help")) {
    o.command = Command::help;
    return o;
  }

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
            "[--format table|summary|markdown|json|csv|gbench|html] [-o "
            "FILE]");
    } else if (args[0] == "compare") {
      o.command = Command::compare;
      o.files.assign(args.begin() + 1, args.end());
      if (o.files.size() != 2)
        throw UsageError(
            "'compare' takes two result files: runner compare BASE NEW "
            "[--threshold 5%] [--alpha 0.05] [--format table|markdown|json]");
    } else if (args[0] == "trend") {
      o.command = Command::trend;
      o.files.assign(args.begin() + 1, args.end());
      if (o.files.empty())
        throw UsageError(
            "'trend' needs at least one result file: runner trend FILE... "
            "[--format table|markdown|json|html] [-o FILE] [--threshold 5%] "
            "[--alpha 0.05]");
    } else if (args[0] == "list") {
      o.command = Command::list;
    } else if (args[0] == "sizes" && args.size() == 1) {
      o.command = Command::sizes;
    } else if (args[0] != "run" || args.size() > 1) {
      throw UsageError(
          "unexpected argument '" +
          args[args[0] == "run" || args[0] == "sizes" ? 1 : 0] +
          "'; the commands are 'run' (default), 'list', 'sizes', "
          "'validate FILE...', 'report FILE', 'compare BASE NEW' and "
          "'trend FILE...'. Run "
          "'runner --help'");
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
  if (o.command == Command::report)
    reject_foreign_options(vm, "report",
                           {"format", "per-rank", "output", "log-level"});
  else if (o.command == Command::compare)
    reject_foreign_options(vm, "compare",
                           {"format", "threshold", "alpha", "relative"});
  else if (o.command == Command::trend)
    reject_foreign_options(
        vm, "trend", {"format", "threshold", "alpha", "relative", "output"});
  else if (o.command == Command::sizes)
    reject_foreign_options(vm, "sizes", {"sizes"});
  else if (o.command == Command::list)
    reject_foreign_options(vm, "list", {"plugin-dir", "log-level"});
  else if (o.command == Command::help_method)
    reject_foreign_options(vm, "--help-method",
                           {"help-method", "plugin-dir", "log-level"});
  else if (o.command == Command::validate)
    reject_foreign_options(vm, "validate", {"log-level"});
  if (o.command == Command::validate) return o;  // only --log-level
  o.settings = parse_settings(set_specs);
  o.verify = vm.count("no-verify") == 0;
  if (pairs != "one" && pairs != "all" && pairs != "intra" && pairs != "inter")
    throw UsageError("--pairs '" + pairs +
                     "' is not supported; accepted: one, all, intra, inter");
  o.all_pairs = pairs == "all";
  if (pairs == "intra" || pairs == "inter") o.pair_placement = pairs;
  if (o.wait != "auto" && o.wait != "poll" && o.wait != "sleep")
    throw UsageError("--wait '" + o.wait +
                     "' is not supported; accepted: auto, poll, sleep");
  if (size_basis != "per-rank" && size_basis != "total")
    throw UsageError("--size-basis '" + size_basis +
                     "' is not supported; accepted: per-rank, total");
  o.size_total = size_basis == "total";
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
  if (o.window < 1 || o.window > 1024)
    throw UsageError(
        "--window must be between 1 and 1024 (messages in flight per "
        "operation), got " +
        std::to_string(o.window));
  if (o.test_every < 1 || o.test_every > 64)
    throw UsageError(
        "--test-every must be between 1 and 64 (slices of the "
        "computation between two MPI_Testall calls), got " +
        std::to_string(o.test_every));
  if (interleave != "on" && interleave != "off")
    throw UsageError("--interleave '" + interleave +
                     "' is not supported; accepted: on, off");
  o.interleave = interleave == "on";
  o.seed_given = vm.count("seed") > 0;
  if (o.seed_given) {
    // Digits only: stoull would wrap "-1" to 2^64-1.
    const bool digits =
        !seed.empty() && seed.size() <= 16 &&
        seed.find_first_not_of("0123456789") == std::string::npos;
    o.seed = digits ? std::stoull(seed) : 0;
    if (!digits || o.seed > kMaxSeed)
      throw UsageError("--seed '" + seed + "': " + accepted_values("--seed"));
  }
  if (noise != "on" && noise != "off")
    throw UsageError("--noise '" + noise +
                     "' is not supported; accepted: on, off");
  o.noise = noise == "on";
  if (o.retry_noisy < 0 || o.retry_noisy > 100)
    throw UsageError("--retry-noisy must be between 0 and 100, got " +
                     std::to_string(o.retry_noisy));
  if (o.retry_noisy > 0 && !o.noise && !vm["retry-noisy"].defaulted())
    throw UsageError(
        "--retry-noisy needs the noise record; it does nothing with --noise "
        "off");
  if (vm.count("target-rse")) {
    o.target_rse = parse_percent("--target-rse", target_rse, 100);
    if (o.target_rse <= 0)
      throw UsageError("--target-rse must be above 0%, e.g. 1%");
  }
  if (!(o.max_time > 0 && o.max_time <= 86400))
    throw UsageError(
        "--max-time must be a number of seconds in (0, 86400], got " +
        std::to_string(o.max_time));
  if (!vm["max-time"].defaulted() && o.target_rse == 0)
    throw UsageError(
        "--max-time bounds --target-rse; give --target-rse too (e.g. "
        "--target-rse 1% --max-time 10)");
  if (cache != "hot" && cache != "cold")
    throw UsageError("--cache '" + cache +
                     "' is not supported; accepted: hot, cold");
  o.cache_cold = cache == "cold";
  if (buffers != "separate" && buffers != "shared")
    throw UsageError("--buffers '" + buffers +
                     "' is not supported; accepted: separate, shared");
  o.separate_buffers = buffers == "separate";
  if (receive != "reuse" && receive != "fresh")
    throw UsageError("--receive '" + receive +
                     "' is not supported; accepted: reuse, fresh");
  o.receive_fresh = receive == "fresh";
  if (vm.count("iterations")) {
    if (o.iterations < 1 || o.iterations > 1000000000)
      throw UsageError("--iterations must be between 1 and 1000000000, got " +
                       std::to_string(o.iterations));
    if (!vm["min-time"].defaulted())
      throw UsageError(
          "--iterations fixes the operations per sample, --min-time "
          "calibrates them; give one of the two");
  }
  o.quiet = vm.count("quiet") > 0;
  if (vm.count("log-level")) {
    spdlog::level::level_enum level = spdlog::level::info;
    if (!parse_log_level(o.log_level, level))
      throw UsageError("--log-level '" + o.log_level +
                       "' is not a level; accepted: " + log_level_names());
    if (o.quiet)
      throw UsageError(
          "--quiet is --log-level warn; give one of --quiet and --log-level");
  } else if (o.quiet) {
    o.log_level = "warn";
  }
  o.per_rank = vm.count("per-rank") > 0;

  o.methods = split_list(methods);
  if (o.methods.empty())
    throw UsageError(
        "--methods is empty; give method names, suite names or 'all' "
        "(see runner --list)");
  o.payloads = split_list(payloads);
  if (vm.count("payloads") && o.payloads.empty())
    throw UsageError("--payloads is empty; give payload names such as 1d,2d");
  parse_compare_options(o, vm.count("threshold") ? &threshold : nullptr,
                        vm.count("alpha") > 0);
  o.relative = vm.count("relative") > 0;
  if (o.relative && o.command != Command::compare &&
      o.command != Command::trend)
    throw UsageError("--relative applies to 'compare' and 'trend' only");
  const bool tabular =
      o.format == "table" || o.format == "json" || o.format == "markdown";
  if (o.command == Command::compare && !tabular)
    throw UsageError("--format '" + o.format +
                     "' is not supported by compare; accepted: table, "
                     "markdown, json");
  if (o.command == Command::trend && !tabular && o.format != "html")
    throw UsageError("--format '" + o.format +
                     "' is not supported by trend; accepted: table, "
                     "markdown, json, html");
  if (o.format == "html" && o.command != Command::report &&
      o.command != Command::trend)
    throw UsageError(
        "--format html is for 'report FILE' and 'trend FILE...' (a run "
        "writes JSON: runner report FILE --format html -o report.html)");
  if (!tabular && o.format != "csv" && o.format != "gbench" &&
      o.format != "html" && o.format != "summary")
    throw UsageError("--format '" + o.format +
                     "' is not supported; accepted: table, summary, markdown, "
                     "json, csv, gbench, html (report and trend)");
  if (o.per_rank && o.format != "table" && o.format != "markdown")
    throw UsageError(
        "--per-rank prints a table, so it needs --format table "
        "or markdown, got '" +
        o.format + "' (the JSON records hold the times as per_rank_s)");
  if (!(o.min_time > 0 && o.min_time <= 60))
    throw UsageError("--min-time must be a number of seconds in (0, 60], got " +
                     std::to_string(o.min_time));
  if (!(o.point_timeout >= 0 && o.point_timeout <= 86400))
    throw UsageError(
        "--point-timeout must be a number of seconds in [0, 86400] (0: no "
        "bound), got " +
        std::to_string(o.point_timeout));
  if (o.repetitions < 1 || o.repetitions > 100000)
    throw UsageError("--repetitions must be between 1 and 100000, got " +
                     std::to_string(o.repetitions));
  if (o.warmup < 0 || o.warmup > 100000)
    throw UsageError("--warmup must be between 0 and 100000, got " +
                     std::to_string(o.warmup));
  if (vm.count("max-memory")) {
    try {
      o.max_memory = parse_bytes(max_memory);
    } catch (const SizeSpecError&) {
      throw UsageError("--max-memory '" + max_memory +
                       "' is not an amount of memory. Accepted: a number of "
                       "bytes with an optional unit (B, kB, KiB, MB, MiB, GB, "
                       "GiB), e.g. 8GiB or 500MB");
    }
    if (o.max_memory == 0) throw UsageError("--max-memory must be above 0");
  }
  try {
    o.sizes = parse_sizes(o.sizes_spec);
    o.sizes_given = !vm["sizes"].defaulted();
  } catch (const SizeSpecError& e) {
    throw UsageError(std::string("--sizes: ") + e.what());
  }
  return o;
}

}  // namespace mpiarena
