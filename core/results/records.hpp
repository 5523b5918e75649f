// Result records and the result document (schemas/results.schema.json).
#pragma once

#include <array>
#include <map>
#include <mpiarena/operation.hpp>
#include <mpiarena/stats.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/results/copy_limit.hpp"
#include "core/results/doc_context.hpp"

namespace mpiarena {

inline constexpr int kSchemaVersion = 1;

// Samples of one timed quantity (the total, a phase or a part): the
// per-operation time of each repetition, MAX / MIN / AVG over ranks, and the
// statistics of the MAX samples.
struct Timing {
  std::vector<double> samples_max, samples_min, samples_avg;
  Summary time;  // over samples_max
};

struct PhaseTiming : Timing {
  std::string name;
};

// One part of a point (StrategyInfo::parts), its own calibrated loop.
struct PartTiming : Timing {
  std::string name;
  std::int64_t inner_iterations = 0;
  std::vector<PhaseTiming> phases;
};

// A derived figure (StrategyInfo::metrics): its value on the medians of the
// parts and phases, and one value per repetition.
struct MetricValue {
  std::string name, unit;
  bool higher_is_better = true;
  double value = 0;
  std::vector<double> samples;
};

// What the machine did during each recorded sample (runner --noise on,
// docs/methodology.md): the steal time of the node (/proc/stat, max over
// nodes), the involuntary context switches of the ranks (getrusage, max
// over ranks) and the CPU clock (min over ranks; empty where the system
// does not expose it). A sample is noisy when steal took over
// kNoisySteal of its wall time, or, on a machine that is not
// oversubscribed, a rank was preempted kNoisyPreemptions times per second
// of it (at least once).
struct Noise {
  bool recorded = false;
  std::vector<double> steal_s;
  std::vector<int> preemptions;
  std::vector<double> cpu_mhz;
  // The core-to-core round trip between node ranks 0 and 1 last taken
  // before each sample (core_probe.hpp), ns; empty when not taken (--noise
  // off, an oversubscribed machine, one rank per node).
  std::vector<double> core_to_core_ns;
  int retries = 0;        // samples measured again because they were noisy
  int noisy_samples = 0;  // recorded samples that are noisy all the same
  bool noisy = false;     // the point: some recorded sample is noisy
  std::string reason;     // why, with the figures (empty when not noisy)
};
inline constexpr double kNoisySteal = 0.05;
// Two core-to-core round trips more than this factor apart were taken in
// different machine states (53 against 320 ns on this project's VMs; the
// probe's own spread within one state is about 20%).
inline constexpr double kStateRatio = 2;
// The median of a record's core-to-core readings; -1 when it has none.
double median_core_to_core(const Noise& n);
inline constexpr double kNoisyPreemptions = 100;  // per second

// Window timing of a point (docs/methodology.md "Window
// timing"); `windowed` false: every sample after a barrier.
struct SyncTiming {
  bool windowed = false;
  std::string clock;         // the clock synchronization algorithm
  double window_s = 0;       // W (the headline part's, at the end)
  std::int64_t windows = 0;  // of the recorded samples, all parts
  std::int64_t invalid = 0;  // of those, a rank arrived late
  int grew = 0;              // times W doubled
  double residual_s = 0;     // the clock's latest check before
  double invalid_fraction() const {
    return windows > 0 ? static_cast<double>(invalid) / windows : 0;
  }
};

// One measured point: (suite, method, payload, size, ranks).
struct Record {
  std::string suite, method, payload, size_label;
  std::size_t bytes = 0;          // requested size
  std::size_t payload_bytes = 0;  // bytes the payload really holds
  int ranks = 0;
  std::int64_t inner_iterations = 0;
  int repetitions = 0;
  int warmup = 0;
  bool moves_data = true;
  // Per-operation time of each repetition, seconds: MAX over ranks is the
  // headline statistic (the MPI & Boost benchmark, ReproMPI); MIN and AVG over
  // ranks as IMB.
  std::vector<double> samples_max, samples_min, samples_avg;
  // Factor applied to every sample (0.5: one-way time of a round trip).
  // Written to JSON only when it is not 1.
  double time_scale = 1.0;
  // Median over the repetitions of each rank's own per-operation time,
  // indexed by rank (the Week 4 course exercise's send modes: MPI_Ssend's
  // time grows with the rank).
  std::vector<double> per_rank;
  // Pairwise methods: the pairs that ran concurrently (0: not pairwise).
  // The JSON then gives aggregate_bandwidth_Bps = pairs * bandwidth.
  int pairs = 0;
  // Pairwise methods: the pairs (ranks of the launch) and where they ran:
  // "intra" (each pair within a node), "inter" (across nodes) or "mixed".
  std::vector<std::array<int, 2>> pair_ranks;
  std::string pair_placement;
  // Suites whose size is per rank, under --size-basis total: `bytes` and
  // `payload_bytes` are the whole array over the ranks, not each rank's.
  bool size_total = false;
  Summary time;              // over samples_max
  double bandwidth = 0;      // payload_bytes / median, bytes per second
  std::string verification;  // "passed", "failed", "skipped"
  std::string verification_message;
  std::string plugin_file;
  std::uint32_t plugin_abi = 0;
  std::string plugin_version;  // StrategyInfo::version, may be empty
  // runner ab: the build the plugin came from ("base" or "new"; the method
  // is then "name@build"); empty otherwise.
  std::string plugin_build;
  // The name the run asked for the point by when it is not the method's:
  // the OSU program it reproduces ("osu_allgatherv" for
  // allgatherv[counts=uniform]); empty otherwise. `method` then ends in
  // " as " and it (kAliasMark), so that every table, compare and trend
  // tell the point from the method asked for by its own name; in JSON
  // "method" is the name and "alias" this.
  std::string alias;
  // runner --algorithms: the MPI library's algorithm of the
  // collective the point ran under: the library ("MPICH", "Open MPI"),
  // its control variable, value and name ("auto"/"ignore": the library's
  // own choice). Empty variable: not recorded.
  struct Algorithm {
    std::string library, variable, name;
    int value = 0;
  } algorithm;
  // Contract v4: phases of the headline part (declared order), every part
  // when the strategy declares parts (the headline one is also the
  // record's time), and the metrics.
  std::vector<PhaseTiming> phases;
  std::vector<PartTiming> parts;
  std::string headline_part;
  std::vector<MetricValue> metrics;
  // What the core noticed about the point (point_notes.hpp), a sentence
  // each; written to JSON only when there is one.
  std::vector<std::string> notes;
  // Numbers that hold on a noisy machine (docs/methodology.md) -------
  Noise noise;
  // What ended the repetitions: "repetitions" (the fixed count),
  // "precision" (runner --precision reached), "target_rse" (runner
  // --target-rse reached) or "max_time" (--max-time spent first), the
  // relative standard error of the mean at the end and how well the median
  // is known (median_precision; negative: not recorded, older files).
  std::string stopped_by = "repetitions";
  double rse = 0;
  double precision = -1;
  // "hot" or "cold" (runner --cache): what the point ran; empty in files
  // written before it existed (hot).
  std::string cache;
  // Ping-pong suite: "separate" or "shared" (runner --buffers).
  std::string buffers;
  // The definition options that applied to this point and their values
  // (an option that reproduces a reference program's definition,
  // e.g. "receive": "reuse" | "fresh" for a 2d transfer). compare never
  // matches two points whose non-default definitions differ.
  std::map<std::string, std::string> definition;
  // Interleaved points (runner --interleave on): the group of points that
  // ran together (its index in the run), how many they were, and this
  // point's slot in each round (0: first), one per recorded sample.
  int interleave_group = -1;
  int interleave_points = 0;
  std::vector<int> slots;
  // Streams and one-sided windows (docs/methods.md, stream and rma) ----
  // Windowed methods (StrategyInfo::windowed): the messages per operation
  // (runner --window; 0: not windowed). time_scale includes 1 / window.
  int window = 0;
  SyncTiming sync;
  // StrategyInfo::params and the matrix axes (report: matrix view).
  std::vector<std::pair<std::string, std::string>> params;
  std::string matrix_row, matrix_column;
  // What the point computed (StrategyInfo::operation): the operation's
  // name (empty: its suite's own work) and its semantics, the semantic
  // options' values among them, sorted by key. Methods of one suite whose
  // operation_text agrees rank together (report.hpp).
  std::string operation;
  std::vector<std::pair<std::string, std::string>> semantics;
  // The machine's copy limit at this payload's byte count and the fraction
  // of it the point reached (copy_limit.hpp); not measured: bytes 0.
  CopyLimit copy_limit;
  // The value of param `key`, or empty.
  std::string param(const std::string& key) const {
    for (const auto& [k, v] : params)
      if (k == key) return v;
    return {};
  }
};

struct Skip {
  std::string suite, method, payload, size_label;
  std::size_t bytes = 0;
  int ranks = 0;
  std::string reason;
  std::string alias = {};  // as Record::alias
};

struct Document {
  Context context;  // doc_context.hpp
  std::vector<Record> records;
  std::vector<Skip> skipped;
  bool complete = false;
  // Computed from the records at the end of a run (report.hpp,
  // compute_summary); null while the run is in progress.
  nlohmann::json summary;
};

// "allreduce(datatype=int, op=sum)": what `r` computed, "" for its
// suite's own work.
std::string operation_text(const Record& r);

nlohmann::json to_json(const Record& r);
nlohmann::json to_json(const Skip& s);
nlohmann::json to_json(const Document& d);
// Throw nlohmann::json::exception on missing or mistyped fields.
Record record_from_json(const nlohmann::json& j);
Document document_from_json(const nlohmann::json& j);

// What joins a method's label and the OSU program's name it was asked for
// by: "allgatherv[counts=uniform] as osu_allgatherv" (Record::alias).
inline const std::string kAliasMark = " as ";

// A method with options (StrategyInfo::options) is recorded under the label
// "name[a=1,b=2]" (options sorted by name): every report, `compare` and
// `trend` tell its variants apart by it. In JSON the record holds "method":
// name and "options": {"a": "1", "b": "2"}.
std::string method_label(
    const std::string& method,
    std::vector<std::pair<std::string, std::string>> values);
// The name of `label`, and its option values in `values`.
std::string split_label(
    const std::string& label,
    std::vector<std::pair<std::string, std::string>>& values);

}  // namespace mpiarena
