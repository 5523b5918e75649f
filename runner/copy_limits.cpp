// The copy limit of a run's transfer points (copy_limits.hpp).
#include "runner/copy_limits.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <mpiarena/payload.hpp>
#include <mpiarena/sizes.hpp>
#include <optional>
#include <string>

#include "core/engine/copy_probe.hpp"
#include "core/engine/mpi_tool.hpp"
#include "core/results/units.hpp"

namespace mpiarena {

namespace {

// Timed copies of each kind; the best is kept (docs/methodology.md).
constexpr int kRepetitions = 5;

}  // namespace

CopyLimits::Key CopyLimits::key_of(const Point& p) {
  return {payload_bytes(p.payload, p.size.bytes), p.ranks};
}

bool CopyLimits::needs(const Point& p) const {
  return on_ && p.strategy->entry.info.suite == "transfer" &&
         key_of(p).first > 0;
}

void CopyLimits::prepare(const std::vector<const Point*>& group,
                         MPI_Comm harness, spdlog::logger& log, int rank) {
  for (const Point* p : group) {
    if (!needs(*p)) continue;
    const Key key = key_of(*p);
    if (limits_.count(key)) continue;
    const double need = 2.0 * static_cast<double>(key.first) *
                        std::max(1, std::min(key.second, ranks_per_node_));
    if (available_ > 0 && need > static_cast<double>(available_) / 2) {
      limits_[key] = CopyLimit{};  // not measured, and not tried again
      if (rank == 0)
        log.warn("copy limit at {} not measured: its buffers ({}) would fill "
                 "more than half the memory available on a node ({})",
                 format_bytes(static_cast<double>(key.first)),
                 format_bytes(need),
                 format_bytes(static_cast<double>(available_)));
      continue;
    }
    const CopyLimit c = measure_copy_limit(harness, key.first, kRepetitions);
    limits_[key] = c;
    if (rank == 0)
      log.info(
          "copy limit at {}: {} one core, {} {} ranks at once (best of {}, "
          "measured in {})",
          format_bytes(static_cast<double>(c.bytes)),
          format_rate(c.one_core_Bps), format_rate(c.all_ranks_Bps),
          c.node_ranks, c.repetitions, format_seconds(c.seconds));
  }
}

void CopyLimits::attach(Record& rec, const Point& p) const {
  if (!needs(p)) return;
  auto it = limits_.find(key_of(p));
  if (it == limits_.end() || !it->second.measured()) return;
  const StrategyInfo& info = p.strategy->entry.info;
  int copies = info.memory_copies;
  const int lib = info.library_copies ? library_copies() : 0;
  if (info.library_copies) copies = lib > 0 ? copies + lib : 0;  // unknown
  rec.copy_limit = it->second;
  // The library's single copy alone: the receiver reads the sender's pages.
  apply_copies(rec.copy_limit, copies, rec.ranks, rec.bandwidth,
               info.memory_copies == 0 && lib == 1);
}

int CopyLimits::library_copies() const {
  if (library_ >= 0) return library_;
  library_ = 0;
  int provided = 0;
  // MPI_T stays initialised (as mpi_tool.hpp's callers leave it).
  if (MPI_T_init_thread(MPI_THREAD_SINGLE, &provided) != MPI_SUCCESS)
    return library_;
  const int index = cvar_index("btl_vader_single_copy_mechanism");
  if (index < 0) return library_;
  const std::optional<std::string> value = cvar_text(index);
  if (value) library_ = library_path_copies(*value);
  return library_;
}

}  // namespace mpiarena
