// runner --algorithms and runner algorithms (docs/tuning.md): the
// MPI library's own algorithms of the collectives, found at run time
// (library_algorithms.hpp), measured as points of the methods that drive
// those collectives (StrategyInfo::library_collective).
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/engine/engine.hpp"
#include "core/engine/registry.hpp"
#include "core/results/records.hpp"
#include "runner/options.hpp"
#include "runner/plan.hpp"

namespace mpiarena {

// After the methods are selected, on every rank alike (needs MPI): with
// --algorithms, finds the library's algorithms, adds the choice option
// "algorithm" to each selected method with a library_collective, and to
// `options` the --set of its values; every member then selects its
// algorithm before each of its steps. Returns the error (one sentence
// naming what is accepted) or "", and warnings for the log.
std::string apply_algorithms(Registry& registry,
                             const std::vector<const LoadedStrategy*>& methods,
                             Options& options,
                             std::vector<std::string>& warnings);

// The member's GroupMember::enter and leave, for a point with an
// algorithm: its collective's variable at the algorithm while the
// strategy's code runs, back to the launch's value after (the engine's own
// collectives run under the library's choice). Nothing otherwise.
void set_algorithm_hooks(const Point& p, GroupMember& m);

// Around the creation of a member's communicator: a library that binds the
// algorithm to a communicator when it is created (Open MPI) gets the
// point's algorithm selected, and every variable back after, by close():
// it throws std::runtime_error when the library refuses to go back (every
// later point would otherwise run under this point's algorithm). The
// destructor, on the way out of an exception, puts them back as it can.
class CreationScope {
 public:
  explicit CreationScope(const Point& p);
  void close();
  ~CreationScope();
  CreationScope(const CreationScope&) = delete;
  CreationScope& operator=(const CreationScope&) = delete;

 private:
  bool active_ = false;
};

// A point of a forced algorithm that failed with an error of the MPI
// library (not a wrong result): the library refused that algorithm for
// these arguments (MPICH with MPIR_CVAR_COLLECTIVE_FALLBACK=error), so the
// point becomes skipped, with the library's reason.
void refused_by_library(const Point& p, GroupResult& r);

// Record::algorithm of a point run under --algorithms.
void describe_algorithm(Record& rec, const Point& p);

// runner algorithms [-f json]: what the running library offers, per
// collective, printed by rank 0 (MPI initialised; no collective is
// called). Exit 0.
int command_algorithms(const Options& options);

// The context's library_algorithms under --algorithms: what discovery
// found, per collective (none when it found none).
std::optional<LibraryAlgorithmsContext> algorithms_context();

}  // namespace mpiarena
