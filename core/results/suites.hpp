// What the core knows about each suite: its payloads, whether its size is
// per rank, its default sizes, whether its methods compete, which runner
// options it honours. Pure facts; no MPI: the engine, the records and the
// reports all read them.
#pragma once

#include <mpiarena/suite_names.hpp>
#include <string>
#include <utility>
#include <vector>

namespace mpiarena {

// The suites the core knows and the payloads each one knows (the registry
// refuses a strategy that declares anything else): the public list.
inline const std::vector<std::pair<std::string, std::vector<std::string>>>&
known_suites() {
  return suite_names();
}

// The collectives mpiarena's own methods name in
// StrategyInfo::library_collective, listed first by runner algorithms, and
// the ones runner tune writes rules for. A method may name any other
// collective: runner --algorithms finds the ones the running library
// exposes an algorithm variable for (library_algorithms.hpp).
inline const std::vector<std::string>& library_collectives() {
  static const std::vector<std::string> names{
      "allreduce", "bcast",   "reduce",  "allgather",           "alltoall",
      "gather",    "scatter", "barrier", "reduce_scatter_block"};
  return names;
}

// Suites whose size is the message of each rank (OSU and IMB count the
// collectives so): the tables say "per rank" and records give the total.
inline bool size_is_per_rank(const std::string& suite) {
  return suite == "distribution" || suite == "combination" ||
         suite == "collective";
}

// The sizes a suite runs when --sizes is not given, as a --sizes spec;
// empty: the runner's default (small..xxlarge). The overlap suite follows
// NMPM's NOB (64 KiB to 16 MiB, doubling), the stencil suite OPBench (8 B
// to 4 MiB, doubling).
inline std::string default_sizes_spec(const std::string& suite) {
  if (suite == "overlap") return "64KiB..16MiB";
  if (suite == "stencil") return "8B..4MiB";  // OPBench's
  return "";
}

// The synchronisation method (sync_methods.hpp) --sync auto gives a
// suite's points: "single" for the collectives (back to back in a loop, a
// small rooted operation overlaps the next: a pipelined rate, not its
// latency; docs/methodology.md, "How a collective is timed"), "barrier"
// (the calibrated loop) for the others.
inline std::string suite_sync(const std::string& suite) {
  return suite == "collective" ? "single" : "barrier";
}

// Whether a rank may leave one of the suite's operations before the others
// are done with it (a rooted transfer or a collective), so that operations
// back to back in a loop can overlap: the loop's time per operation is
// then a rate, not one operation's time (the tables say so).
inline bool operations_may_overlap(const std::string& suite) {
  return suite == "collective" || suite == "transfer" ||
         suite == "distribution" || suite == "combination";
}

// Whether a suite's methods are alternative ways of doing one thing, so that
// "the fastest" means something: not the everyday collectives (allreduce and
// alltoall are different operations, shown side by side; those that declare
// one operation rank together: operation_ranked), nor the overlap
// suite (each method's computation is sized to its own communication: its
// figure is the overlap, not the time), nor the rma suite (a put and an
// accumulate, a latency and a per-message bandwidth time do not compete:
// its answer is the op x sync matrix, report.hpp), nor the congestion
// suite (a fan-in and a fan-out load different ends), nor the harness, nor
// mpiarena-startup's quantities (MPI_Init, a first barrier, a launch).
inline bool methods_are_alternatives(const std::string& suite) {
  return suite != "collective" && suite != "overlap" && suite != "rma" &&
         suite != "congestion" && suite != "harness" && suite != "startup";
}

// Whether the methods of `suite` that declare one operation (its text,
// operation_text) compete, and so rank in one table: in every suite whose
// methods are alternatives (where "" is the suite's own work and another
// operation ranks apart), and in the everyday collectives for a declared
// operation (the library's allreduce and one built of reduce_scatter_block
// and allgather). Elsewhere each method's figure is its own.
inline bool operation_ranked(const std::string& suite,
                             const std::string& operation) {
  return methods_are_alternatives(suite) ||
         (suite == "collective" && !operation.empty());
}

// Suites whose base class rotates its buffers under runner --cache cold and
// chooses its buffer scheme by --buffers (RunContext::cache_cold,
// separate_buffers): the ping-pong suite (pingpong.hpp). Other suites run
// hot whatever --cache says, and their records say so.
inline bool honours_cold_cache(const std::string& suite) {
  return suite == "pingpong";
}
inline bool honours_buffers(const std::string& suite) {
  return suite == "pingpong";
}

}  // namespace mpiarena
