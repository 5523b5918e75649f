// The plugin contract: what a method library exports and what the core calls.
//
// A plugin is one shared library that exports, through MPIARENA_PLUGIN(...),
//   - a plain C function `mpiarena_abi_version()` returning kAbiVersion as it
//     was when the plugin was compiled (the registry checks it before touching
//     any C++ object of the plugin), and
//   - a factory alias `mpiarena_factory` returning the strategies it provides.
//
// Bump kAbiVersion on ANY change to this file or to a class a plugin derives
// from (members, virtuals, their order, signatures).
#pragma once

#include <mpi.h>

#include <boost/config.hpp>
#include <boost/dll/alias.hpp>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace spdlog {
class logger;
}

namespace mpiarena {

// Raised whenever a public header changes what a built plugin depends on
// (StrategyInfo, the entry, the base classes' layout). 3: one ping-pong
// buffer per rank (PingPongStrategy), fanin_info.
inline constexpr std::uint32_t kAbiVersion = 3;

// What the registry and `runner --list` know about a strategy without
// running it. Pure data: building it makes no MPI call.
struct StrategyInfo {
  std::string name;                   // unique method name, e.g. "bcast"
  std::string suite;                  // measurement pattern, e.g. "transfer"
  std::string summary;                // one line for --list
  std::vector<std::string> payloads;  // e.g. {"1d", "2d"}
  int min_ranks = 2;
  // False for strategies that move no payload (the `null` harness probe):
  // the report shows no bandwidth for them.
  bool moves_data = true;
  // Payload-sized buffers one rank holds at once (its copy of the data, a
  // pack buffer, a serialized archive...). The core skips a point whose
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
};

// Everything a strategy may use during one measured point.
struct RunContext {
  MPI_Comm comm = MPI_COMM_NULL;  // private duplicate, MPI_ERRORS_RETURN
  int rank = 0;
  int size = 1;
  int root = 0;
  std::string payload;            // one of StrategyInfo::payloads
  std::size_t bytes = 0;          // requested payload size in bytes
  spdlog::logger* log = nullptr;  // rank-aware logger owned by the runner
  // Pairwise methods: false = one pair (0, 1), the other ranks idle; true =
  // every disjoint pair (0, 1), (2, 3)... concurrently (runner --pairs all).
  bool all_pairs = false;
};

struct Verdict {
  bool ok = true;
  std::string message;  // first mismatch, or empty
};

// One way of doing one operation. The core owns the timed loop: it calls
// prepare() once (untimed), execute() many times (timed), then poison(),
// one more execute() and verify() (untimed), then release().
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
  namespace mpiarena_plugin_local {                                          \
  std::vector<::mpiarena::StrategyEntry> factory() { return {__VA_ARGS__}; } \
  }                                                                          \
  BOOST_DLL_ALIAS(mpiarena_plugin_local::factory, mpiarena_factory)
