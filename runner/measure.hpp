// The measuring stage of a run: every point of the plan, in the groups that
// compete (plan.hpp point_groups), on the ranks each point asks for, into
// the document, which is written after every group.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/engine/engine.hpp"
#include "core/engine/mpi_session.hpp"
#include "core/results/output.hpp"
#include "core/results/records.hpp"
#include "runner/options.hpp"
#include "runner/plan.hpp"

namespace spdlog {
class logger;
}

namespace mpiarena {

class Synchronizer;

// Rank 0's -o while the run goes on: the document written after every
// point; a failed write warns once, and the next one retries.
class RunWriter {
 public:
  RunWriter(const Document& doc, ResultFile& file, bool saving,
            spdlog::logger& log, std::string path)
      : doc_(doc),
        file_(file),
        saving_(saving),
        log_(log),
        path_(std::move(path)) {}
  // Writes the document (on rank 0 with -o; else nothing): empty, or why
  // the write failed. `final`: the last write, complete.
  std::string save(bool final = false);

 private:
  const Document& doc_;
  ResultFile& file_;
  bool saving_;
  spdlog::logger& log_;
  std::string path_;
  std::string error_;
};

// The engine's options of a run (machine.cpp).
MeasureOptions measure_options(const Options& options, const Machine& machine);

// Measures `points` (the plan, on every rank alike) over `world`: each group
// on a sub-communicator of its first ranks (the others sleep meanwhile),
// interleaved when --interleave and memory allow, each member created,
// measured, recorded (Record) or reported (Skip) in `doc`, written by
// `writer` after every group. Returns whether some point failed (a
// verification, a strategy that could not be created or run), agreed on
// by every rank. Collective over `world`. The samples start as `sync`
// (--sync, started by the caller; null: barrier) starts them, told before
// every group (Synchronizer::before_group). A point that the run's
// settings cannot measure (PointUsageError: a --sync-window shorter than
// its operation) sets `usage_error` on every rank, when given: the run
// then exits 2.
bool measure_points(const std::vector<Point>& points, const Machine& machine,
                    const Options& options, std::uint64_t seed,
                    const World& world, Document& doc, RunWriter& writer,
                    spdlog::logger& log, Synchronizer* sync = nullptr,
                    std::string* usage_error = nullptr);

}  // namespace mpiarena
