// The option groups: every option described (its --help text), one
// function per group of options that the same commands take; which
// command takes which group: the tables of options_commands.cpp. No MPI.
#include "runner/options_parse.hpp"
#include "runner/reporters.hpp"

namespace mpiarena {

// Every command's: help, version, quiet.
void describe_general(po::options_description& desc, Options&, RawOptions&) {
  // clang-format off
  desc.add_options()
    ("help,h", "show this help and exit ('runner COMMAND --help': that "
     "command's)")
    ("version", "show the runner version and plugin ABI and exit")
    ("quiet,q", "no progress lines; warnings and errors only (the same as "
     "--log-level warn; not together with --log-level)");
  // clang-format on
}

// The plugins' methods: --list, --help-method.
void describe_listing(po::options_description& desc, Options& o,
                      RawOptions&) {
  // clang-format off
  desc.add_options()
    ("list", "list methods with suite, payloads, minimum ranks and summary")
    ("help-method", po::value<std::string>(&o.help_method),
     "what method NAME is and the options it takes (--set)");
  // clang-format on
}

// A method's own options (--set) and the library's algorithms.
void describe_method_options(po::options_description& desc, Options&,
                             RawOptions& raw) {
  // clang-format off
  desc.add_options()
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

// --sizes: a run's and 'runner sizes'.
void describe_sizes(po::options_description& desc, Options& o, RawOptions&) {
  // clang-format off
  desc.add_options()
    ("sizes,s", po::value<std::string>(&o.sizes_spec)->default_value(o.sizes_spec),
     "sizes (default: small..xxlarge; the overlap suite: 64KiB..16MiB, as "
     "NMPM's NOB): presets small (11 kB), medium (110 kB), large (1.1 MB), "
     "xlarge "
     "(11 MB), xxlarge (110 MB), xxxlarge (440 MB), 'all', preset ranges "
     "(small..xxlarge: every preset from the first to the last), bytes with "
     "units (case-sensitive: 1MB = 10^6 bytes, 1MiB = 2^20; labelled in the "
     "unit given: '1 MB', '1 MiB'), ranges a..b doubling (8B..4MiB, "
     "0..4MiB), OSU's -m ranges A:B doubling from A to B (1:4194304; :B "
     "from 1, A: to 4194304), its ladders osu (1:4194304) and osu-coll "
     "(1:1048576), NetPIPE's perturbed ladder netpipe:a..b");
  // clang-format on
}

// What to measure: methods, payloads, pairs, ranks.
void describe_selection(po::options_description& desc, Options& o,
                        RawOptions& raw) {
  // clang-format off
  desc.add_options()
    ("methods,m", po::value<std::string>(&raw.methods)->default_value("all"),
     "comma-separated method names, suite names, OSU 7.4 program names "
     "(osu_latency, osu_allreduce...: runner --list shows them; 'osu': every "
     "one), or 'all'")
    ("payloads,p", po::value<std::string>(&raw.payloads),
     "comma-separated payloads to run (e.g. 1d,2d); default: every payload "
     "each method supports")
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
    ("copy-limit", po::value<std::string>(&raw.copy_limit)->default_value(raw.copy_limit),
     "'on': before the transfer suite's points of each payload size, "
     "measure the machine's copy bandwidth for that byte count (a copy on "
     "one core, then on every rank of the node at once) and record it "
     "with the fraction each method reaches; 'off': not measured")
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

// The measurement: its length, samples, memory and verification.
void describe_measurement(po::options_description& desc, Options& o,
                          RawOptions& raw) {
  // clang-format off
  desc.add_options()
    ("min-time", po::value<double>(&o.min_time)->default_value(o.min_time, "0.001"),
     "seconds one sample must last at least (inner iterations adapt)")
    ("repetitions,r", po::value<int>(&o.repetitions)->default_value(o.repetitions),
     "samples per point (statistics are over these); runner ab's default is "
     "15, not this one")
    ("target-rse", po::value<std::string>(&raw.target_rse),
     "precision-targeted stopping (SKaMPI): after --repetitions samples, add "
     "samples until the relative standard error of the mean of the samples "
     "is at most this (e.g. 1%) or --max-time is spent on the point; the "
     "record says which stopped it")
    ("precision", po::value<std::string>(&raw.precision)->default_value(raw.precision),
     "sample a point until the median of its samples is known to this "
     "(the half-width of its 95% confidence interval, from the samples' "
     "order statistics, over the median), after at least --repetitions "
     "samples and for at most --max-time; the record gives the precision "
     "reached and what stopped it. 'off': exactly --repetitions samples, "
     "as when -r, --iterations, --target-rse or --profile is given "
     "without --precision")
    ("max-time", po::value<double>(&o.max_time),
     "with --precision or --target-rse: seconds of samples one point may "
     "take at most (default 1 with --precision, 10 with --target-rse)")
    ("warmup", po::value<int>(&o.warmup)->default_value(o.warmup),
     "untimed operations before calibration")
    ("iterations,i", po::value<std::int64_t>(&o.iterations),
     "operations per sample, fixed (OSU's -i): skips calibration and "
     "--min-time (1 to 10^9)")
    ("max-memory", po::value<std::string>(&raw.max_memory),
     "memory per node the run may count on, e.g. 8GiB (default: what the node "
     "has available); a point whose buffers would not fit in 80% of it is "
     "skipped, with the figures")
    ("no-verify", "do not verify the data moved (the records say so)");
  // clang-format on
}

// A step's bound: a fault stops the run (a run, 'runner clocks').
void describe_timeout(po::options_description& desc, Options& o, RawOptions&) {
  // clang-format off
  desc.add_options()
    ("point-timeout", po::value<double>(&o.point_timeout)->default_value(o.point_timeout, "60"),
     "seconds a step of a point (prepare, a sample, verification...) may take "
     "beyond 10x its calibrated time; a rank that hangs, crashes or throws "
     "while the others wait stops the run with one message and exit 3 "
     "(0: no bound)");
  // clang-format on
}

// Where the plugins are (a run, ab, --list, --help-method).
void describe_plugins(po::options_description& desc, Options& o, RawOptions&) {
  // clang-format off
  desc.add_options()
    ("plugin-dir", po::value<std::vector<std::string>>(&o.plugin_dirs),
     "also load plugins from this directory (repeatable); searched after the "
     "runner's own plugin directory and MPIARENA_PLUGIN_PATH");
  // clang-format on
}

// runner ab's two builds and its blocks.
void describe_builds(po::options_description& desc, Options& o, RawOptions&) {
  // clang-format off
  desc.add_options()
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
     "slowdown with no false alarm, docs/ci.md)");
  // clang-format on
}

// The tables' optional views (a run, ab, 'report').
void describe_views(po::options_description& desc, Options&, RawOptions&) {
  // clang-format off
  desc.add_options()
    ("per-rank",
     "table and markdown (run and 'report'): also print each rank's own "
     "per-operation time per point, and the slowest over the fastest rank "
     "(a fan-in client's time by rank, each pair of --pairs all)")
    ("percentiles",
     "table and markdown (run and 'report'): add the columns p50, p95 and "
     "p99 of the samples (OSU's -z; nearest rank), '-' where a point has "
     "too few samples: p95 needs -r 20, p99 -r 100 (with -i 1 each sample "
     "is one operation, as OSU's). The records, csv and html always "
     "hold them where the samples allow");
  // clang-format on
}

// What the ranks log.
void describe_log(po::options_description& desc, Options& o, RawOptions&) {
  // clang-format off
  desc.add_options()
    ("log-level", po::value<std::string>(&o.log_level),
     "what the ranks log on stderr: trace, debug, info, warn, error or off. "
     "Default: rank 0 info (a progress line per point), the other ranks "
     "warn; with a level, rank 0 logs at it, the other ranks at warn unless "
     "it is debug, trace (every rank) or quieter than warn. --list: the "
     "plugin loader's messages");
  // clang-format on
}

// What a command prints: its format (reporters.hpp).
void describe_format(po::options_description& desc, Options& o, RawOptions&) {
  const std::string formats = format_help();  // reporters.hpp
  // clang-format off
  desc.add_options()
    ("format,f", po::value<std::string>(&o.format)->default_value("table"),
     formats.c_str());
  // clang-format on
}

// -o: the result document, or the printout of report, trend, tune.
void describe_output_file(po::options_description& desc, Options& o,
                          RawOptions&) {
  // clang-format off
  desc.add_options()
    ("output,o", po::value<std::string>(&o.output),
     "write the JSON result document here (rewritten after every point, so "
     "an interrupted run keeps what it measured); with 'report' and "
     "'trend': write what they print to this file instead of stdout; with "
     "'tune': the library's tuning file (and its table as FILE.md)");
  // clang-format on
}

// The judgement of compare, ab, trend, tune and history changes.
void describe_judgement(po::options_description& desc, Options& o,
                        RawOptions& raw) {
  // clang-format off
  desc.add_options()
    ("threshold", po::value<std::string>(&raw.threshold),
     "compare, trend, tune and history: how far apart two medians must be to count, in percent, as "
     "a factor between the better and the worse (5%: slower or faster by "
     "more than 1.05x; default 5%)")
    ("alpha", po::value<double>(&o.alpha),
     "compare, trend and tune: significance level of the two-sided U test "
     "(default 0.05); history: the chance that a series without a change "
     "reports one");
  // clang-format on
}

// A gate's procedure: compare and ab.
void describe_gate(po::options_description& desc, Options& o, RawOptions&) {
  // clang-format off
  desc.add_options()
    ("correction", po::value<std::string>(&o.correction),
     "compare and ab: holm (every p-value adjusted by Holm's method over the "
     "comparison's tests, so that an A/A comparison flags anything with a "
     "chance below alpha) or none (each point at alpha). Default: holm for "
     "runner ab, one file of it and launches a side; none for BASE NEW")
    ("allow-powerless",
     "compare and ab: accept a comparison that could not have failed (too "
     "few samples for any point to reach significance, after the "
     "correction); without it, such a comparison exits 2 naming the "
     "repetitions it needs");
  // clang-format on
}

// An interrupted run: compare, ab, history add.
void describe_incomplete(po::options_description& desc, Options&, RawOptions&) {
  // clang-format off
  desc.add_options()
    ("allow-incomplete",
     "compare and ab: judge an interrupted run (complete: false) as it is; "
     "without it, a comparison that regressed nowhere exits 2 when a side "
     "is incomplete. history add: keep such a run (refused without it)");
  // clang-format on
}

// A shift of the whole machine taken out: compare and trend.
void describe_relative(po::options_description& desc, Options&, RawOptions&) {
  // clang-format off
  desc.add_options()
    ("relative",
     "compare and trend: judge each point against the common shift of its group (the "
     "methods of one suite, payload, size and ranks, 3 or more, which an "
     "interleaved run measured together): a change of the whole machine "
     "between the runs is reported once per group, not as a regression of "
     "every point; a change every method shares (an MPI upgrade) is then a "
     "warning, not a failure");
  // clang-format on
}

}  // namespace mpiarena
