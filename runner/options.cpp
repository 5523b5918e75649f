// The command line: every option described (the --help text), parsed, and
// handed to the checks (options_check.cpp). No MPI.
#include "runner/options.hpp"

#include <sstream>

#include "runner/options_parse.hpp"
#include "runner/reporters.hpp"

namespace mpiarena {

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
    "                                    its records as csv, gbench or osu (OSU's\n"
    "                                    tables), or a self-contained page of\n"
    "                                    charts (--format html -o report.html)\n"
    "  runner compare BASE NEW           CI regression gate: match the points of two\n"
    "                                    result files, Mann-Whitney U test per point;\n"
    "                                    exit 0 nothing regressed, 1 a regression,\n"
    "                                    2 bad input (--threshold, --alpha, --format)\n"
    "  runner compare AB                 the same for one file of 'runner ab'\n"
    "  runner compare B1 B2 B3 -- N1 N2 N3  (or DIR_BASE DIR_NEW): k launches a\n"
    "                                    side, each launch's median one observation\n"
    "  mpirun -np N runner ab --base-plugin-dir OLD --new-plugin-dir NEW [options]\n"
    "                                    A/B in one run: both builds' methods in the\n"
    "                                    same rounds, judged as compare does (exit\n"
    "                                    0/1/2); -o keeps the run (docs/ci.md)\n"
    "  runner clocks [--clock-sync A,B]  how well the ranks' clocks agree once\n"
    "                                    synchronized, per algorithm (MPI)\n"
    "  runner algorithms [-f json]       the MPI library's own algorithms of each\n"
    "                                    collective (MPI_T), which --algorithms\n"
    "                                    measures (docs/tuning.md)\n"
    "  runner tune FILE... [-o FILE]     the winners of --algorithms runs (U test\n"
    "                                    against the library's own choice, Holm,\n"
    "                                    --alpha, --threshold) as the file the\n"
    "                                    library loads: Open MPI's dynamic rules or\n"
    "                                    MPICH's selection JSON, and its table;\n"
    "                                    FILEs of launches without --algorithms,\n"
    "                                    with the file loaded and without,\n"
    "                                    confirm its winners; tune --format json's\n"
    "                                    decisions given back carry a pass's\n"
    "                                    set-asides to the next (docs/tuning.md)\n"
    "  runner trend FILE...              each point's median across runs in time\n"
    "                                    order, the spread of each run, and where\n"
    "                                    compare's test flags a change against the\n"
    "                                    run before; runs whose contexts differ are\n"
    "                                    grouped apart (--format table|markdown|\n"
    "                                    json|html, -o FILE); --db STORE: the\n"
    "                                    store's runs, change points marked\n"
    "  runner history add FILE... --db STORE   keep runs in one SQLite file\n"
    "  runner history changes --db STORE [--since RUN|REV|DATE]  change points\n"
    "                                    per series: exit 1 one after --since\n"
    "  runner history list --db STORE    the stored runs (docs/ci.md)\n"
    "\n"
    "Every sample starts after a barrier (--sync window: in windows on a\n"
    "global clock), calibrated so that one sample lasts at least --min-time,\n"
    "repeated --repetitions times; a sample is the per-operation time of the\n"
    "slowest rank. Every point is verified on a\n"
    "poisoned receive side: a wrong transfer fails the run (exit 1).\n"
    "Exit codes: 0 success, 1 a verification or a point failed, 2 bad input,\n"
    "3 a fault stopped the run (a rank hung, crashed, or threw while the\n"
    "others were stuck; the result file keeps every completed point).\n"
    "The guides cited here are in docs/\n"
    "\n"
    "Options";
// clang-format on

// The commands, and a method's own options (--set).
void describe_commands(po::options_description& desc, Options& o,
                       RawOptions& raw) {
  // clang-format off
  desc.add_options()
    ("help,h", "show this help and exit")
    ("version", "show the runner version and plugin ABI and exit")
    ("list", "list methods with suite, payloads, minimum ranks and summary")
    ("help-method", po::value<std::string>(&o.help_method),
     "what method NAME is and the options it takes (--set)")
    ("set", po::value<std::vector<std::string>>(&raw.set_specs)->composing(),
     "METHOD.OPTION=VALUE[,VALUE...]: a value of one of a method's own "
     "options (runner --help-method METHOD lists them); a list of values "
     "measures one point per value (per combination, with several --set of "
     "one method); repeatable")
    ("algorithms", po::value<std::string>(&raw.algorithms),
     "all | NAME[,NAME...]: the MPI library's own algorithms of the "
     "collectives among the methods (allreduce, coll_bcast, reduce, "
     "allgather, alltoall, gather, scatter, barrier, reduce_scatter_block), "
     "each a point named METHOD[algorithm=NAME] beside METHOD[algorithm="
     "library], the library's own choice; names as the library gives them "
     "(runner algorithms lists them); one launch switches them, under Open "
     "MPI with its dynamic rules, which the runner turns on (docs/tuning.md)");
  // clang-format on
}

// What to measure: methods, payloads, sizes, pairs, ranks.
void describe_selection(po::options_description& desc, Options& o,
                        RawOptions& raw) {
  // clang-format off
  desc.add_options()
    ("methods,m", po::value<std::string>(&raw.methods)->default_value("all"),
     "comma-separated method names, suite names, or 'all'")
    ("payloads,p", po::value<std::string>(&raw.payloads),
     "comma-separated payloads to run (e.g. 1d,2d); default: every payload "
     "each method supports")
    ("sizes,s", po::value<std::string>(&o.sizes_spec)->default_value(o.sizes_spec),
     "sizes (default: small..xxlarge; the overlap suite: 64KiB..16MiB, as "
     "NMPM's NOB): presets small (11 kB), medium (110 kB), large (1.1 MB), "
     "xlarge "
     "(11 MB), xxlarge (110 MB), xxxlarge (440 MB), 'all', preset ranges "
     "(small..xxlarge: every preset from the first to the last), bytes with "
     "units (4KiB, 1MB), ranges a..b doubling (8B..4MiB, 0..4MiB), NetPIPE's "
     "perturbed ladder netpipe:a..b")
    ("pairs", po::value<std::string>(&raw.pairs)->default_value("one"),
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
    ("size-basis", po::value<std::string>(&raw.size_basis)->default_value(raw.size_basis),
     "distribution, combination and collective suites: 'per-rank' = a size "
     "is each rank's message (as OSU and IMB); 'total' = a size is the whole "
     "array over the ranks (the N of the course exercise 'Week 4 - MPI "
     "Communications': a distribution splits it into slices that differ by "
     "at most one int, MPI_Scatterv when the ranks do not divide it)");
  // clang-format on
}

// Options of particular suites, the interleaving, the noise record and
// the stopping rule.
void describe_suites(po::options_description& desc, Options& o,
                     RawOptions& raw) {
  // clang-format off
  desc.add_options()
    ("test-every", po::value<int>(&o.test_every)->default_value(o.test_every),
     "overlap suite, methods ending in _test: call MPI_Testall after every "
     "k-th of the computation's 64 slices (1 to 64)")
    ("exchanges", po::value<int>(&o.exchanges)->default_value(o.exchanges),
     "stencil suite: neighbour exchanges per iteration, alternately to the "
     "right and to the left neighbour of a ring (OPBench's COMM_ITERS); "
     "even, 2 to 64")
    ("window", po::value<int>(&o.window)->default_value(o.window),
     "stream suite and the rma suite's _bw methods: messages in flight per "
     "operation (OSU's -W window, answered by one acknowledgement or one "
     "synchronisation); times and bandwidths are per message, 1 to 1024")
    ("stride", po::value<int>(&o.stride)->default_value(o.stride),
     "stencil suite: bytes between two elements of the application array "
     "that pack and unpack touch (OPBench's BUF_STRIDE); a multiple of 8, "
     "8 to 4096")
    ("interleave", po::value<std::string>(&raw.interleave)->default_value(raw.interleave),
     "'on': the methods that compete at a size (same suite, ranks and "
     "size) are prepared together and their samples run in rounds, one "
     "sample of each per round in a seeded random order, so a slow spell of "
     "the machine hits them alike (Google Benchmark's random interleaving); "
     "falls back to one method at a time, and says so, where their buffers "
     "would not fit in memory together. 'off': each point measured whole, "
     "one after the other")
    ("seed", po::value<std::string>(&raw.seed),
     "seed of the interleaved order, an integer from 0 to 2^53-1 "
     "(9007199254740991, exact in every JSON reader; default: drawn by rank "
     "0; the context records it, so the order can be replayed)")
    ("noise", po::value<std::string>(&raw.noise)->default_value(raw.noise),
     "'on': record per sample the steal time of the node (/proc/stat), the "
     "involuntary context switches of the ranks (getrusage) and the CPU "
     "frequency where the system exposes it, outside the timed loop; a "
     "point whose samples were stolen from or preempted is marked noisy. "
     "'off': record nothing (the cost of the record, bench/noise)")
    ("retry-noisy", po::value<int>(&o.retry_noisy)->default_value(o.retry_noisy),
     "re-measure a noisy sample up to N times (0 to 100) before keeping it; "
     "the record counts the retries")
    ("target-rse", po::value<std::string>(&raw.target_rse),
     "precision-targeted stopping (SKaMPI): after --repetitions samples, add "
     "samples until the relative standard error of the mean of the samples "
     "is at most this (e.g. 1%) or --max-time is spent on the point; the "
     "record says which stopped it")
    ("max-time", po::value<double>(&o.max_time)->default_value(o.max_time, "10"),
     "with --target-rse: seconds of samples one point may take at most")
    ("cache", po::value<std::string>(&raw.cache)->default_value(raw.cache),
     "'hot': every operation reuses the same buffers (as OSU); 'cold': "
     "ping-pong suite, each operation uses the next of a set of buffers "
     "larger than twice the last-level cache, so no message starts in "
     "cache (IMB's -off_cache, NetPIPE's -I); the context records the "
     "sizes; other suites run hot and the records say so")
    ("buffers", po::value<std::string>(&raw.buffers)->default_value(raw.buffers),
     "ping-pong suite: 'separate' = each rank sends from a buffer it never "
     "writes and receives into another (osu_latency's scheme); 'shared' = "
     "one buffer per rank receives the ping and sends the pong (NetPIPE's)")
    ("thread-level", po::value<std::string>(&o.thread_level),
     "initialise MPI with MPI_Init_thread at this level (single, funneled, "
     "serialized, multiple) instead of MPI_Init; the context records the "
     "level the library provided. A method that needs more (the threads of "
     "latency_mt need multiple) is skipped with the reason")
    ("receive", po::value<std::string>(&raw.receive)->default_value(raw.receive),
     "transfer suite, 2d payload: 'reuse' = the receiver keeps its rows "
     "from one operation to the next (an application's ghost storage); "
     "'fresh' = every operation receives into a newly built "
     "vector<vector<int>> and pack buffer, allocation included in the time "
     "(the MPI & Boost benchmark's own runner); records say which");
  // clang-format on
}

// Fixed iterations, the output and its format, and the judgement of
// compare and trend.
void describe_output(po::options_description& desc, Options& o,
                     RawOptions& raw) {
  const std::string formats = format_help();  // reporters.hpp
  // clang-format off
  desc.add_options()
    ("iterations,i", po::value<std::int64_t>(&o.iterations),
     "operations per sample, fixed (OSU's -i): skips calibration and "
     "--min-time (1 to 10^9)")
    ("output,o", po::value<std::string>(&o.output),
     "write the JSON result document here (rewritten after every point, so "
     "an interrupted run keeps what it measured); with 'report' and "
     "'trend': write what they print to this file instead of stdout; with "
     "'tune': the library's tuning file (and its table as FILE.md)")
    ("format,f", po::value<std::string>(&o.format)->default_value("table"),
     formats.c_str())
    ("threshold", po::value<std::string>(&raw.threshold),
     "compare, trend, tune and history: how far apart two medians must be to count, in percent, as "
     "a factor between the better and the worse (5%: slower or faster by "
     "more than 1.05x; default 5%)")
    ("alpha", po::value<double>(&o.alpha),
     "compare, trend and tune: significance level of the two-sided U test "
     "(default 0.05); history: the chance that a series without a change "
     "reports one")
    ("correction", po::value<std::string>(&o.correction),
     "compare and ab: holm (every p-value adjusted by Holm's method over the "
     "comparison's tests, so that an A/A comparison flags anything with a "
     "chance below alpha) or none (each point at alpha). Default: holm for "
     "runner ab, one file of it and launches a side; none for BASE NEW")
    ("allow-incomplete",
     "compare and ab: judge an interrupted run (complete: false) as it is; "
     "without it, a comparison that regressed nowhere exits 2 when a side "
     "is incomplete. history add: keep such a run (refused without it)")
    ("allow-powerless",
     "compare and ab: accept a comparison that could not have failed (too "
     "few samples for any point to reach significance, after the "
     "correction); without it, such a comparison exits 2 naming the "
     "repetitions it needs")
    ("relative",
     "compare and trend: judge each point against the common shift of its group (the "
     "methods of one suite, payload, size and ranks, 3 or more, which an "
     "interleaved run measured together): a change of the whole machine "
     "between the runs is reported once per group, not as a regression of "
     "every point; a change every method shares (an MPI upgrade) is then a "
     "warning, not a failure");
  // clang-format on
}

// The measurement, the plugins and the log.
void describe_measurement(po::options_description& desc, Options& o,
                          RawOptions& raw) {
  // clang-format off
  desc.add_options()
    ("min-time", po::value<double>(&o.min_time)->default_value(o.min_time, "0.005"),
     "seconds one sample must last at least (inner iterations adapt)")
    ("repetitions,r", po::value<int>(&o.repetitions)->default_value(o.repetitions),
     "samples per point (statistics are over these); runner ab's default is "
     "15, not this one")
    ("warmup", po::value<int>(&o.warmup)->default_value(o.warmup),
     "untimed operations before calibration")
    ("point-timeout", po::value<double>(&o.point_timeout)->default_value(o.point_timeout, "60"),
     "seconds a step of a point (prepare, a sample, verification...) may take "
     "beyond 10x its calibrated time; a rank that hangs, crashes or throws "
     "while the others wait stops the run with one message and exit 3 "
     "(0: no bound)")
    ("max-memory", po::value<std::string>(&raw.max_memory),
     "memory per node the run may count on, e.g. 8GiB (default: what the node "
     "has available); a point whose buffers would not fit in 80% of it is "
     "skipped, with the figures")
    ("plugin-dir", po::value<std::vector<std::string>>(&o.plugin_dirs),
     "also load plugins from this directory (repeatable); searched after the "
     "runner's own plugin directory and MPIARENA_PLUGIN_PATH")
    ("base-plugin-dir", po::value<std::vector<std::string>>(&o.base_plugin_dirs),
     "runner ab: a plugin directory of the BASE build (repeatable; the "
     "runner's own and MPIARENA_PLUGIN_PATH are not loaded)")
    ("new-plugin-dir", po::value<std::vector<std::string>>(&o.new_plugin_dirs),
     "runner ab: a plugin directory of the NEW build (repeatable)")
    ("blocks", po::value<int>(&o.blocks),
     "runner ab: measure the points anew (created, calibrated) this many "
     "times, the builds created in turn first and second, the repetitions "
     "spread over the blocks; 2 to --repetitions (default 5; and runner ab's "
     "--repetitions defaults to 15: what bench/gate measured to catch a 10% "
     "slowdown with no false alarm, docs/ci.md)")
    ("no-verify", "do not verify the data moved (the records say so)")
    ("per-rank",
     "table and markdown (run and 'report'): also print each rank's own "
     "per-operation time per point, and the slowest over the fastest rank "
     "(a fan-in client's time by rank, each pair of --pairs all)")
    ("percentiles",
     "table and markdown (run and 'report'): add the columns p50, p95 and "
     "p99 of the samples (OSU's -z; nearest rank), '-' where a point has "
     "too few samples: p95 needs -r 20, p99 -r 100 (with -i 1 each sample "
     "is one operation, as OSU's). The records, csv and html always "
     "hold them where the samples allow")
    ("log-level", po::value<std::string>(&o.log_level),
     "what the ranks log on stderr: trace, debug, info, warn, error or off. "
     "Default: rank 0 info (a progress line per point), the other ranks "
     "warn; with a level, rank 0 logs at it, the other ranks at warn unless "
     "it is debug, trace (every rank) or quieter than warn. --list: the "
     "plugin loader's messages")
    ("quiet,q", "no progress lines; warnings and errors only (the same as "
     "--log-level warn; not together with --log-level)");
  // clang-format on
}

}  // namespace

Options parse_options(int argc, const char* const* argv) {
  Options o;
  RawOptions raw;
  po::options_description desc(kUsage);
  describe_commands(desc, o, raw);
  describe_selection(desc, o, raw);
  describe_suites(desc, o, raw);
  describe_output(desc, o, raw);
  describe_measurement(desc, o, raw);
  describe_sync(desc, o, raw);
  describe_history(desc, o);
  describe_label(desc, o);
  describe_profile(desc, o);
  // compare B1 B2 -- N1 N2: Boost eats "--" (every later word positional,
  // options included), so it is kept as a word of its own.
  std::vector<const char*> args(argv, argv + argc);
  for (const char*& a : args)
    if (std::string(a) == "--") a = kSideSeparator;
  argv = args.data();
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
  // Its citations of docs/ spelt where the guides are (doc_dir.hpp).
  o.help_text = cite_docs_wrapped(
      help.str(), po::options_description::m_default_line_length);
  // --help wins over everything else: `runner report --help` shows the help
  // rather than complaining that the file is missing.
  if (vm.count("help")) {
    o.command = Command::help;
    return o;
  }

  parse_command(vm, o);
  check_command_options(vm, o);
  if (o.command == Command::validate) return o;  // only --log-level
  check_run_shape(vm, o, raw);
  check_sync(vm, o, raw);
  check_sampling(vm, o, raw);
  check_output(vm, o, raw);
  check_numbers(vm, o, raw);
  check_label(vm, o);
  check_profile(vm, o);
  if (vm.count("thread-level"))
    check_choice("--thread-level", o.thread_level,
                 {"single", "funneled", "serialized", "multiple"});
  return o;
}

}  // namespace mpiarena
