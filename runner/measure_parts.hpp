// What measure_points (measure.cpp) keeps of its points: their names in
// the log, their skips, the pairs of a pairwise record, the memory a point
// left behind, and the table a stopped run prints.
#pragma once

#include <spdlog/spdlog.h>

#include <string>
#include <vector>

#include "core/results/records.hpp"
#include "runner/measure.hpp"
#include "runner/plan.hpp"

namespace mpiarena {

// Which ranks of the launch the pairs of a pairwise point were, and whether
// they ran within a node or across nodes. Under --pairs intra|inter the
// point's communicator put the partner at rank 1: per_rank goes back to the
// ranks of the launch.
void describe_pairs(Record& rec, const Point& p, const Machine& m);

// "transfer/raw 1d small (11.0 kB)", and with the point's place in the
// plan: "[7/30] transfer/raw 1d small (11.0 kB)".
std::string point_name(const Point& p);
std::string progress_of(const std::vector<Point>& points, const Point& p);

Skip skip_of(const Point& p, std::string reason);

// The memory a rank holds after a block's strategies were released and
// destroyed, beyond what it held before they were created (`held`, the
// most of any rank): more than 64 MiB and half the block's planned need is
// a buffer that outlived release() (a static, a leak), noted on the
// block's records (from `first_record` on) and warned of by rank 0.
void note_held_memory(double held, double planned, std::size_t first_record,
                      Document& doc, spdlog::logger& log, int rank);

// Rank 0, after each write: the table a signal that stops the run prints
// (interrupt.hpp), as the end of the run would print it, and where the
// points are kept.
void update_interrupt_summary(const Document& doc, const Options& o,
                              int rank);

}  // namespace mpiarena
