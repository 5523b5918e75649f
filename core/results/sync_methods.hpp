// The synchronisation methods by name (docs/architecture.md, "Adding a
// synchronisation method"): what --sync accepts, in this order, and what
// --help says of each. MPI-free, so that the option parser (runner/
// options_sync.cpp) and mpiarena-files know them; the engine makes each
// one (core/engine/synchronizer.hpp, make_synchronizer) from its own file,
// core/engine/sync_NAME.cpp, which defines make_NAME_sync.
#pragma once

#include <string>
#include <vector>

// The registry: one line per method, X(name, global_clock, description).
// global_clock: the method times on the run's global clock, so it takes
// --clock-sync and --sync-window, and runner ab (which merges records, not
// yet their windows) refuses it. The description is --help's.
// clang-format off
#define MPIARENA_SYNC_METHODS(X)                                              \
  X(auto, false,                                                              \
    "each suite its own (the default): single for the collective suite, "     \
    "barrier for the others")                                                 \
  X(barrier, false,                                                           \
    "after MPI_Barrier, a calibrated loop of back-to-back operations timed "  \
    "on each rank, per operation: a rate where operations overlap (IMB's "    \
    "and OSU's point-to-point way)")                                          \
  X(single, false,                                                            \
    "every operation alone after its own MPI_Barrier, timed on each rank; "   \
    "a sample's figure is the median over its operations of the slowest "     \
    "rank's time (OSU's collectives time each operation so)")                 \
  X(window, true,                                                             \
    "the clocks synchronized first (--clock-sync), then every operation "     \
    "starts at its own agreed time on the global clock, windows "             \
    "--sync-window apart, its time the latest exit minus that start; a "      \
    "window a rank reached late or left after its end is invalid and "        \
    "counted (ReproMPI's way; docs/methodology.md, \"Window timing\")")
// clang-format on

namespace mpiarena {

struct SyncMethodInfo {
  std::string name;
  bool global_clock = false;
  std::string description;
};

// The registry's methods, in its order.
inline const std::vector<SyncMethodInfo>& sync_methods() {
#define MPIARENA_SYNC_INFO(name, clock, text) {#name, clock, text},
  static const std::vector<SyncMethodInfo> all{
      MPIARENA_SYNC_METHODS(MPIARENA_SYNC_INFO)};
#undef MPIARENA_SYNC_INFO
  return all;
}

// The method of that name; null when none is.
inline const SyncMethodInfo* find_sync_method(const std::string& name) {
  for (const SyncMethodInfo& m : sync_methods())
    if (m.name == name) return &m;
  return nullptr;
}

// Whether method `name` times on the global clock (false: unknown).
inline bool sync_uses_global_clock(const std::string& name) {
  const SyncMethodInfo* m = find_sync_method(name);
  return m != nullptr && m->global_clock;
}

}  // namespace mpiarena
