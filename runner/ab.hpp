// runner ab (docs/ci.md, "A/B in one run"): two builds of the methods in
// one launch. The run is --blocks blocks (default 5, or --repetitions when
// fewer: kAbBlocks, options_gate.cpp), each creating, calibrating and
// measuring every point anew, the builds in turn created first and second
// (a crossover): where a point's buffers and communicators land moves a
// time by up to 19% on this project's VMs (docs/ci.md), so an instance of
// a point, not a sample, is the unit that varies, and each build gets as
// many instances as blocks, in both places. The blocks' samples are merged
// per point, and the document judged as `runner compare` judges one file
// of runner ab.
#pragma once

#include <string>
#include <vector>

#include "core/analysis/compare/merge.hpp"
#include "core/engine/mpi_session.hpp"
#include "core/results/records.hpp"
#include "runner/options.hpp"
#include "runner/plan.hpp"

namespace spdlog {
class logger;
}

namespace mpiarena {

class RunWriter;

// Measures the plan in blocks (measure_points each), the builds' order
// crossed from one block to the next, into `doc`; whether some point
// failed. A block whose points cannot be planned (the same on every rank)
// ends the blocks with `plan_error` saying why.
// Collective over `world`.
bool measure_builds(const std::vector<const LoadedStrategy*>& methods,
                    const std::vector<Point>& points, const Machine& machine,
                    const Options& options, std::uint64_t seed,
                    const World& world, Document& doc, RunWriter& writer,
                    spdlog::logger& log, std::string& plan_error);

// Rank 0: the judgement printed in --format; the exit code (compare's, or
// 1 when a point failed and nothing regressed, 2 on a failed write).
int judge_builds(const Document& doc, const Options& options, bool failed,
                 const std::string& final_error);

}  // namespace mpiarena
