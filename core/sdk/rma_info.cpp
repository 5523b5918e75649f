// The rma suite's names and StrategyInfo (rma.hpp): its methods' names,
// what --list says of each synchronisation, and the modes offered.
#include <mpiarena/rma.hpp>
#include <stdexcept>
#include <string>
#include <utility>

namespace mpiarena {

namespace {

// Per RmaOp: its name, the short name of its methods; per RmaSync: its
// name and what --list says of it. Indexed by the enums' values.
struct OpNames {
  const char* name;
  const char* short_name;
};
constexpr OpNames kOpNames[] = {
    {"put", "put"},          {"get", "get"},
    {"accumulate", "acc"},   {"get_accumulate", "get_acc"},
    {"fetch_and_op", "fop"}, {"compare_and_swap", "cas"}};
struct SyncNames {
  const char* name;
  const char* text;
};
constexpr SyncNames kSyncNames[] = {
    {"fence", "then MPI_Win_fence"},
    {"lock", "between MPI_Win_lock(shared) and MPI_Win_unlock"},
    {"flush", "then MPI_Win_flush (MPI_Win_lock_all held)"},
    {"flush_local", "then MPI_Win_flush_local (MPI_Win_lock_all held)"},
    {"pscw",
     "between MPI_Win_start and MPI_Win_complete, the target MPI_Win_post "
     "+ MPI_Win_wait"}};

const OpNames& names(RmaOp op) { return kOpNames[static_cast<int>(op)]; }
const SyncNames& names(RmaSync s) { return kSyncNames[static_cast<int>(s)]; }

}  // namespace

const char* rma_op_name(RmaOp op) { return names(op).name; }
const char* rma_sync_name(RmaSync s) { return names(s).name; }

bool rma_single_element(RmaOp op) {
  return op == RmaOp::fetch_and_op || op == RmaOp::compare_and_swap;
}

bool rma_bidirectional_sync(RmaSync sync) {
  return sync == RmaSync::fence || sync == RmaSync::pscw;
}

std::string rma_method_name(RmaOp op, RmaSync sync, RmaMode mode) {
  static const char* const kSuffix[] = {"", "_bw", "_bibw"};
  return std::string(names(op).short_name) + "_" + rma_sync_name(sync) +
         kSuffix[static_cast<int>(mode)];
}

StrategyInfo rma_info(RmaOp op, RmaSync sync, RmaMode mode,
                      std::string summary) {
  const bool bandwidth = mode != RmaMode::latency;
  const bool both = mode == RmaMode::bidirectional;
  if (bandwidth && rma_single_element(op))
    throw std::invalid_argument(
        std::string(rma_op_name(op)) +
        " moves one element: the rma suite offers its latency only");
  if (both && !rma_bidirectional_sync(sync))
    throw std::invalid_argument(
        std::string("the rma suite's bidirectional methods synchronise by "
                    "fence or pscw (OSU's), not ") +
        rma_sync_name(sync));
  StrategyInfo info;
  info.name = rma_method_name(op, sync, mode);
  info.suite = "rma";
  info.summary =
      std::move(summary) + ", " + names(sync).text +
      (both        ? "; both ranks of a pair at once, W operations each per "
                     "synchronisation"
       : bandwidth ? "; W operations per synchronisation"
                   : "");
  info.payloads = {"allocate", "create", "dynamic"};
  info.min_ranks = 2;
  info.pairwise = true;
  info.payload_copies = both ? 3 : 2;  // + the window both ranks expose
  info.windowed = bandwidth;
  if (both) info.time_scale = 0.5;
  if (rma_single_element(op)) info.fixed_bytes = 8;
  static const char* const kModes[] = {"latency", "bandwidth", "bidirectional"};
  info.params = {{"op", rma_op_name(op)},
                 {"sync", rma_sync_name(sync)},
                 {"mode", kModes[static_cast<int>(mode)]}};
  info.matrix_row = "op";
  info.matrix_column = "sync";
  return info;
}

}  // namespace mpiarena
