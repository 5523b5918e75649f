// The plugin contract: what a method library exports and what the core calls.
//
// A plugin is one shared library that exports, through MPIARENA_PLUGIN(...),
//   - a plain C function `mpiarena_abi_version()` returning kAbiVersion as it
//     was when the plugin was compiled (the registry checks it before touching
//     any C++ object of the plugin), and
//   - a plain C function `mpiarena_mpi_implementation()` naming the MPI
//     library whose mpi.h it was compiled with (checked next), and
//   - a factory alias `mpiarena_factory` returning the strategies it provides.
// The guides cited: <prefix>/share/doc/mpiarena/X.md (source tree: docs/X.md).
// Bump kAbiVersion on ANY change to this file, to phase_timer.hpp or to a
// class a plugin derives from (members, virtuals, their order, signatures).
#pragma once

#include <mpi.h>

#include <boost/config.hpp>
#include <boost/dll/alias.hpp>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "operation.hpp"
#include "option_value.hpp"
#include "phase_timer.hpp"

namespace mpiarena {

// Raised whenever a public header changes what a built plugin depends on
// (StrategyInfo, the entry, the base classes' layout); what each version
// changed: docs/writing-a-plugin.md, "The contract". The latest: 12,
// RmaStrategy's bidirectional mode; 13, payload_copies_per_rank; 14,
// StrategyInfo::operation (operation.hpp); 15, memory_copies; 16, the
// transfer suite's shared payloads (TransferStrategy::shared_payload()).
inline constexpr std::uint32_t kAbiVersion = 16;

// What a metric formula sees: per-operation times in seconds of every part
// (by part name) and phase (by phase name for the headline part, and by
// "part/phase" for every part), plus the point's size and ranks. The core
// calls the formula once per repetition (samples) and once on the medians
// (the value recorded and compared).
//
// The times are those the record reports: per operation, after the
// strategy's time_scale (a ping-pong's round trip already halved to one
// way), the max over ranks. A method without parts has one part, named ""
// (its whole time: in.part("")); a method with parts has no "" part. Phases
// are there only for a strategy that declares them. part() and phase()
// throw std::out_of_range naming what exists, which fails the point.
struct MetricInput {
  std::map<std::string, double> parts;
  std::map<std::string, double> phases;
  std::size_t bytes = 0;  // payload bytes of the point
  int ranks = 0;
  // Pairwise strategies: the pairs that ran concurrently (1, or ranks / 2
  // under runner --pairs all); 0 for the others.
  int pairs = 0;
  // The time of a part / phase; throws std::out_of_range naming it.
  double part(const std::string& name) const {
    return get(parts, "part", name);
  }
  double phase(const std::string& name) const {
    return get(phases, "phase", name);
  }

 private:
  static double get(const std::map<std::string, double>& m, const char* what,
                    const std::string& name) {
    const auto it = m.find(name);
    if (it != m.end()) return it->second;
    std::string have;
    for (const auto& kv : m)
      have += (have.empty() ? "'" : ", '") + kv.first + "'";
    throw std::out_of_range(std::string("metric formula asked for ") + what +
                            " '" + name +
                            "', which the point does not have (its " + what +
                            "s: " + (have.empty() ? "none" : have) +
                            "; a method without parts has the one part '')");
  }
};

struct MetricInfo {
  std::string name;  // [a-z0-9_]+, e.g. "overlap"
  std::string unit;  // e.g. "%", "msg/s"
  bool higher_is_better = true;
  std::function<double(const MetricInput&)> compute;
};

// A knob of one method (a segment size, requests in flight, an algorithm),
// declared in StrategyInfo::options and set on the command line with `runner
// --set METHOD.NAME=VALUE[,VALUE...]`: a list of values is an axis, one point
// per value (per combination, over several options). The runner checks every
// value before anything runs (exit 2 naming the option and what it accepts),
// hands the point's values to the strategy (RunContext::option), records them
// in the record's `options`, and names the point "METHOD[NAME=VALUE,...]", so
// `compare` never matches two different values. A method that declares options
// always runs with a value for each: its default unless --set gives others.
struct OptionInfo {
  enum class Type { integer, number, choice };
  std::string name;  // [a-z0-9_]{1,32}, not a key of StrategyInfo::params
  Type type = Type::integer;
  // As written on the command line; must pass the checks below.
  std::string default_value;
  // integer and number: the accepted range, both ends included.
  double min = 0, max = 0;
  // choice: the accepted values, each [a-z0-9_.-]{1,32}.
  std::vector<std::string> choices;
  std::string help;  // one line for `runner --help-method METHOD`

  // The three kinds, by name (writing-a-plugin.md, "Options"):
  //   OptionInfo::integer("segment", "4096", 64, 1 << 20, "bytes per call")
  //   OptionInfo::number("pace", "1.5", 0, 2, "a factor")
  //   OptionInfo::choice("order", "forward", {"forward", "backward"}, "...")
  static OptionInfo integer(std::string name, std::string default_value,
                            double min, double max, std::string help) {
    return {
        std::move(name), Type::integer, std::move(default_value), min, max, {},
        std::move(help)};
  }
  static OptionInfo number(std::string name, std::string default_value,
                           double min, double max, std::string help) {
    return {
        std::move(name), Type::number, std::move(default_value), min, max, {},
        std::move(help)};
  }
  static OptionInfo choice(std::string name, std::string default_value,
                           std::vector<std::string> choices, std::string help) {
    return {std::move(name),    Type::choice,   std::move(default_value), 0, 0,
            std::move(choices), std::move(help)};
  }
};

// What the registry and `runner --list` know about a strategy without
// running it. Pure data: building it makes no MPI call. The registry checks
// it at load (name, suite, payloads, time_scale, min_ranks, phases, parts,
// metrics) and refuses the plugin with one sentence naming the field.
struct StrategyInfo {
  std::string name;                   // unique method name: [a-z0-9_]{1,32}
  std::string suite;                  // measurement pattern, e.g. "transfer"
  std::string summary;                // one line for --list
  std::vector<std::string> payloads;  // e.g. {"1d", "2d"}
  int min_ranks = 2;
  // False for strategies that move no payload (the `null` harness probe):
  // the report shows no bandwidth for them.
  bool moves_data = true;
  // Payload-sized buffers one rank holds at once whatever the rank count
  // (its copy of the data, a pack buffer...). The core skips a point whose
  // ranks would not fit in the node's available memory.
  int payload_copies = 1;
  // True for methods that only work when every rank is on one node (shared
  // memory): the core skips them, with the reason, on several nodes.
  bool single_node = false;
  // The engine multiplies every sample by this factor before recording it.
  // 0.5 for a round trip reported as a one-way time (ping-pong suite).
  double time_scale = 1.0;
  // True for methods that run in pairs of ranks (ping-pong): they honour
  // RunContext::all_pairs, and records give the aggregate bandwidth of the
  // pairs that ran concurrently.
  bool pairwise = false;
  // Contract v4 --------------------------------------------------------
  // The plugin's own version, recorded in every record (empty: none).
  std::string version;
  // Sub-phases of one operation, marked through RunContext::phases (at
  // most PhaseTimer::kMaxPhases names, [a-z0-9_]+).
  std::vector<std::string> phases;
  // Timed parts of one point (NMPM's NOB: "comm", "compute", "both"). Empty:
  // one part. Each part is its own calibrated loop; execute() reads
  // RunContext::part() to know which one runs. The record's headline time
  // is the part named `headline` (empty: the first).
  std::vector<std::string> parts;
  std::string headline;
  // Figures derived from the parts' and phases' times (overlap %, msg/s).
  std::vector<MetricInfo> metrics;
  // Contract v6 --------------------------------------------------------
  // True when one execute() is a window of RunContext::window messages (runner
  // --window, OSU's -W): the engine divides every sample by the window as well
  // as by time_scale, so records hold the time per message and the bandwidth is
  // bytes / that time (osu_bw's formula), and each record says which window it
  // ran. payload_copies then counts the payload-sized buffers per message of
  // the window: the memory guard counts payload_copies x window + 1 of them.
  bool windowed = false;
  // What the method is, as (key, value) pairs of [a-z0-9_]+ names, e.g.
  // {{"op", "put"}, {"sync", "fence"}}: recorded in every record. When
  // matrix_row and matrix_column name two of the keys, the report draws,
  // per size, a matrix of the suite's methods with those values as rows and
  // columns (the fastest of each row marked); methods whose other params
  // differ go in separate matrices.
  std::vector<std::pair<std::string, std::string>> params;
  std::string matrix_row, matrix_column;
  // A method that always moves this many bytes (one 8-byte atomic, as
  // OSU's osu_fop_latency and osu_cas_latency): it runs at this size once
  // per rank count and payload, whatever --sizes says. 0: the ladder.
  std::size_t fixed_bytes = 0;
  // Contract v8: the method's own options (OptionInfo above); at most 8.
  std::vector<OptionInfo> options;
  // Contract v9 --------------------------------------------------------
  // The MPI collective whose algorithm the MPI library chooses inside one
  // execute(), by the name the libraries give it ("allreduce", "bcast",
  // "scan", "reduce_scatter", "allgatherv"...); empty: none. runner
  // --algorithms then measures the method once per algorithm the running
  // library offers for it (tuning.md; none offered: the library's
  // choice only, with the reason), as the option "algorithm" the runner
  // adds; the method declares no option of that name.
  std::string library_collective;
  // Contract v11 -------------------------------------------------------
  // The MPI thread level the method needs (MPI_THREAD_MULTIPLE: threads
  // calling MPI at once); a run with less (--thread-level) skips it.
  int thread_level = MPI_THREAD_SINGLE;
  // Contract v13: payload-sized buffers one rank holds per rank of the
  // point, on top of payload_copies (writing-a-plugin.md, "Memory").
  int payload_copies_per_rank = 0;
  // Contract v14: what one execute() computes, and so which methods of its
  // suite it ranks with (operation.hpp; empty: the suite's own work).
  Operation operation;
  // Contract v15: the copies of the payload one operation makes through
  // memory per receiver (methodology.md, "The copy limit"): the method's
  // own, plus with library_copies one message's on the MPI library's path.
  int memory_copies = 0;
  bool library_copies = false;
};

// Thrown by prepare() (or setup()) on EVERY rank alike when a point cannot
// run for a reason that is not a fault (a size above the method's limit):
// the point is recorded as skipped with the message, not as failed.
class SkipPoint : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Everything a strategy may use during one measured point.
struct RunContext {
  MPI_Comm comm = MPI_COMM_NULL;  // private duplicate, MPI_ERRORS_RETURN
  int rank = 0;
  int size = 1;
  int root = 0;
  std::string payload;    // one of StrategyInfo::payloads
  std::size_t bytes = 0;  // requested payload size in bytes
  Log* log = nullptr;     // rank-aware logger owned by the runner
  // Pairwise methods: false = one pair (0, 1), the other ranks idle; true =
  // every disjoint pair (0, 1), (2, 3)... concurrently (runner --pairs all).
  bool all_pairs = false;
  // The phase timer of this point (never null when the engine runs it).
  PhaseTimer* phases = nullptr;
  // The part being measured, an index into StrategyInfo::parts (0 when the
  // strategy declares none). Stable address for the whole point.
  const int* part_index = nullptr;
  int part() const { return part_index ? *part_index : 0; }
  // Suites whose size is per rank (collective_suite.hpp): true under
  // runner --size-basis total, where `bytes` is the whole array over the
  // ranks of `comm` rather than each rank's message.
  bool size_total = false;
  // Overlap suite, "test" variants (overlap_suite.hpp): MPI_Testall after every
  // test_every-th of the computation's 64 slices (runner --test-every).
  int test_every = 8;
  // Per part (StrategyInfo::parts), its median per-operation time in
  // seconds once the engine has measured it, 0 before: a later part may
  // size its work on an earlier one (the overlap suite sizes its
  // computation on the measured communication). Null outside the engine.
  const double* part_seconds = nullptr;
  // Stencil suite (stencil_suite.hpp): neighbour exchanges per operation
  // (runner --exchanges, even) and the access stride into the application
  // array in bytes (runner --stride, a multiple of 8).
  int exchanges = 4;
  std::size_t stride = 8;
  // Contract v5: numbers that hold on a noisy machine ------------------
  // runner --cache cold: each operation should use the next of a set of
  // buffers of cache_set_bytes in all (over twice the last-level cache), so
  // that no message starts in cache. Suites that honour it say so in their
  // records (Record::cache); the ping-pong base does it for its plugins.
  bool cache_cold = false;
  std::size_t cache_set_bytes = 0;
  // runner --buffers: ping-pong suite, true = send from a buffer the rank
  // never writes and receive into another (osu_latency), false = one
  // buffer receives the ping and sends the pong (NetPIPE).
  bool separate_buffers = true;
  // Contract v6 ---------------------------------------------------------
  // Windowed strategies (StrategyInfo::windowed): messages per execute()
  // (runner --window, default 64 as OSU's osu_bw).
  int window = 64;
  // Contract v7 ---------------------------------------------------------
  // runner --receive fresh: transfer suite, 2d payload: every operation
  // receives into a newly built structure (the old rows freed, new ones
  // allocated and zeroed, a new pack buffer), as the MPI & Boost
  // benchmark's own runner does; false (reuse, the default): the receiver's
  // rows of the previous operation are reused, as an application that transfers
  // repeatedly does (methods.md, "What a transfer's time includes").
  bool receive_fresh = false;
  // Contract v8: the point's value of each of the method's options
  // (StrategyInfo::options, in their order), checked by the runner; null
  // for a method that declares none.
  const std::vector<std::pair<std::string, std::string>>* options = nullptr;
  // The value of option `name` as written; throws std::out_of_range naming
  // the options that exist when the method did not declare `name`.
  const std::string& option(const std::string& name) const {
    if (options)
      for (const auto& kv : *options)
        if (kv.first == name) return kv.second;
    std::string have;
    if (options)
      for (const auto& kv : *options)
        have += (have.empty() ? "" : ", ") + kv.first;
    throw std::out_of_range("no option '" + name + "' (the method's options: " +
                            (have.empty() ? "none" : have) + ")");
  }
  // An integer or number option's value (the runner checked its range,
  // with the same parser: parse_option_integer, parse_option_number).
  long long option_int(const std::string& name) const {
    long long v = 0;
    if (!parse_option_integer(option(name), v))
      throw std::invalid_argument("option '" + name + "' = '" + option(name) +
                                  "' is not an integer");
    return v;
  }
  double option_number(const std::string& name) const {
    double v = 0;
    if (!parse_option_number(option(name), v))
      throw std::invalid_argument("option '" + name + "' = '" + option(name) +
                                  "' is not a finite number");
    return v;
  }
};
struct Verdict {
  bool ok = true;
  std::string message;  // first mismatch, or empty
};

// One way of doing one operation. The core owns the timed loop. The order,
// on every rank together (writing-a-plugin.md, "Lifecycle"):
//   prepare(ctx)                         untimed; suite bases build the
//                                        payload, then call setup()
//   for each part: warm-up and calibration execute()s
//   for each repetition, for each part: a timed loop of execute()s
//                                        (the parts' repetitions interleave)
//   for each part: poison(), one execute(), verify()
//   release()                            suite bases call teardown()
// Every rank calls execute() the same number of times.
class BOOST_SYMBOL_VISIBLE Strategy {
 public:
  virtual ~Strategy() = default;
  // Allocate, build the payload, create windows, datatypes, communicators.
  virtual void prepare(const RunContext& ctx) = 0;
  // Exactly one operation. Every rank of ctx.comm calls it the same number
  // of times. Never reads the clock, never loops over iterations.
  virtual void execute() = 0;
  // Reset the receive side (fill it with values a correct transfer never
  // leaves), so that verify() sees only what one execute() delivered.
  virtual void poison() = 0;
  // Local check of this rank's data after poison() + execute().
  virtual Verdict verify() = 0;
  virtual void release() {}
};
struct StrategyEntry {
  StrategyInfo info;
  std::function<std::unique_ptr<Strategy>()> create;
};
using FactoryFn = std::vector<StrategyEntry>();

// The MPI library family whose mpi.h this header was compiled with: MPI
// handles differ in type between them (Open MPI: pointers; MPICH: ints), so
// a plugin built against one crashes a runner built against the other. The
// registry compares the plugin's with its own before touching the factory.
#define MPIARENA_STR2(x) #x
#define MPIARENA_STR(x) MPIARENA_STR2(x)
#if defined(OPEN_MPI) && defined(OMPI_MAJOR_VERSION)
inline constexpr const char* kMpiImplementation = "Open MPI " MPIARENA_STR(
    OMPI_MAJOR_VERSION) "." MPIARENA_STR(OMPI_MINOR_VERSION);
#elif defined(MPICH_VERSION)
inline constexpr const char* kMpiImplementation = "MPICH " MPICH_VERSION;
#else
inline constexpr const char* kMpiImplementation = "unknown MPI";
#endif

template <class T>
StrategyEntry make_entry(StrategyInfo info) {
  return StrategyEntry{std::move(info),
                       [] { return std::unique_ptr<Strategy>(new T()); }};
}

}  // namespace mpiarena

// Declares the plugin. Arguments: StrategyEntry values, usually written with
// mpiarena::make_entry<Class>({...info...}). Use exactly once per library.
#define MPIARENA_PLUGIN(...)                                                 \
  extern "C" BOOST_SYMBOL_EXPORT std::uint32_t mpiarena_abi_version() {      \
    return ::mpiarena::kAbiVersion;                                          \
  }                                                                          \
  extern "C" BOOST_SYMBOL_EXPORT const char* mpiarena_mpi_implementation() { \
    return ::mpiarena::kMpiImplementation;                                   \
  }                                                                          \
  namespace mpiarena_plugin_local {                                          \
  std::vector<::mpiarena::StrategyEntry> factory() { return {__VA_ARGS__}; } \
  }                                                                          \
  BOOST_DLL_ALIAS(mpiarena_plugin_local::factory, mpiarena_factory)
